// subject.go holds what the harness asks of an informer under test, and the
// recording handler both informers are given: the same calls, the same
// settings, the same record of every handler call.
//
// client-go counterpart: none (test machinery); the informers compared are
// ours (ours.go) and client-go v0.37.2's (clientgo.go).
//
// Tutorial: none (test machinery).

package parity

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
)

// subject is an informer under test, as the harness drives and reads it.
type subject interface {
	// addHandler adds h, before or after run, with resync as its own
	// period (nil: the informer's default).
	addHandler(h *recorder, resync *time.Duration) error
	// removeHandler removes the handler named name.
	removeHandler(name string) error
	// run runs the informer until ctx ends.
	run(ctx context.Context)
	// cache lists the cache as "ns/name@rv", sorted.
	cache() []string
	// index lists, for every value of the index "byApp", the keys under
	// it: "value=key,key", sorted; nil without the index.
	index() []string
	// synced is the informer's HasSynced.
	synced() bool
	// handlerSynced is the HasSynced of h's registration.
	handlerSynced(name string) bool
	// lastSyncResourceVersion is the informer's LastSyncResourceVersion.
	lastSyncResourceVersion() string
}

// config is how a scenario sets up the informer (the same on both sides).
type config struct {
	// Resync is the informer's default resync period (and check period).
	Resync time.Duration
	// Index adds the index "byApp" (the label app).
	Index bool
	// IndexFailsOnce makes the index function fail the first time it sees
	// the pod of that name (client-go panics there).
	IndexFailsOnce string
	// IndexBlocksAt makes the index function stop at the pod of that name
	// until the step stopWhileIndexing lets it go on. (A function that
	// sleeps would sleep holding the queue's and the cache's locks; a
	// goroutine waiting for a lock is not durably blocked, so the bubble's
	// clock could not move: the harness never does that.)
	IndexBlocksAt string
	// TransformFailsOnce makes the transform fail the first time it sees
	// the pod of that name; "" sets no transform.
	TransformFailsOnce string
	// Transform sets a transform that changes nothing (it drops no field
	// the harness reads), so that the transforming path runs.
	Transform bool
}

// hooks are the user functions of a config, with their state: one set per
// run, so that "fails once" means once per run.
type hooks struct {
	cfg          config
	mu           sync.Mutex
	indexFailed  bool
	transformErr bool
	// reached is closed when the index function meets IndexBlocksAt;
	// release, closed by the step, lets it go on.
	reached, release chan struct{}
	blocked          bool
}

// newHooks returns the hooks of cfg, for one run.
func newHooks(cfg config) *hooks {
	return &hooks{cfg: cfg, reached: make(chan struct{}), release: make(chan struct{})}
}

// indexValues is the body of the "byApp" index function, given the pod's
// name and labels.
func (h *hooks) indexValues(name string, labels map[string]string) ([]string, error) {
	h.mu.Lock()
	block := name != "" && name == h.cfg.IndexBlocksAt && !h.blocked
	h.blocked = h.blocked || block
	h.mu.Unlock()
	if block {
		close(h.reached)
		<-h.release
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if name != "" && name == h.cfg.IndexFailsOnce && !h.indexFailed {
		h.indexFailed = true
		return nil, fmt.Errorf("the index function fails once for %s", name)
	}
	if app, ok := labels["app"]; ok {
		return []string{app}, nil
	}
	return nil, nil
}

// transformFails reports whether the transform fails for the pod of name.
func (h *hooks) transformFails(name string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if name != "" && name == h.cfg.TransformFailsOnce && !h.transformErr {
		h.transformErr = true
		return true
	}
	return false
}

// note is one handler call, as the harness compares it.
type note struct {
	Kind      string // add, update, sync (an update that kept the version), delete
	Key       string
	RV        string // the new object's version; for a delete, the last one known
	OldRV     string // update: the old object's version
	Initial   bool   // add: isInInitialList
	Tombstone bool   // delete: a DeletedFinalStateUnknown
	NewUID    bool   // update: the old and new objects' UIDs differ
}

func (n note) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", n.Kind, n.Key)
	switch n.Kind {
	case "update":
		fmt.Fprintf(&b, " %s→%s", n.OldRV, n.RV)
	default:
		fmt.Fprintf(&b, "@%s", n.RV)
	}
	if n.Initial {
		b.WriteString(" (initial list)")
	}
	if n.Tombstone {
		b.WriteString(" (tombstone)")
	}
	if n.NewUID {
		b.WriteString(" (new UID)")
	}
	return b.String()
}

// recorder is the handler the harness adds: it records every call, in
// order, then takes delay of fake time (a slow handler).
type recorder struct {
	name  string
	delay time.Duration

	mu    sync.Mutex
	notes []note
	busy  bool // in a call (taking its delay)
}

// record notes a call as it starts, then takes the handler's time.
func (r *recorder) record(n note) {
	r.mu.Lock()
	r.notes = append(r.notes, n)
	r.busy = r.delay > 0
	r.mu.Unlock()
	if r.delay > 0 {
		time.Sleep(r.delay)
		r.mu.Lock()
		r.busy = false
		r.mu.Unlock()
	}
}

// inCall reports whether the handler is in a call. Read once the bubble
// has settled, false means its buffer is empty: the listener's run
// goroutine would otherwise be calling it.
func (r *recorder) inCall() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.busy
}

// take returns the calls recorded since the last take.
func (r *recorder) take() []note {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.notes
	r.notes = nil
	return n
}

// updateNote is the note of an update from old to new (version and UID).
func updateNote(key, oldRV, newRV, oldUID, newUID string) note {
	kind := "update"
	if oldRV == newRV {
		kind = "sync"
	}
	return note{Kind: kind, Key: key, OldRV: oldRV, RV: newRV, NewUID: oldUID != newUID}
}
