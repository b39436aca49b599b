// mismatched.go closes a block with another reading's end.

package bad

// Reading 2: a block.
var d = 4

// End of reading 3.
