// bench_test.go: what the fake server costs, for issue 7's "what it costs":
// a write fanned out to many watchers, and a list of 100k pods in one
// answer or in pages. They measure; they assert nothing about speed. Run
//
//	go test -run '^$' -bench . -benchmem ./fakeapi

package fakeapi

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"
)

// benchServer starts a server with n realistic pods (the root package's
// testdata/bench-pod.json, about 1 KB of JSON each) spread over 100
// namespaces; it is closed when b ends.
func benchServer(b *testing.B, opts Options, n int) *Server {
	b.Helper()
	s, err := Start(opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	pod := readCapture(b, "../../testdata/bench-pod.json") // the file is shared with the root package
	meta := pod["metadata"].(map[string]any)
	for i := range n {
		// Create encodes pod at once, so one map can serve every call.
		meta["name"], meta["namespace"] = "pod-"+strconv.Itoa(i), "ns-"+strconv.Itoa(i%100)
		if _, err := s.Create(Pods, "", pod); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// BenchmarkWriteFanOut measures one pod update fanned out to 0, 1, 10 and
// 100 watchers over HTTP: ns/op is the time per write until every watcher
// has read its event. The target is that 100 watchers cost at most
// twice the time of 0. The watchers only count lines, so what is measured
// is the server's side of the fan-out (plus the kernel's). The writer waits
// for the watchers every 256 writes so that none falls a buffer behind and
// is cut off (which would make the figure meaningless).
func BenchmarkWriteFanOut(b *testing.B) {
	for _, watchers := range []int{0, 1, 10, 100} {
		b.Run("watchers="+strconv.Itoa(watchers), func(b *testing.B) {
			const pods = 100
			s := benchServer(b, Options{}, pods)
			fan := startBenchWatchers(b, s, watchers)
			pod := readCapture(b, "../../testdata/bench-pod.json")
			meta := pod["metadata"].(map[string]any)
			labels := meta["labels"].(map[string]any)
			b.ReportAllocs()
			written := 0
			for b.Loop() {
				if written%256 == 0 {
					fan.waitFor(b, written)
				}
				meta["name"], meta["namespace"] = "pod-"+strconv.Itoa(written%pods), "ns-"+strconv.Itoa(written%pods)
				labels["generation"] = strconv.Itoa(written) // a real change, so an event is sent
				if _, err := s.Update(Pods, "", pod); err != nil {
					b.Fatal(err)
				}
				written++
			}
			fan.waitFor(b, written)
			if open := s.Stats().OpenWatches; open != watchers {
				b.Fatalf("%d of %d watches still open: a watcher was cut off", open, watchers)
			}
		})
	}
}

// benchWatchers are watch streams read by goroutines that count events.
type benchWatchers struct {
	mu     sync.Mutex
	seen   []int // events read by each watcher
	target int
	// caught holds at most one wake-up, sent when a watcher reaches
	// target; the waiter re-checks every watcher.
	caught chan struct{}
}

// startBenchWatchers opens n watches of every pod from the current version
// (so no initial events, and no bookmarks) and reads them until b ends.
func startBenchWatchers(b *testing.B, s *Server, n int) *benchWatchers {
	b.Helper()
	fan := &benchWatchers{seen: make([]int, n), caught: make(chan struct{}, 1)}
	u := s.URL() + "/api/v1/pods?watch=true&resourceVersion=" + s.ResourceVersion()
	for i := range n {
		resp, err := client.Get(u)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { resp.Body.Close() })
		go func() {
			r := bufio.NewReader(resp.Body)
			for {
				if _, err := r.ReadSlice('\n'); err != nil {
					return // the stream ended: the benchmark is over
				}
				fan.mu.Lock()
				fan.seen[i]++
				reached := fan.seen[i] == fan.target
				fan.mu.Unlock()
				if reached {
					select {
					case fan.caught <- struct{}{}:
					default: // a wake-up is already pending
					}
				}
			}
		}()
	}
	return fan
}

// waitFor waits until every watcher has read written events, failing b if
// one has not within 10 s (an event lost, a watch cut off).
func (fan *benchWatchers) waitFor(b *testing.B, written int) {
	fan.mu.Lock()
	fan.target = written
	fan.mu.Unlock()
	timeout := time.NewTimer(10 * time.Second)
	defer timeout.Stop()
	for {
		behind, read := -1, 0
		fan.mu.Lock()
		for i, n := range fan.seen {
			if n < written {
				behind, read = i, n
				break
			}
		}
		fan.mu.Unlock()
		if behind < 0 {
			return
		}
		select {
		case <-fan.caught:
		case <-timeout.C:
			b.Fatalf("timed out after 10s waiting for watcher %d to read event %d (it read %d)", behind, written, read)
		}
	}
}

// BenchmarkList100k measures listing 100k pods over HTTP, as an informer's
// initial list does: in one answer, and in pages of 500 (what client-go's
// Reflector asks for). The client reads each page's metadata (for the
// continue token) and discards the items, so the figure is the server's
// work plus the transfer. One list is made before measuring: the first list
// of an object encodes it (and keeps the encoding), which is a cost of the
// write, not of every list.
func BenchmarkList100k(b *testing.B) {
	s := benchServer(b, Options{}, 100_000)
	benchListPage(b, s.URL()+"/api/v1/pods")
	for _, limit := range []int{0, 500} {
		b.Run("limit="+strconv.Itoa(limit), func(b *testing.B) {
			wantPages := 1
			if limit > 0 {
				wantPages = 100_000 / limit
			}
			b.ReportAllocs()
			for b.Loop() {
				cont, pages := "", 0
				for {
					u := s.URL() + "/api/v1/pods?limit=" + strconv.Itoa(limit) + "&continue=" + url.QueryEscape(cont)
					cont = benchListPage(b, u)
					pages++
					if cont == "" {
						break
					}
				}
				if pages != wantPages {
					b.Fatalf("listed in %d pages, want %d", pages, wantPages)
				}
			}
		})
	}
}

// benchListPage GETs one page of a list and returns its continue token. It
// decodes only the list's metadata, which the server writes before the
// items, and skips the rest of the body unread by the JSON decoder.
func benchListPage(b *testing.B, u string) string {
	resp, err := client.Get(u)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %s", u, resp.Status)
	}
	dec := json.NewDecoder(resp.Body)
	var list struct {
		Metadata struct {
			Continue string `json:"continue"`
		} `json:"metadata"`
	}
	// Read '{', then "kind", "apiVersion" and their values, then "metadata".
	for range 6 {
		if _, err := dec.Token(); err != nil {
			b.Fatal(err)
		}
	}
	if err := dec.Decode(&list.Metadata); err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, io.MultiReader(dec.Buffered(), resp.Body)); err != nil {
		b.Fatal(err)
	}
	return list.Metadata.Continue
}
