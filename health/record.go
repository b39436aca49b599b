// record.go holds what the Recorder does as it hears of a list, a watch, an
// event, a failure or a resync: the counting behind each figure.
//
// client-go counterpart: the Reflector's calls of its metrics provider
// (reflector_metrics.go), made here from the wrappers instead.
//
// Tutorial: 000 ch. 5 (health figures: relists after a 410, failures by reason).

package health

import (
	"context"
	"errors"
	"syscall"
	"time"

	informer "github.com/learn-k8s/informer"
)

// listed records a completed list.
// Like resynced, it counts under the lock that guards the time.
func (r *Recorder) listed() {
	now := r.clock.Now()
	r.mu.Lock()
	r.lastList = now
	r.lists.Add(1)
	if r.expiredSeen.Swap(false) {
		r.relistsAfterExpired.Add(1)
	}
	r.watchesSinceList.Store(0)
	r.mu.Unlock()
}

// watchStarted records a watch the server accepted.
func (r *Recorder) watchStarted() {
	if r.watchesSinceList.Add(1) > 1 {
		r.watchRestarts.Add(1)
	}
}

// event records a watch event or bookmark.
func (r *Recorder) event() {
	now := r.clock.Now()
	r.mu.Lock()
	r.lastEvent = now
	r.mu.Unlock()
}

// failed records a failed list or watch. The errors of a caller that is
// stopping (its context ended) are not failures.
func (r *Recorder) failed(err error) {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return
	}
	if informer.IsResourceExpired(err) || informer.IsGone(err) {
		r.expiredSeen.Store(true)
	}
	kind := "Other"
	switch reason := informer.ReasonForError(err); {
	case reason != informer.StatusReasonUnknown:
		kind = string(reason)
	case errors.Is(err, syscall.ECONNREFUSED):
		kind = "ConnectionRefused"
	}
	r.mu.Lock()
	r.errors[kind]++
	r.mu.Unlock()
}

// resynced records a resync that started at start and took took. The count
// goes up under the same lock as the time, so that Health never shows a
// resync counted without its time.
func (r *Recorder) resynced(start time.Time, took time.Duration) {
	r.mu.Lock()
	r.lastResync, r.lastResyncDuration = start, took
	r.resyncs.Add(1)
	r.mu.Unlock()
}
