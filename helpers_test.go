// helpers_test.go holds the small test helpers every _test.go file uses:
// failing at once on an error, and waiting with a bound, so that a test
// that would hang fails saying what did not happen. (internal/walkthrough
// holds the same waits for the extras' tests; the root's tests cannot
// import it, since it imports the root.)

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

// waitLimit bounds every blocking wait of a test: generous, so that a
// loaded machine never fails a healthy test, and finite, so that a hang
// fails with what did not happen instead of stalling the suite.
const waitLimit = 10 * time.Second

// receive returns the next value from ch (the zero value if ch is closed),
// failing the test at once if none comes within waitLimit; what names what
// is awaited ("Run to return after the cancel"), for the failure message.
func receive[T any](t testing.TB, what string, ch <-chan T) T {
	t.Helper()
	v, ok := receiveOrError(t, what, ch)
	if !ok {
		t.FailNow()
	}
	return v
}

// receiveOrClosed is receive that tells a value from a closed channel:
// open is false if ch was closed.
func receiveOrClosed[T any](t testing.TB, what string, ch <-chan T) (v T, open bool) {
	t.Helper()
	timer := time.NewTimer(waitLimit)
	defer timer.Stop()
	select {
	case v, open = <-ch:
		return v, open
	case <-timer.C:
		t.Fatalf("timed out after %v waiting for %s", waitLimit, what)
		return v, false
	}
}

// receiveOrError is receive for a t.Cleanup or deferred func, where the
// test may be over or already failing and t.Fatal must not be called: a
// timeout is reported with t.Errorf, and ok is false.
func receiveOrError[T any](t testing.TB, what string, ch <-chan T) (v T, ok bool) {
	t.Helper()
	timer := time.NewTimer(waitLimit)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v, true
	case <-timer.C:
		t.Errorf("timed out after %v waiting for %s", waitLimit, what)
		return v, false
	}
}

// deliver sends v on ch, failing the test at once if it is not taken within
// waitLimit; what names the taker ("the held Pop to take its token").
func deliver[T any](t testing.TB, what string, ch chan<- T, v T) {
	t.Helper()
	timer := time.NewTimer(waitLimit)
	defer timer.Stop()
	select {
	case ch <- v:
	case <-timer.C:
		t.Fatalf("timed out after %v waiting for %s", waitLimit, what)
	}
}

// drain receives from ch until it is closed, failing the test if it is
// still open after waitLimit; what names the channel's closing.
func drain[T any](t testing.TB, what string, ch <-chan T) {
	t.Helper()
	timer := time.NewTimer(waitLimit)
	defer timer.Stop()
	for {
		select {
		case _, open := <-ch:
			if !open {
				return
			}
		case <-timer.C:
			t.Fatalf("timed out after %v waiting for %s", waitLimit, what)
		}
	}
}

// returnsWithin runs call in a goroutine of its own and waits for it to
// return, failing the test if it has not within waitLimit; what names the
// call ("Pop on the closed queue to return"). call must not use t: it may
// not be running on the test's goroutine.
func returnsWithin(t testing.TB, what string, call func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		call()
	}()
	receive(t, what, done)
}

// pop is q.Pop(process) with a bound: on an empty queue Pop waits for an
// item for ever, so a test that expects one fails, naming what (the item or
// the answer awaited), if Pop has not returned within waitLimit.
func pop(t *testing.T, what string, q Queue, process PopProcessFunc) (any, error) {
	t.Helper()
	var item any
	var err error
	returnsWithin(t, what, func() { item, err = q.Pop(process) })
	return item, err
}
