// compare_test.go plays the comparison script (script_test.go) and
// compares its transcript with testdata/compare.golden, which
// kube-controller-manager v1.37.2's replicaset and garbagecollector
// controllers wrote on kube-apiserver v1.37.2. Four ways:
//
//   - TestCompareScriptOnFakeAPI (always): this controller and fakeapi's
//     garbage collector, on fakeapi.
//   - TestCompareScriptOnKubeAPIServer, with CONTROLLER_COMPARE=kcm: on the
//     kit's kube-apiserver, kube-controller-manager running the replicaset
//     and garbagecollector controllers; with CONTROLLER_COMPARE=ours:
//     kube-controller-manager running garbagecollector alone and this
//     controller beside it. Both need the kit's environment:
//
//     KCM=1 kit/start.sh && source .kit/run/env
//     CONTROLLER_COMPARE=kcm go test -run CompareScriptOnKube -v ./examples/controller
//     kit/stop.sh && KCM=1 KCM_CONTROLLERS=garbagecollector kit/start.sh && source .kit/run/env
//     CONTROLLER_COMPARE=ours go test -run CompareScriptOnKube -v ./examples/controller
//
//     (with CONTROLLER_COMPARE_UPDATE=1 the kcm run writes the golden file).
//   - TestCompareScriptKCMOnFakeAPI, with KCM_BINARY (or KIT_DIR, whose
//     bin/kube-controller-manager it runs): kube-controller-manager itself,
//     a real client of fakeapi, run against fakeapi without its garbage
//     collector, CONTROLLER_COMPARE_RUNS times (default 1); its log must
//     hold no error.
//
// client-go counterpart: none (a comparison with the real controller).
//
// Tutorial: 004 §2.3.

package main

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

// goldenPath is the transcript kube-controller-manager wrote.
const goldenPath = "testdata/compare.golden"

// compareGolden fails t if got differs from the golden transcript (or
// writes it, with CONTROLLER_COMPARE_UPDATE=1 on the kcm run).
func compareGolden(t *testing.T, got []string, mayUpdate bool) {
	t.Helper()
	text := strings.Join(got, "\n") + "\n"
	if mayUpdate && os.Getenv("CONTROLLER_COMPARE_UPDATE") != "" {
		walkthrough.Must(t, os.WriteFile(goldenPath, []byte(text), 0o644))
		t.Logf("wrote %s:\n%s", goldenPath, text)
		return
	}
	raw, err := os.ReadFile(goldenPath)
	walkthrough.Must(t, err)
	want := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if strings.Join(want, "\n") == strings.Join(got, "\n") {
		t.Logf("the transcript is kube-controller-manager's (%d lines)", len(got))
		return
	}
	var diff []string
	for i := range max(len(want), len(got)) {
		w, g := "", ""
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			diff = append(diff, fmt.Sprintf("line %d\n  kcm:  %s\n  here: %s", i+1, w, g))
		}
	}
	t.Fatalf("the transcript differs from kube-controller-manager's (%s):\n%s\nthe whole transcript:\n%s",
		goldenPath, strings.Join(diff, "\n"), text)
}

func TestCompareScriptOnFakeAPI(t *testing.T) {
	f := newFixture(t, 2, nil)
	f.start(t)
	compareGolden(t, playScript(t, f.client, "default", f.r.pods.GetStore()), false)
}

func TestCompareScriptOnKubeAPIServer(t *testing.T) {
	host, mode := os.Getenv("KUBE_APISERVER_URL"), os.Getenv("CONTROLLER_COMPARE")
	if host == "" || (mode != "kcm" && mode != "ours") {
		t.Skip("set KUBE_APISERVER_URL (and KUBE_TOKEN, KUBE_CACERT: source the kit's env) and CONTROLLER_COMPARE=kcm or ours")
	}
	client, err := informer.NewRESTClient(informer.RESTConfig{Host: host, BearerToken: os.Getenv("KUBE_TOKEN"),
		TLSClientConfig: informer.TLSClientConfig{CAFile: os.Getenv("KUBE_CACERT")}})
	walkthrough.Must(t, err)
	ns := newNamespace(t, client)
	var podCache informer.Store
	if mode == "ours" {
		r, err := newRunning(client, options{namespace: ns, workers: 2, gates: *walkthrough.Gates(), recorder: &eventLog{}})
		walkthrough.Must(t, err)
		r.run()
		t.Cleanup(func() { stopAndCheck(t, r) })
		podCache = r.pods.GetStore()
	}
	compareGolden(t, playScript(t, client, ns, podCache), mode == "kcm")
	if log := os.Getenv("KCM_LOG"); log != "" {
		raw, err := os.ReadFile(log)
		walkthrough.Must(t, err)
		kinds := kcmErrorKinds(string(raw))
		if os.Getenv("CONTROLLER_COMPARE_UPDATE") != "" { // add the kinds of this run to the list
			old, _ := os.ReadFile(kcmErrorsPath)
			var comments, all []string
			for _, line := range strings.Split(strings.TrimSpace(string(old)), "\n") {
				if strings.HasPrefix(line, "#") {
					comments = append(comments, line)
				} else if line != "" {
					all = append(all, line)
				}
			}
			all = append(all, kinds...)
			slices.Sort(all)
			text := strings.Join(append(comments, slices.Compact(all)...), "\n") + "\n"
			walkthrough.Must(t, os.WriteFile(kcmErrorsPath, []byte(text), 0o644))
		}
		t.Logf("kube-controller-manager's log (%s) holds these kinds of error:\n%s", log, strings.Join(kinds, "\n"))
	}
}

// newNamespace creates a namespace of its own for a run on a real server,
// deleted when the test ends (kube-controller-manager's namespace
// controller, if it runs, empties it; the kit runs only the controllers it
// is asked for, so a namespace may stay Terminating).
func newNamespace(t *testing.T, client *informer.RESTClient) string {
	t.Helper()
	ctx := context.Background()
	ns := fmt.Sprintf("compare-%06d", rand.IntN(1_000_000))
	namespaces := informer.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	_, err := client.Create(ctx, namespaces, &informer.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}})
	walkthrough.Must(t, err)
	t.Cleanup(func() { _, _ = client.Do(ctx, http.MethodDelete, namespaces, "", ns, nil, nil) })
	return ns
}

// kcmErrorsPath lists the kinds of error kube-controller-manager logged
// on kube-apiserver while it played the script (kcmErrorKinds).
const kcmErrorsPath = "testdata/kcm-errors.txt"

// kcmErrorLine is a line kube-controller-manager logs at error level: its
// source position and what follows.
var kcmErrorLine = regexp.MustCompile(`^E\d{4} [\d:.]+ +\d+ (\S+)\] (.*)$`)

// kcmErrorKind rewrites what varies in an error line (numbers, uids,
// names, the object dumped) so that lines of one kind compare equal.
var kcmErrorKind = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`&ReplicaSet\{.*`), "&ReplicaSet{...}"},
	{regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`), "UID"},
	{regexp.MustCompile(`\\"[a-z0-9-]+/[a-z0-9-]+\\"`), `\"NS/NAME\"`},
	{regexp.MustCompile(`\d+`), "N"},
}

// kcmErrorKinds returns the kinds of the error lines of a
// kube-controller-manager log, each once, sorted.
func kcmErrorKinds(log string) []string {
	seen := map[string]bool{}
	for _, line := range strings.Split(log, "\n") {
		m := kcmErrorLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		kind := m[1] + " " + m[2]
		for _, r := range kcmErrorKind {
			kind = r.re.ReplaceAllString(kind, r.with)
		}
		seen[kind] = true
	}
	return slices.Sorted(maps.Keys(seen))
}

// unknownKCMErrors returns the kinds of error in log that kube-controller-manager
// did not also log on kube-apiserver (kcmErrorsPath).
func unknownKCMErrors(t *testing.T, log string) []string {
	t.Helper()
	raw, err := os.ReadFile(kcmErrorsPath)
	walkthrough.Must(t, err)
	var known []string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		if !strings.HasPrefix(line, "#") {
			known = append(known, line)
		}
	}
	var unknown []string
	for _, kind := range kcmErrorKinds(log) {
		if !slices.Contains(known, kind) {
			unknown = append(unknown, kind)
		}
	}
	return unknown
}

func TestCompareScriptKCMOnFakeAPI(t *testing.T) {
	binary := os.Getenv("KCM_BINARY")
	if binary == "" && os.Getenv("KIT_DIR") != "" {
		binary = filepath.Join(os.Getenv("KIT_DIR"), "bin", "kube-controller-manager")
	}
	if binary == "" {
		t.Skip("set KCM_BINARY (or KIT_DIR) to run kube-controller-manager against fakeapi")
	}
	runs := 1
	if v := os.Getenv("CONTROLLER_COMPARE_RUNS"); v != "" {
		var err error
		runs, err = strconv.Atoi(v)
		walkthrough.Must(t, err)
	}
	for i := range runs {
		t.Run(fmt.Sprintf("run=%d", i+1), func(t *testing.T) {
			srv := walkthrough.StartServer(t, fakeapi.Options{DisableGarbageCollector: true})
			log := startKCM(t, binary, srv.URL())
			client := walkthrough.Client(t, srv)
			compareGolden(t, playScript(t, client, "default", nil), false)
			raw, err := os.ReadFile(log)
			walkthrough.Must(t, err)
			if unknown := unknownKCMErrors(t, string(raw)); len(unknown) > 0 {
				t.Fatalf("kube-controller-manager logged errors against fakeapi that it does not log against "+
					"kube-apiserver (%s):\n%s\nits log:\n%s", kcmErrorsPath, strings.Join(unknown, "\n"), raw)
			}
			t.Logf("kube-controller-manager logged %d kinds of error, each also on kube-apiserver", len(kcmErrorKinds(string(raw))))
		})
	}
}

// startKCM runs kube-controller-manager (replicaset and garbagecollector)
// against the plain-http server at url until the test ends, and returns
// the path of its log.
func startKCM(t *testing.T, binary, url string) string {
	t.Helper()
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	walkthrough.Must(t, os.WriteFile(kubeconfig, []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: fakeapi
  cluster:
    server: %s
users:
- name: nobody
  user: {}
contexts:
- name: fakeapi
  context: {cluster: fakeapi, user: nobody}
current-context: fakeapi
`, url)), 0o600))
	log := filepath.Join(dir, "kcm.log")
	out, err := os.Create(log)
	walkthrough.Must(t, err)
	cmd := exec.Command(binary, "--kubeconfig", kubeconfig, "--controllers", "replicaset,garbagecollector",
		"--leader-elect=false", "--secure-port=0", "--use-service-account-credentials=false", "--v", "1")
	cmd.Stdout, cmd.Stderr = out, out
	walkthrough.Must(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Errorf("kube-controller-manager (pid %d) did not end 10 s after a kill", cmd.Process.Pid)
			}
		}
		out.Close()
	})
	return log
}
