// b_test.go tests b.go.
//
// Reading 2: tests the second reading's file.

package fixture

import "testing"

func TestTwice(t *testing.T) {
	if Twice(2) != 4 {
		t.Error("Twice(2) != 4")
	}
}
