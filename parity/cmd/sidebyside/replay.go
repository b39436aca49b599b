// replay.go is the replay server: it answers the list and the watch of pods
// with bytes encoded once beforehand, the very same bytes to every client,
// so that what is measured is the client alone. It is the root package's
// newReplayData and newReplayServer (bench_replay_test.go), ported here
// because they live in a test file; only the number of events is a
// parameter instead of a constant.
//
// client-go counterpart: none (a benchmark's server).
//
// Tutorial: none (a benchmark).

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	informer "github.com/learn-k8s/informer"
)

// benchNamespaces is how many namespaces the pods are spread over, as in
// the root's benchmarks.
const benchNamespaces = 100

// replayData is what a replay server sends: a list of n pods, the same pods
// as the initial events of a streaming list, and MODIFIED events of them.
type replayData struct {
	n, events int
	list      []byte // the body of GET /api/v1/pods
	initial   []byte // ADDED events of every pod, then the bookmark that ends them
	modified  []byte // the MODIFIED events, each a real change
}

// findBenchPod returns the path of testdata/bench-pod.json in the
// repository the command runs in (from parity/ or any folder below the
// root).
func findBenchPod() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "testdata", "bench-pod.json")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("testdata/bench-pod.json not found above the current folder: run the command inside the repository, or give -pod")
		}
		dir = parent
	}
}

// newReplayData encodes n bench pods (the template with its own name,
// namespace, uid, resourceVersion and creationTimestamp) and events
// MODIFIED events as a server encodes them.
func newReplayData(podFile string, n, events int) (*replayData, error) {
	raw, err := os.ReadFile(podFile)
	if err != nil {
		return nil, err
	}
	var pod map[string]any
	if err := json.Unmarshal(raw, &pod); err != nil {
		return nil, fmt.Errorf("%s: %w", podFile, err)
	}
	meta := pod["metadata"].(map[string]any)
	labels := meta["labels"].(map[string]any)
	meta["creationTimestamp"] = "2026-12-01T09:00:00Z"
	encode := func(i, rv int) []byte {
		meta["name"] = "pod-" + strconv.Itoa(1_000_000 + i)[1:]
		meta["namespace"] = "ns-" + strconv.Itoa(i%benchNamespaces)
		meta["uid"] = "6b1f3c2e-0000-4000-8000-" + strconv.Itoa(1_000_000_000_000 + i)[1:]
		meta["resourceVersion"] = strconv.Itoa(rv)
		b, err := json.Marshal(pod)
		if err != nil {
			panic(err) // a map of JSON values always encodes
		}
		return b
	}
	d := &replayData{n: n, events: events}
	var list, initial, modified bytes.Buffer
	listRV := n + 1
	list.WriteString(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"` + strconv.Itoa(listRV) + `"},"items":[`)
	kind, apiVersion := pod["kind"], pod["apiVersion"]
	for i := range n {
		// A real server's list items carry no kind and apiVersion; the
		// objects of watch events do.
		delete(pod, "kind")
		delete(pod, "apiVersion")
		item := encode(i, i+1)
		pod["kind"], pod["apiVersion"] = kind, apiVersion
		if i > 0 {
			list.WriteByte(',')
		}
		list.Write(item)
		initial.WriteString(`{"type":"ADDED","object":`)
		initial.Write(encode(i, i+1))
		initial.WriteString("}\n")
	}
	list.WriteString("]}\n")
	initial.WriteString(`{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"` +
		strconv.Itoa(listRV) + `","annotations":{"` + informer.InitialEventsAnnotationKey + `":"true"}}}}` + "\n")
	for u := range events {
		labels["generation"] = strconv.Itoa(u)
		modified.WriteString(`{"type":"MODIFIED","object":`)
		modified.Write(encode(u%n, listRV+1+u))
		modified.WriteString("}\n")
	}
	delete(labels, "generation")
	d.list, d.initial, d.modified = list.Bytes(), initial.Bytes(), modified.Bytes()
	return d, nil
}

// replayServer serves one replayData to one client.
type replayServer struct {
	URL string
	srv *http.Server
}

// newReplayServer serves d on a new port of 127.0.0.1 as a kube-apiserver
// serves pods: a list, or a watch that (with sendInitialEvents=true) first
// streams the initial events. The MODIFIED events follow on the first
// watch once the client asks for them (GET /release, after it has synced);
// a second watch gets no events, so a reconnect cannot count twice.
func newReplayServer(d *replayData) (*replayServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	release := make(chan struct{})
	var releaseOnce sync.Once
	watches := make(chan struct{}, 1)
	watches <- struct{}{} // the one watch that gets the events
	mux := http.NewServeMux()
	mux.HandleFunc("/release", func(w http.ResponseWriter, _ *http.Request) {
		releaseOnce.Do(func() { close(release) })
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		q := r.URL.Query()
		if q.Get("watch") != "true" {
			_, _ = w.Write(d.list)
			return
		}
		flusher := w.(http.Flusher)
		if q.Get("sendInitialEvents") == "true" {
			_, _ = w.Write(d.initial)
		}
		flusher.Flush()
		select {
		case <-watches:
			select {
			case <-release:
				_, _ = w.Write(d.modified)
				flusher.Flush()
			case <-r.Context().Done():
			}
		default:
		}
		<-r.Context().Done()
	})
	s := &replayServer{URL: "http://" + ln.Addr().String(), srv: &http.Server{Handler: mux}}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Close stops the server and ends its watches.
func (s *replayServer) Close() { _ = s.srv.Close() }
