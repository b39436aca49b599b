// realwrites_test.go: writes checked against a real kube-apiserver's answers.
//
// A scenario is a few requests in a namespace of its own. Its answers were
// recorded from a real kube-apiserver v1.37.2 (the kit's, kit/start.sh) and
// saved, normalised, in testdata/writes/<scenario>.json; TestWritesLikeReal
// sends the same requests to fakeapi and compares: the code and the whole
// Status of a failure, the chosen fields of a success, the watch events,
// and, for requests marked same, that fakeapi stored nothing (no new
// resourceVersion, so no event). To record again, on a freshly started
// server (kit/start.sh begins with an empty etcd, and scenario namespaces
// cannot be deleted there: no controller manager empties them), from the
// repository's root:
//
//	kit/start.sh && source .kit/run/env
//	FAKEAPI_CAPTURE=1 go test -run TestCaptureWrites ./fakeapi
//
// The scenarios live in writes_*_test.go, one file per topic.

package fakeapi

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// wstep is one request of a scenario. In path and body, {ns} is the
// scenario's namespace, {uid:NAME} and {rv:NAME} the uid and
// resourceVersion of the last answer about object NAME, {ip:NAME} the
// spec.clusterIP of the first answer about it.
//
// Two pseudo-methods read watch events: WATCH opens a watch on path from
// the version of a list of it, EVENTS takes what that watch has seen (on
// the real server: until nothing comes for two seconds).
type wstep struct {
	method, path, body string
	ctype              string   // Content-Type; "" = application/json
	cmp                []string // dotted paths of a success compared ("" = all); a failure is compared whole
	same               bool     // fakeapi must store nothing: no new resourceVersion
	// realOnly steps are sent to the real server only: they do there what
	// a controller fakeapi runs itself would do (the namespace controller
	// emptying a Terminating namespace, the garbage collector).
	realOnly bool
}

// wscenario is a named list of steps; its namespace is created first.
type wscenario struct {
	name  string
	steps []wstep
}

// wanswer is one recorded answer, as saved in testdata/writes.
type wanswer struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Code   int    `json:"code"`
	Answer any    `json:"answer"`
}

// scenarios gathers the scenarios of every writes_*_test.go file.
func scenarios() []wscenario {
	var all []wscenario
	for _, set := range [][]wscenario{deleteScenarios, namespaceScenarios, validationScenarios,
		statusScenarios, defaultScenarios, miscScenarios, lifecycleScenarios} {
		all = append(all, set...)
	}
	return all
}

// runner sends a scenario's requests to one server.
type runner struct {
	t     *testing.T
	base  string
	hc    *http.Client
	token string
	ns    string
	uids  map[string]string
	rvs   map[string]string
	ips   map[string]string          // spec.clusterIP, from the first answer about each object
	watch map[string]chan watchEvent // by the path of its WATCH step
	quiet time.Duration              // EVENTS ends after this long without an event; 0 = read want events
}

func (r *runner) expand(s string) string {
	s = strings.ReplaceAll(s, "{ns}", r.ns)
	return regexp.MustCompile(`\{(uid|rv|ip):([a-z0-9.-]+)\}`).ReplaceAllStringFunc(s, func(m string) string {
		kind, name, _ := strings.Cut(m[1:len(m)-1], ":")
		switch kind {
		case "uid":
			return r.uids[name]
		case "ip":
			return r.ips[name]
		}
		return r.rvs[name]
	})
}

// do sends one step and returns its code and decoded answer (raw, not normalised).
func (r *runner) do(st wstep, want int) (int, any) {
	r.t.Helper()
	switch st.method {
	case "WATCH":
		_, list := r.do(wstep{method: "GET", path: st.path}, 0)
		rv, _ := meta(list.(map[string]any))["resourceVersion"].(string)
		sep := "?"
		if strings.Contains(st.path, "?") {
			sep = "&"
		}
		r.openWatch(st.path, r.expand(st.path)+sep+"watch=1&resourceVersion="+rv)
		return 200, map[string]any{}
	case "EVENTS":
		return 200, r.events(r.watch[st.path], want)
	}
	ctype := st.ctype
	if ctype == "" {
		ctype = "application/json"
	}
	var body io.Reader
	if st.body != "" {
		body = strings.NewReader(r.expand(st.body))
	}
	req, err := http.NewRequest(st.method, r.base+r.expand(st.path), body)
	if err != nil {
		r.t.Fatal(err)
	}
	req.Header.Set("Content-Type", ctype)
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	resp, err := r.hc.Do(req)
	if err != nil {
		r.t.Fatalf("%s %s: %v", st.method, st.path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		r.t.Fatalf("%s %s: %d, not JSON: %q", st.method, st.path, resp.StatusCode, raw)
	}
	if md := meta(m); md != nil && resp.StatusCode < 300 {
		if name, _ := md["name"].(string); name != "" {
			r.uids[name], _ = md["uid"].(string)
			r.rvs[name], _ = md["resourceVersion"].(string)
			if _, seen := r.ips[name]; !seen && r.ips != nil {
				r.ips[name], _ = atPath(m, "spec.clusterIP").(string)
			}
		}
	}
	return resp.StatusCode, m
}

func (r *runner) openWatch(path, url string) {
	req, err := http.NewRequest("GET", r.base+url, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	resp, err := r.hc.Do(req)
	if err != nil || resp.StatusCode != 200 {
		r.t.Fatalf("watch %s: %v %v", url, err, resp)
	}
	ch := make(chan watchEvent, 100)
	go func() {
		defer close(ch)
		dec := json.NewDecoder(resp.Body)
		for {
			var ev watchEvent
			if dec.Decode(&ev) != nil {
				return
			}
			ch <- ev
		}
	}()
	if r.watch == nil {
		r.watch = map[string]chan watchEvent{}
	}
	r.watch[path] = ch
	r.t.Cleanup(func() { resp.Body.Close() })
}

// events reads the open watch: want events (fakeapi), or until it is quiet.
func (r *runner) events(watch chan watchEvent, want int) map[string]any {
	var types []any
	var objs []any
	deadline := time.After(10 * time.Second)
	for r.quiet > 0 || len(types) < want {
		var quiet <-chan time.Time
		if r.quiet > 0 {
			quiet = time.After(r.quiet)
		}
		select {
		case ev, ok := <-watch:
			if !ok {
				r.t.Fatal("watch ended")
			}
			types = append(types, ev.Type)
			objs = append(objs, ev.Object)
			continue
		case <-quiet:
		case <-deadline:
			r.t.Errorf("%d events within 10s, want %d", len(types), want)
		}
		break
	}
	return map[string]any{"types": types, "objects": objs}
}

// TestCaptureWrites records every scenario's answers from a real server.
func TestCaptureWrites(t *testing.T) {
	url := os.Getenv("KUBE_APISERVER_URL")
	if url == "" || os.Getenv("FAKEAPI_CAPTURE") == "" {
		t.Skip("set FAKEAPI_CAPTURE=1 and KUBE_APISERVER_URL (KUBE_TOKEN, KUBE_CACERT) to record from a real kube-apiserver")
	}
	tr := &http.Transport{}
	if ca := os.Getenv("KUBE_CACERT"); ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			t.Fatal(err)
		}
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(pem)
		tr.TLSClientConfig = &tls.Config{RootCAs: pool}
	}
	only := os.Getenv("FAKEAPI_CAPTURE_ONLY")
	for _, sc := range scenarios() {
		if only != "" && !strings.Contains(sc.name, only) {
			continue
		}
		t.Run(sc.name, func(t *testing.T) {
			r := &runner{t: t, base: url, hc: &http.Client{Transport: tr}, token: os.Getenv("KUBE_TOKEN"),
				ns: "w-" + sc.name, uids: map[string]string{}, rvs: map[string]string{}, ips: map[string]string{}, quiet: 2 * time.Second}
			r.do(wstep{method: "POST", path: "/api/v1/namespaces", body: `{"metadata":{"name":"{ns}"}}`}, 0)
			var out []wanswer
			for _, st := range sc.steps {
				code, ans := r.do(st, 0)
				out = append(out, wanswer{st.method, st.path, code, normalize(ans)})
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(out); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll("testdata/writes", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile("testdata/writes/"+sc.name+".json", buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestWritesLikeReal sends every scenario to fakeapi and compares the
// answers with the real server's.
func TestWritesLikeReal(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			raw, err := os.ReadFile("testdata/writes/" + sc.name + ".json")
			if err != nil {
				t.Skipf("no capture yet: %v", err)
			}
			var real []wanswer
			if err := json.Unmarshal(raw, &real); err != nil {
				t.Fatal(err)
			}
			if len(real) != len(sc.steps) {
				t.Fatalf("capture has %d steps, scenario %d: record it again", len(real), len(sc.steps))
			}
			// The namespace controller waits a second before it empties a
			// deleted namespace: the steps right after a namespace's delete
			// see it Terminating, as on the real server.
			s := startServer(t, Options{NamespaceDeletionDelay: time.Second})
			r := &runner{t: t, base: s.URL(), hc: client, ns: "w-" + sc.name, uids: map[string]string{}, rvs: map[string]string{}, ips: map[string]string{}}
			r.do(wstep{method: "POST", path: "/api/v1/namespaces", body: `{"metadata":{"name":"{ns}"}}`}, 0)
			for i, st := range sc.steps {
				if st.realOnly {
					continue
				}
				want := real[i]
				want.Answer = comparable(normalize(want.Answer))
				n := 0
				if ev, ok := want.Answer.(map[string]any); ok && st.method == "EVENTS" {
					n = len(ev["types"].([]any))
				}
				before := s.ResourceVersion()
				code, ans := r.do(st, n)
				got := comparable(normalize(ans))
				what := fmt.Sprintf("step %d: %s %s", i, st.method, st.path)
				if code != want.Code {
					t.Errorf("%s: code %d, real server %d\nfake: %s\nreal: %s", what, code, want.Code, show(got), show(want.Answer))
					continue
				}
				if st.same && s.ResourceVersion() != before {
					t.Errorf("%s: stored something (resourceVersion %s -> %s)", what, before, s.ResourceVersion())
				}
				compareAnswer(t, what, st, got, want.Answer)
			}
		})
	}
}
