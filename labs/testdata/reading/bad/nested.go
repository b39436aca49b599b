// nested.go opens a block inside a block.

package bad

// Reading 2: the outer block.
var a = 1

// Reading 3: a block inside it.
var b = 2

// End of reading 3.
// End of reading 2.
