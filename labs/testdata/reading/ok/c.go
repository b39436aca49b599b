// c.go has blocks whose cut leaves traces to tidy: an import in a group of
// its own between two groups of the standard library, and the last
// parameter of a list.

package fixture

import (
	"fmt"

	// Reading 2: the import only the separator uses, in a group of its own.
	"os"
	// End of reading 2.

	"strings"
)

// Join joins a and b.
func Join(a, b string,
	// Reading 2: a separator, only in reading 2.
	sep string,
	// End of reading 2.
) string {
	// Reading 2: the separator, said on stderr.
	if sep != "" {
		fmt.Fprintln(os.Stderr, "separator", sep)
		return a + sep + b
	}
	// End of reading 2.
	return fmt.Sprint(strings.TrimSpace(a), b)
}
