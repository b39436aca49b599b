// a.go is a first-reading file with blocks of later readings in it.

package fixture

import (
	"fmt"
	"strings"
	// Reading 3: the import only reading 3 uses.
	"strconv"
	// End of reading 3.
)

// Greet says hello.
func Greet(name string) string {
	// Reading 2: shouting, the only user of strings.
	if strings.HasSuffix(name, "!") {
		return fmt.Sprintf("HELLO, %s", strings.ToUpper(name))
	}
	// End of reading 2.
	return fmt.Sprintf("hello, %s", name)
}

// Reading 3: numbers, a declaration of its own.

// Number formats n.
func Number(n int) string { return strconv.Itoa(n) }

// End of reading 3.
