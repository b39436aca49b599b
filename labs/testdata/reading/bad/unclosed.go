// unclosed.go never closes its block.

package bad

// Reading 2: a block without its end.
var c = 3
