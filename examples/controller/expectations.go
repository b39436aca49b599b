// expectations.go holds the controller's expectations: for each
// ReplicaSet, how many pod creations and which pod deletions its last sync
// asked the server for and the pod informer has not shown yet. A sync that
// starts while some are still missing does not create or delete: its cache
// is older than its own writes, and acting on it would make those pods a
// second time (or delete a second set). Each expectation is lowered by the
// pod handlers as the events arrive (CreationObserved, DeletionObserved),
// or by the sync itself for a write that failed, and is given up after
// ExpectationsTimeout, in case an event was lost for good.
//
// client-go counterpart: k8s.io/kubernetes v1.37.2 pkg/controller
// (controller_utils.go): ControllerExpectations (SetExpectations,
// ExpectCreations, ExpectDeletions, CreationObserved, DeletionObserved,
// SatisfiedExpectations, DeleteExpectations), ControlleeExpectations
// (Fulfilled, isExpired) and UIDTrackingControllerExpectations, which
// remembers which pods a deletion is expected of, so that a pod first
// marked for deletion and then gone is counted once.
//
// Tutorial: 004 §2.3 (the cache a handler and a worker read lags the
// server).

package main

import (
	"sync"
	"time"

	"github.com/learn-k8s/informer/clock"
)

// ExpectationsTimeout is how long a sync waits for the events of its own
// writes before it acts anyway. (k8s.io/kubernetes pkg/controller:
// ExpectationsTimeout, 5 minutes.)
const ExpectationsTimeout = 5 * time.Minute

// ControllerExpectationsInterface is what the controller does with its
// expectations. The controller's are an *expectations; the interface
// exists so that a test can take them away and show what they prevent
// (Step 21). (kubernetes: controller.ControllerExpectationsInterface,
// "only abstracted out for testing".)
type ControllerExpectationsInterface interface {
	SatisfiedExpectations(key string) bool
	ExpectCreations(key string, adds int)
	ExpectDeletions(key string, podKeys []string)
	CreationObserved(key string)
	DeletionObserved(key, podKey string)
	DeleteExpectations(key string)
	GetExpectations(key string) (add, del int, ok bool)
}

// expectations are what each ReplicaSet's last sync is still waiting to
// see, by ReplicaSet key. It is safe for concurrent use: the workers set
// expectations, the pod handlers lower them.
type expectations struct {
	// clock times the expectations. The controller passes the real clock,
	// as kube-controller-manager does (isExpired reads clock.RealClock):
	// the timeout is insurance against a lost event, not something a test
	// on a fake clock should reach by moving time.
	clock clock.Clock

	mu    sync.Mutex           // guards byKey
	byKey map[string]*expected // a ReplicaSet without an entry expects nothing
}

// expected is one ReplicaSet's expectation.
type expected struct {
	add       int                 // creations still to be observed; ≤ 0 is met
	deletions map[string]struct{} // the pods ("namespace/name") still to be seen deleted
	timestamp time.Time           // when it was set
}

// newExpectations returns an empty store timed on clk.
func newExpectations(clk clock.Clock) *expectations {
	return &expectations{clock: clk, byKey: map[string]*expected{}}
}

// SatisfiedExpectations reports whether the ReplicaSet key may manage its
// pods: it expects nothing, everything it expected was observed, or the
// expectation is older than ExpectationsTimeout.
// (kubernetes: (*ControllerExpectations).SatisfiedExpectations.)
func (e *expectations) SatisfiedExpectations(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	exp, ok := e.byKey[key]
	if !ok {
		return true
	}
	fulfilled := exp.add <= 0 && len(exp.deletions) == 0
	return fulfilled || e.clock.Since(exp.timestamp) > ExpectationsTimeout
}

// ExpectCreations records that key's sync is about to create adds pods.
// It replaces whatever key expected before (a sync only sets expectations
// once the previous ones are met or expired).
// (kubernetes: (*ControllerExpectations).ExpectCreations.)
func (e *expectations) ExpectCreations(key string, adds int) {
	e.set(key, &expected{add: adds})
}

// ExpectDeletions records that key's sync is about to delete the pods
// podKeys ("namespace/name").
// (kubernetes: (*UIDTrackingControllerExpectations).ExpectDeletions.)
func (e *expectations) ExpectDeletions(key string, podKeys []string) {
	deletions := make(map[string]struct{}, len(podKeys))
	for _, k := range podKeys {
		deletions[k] = struct{}{}
	}
	e.set(key, &expected{deletions: deletions})
}

func (e *expectations) set(key string, exp *expected) {
	exp.timestamp = e.clock.Now()
	e.mu.Lock()
	defer e.mu.Unlock()
	e.byKey[key] = exp
}

// CreationObserved lowers key's expected creations by one: the pod
// handler saw one of its pods appear, or the sync knows a create it
// counted on will not happen.
// (kubernetes: (*ControllerExpectations).CreationObserved.)
func (e *expectations) CreationObserved(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if exp, ok := e.byKey[key]; ok {
		exp.add--
	}
}

// DeletionObserved records that the pod podKey of key was seen deleted
// (or marked for deletion), or that its delete failed. A pod counts once,
// and only if key expected its deletion.
// (kubernetes: (*UIDTrackingControllerExpectations).DeletionObserved.)
func (e *expectations) DeletionObserved(key, podKey string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if exp, ok := e.byKey[key]; ok {
		delete(exp.deletions, podKey)
	}
}

// DeleteExpectations forgets key's expectations: the ReplicaSet is gone,
// and one made again under its name starts clean.
// (kubernetes: (*UIDTrackingControllerExpectations).DeleteExpectations.)
func (e *expectations) DeleteExpectations(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.byKey, key)
}

// GetExpectations returns the creations and deletions key still expects,
// and whether it has an expectation at all.
// (kubernetes: (*ControllerExpectations).GetExpectations and
// (*ControlleeExpectations).GetExpectations.)
func (e *expectations) GetExpectations(key string) (add, del int, ok bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if exp := e.byKey[key]; exp != nil {
		return exp.counts()
	}
	return 0, 0, false
}

// counts returns the creations and deletions exp still expects, and true.
func (exp *expected) counts() (add, del int, ok bool) {
	return exp.add, len(exp.deletions), true
}
