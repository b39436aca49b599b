// store.go: the server's storage, its one resource version and its history.
//
// Every write bumps one global counter, like etcd's revision, and appends an
// event to a bounded history; watches resume from that history and paged or
// exact lists are answered from it. Every write ends in putLocked; what a
// write stores is decided before, in the compatibility layer.
// client-go counterparts: the apiserver's etcd3 store and watch cache
// (k8s.io/apiserver/pkg/storage), and the fake source in client-go's
// tools/cache/testing, which keeps a history the same way. Reading path:
// step 3. Tutorial: 004 §2.5 (resource versions) and 000 §4.3 (410).

package fakeapi

import (
	"encoding/json"
	"sort"
	"strconv"
	"sync"
	"time"
)

// object is one stored object. Its body is never changed once stored, so it
// can be shared by lists, events and watchers without copying, and encoded
// once for all of them.
type object struct {
	key    string            // objectKey(ns, name)
	ns     string            // "" for cluster-scoped kinds
	name   string            // metadata.name
	rv     uint64            // metadata.resourceVersion
	labels map[string]string // metadata.labels
	body   map[string]any    // the whole object, kind and apiVersion included

	// json is body encoded, as watch events carry it; itemJSON is body as
	// an item of a list, without kind and apiVersion (protobuf: its message,
	// compat_protoanswer.go). Each is made when first asked for and kept: a
	// hundred watchers, or a list of every object, would otherwise encode the
	// same map again and again (see BenchmarkWriteFanOut and BenchmarkList100k).
	json, itemJSON, protobuf func() ([]byte, error)
}

// event is one change, as kept in the history and sent to watchers.
type event struct {
	typ  string // "ADDED", "MODIFIED" or "DELETED"
	res  *resourceInfo
	rv   uint64
	obj  *object // the new state; for DELETED the last state at this version
	prev *object // the state before; nil for ADDED
}

// store holds every object and the history. All fields are guarded by mu.
type store struct {
	mu          sync.Mutex
	rv          uint64                               // the current global resource version
	objects     map[*resourceInfo]map[string]*object // by resource, then key
	history     []*event                             // oldest first, every event with rv > oldest
	oldest      uint64                               // the oldest version a watch may start from
	maxHistory  int                                  // history is trimmed to this many events
	watchers    map[*watcher]struct{}
	changed     chan struct{} // closed and replaced by every write, to wake waiters
	controllers controllers   // compat_gc_collector.go: the namespace controller, the garbage collector

	// lastSnapshot is the last answer of snapshotLocked. Every page of a
	// paged list asks for the same snapshot; rebuilding and sorting every
	// object for each page of 500 made listing 100k pods in pages ten times
	// slower than in one answer. A snapshot at a version never changes, so
	// it can be reused for as long as the history reaches back to it.
	lastSnapshot snapshot
}

// snapshot is the objects of one resource in one namespace ("" = all) at
// one version, sorted by key.
type snapshot struct {
	ri   *resourceInfo
	ns   string
	rv   uint64
	objs []*object
}

// newStore returns an empty store keeping maxHistory events.
func newStore(maxHistory int) *store {
	s := &store{
		rv:         1, // like a fresh etcd: version 0 means "any" to clients
		oldest:     1,
		objects:    map[*resourceInfo]map[string]*object{},
		maxHistory: maxHistory,
		watchers:   map[*watcher]struct{}{},
		changed:    make(chan struct{}),
	}
	s.seedNamespaces() // compat_namespaces.go: the four a cluster starts with
	return s
}

// putLocked is where every stored write ends: it gives the change the next
// version, stamps the new state with it and commits it. typ is "ADDED",
// "MODIFIED" or "DELETED"; prev is the state before (nil for ADDED); for
// DELETED, body is the last state. The write pipeline that decides what to
// store (checks, defaults, validation, namespaces, finalizers) is the
// compatibility layer (compat_writes.go, compat_delete.go).
func (s *store) putLocked(typ string, ri *resourceInfo, body map[string]any, prev *object) *object {
	s.rv++
	o := newObject(body, s.rv)
	s.commitLocked(&event{typ: typ, res: ri, rv: s.rv, obj: o, prev: prev})
	return o
}

// commitLocked records a change that has already been given version s.rv:
// it updates the objects, appends to the history, and tells the watchers.
func (s *store) commitLocked(ev *event) {
	objs := s.objects[ev.res]
	if objs == nil {
		objs = map[string]*object{}
		s.objects[ev.res] = objs
	}
	if ev.typ == "DELETED" {
		delete(objs, ev.obj.key)
	} else {
		objs[ev.obj.key] = ev.obj
	}
	s.history = append(s.history, ev)
	s.trimLocked(s.maxHistory)
	s.broadcastLocked(ev)
	close(s.changed)
	s.changed = make(chan struct{})
}

// trimLocked keeps only the newest keep events; watches and continue tokens
// from before the dropped events will get 410 Expired.
func (s *store) trimLocked(keep int) {
	if keep < 0 {
		keep = 0
	}
	drop := len(s.history) - keep
	if drop <= 0 {
		return
	}
	s.oldest = s.history[drop-1].rv
	s.history = append([]*event(nil), s.history[drop:]...)
}

// get returns the stored object, or nil.
func (s *store) get(ri *resourceInfo, key string) *object {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.objects[ri][key]
}

// current returns the current global resource version.
func (s *store) current() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rv
}

// snapshotLocked returns the objects of ri in namespace ns ("" = all) as they
// were at version rv (at most the current one), sorted by key, or false if
// the history no longer reaches back to rv. The state is rebuilt by undoing
// newer events. The slice is shared: callers must not change it.
func (s *store) snapshotLocked(ri *resourceInfo, ns string, rv uint64) ([]*object, bool) {
	if rv < s.oldest {
		return nil, false
	}
	if last := s.lastSnapshot; last.objs != nil && last.ri == ri && last.ns == ns && last.rv == rv {
		return last.objs, true
	}
	state := map[string]*object{}
	for k, o := range s.objects[ri] {
		state[k] = o
	}
	for i := len(s.history) - 1; i >= 0 && s.history[i].rv > rv; i-- {
		ev := s.history[i]
		if ev.res != ri {
			continue
		}
		if ev.prev == nil {
			delete(state, ev.obj.key)
		} else {
			state[ev.prev.key] = ev.prev
		}
	}
	out := make([]*object, 0, len(state))
	for _, o := range state {
		if ns == "" || o.ns == ns {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	s.lastSnapshot = snapshot{ri: ri, ns: ns, rv: rv, objs: out}
	return out, true
}

// waitFor blocks until the store has reached version rv, the wait ends, or
// done is closed; it reports whether rv was reached.
func (s *store) waitFor(rv uint64, wait <-chan time.Time, done <-chan struct{}) bool {
	for {
		s.mu.Lock()
		reached, changed := s.rv >= rv, s.changed
		s.mu.Unlock()
		if reached {
			return true
		}
		select {
		case <-changed:
		case <-wait:
			return false
		case <-done:
			return false
		}
	}
}

// newObject stamps body with version rv and indexes its metadata.
func newObject(body map[string]any, rv uint64) *object {
	meta := metadata(body)
	meta["resourceVersion"] = strconv.FormatUint(rv, 10)
	o := &object{rv: rv, body: body, labels: map[string]string{},
		json:     sync.OnceValues(func() ([]byte, error) { return json.Marshal(body) }),
		itemJSON: sync.OnceValues(func() ([]byte, error) { return json.Marshal(listItem(body)) }),
		protobuf: sync.OnceValues(func() ([]byte, error) { return protoBodyMessage(body) }),
	}
	o.name, _ = meta["name"].(string)
	o.ns, _ = meta["namespace"].(string)
	o.key = objectKey(o.ns, o.name)
	if labels, ok := meta["labels"].(map[string]any); ok {
		for k, v := range labels {
			o.labels[k], _ = v.(string)
		}
	}
	return o
}

// metadata returns body's metadata map, creating it if missing or malformed.
func metadata(body map[string]any) map[string]any {
	m, ok := body["metadata"].(map[string]any)
	if !ok {
		m = map[string]any{}
		body["metadata"] = m
	}
	return m
}
