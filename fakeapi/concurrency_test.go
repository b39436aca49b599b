// concurrency_test.go: many writers, many watchers and one watcher that never
// reads, under -race: the writers finish, every reading watcher sees every
// event in order, and the stuck one holds up nobody.

package fakeapi

import (
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestManyWritersManyWatchersOneStuck(t *testing.T) {
	const writers, perWriter, watchers = 6, 40, 4
	s := startServer(t, Options{WatchBuffer: 8})
	from := s.ResourceVersion()

	// The stuck watcher: it asks for a watch and then never reads a byte.
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /api/v1/namespaces/default/pods?watch=1&resourceVersion=%s HTTP/1.1\r\nHost: x\r\n\r\n", from)
	waitFor(t, func() bool { return s.Stats().OpenWatches == 1 })

	var streams []*stream
	for range watchers {
		streams = append(streams, openWatch(t, s.URL()+"/api/v1/namespaces/default/pods?watch=1&resourceVersion="+from))
	}
	waitFor(t, func() bool { return s.Stats().OpenWatches == watchers+1 })

	// A big annotation makes the stuck watcher's socket fill up quickly.
	pad := strings.Repeat("x", 16<<10)
	var wg sync.WaitGroup
	done := make(chan struct{})
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				name := fmt.Sprintf("w%d-%d", w, i)
				obj := map[string]any{"metadata": map[string]any{"name": name, "annotations": map[string]any{"pad": pad}}}
				if _, err := s.Create(Pods, "default", obj); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("writers blocked")
	}

	// Each reading watcher sees all writes, with increasing versions. One
	// that falls behind its buffer is cut off too; then it resumes from its
	// last version, exactly as a client would.
	for i, st := range streams {
		seen, last := 0, from
		for seen < writers*perWriter {
			ev, ok := <-st.events
			if !ok {
				st = openWatch(t, s.URL()+"/api/v1/namespaces/default/pods?watch=1&resourceVersion="+last)
				continue
			}
			if ev.Type != "ADDED" || !newer(rvOf(ev.Object), last) {
				t.Fatalf("watcher %d: %s at %s after %s", i, ev.Type, rvOf(ev.Object), last)
			}
			last = rvOf(ev.Object)
			seen++
		}
	}
	// The stuck watcher was cut off: its stream is no longer registered.
	waitFor(t, func() bool {
		s.st.mu.Lock()
		defer s.st.mu.Unlock()
		return len(s.st.watchers) <= watchers
	})
}

// newer compares two versions this server made (decimal counters). Clients
// must not do this; the test may, because it knows the server.
func newer(a, b string) bool {
	var x, y uint64
	fmt.Sscan(a, &x)
	fmt.Sscan(b, &y)
	return x > y
}
