// history.go: what a test reads from a running server besides objects:
// the history window (the events kept for resuming watches, and the oldest
// version a watch may start from) and the request counters (Stats).
// A watch from an older version gets 410 Expired; a watch from inside the
// window gets the kept events after its version.
//
// client-go counterpart: none (the window is the API server's watch cache
// and etcd's compaction; clients only ever see it as a 410).
// Tutorial: 000 §4.3 (410 → relist), 004 §2.5 (resource versions).

package fakeapi

import "strconv"

// HistoryEvent is one change kept in the history.
type HistoryEvent struct {
	Type            string // "ADDED", "MODIFIED" or "DELETED"
	Resource        Resource
	Namespace, Name string
	ResourceVersion string // the version the change made
}

// History returns the oldest version a watch may start from and the events
// kept after it, oldest first: a watch from oldest gets them all.
func (s *Server) History() (oldest string, events []HistoryEvent) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	events = make([]HistoryEvent, len(s.st.history))
	for i, ev := range s.st.history {
		events[i] = HistoryEvent{
			Type: ev.typ, Resource: ev.res.Resource, Namespace: ev.obj.ns, Name: ev.obj.name,
			ResourceVersion: strconv.FormatUint(ev.rv, 10),
		}
	}
	return strconv.FormatUint(s.st.oldest, 10), events
}

// Stats counts the API requests a server has served, by verb.
type Stats struct {
	Lists   int64 // list requests, each page counted
	Watches int64 // watch requests
	Gets    int64 // get requests
	Writes  int64 // create, update, patch and delete requests
	Failed  int64 // API requests answered with an error status (injected or not)

	OpenWatches int // watch streams open now
}

// Stats returns the counters so far.
func (s *Server) Stats() Stats {
	return Stats{
		Lists: s.lists.Load(), Watches: s.watches.Load(), Gets: s.gets.Load(),
		Writes: s.writes.Load(), Failed: s.failed.Load(), OpenWatches: int(s.openWatches.Load()),
	}
}
