// Command sidebyside measures our informer and client-go v0.37.2's side by
// side on the very same JSON bytes: for each size, a replay server
// (replay.go) holds n realistic pods (testdata/bench-pod.json, each with its
// own name, namespace, uid and resourceVersion) as a list, or as the
// initial events of a streaming list, and then -events MODIFIED events,
// each a real change, sent once the client has synced and asks for them.
// Each client runs in a fresh process against a fresh server (client.go):
// ours and client-go's, typed and generic, with a paged list (client-go's
// WatchListClient off) or a streaming list (on). Every variant of a size
// runs once per round, the order rotating from round to round so that no
// variant always meets the same load; the tables give the medians.
//
// It is the measurement of docs/measured-numbers.md ("side by side"); run it
// on a quiet machine (it prints the load average of each run):
//
//	cd parity && go run ./cmd/sidebyside
//	cd parity && go run ./cmd/sidebyside -sizes 10000 -rounds 1   # a quick look
//
// Progress goes to standard error, the tables (Markdown) to standard output.
//
// client-go counterpart: none (a benchmark).
//
// Tutorial: none (a benchmark).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func main() {
	var (
		client  = flag.String("client", "", "run one measured client: ours or client-go (the driver starts these)")
		url     = flag.String("url", "", "with -client: the replay server")
		object  = flag.String("object", "typed", "with -client: typed or generic")
		mode    = flag.String("mode", "paged", "with -client: paged or streaming")
		n       = flag.Int("n", 10_000, "with -client: how many pods the server lists")
		sizes   = flag.String("sizes", "10000,50000", "the numbers of pods, comma-separated")
		events  = flag.Int("events", 200_000, "how many MODIFIED events follow the sync")
		rounds  = flag.Int("rounds", 3, "rounds: every variant runs once in each")
		podFile = flag.String("pod", "", "the pod template (default: testdata/bench-pod.json of the repository)")
		limit   = flag.Duration("timeout", 10*time.Minute, "how long a client may wait for its sync or its events")
	)
	flag.Parse()
	if *client != "" {
		if err := runClient(*client, *url, *object == "generic", *mode == "streaming", *n, *events, *limit); err != nil {
			fmt.Fprintln(os.Stderr, "sidebyside client:", err)
			os.Exit(1)
		}
		return
	}
	if err := drive(*sizes, *events, *rounds, *podFile, *limit); err != nil {
		fmt.Fprintln(os.Stderr, "sidebyside:", err)
		os.Exit(1)
	}
}

// variant is one client configuration.
type variant struct {
	side, object, mode string
}

// variants are the eight of a size, in the first round's order.
var variants = func() []variant {
	var out []variant
	for _, mode := range []string{"paged", "streaming"} {
		for _, object := range []string{"typed", "generic"} {
			for _, side := range []string{"ours", "client-go"} {
				out = append(out, variant{side, object, mode})
			}
		}
	}
	return out
}()

// run is one measured run: its result and the 1-minute load average
// before and after it.
type run struct {
	r          result
	loadBefore float64
	loadAfter  float64
}

// drive runs every variant of every size for the rounds and prints the
// tables.
func drive(sizeList string, events, rounds int, podFile string, limit time.Duration) error {
	if podFile == "" {
		var err error
		if podFile, err = findBenchPod(); err != nil {
			return err
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	var sizes []int
	for _, s := range strings.Split(sizeList, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || v <= 0 {
			return fmt.Errorf("-sizes: %q is not a number of pods", s)
		}
		sizes = append(sizes, v)
	}
	began := time.Now().UTC()
	runs := map[int]map[variant][]run{}
	for _, n := range sizes {
		fmt.Fprintf(os.Stderr, "encoding %d pods and %d events...\n", n, events)
		data, err := newReplayData(podFile, n, events)
		if err != nil {
			return err
		}
		runs[n] = map[variant][]run{}
		for round := range rounds {
			for k := range variants {
				// Each round starts three variants further on.
				v := variants[(k+3*round)%len(variants)]
				r, err := runOne(exe, data, v, limit)
				if err != nil {
					return fmt.Errorf("%d pods, %s %s %s: %w", n, v.side, v.object, v.mode, err)
				}
				fmt.Fprintf(os.Stderr, "round %d, %dk %-9s %-7s %-9s sync %7.0f ms (CPU %7.0f), heap %5.0f B/obj, %7.0f events/s (%5.1f µs CPU), load %.2f→%.2f\n",
					round+1, n/1000, v.side, v.object, v.mode, r.r.SyncMS, r.r.SyncCPUMS, r.r.HeapPerObj, r.r.EventsPerS, r.r.CPUPerEvent, r.loadBefore, r.loadAfter)
				runs[n][v] = append(runs[n][v], r)
			}
		}
		data = nil
		runtime.GC()
	}
	printTables(os.Stdout, sizes, events, rounds, runs, began, time.Now().UTC())
	return nil
}

// runOne runs one client in a fresh process against a fresh server.
func runOne(exe string, data *replayData, v variant, limit time.Duration) (run, error) {
	srv, err := newReplayServer(data)
	if err != nil {
		return run{}, err
	}
	defer srv.Close()
	cmd := exec.Command(exe, "-client", v.side, "-url", srv.URL, "-object", v.object, "-mode", v.mode,
		"-n", strconv.Itoa(data.n), "-events", strconv.Itoa(data.events), "-timeout", limit.String())
	cmd.Env = append(os.Environ(), "KUBE_FEATURE_WatchListClient="+strconv.FormatBool(v.mode == "streaming"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	r := run{loadBefore: loadAverage()}
	if err := cmd.Run(); err != nil {
		return run{}, fmt.Errorf("%v\n%s", err, stderr.String())
	}
	r.loadAfter = loadAverage()
	if err := json.Unmarshal(stdout.Bytes(), &r.r); err != nil {
		return run{}, fmt.Errorf("the client's result %q: %w", stdout.String(), err)
	}
	return r, nil
}

// loadAverage is the 1-minute load average (/proc/loadavg), or -1 where
// the system does not say.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}
