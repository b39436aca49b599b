// b.go is a whole file of the second reading.
//
// Reading 2: the sub package, at work.

package fixture

import "example.com/fixture/sub"

// Twice is sub.Twice.
func Twice(n int) int { return sub.Twice(n) }
