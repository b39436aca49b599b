// clock.go holds RunEvery, the timer loop of the resync, and names the
// Clock of package clock here, so the root API keeps Clock, Timer and
// RealClock. Tests move time with clock/testing's FakeClock.
// client-go counterpart: k8s.io/apimachinery/pkg/util/wait.Until, on a k8s.io/utils/clock Clock.
// Tutorial: 004 §4.4 (resync).

package informer

import (
	"context"
	"time"

	"github.com/learn-k8s/informer/clock"
)

// Clock, Timer and RealClock are package clock's (k8s.io/utils/clock in
// client-go), named here so that Options read informer.Clock.
type (
	Clock     = clock.Clock
	Timer     = clock.Timer
	RealClock = clock.RealClock
)

// RunEvery calls f every period on clock, counted from the end of the last
// call, until ctx ends. Unlike client-go's wait.Until, the first call comes
// after one period. The resync timer and the detector packages use it.
func RunEvery(ctx context.Context, clock Clock, period time.Duration, f func()) {
	t := clock.NewTimer(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C():
		}
		f()
		t.Reset(period)
	}
}
