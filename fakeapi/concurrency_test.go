// concurrency_test.go: many writers, many watchers and one watcher that never
// reads, under -race: the writers finish, every reading watcher sees every
// event in order, and the stuck one holds up nobody.

package fakeapi

import (
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestManyWritersManyWatchersOneStuck(t *testing.T) {
	const writers, perWriter, watchers = 6, 40, 4
	s := startServer(t, Options{WatchBuffer: 8})
	from := s.ResourceVersion()

	// The stuck watcher: it asks for a watch and then never reads a byte.
	// Its events pile up in the kernel's socket buffers first, and only
	// once those are full in its watch buffer, which then overflows. Left
	// alone, the kernel grows the buffers: on loopback it takes in about
	// 4 MB before a write blocks, as much as the whole test writes, so the
	// watcher was cut off or not by chance. Fixed small buffers on both
	// ends (a few tens of KB in all) make it certain, whatever the machine.
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.(*net.TCPConn).SetReadBuffer(stuckSocketBuffer); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "GET /api/v1/namespaces/default/pods?watch=1&resourceVersion=%s HTTP/1.1\r\nHost: x\r\n\r\n", from)
	waitFor(t, "the stuck watch to open", func() bool { return s.Stats().OpenWatches == 1 })
	setServerWriteBuffers(t, s, stuckSocketBuffer) // its only connection yet

	var streams []*stream
	for range watchers {
		streams = append(streams, openWatch(t, s.URL()+"/api/v1/namespaces/default/pods?watch=1&resourceVersion="+from))
	}
	waitFor(t, "every watch to open", func() bool { return s.Stats().OpenWatches == watchers+1 })

	// About 1 MB in all, many times what the stuck watcher's buffers hold.
	pad := strings.Repeat("x", 4<<10)
	var wg sync.WaitGroup
	var made atomic.Int64
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
				made.Add(1)
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	// Writers held up by the stuck watcher would stop for good; a busy
	// machine only slows them down. So fail when they make no progress at
	// all for a long while, not when they are slow.
	for last, since := int64(-1), time.Now(); ; {
		select {
		case <-done:
		case <-time.After(10 * time.Millisecond): // polling with a deadline
			if n := made.Load(); n != last {
				last, since = n, time.Now()
			} else if time.Since(since) > 30*time.Second {
				t.Fatalf("writers blocked after %d of %d writes", n, writers*perWriter)
			}
			continue
		}
		break
	}

	// The stuck watcher was cut off while the writes went on (a full watch
	// buffer ends the watch at once): it is no longer registered.
	s.st.mu.Lock()
	registered := len(s.st.watchers)
	s.st.mu.Unlock()
	if registered > watchers {
		t.Fatalf("%d watches registered after the writes; the stuck one was not cut off", registered)
	}

	// Each reading watcher sees all writes, with increasing versions. One
	// that falls behind its buffer is cut off too; then it resumes from its
	// last version, exactly as a client would.
	for i, st := range streams {
		seen, last := 0, from
		for seen < writers*perWriter {
			ev, ok := st.nextOrEnd(t, fmt.Sprintf("watcher %d's event %d or its end", i, seen+1))
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
}

// stuckSocketBuffer is the socket buffer size, at each end, of the watcher
// that never reads. The kernel may double it, and stops growing it.
const stuckSocketBuffer = 16 << 10

// setServerWriteBuffers fixes the kernel send buffer of every connection s
// has accepted, so that a client that stops reading blocks the server's
// writes after a known, small number of bytes.
func setServerWriteBuffers(t *testing.T, s *Server, bytes int) {
	t.Helper()
	s.conns.mu.Lock()
	defer s.conns.mu.Unlock()
	for c := range s.conns.conns {
		tc, ok := c.Conn.(*net.TCPConn)
		if !ok {
			t.Fatalf("server connection is a %T, not TCP", c.Conn)
		}
		if err := tc.SetWriteBuffer(bytes); err != nil {
			t.Fatal(err)
		}
	}
}

// newer compares two versions this server made (decimal counters). Clients
// must not do this; the test may, because it knows the server.
func newer(a, b string) bool {
	var x, y uint64
	fmt.Sscan(a, &x)
	fmt.Sscan(b, &y)
	return x > y
}
