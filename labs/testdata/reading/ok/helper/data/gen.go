//go:build ignore

// gen.go would write data.txt: a generator beside the data, as fakeapi/schema has.

package main
