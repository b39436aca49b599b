// state.go builds the snapshot of every panel that the feed sends to the
// pages: the API server's objects and history window, the wire, the queue,
// the cache with its indexes, and the handlers with their backlogs.
//
// client-go counterpart: none.
// Tutorial: 004 §2.3 (the roles of Reflector, DeltaFIFO, controller, Indexer).

package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/fakeapi"
)

// maxHistory is how many history events the server panel shows.
const maxHistory = 30

// state is everything the page shows.
type state struct {
	// Boot is when this program started: a page that sees it change starts
	// its feed over.
	Boot string `json:"boot"`
	// Seq is the feed's newest entry when the snapshot began (see control).
	Seq      int64          `json:"seq"`
	Server   serverState    `json:"server"`
	Wire     wireState      `json:"wire"`
	Queue    queueState     `json:"queue"`
	Cache    cacheState     `json:"cache"`
	Handlers []handlerState `json:"handlers"`
	Informer informerState  `json:"informer"`
}

// object is one object as a panel lists it.
type object struct {
	Key    string `json:"key"`
	RV     string `json:"rv"`
	Labels string `json:"labels,omitempty"`
}

type serverState struct {
	Up      bool     `json:"up"`
	RV      string   `json:"rv"`
	Oldest  string   `json:"oldest"` // the oldest version a watch may start from
	Objects []object `json:"objects"`
	History []object `json:"history"` // Key is "TYPE namespace/name"
	Kept    int      `json:"kept"`    // events in the window
	// Bookmarks is how often the server sends a watch a BOOKMARK.
	Bookmarks string `json:"bookmarks"`
}

type bucket struct {
	Value string   `json:"value"`
	Keys  []string `json:"keys"`
}

type index struct {
	Name    string   `json:"name"`
	Buckets []bucket `json:"buckets"`
}

type cacheState struct {
	Objects []object `json:"objects"`
	Indexes []index  `json:"indexes"`
}

type informerState struct {
	Synced       bool   `json:"synced"`
	LastSyncRV   string `json:"lastSyncRV"`
	ResyncPeriod string `json:"resyncPeriod"` // "0s": none
	Paused       bool   `json:"paused"`       // step mode is on
	Queue        string `json:"queue"`        // DeltaFIFO or RealFIFO
	Gates        string `json:"gates"`
}

// snapshot reads every panel. Each part is consistent on its own; the parts
// are read one after the other, as a learner's eye would.
func (a *app) snapshot() state {
	seq := a.feed.lastSeq() // first: whatever was done before it shows below
	a.mu.Lock()
	inf, q, down, kind, resync, paused := a.inf, a.queue, a.apiDown, a.queueKind, a.resync, a.paused
	hs := a.handlers
	a.mu.Unlock()

	s := state{Boot: a.boot, Seq: seq}
	s.Server = a.serverSnapshot(!down)
	s.Wire = a.wire.snapshot()
	s.Queue = queueState{Keys: []queuedKey{}, Deltas: []delta{}, Popped: []popped{}}
	if q != nil {
		s.Queue = q.snapshot()
	}
	s.Cache = cacheSnapshot(inf.GetIndexer())
	s.Handlers = []handlerState{}
	for _, h := range hs {
		if h != nil {
			s.Handlers = append(s.Handlers, h.snapshot())
		}
	}
	s.Informer = informerState{Synced: inf.HasSynced(), LastSyncRV: inf.LastSyncResourceVersion(), ResyncPeriod: resync.String(),
		Queue: kind, Gates: queueKinds[kind]().String(), Paused: paused}
	return s
}

func (a *app) serverSnapshot(up bool) serverState {
	items, rv := a.api.List(fakeapi.Pods, "")
	oldest, events := a.api.History()
	s := serverState{Up: up, RV: rv, Oldest: oldest, Kept: len(events), Objects: []object{}, History: []object{},
		Bookmarks: a.cfg.BookmarkInterval.String()}
	for _, it := range items {
		md, _ := it["metadata"].(map[string]any)
		ns, _ := md["namespace"].(string)
		name, _ := md["name"].(string)
		v, _ := md["resourceVersion"].(string)
		labels, _ := md["labels"].(map[string]any)
		s.Objects = append(s.Objects, object{Key: ns + "/" + name, RV: v, Labels: formatLabels(labels)})
	}
	slices.SortFunc(s.Objects, func(x, y object) int { return naturalCompare(x.Key, y.Key) })
	for _, ev := range events[max(0, len(events)-maxHistory):] {
		if ev.Resource == fakeapi.Pods {
			s.History = append(s.History, object{Key: ev.Type + " " + ev.Namespace + "/" + ev.Name, RV: ev.ResourceVersion})
		}
	}
	return s
}

func cacheSnapshot(ix informer.Indexer) cacheState {
	s := cacheState{Objects: []object{}, Indexes: []index{}}
	for _, obj := range ix.List() {
		key, rv := describeObject(obj)
		labels := ""
		if o, ok := obj.(informer.Object); ok {
			labels = formatLabels(o.GetLabels())
		}
		s.Objects = append(s.Objects, object{Key: key, RV: rv, Labels: labels})
	}
	slices.SortFunc(s.Objects, func(x, y object) int { return naturalCompare(x.Key, y.Key) })
	for name := range ix.GetIndexers() {
		in := index{Name: name, Buckets: []bucket{}}
		values := ix.ListIndexFuncValues(name)
		slices.Sort(values)
		for _, v := range values {
			keys, _ := ix.IndexKeys(name, v)
			slices.SortFunc(keys, naturalCompare)
			if len(keys) > 0 {
				in.Buckets = append(in.Buckets, bucket{Value: v, Keys: keys})
			}
		}
		s.Indexes = append(s.Indexes, in)
	}
	slices.SortFunc(s.Indexes, func(x, y index) int { return strings.Compare(x.Name, y.Name) })
	return s
}

// naturalCompare orders names as a reader counts: a run of digits by its
// number, so pod-2 comes before pod-10; the rest as text.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Or(cmp.Compare(len(na), len(nb)), strings.Compare(na, nb)); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digits is the length of the run of ASCII digits that s begins with.
func digits(s string) int {
	n := 0
	for n < len(s) && '0' <= s[n] && s[n] <= '9' {
		n++
	}
	return n
}

// formatLabels renders labels as "a=1,b=2", sorted.
func formatLabels[V any](labels map[string]V) string {
	parts := make([]string, 0, len(labels))
	for k, v := range labels {
		parts = append(parts, fmt.Sprintf("%s=%v", k, v))
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

func sendJSON(w http.ResponseWriter, v any) {
	if err := json.NewEncoder(w).Encode(v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}
