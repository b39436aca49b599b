// backlog_test.go tests the handlers' backlogs (backlog.go) and the start
// of the feed, over HTTP as a page sees them: a slow handler's backlog
// grows and drains, a handler added late owes nothing once idle (issue 30,
// defect 3), and a stream starts with a state, so that a page that meets a
// restarted program knows it before the new program's entries (defect 4).

package main

import (
	"bufio"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestBacklogsAreHandedMinusTaken(t *testing.T) {
	a, err := start(config{Addr: "127.0.0.1:0", BookmarkInterval: time.Hour, Pods: 3, SlowDelay: 30 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	st := openStream(t, a)
	st.waitState(t, "a synced cache of 3", func(s state) bool { return len(s.Cache.Objects) == 3 && s.Informer.Synced })
	post(t, a, "burst", url.Values{"n": {"10"}})
	st.waitState(t, "slowHandler behind", func(s state) bool { return s.Handlers[1].Pending >= 3 })
	name := post(t, a, "addhandler", nil) // while slowHandler is still behind
	s := st.waitState(t, "every handler idle", func(s state) bool {
		return len(s.Handlers) == 3 && s.Handlers[1].Count == s.Handlers[0].Count && s.Handlers[2].Count == 3
	})
	for _, h := range s.Handlers {
		if h.Pending != 0 {
			t.Fatalf("idle, %s shows a backlog of %d: %+v", h.Name, h.Pending, s.Handlers)
		}
	}
	if s.Handlers[2].Name != name {
		t.Fatalf("the third handler is %s, want %s", s.Handlers[2].Name, name)
	}
	post(t, a, "update", nil) // the late handler gets the changes after its initial list
	st.waitState(t, "the update everywhere", func(s state) bool {
		return s.Handlers[2].Count == 4 && s.Handlers[1].Count == s.Handlers[0].Count && s.Handlers[2].Pending == 0
	})
}

// The first event of /events is a state, before any entry.
func TestEventsStartWithTheState(t *testing.T) {
	a := startTestApp(t, 1)
	post(t, a, "create", nil) // entries to send
	resp, err := testClient.Get(a.URL() + "events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
			if name != "state" {
				t.Fatalf("the first event is %q, want state", name)
			}
			return
		}
	}
	t.Fatalf("the stream ended with no event: %v", sc.Err())
}
