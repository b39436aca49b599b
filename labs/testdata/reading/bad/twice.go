// twice.go marks its header twice.
//
// Reading 2: one.
// Reading 3: two.

package bad
