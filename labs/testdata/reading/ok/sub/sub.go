// sub.go is a package only the second reading imports.

package sub

import "example.com/fixture/deep"

// Twice returns 2n.
func Twice(n int) int { return deep.Add(n, n) }
