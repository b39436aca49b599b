// deep.go is imported only through sub.

package deep

// Add returns a+b.
func Add(a, b int) int { return a + b }
