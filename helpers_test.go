// helpers_test.go holds the small test helpers every _test.go file uses.

package informer

import (
	"testing"
	"time"
)

// must fails the test at once on a non-nil error.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// receive returns the next value from ch, failing the test if none comes
// within a generous deadline (a hang must fail, not stall the suite).
func receive[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("timed out waiting on a channel")
		panic("unreachable")
	}
}
