// a_test.go tests a.go; its helper package's name is not its path's.

package fixture

import (
	"testing"

	"example.com/fixture/helper"
)

func TestGreet(t *testing.T) {
	if got := Greet("x"); got != helpertools.Want("x") {
		t.Errorf("Greet: %q", got)
	}
}
