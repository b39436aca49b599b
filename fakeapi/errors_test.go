// errors_test.go: every error answer is a Status with the right code and
// reason, and a rejected request changes nothing.

package fakeapi

import (
	"net/http"
	"strings"
	"testing"
)

func TestErrorAnswers(t *testing.T) {
	s := startServer(t, Options{})
	mustCreatePod(t, s, "demo", "app=demo")
	pods := s.URL() + "/api/v1/namespaces/default/pods"
	big := `{"metadata":{"name":"big"},"data":{"x":"` + strings.Repeat("x", 3<<20) + `"}}`
	for _, c := range []struct {
		name, method, url, ct, body string
		code                        int
		reason                      string
	}{
		{"malformed JSON", "POST", pods, "application/json", `{"metadata":`, 400, "BadRequest"},
		{"not an object", "POST", pods, "application/json", `[1]`, 400, "BadRequest"},
		{"wrong kind", "POST", pods, "application/json", `{"kind":"Service","metadata":{"name":"x"}}`, 400, "BadRequest"},
		{"namespace in body differs", "POST", pods, "application/json", `{"metadata":{"name":"x","namespace":"other"}}`, 400, "BadRequest"},
		{"name in body differs", "PUT", pods + "/demo", "application/json", podJSON("other", ""), 400, "BadRequest"},
		{"missing name", "POST", pods, "application/json", `{"metadata":{}}`, 422, "Invalid"},
		{"invalid name", "POST", pods, "application/json", `{"metadata":{"name":"Bad_Name"}}`, 422, "Invalid"},
		{"unknown resource", "GET", s.URL() + "/api/v1/widgets", "", "", 404, "NotFound"},
		{"unknown path", "GET", s.URL() + "/nope", "", "", 404, "NotFound"},
		{"POST to an object", "POST", pods + "/demo", "application/json", "{}", 405, "MethodNotAllowed"},
		{"DELETE the namespaces", "DELETE", s.URL() + "/api/v1/namespaces", "", "", 405, "MethodNotAllowed"},
		{"POST to an all-namespace list", "POST", s.URL() + "/api/v1/pods", "application/json", podJSON("x", ""), 405, "MethodNotAllowed"},
		{"yaml body", "POST", pods, "application/yaml", "metadata: {name: x}", 415, "UnsupportedMediaType"},
		{"apply patch", "PATCH", pods + "/demo", "application/apply-patch+yaml", "{}", 415, "UnsupportedMediaType"},
		{"3 MiB body", "POST", s.URL() + "/api/v1/namespaces/default/configmaps", "application/json", big, 413, "RequestEntityTooLarge"},
	} {
		before := dumpState(s)
		code, got := call(t, c.method, c.url, c.ct, c.body)
		if code != c.code || got["kind"] != "Status" || got["status"] != "Failure" || got["reason"] != c.reason || got["code"] != float64(c.code) {
			t.Errorf("%s: %d %v, want %d %s", c.name, code, got, c.code, c.reason)
		}
		if msg, _ := got["message"].(string); msg == "" {
			t.Errorf("%s: no message", c.name)
		}
		if dumpState(s) != before {
			t.Errorf("%s: a rejected request changed the store", c.name)
		}
	}
	if items, _ := s.List(Pods, ""); len(items) != 1 {
		t.Errorf("%d pods after rejected requests, want 1", len(items))
	}
}

func TestTokenRequired(t *testing.T) {
	s := startServer(t, Options{Token: "secret"})
	code, got := call(t, "GET", s.URL()+"/api/v1/pods", "", "")
	if code != 401 || got["reason"] != "Unauthorized" {
		t.Fatalf("no token: %d %v", code, got)
	}
	req, _ := http.NewRequest("GET", s.URL()+"/api/v1/pods", nil)
	req.Header.Set("Authorization", "Bearer secret")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("with token: %d", resp.StatusCode)
	}
}

func TestInjectedFailures(t *testing.T) {
	s := startServer(t, Options{})
	u := s.URL() + "/api/v1/namespaces/default/pods"
	s.FailNext(2, 429)
	for range 2 {
		code, raw, h := callRaw(t, "POST", u, "application/json", podJSON("demo", ""))
		if code != 429 || h.Get("Retry-After") != "1" || !strings.Contains(string(raw), `"retryAfterSeconds":1`) || !strings.Contains(string(raw), `"TooManyRequests"`) {
			t.Errorf("injected 429: %d %q %s", code, h.Get("Retry-After"), raw)
		}
	}
	if items, _ := s.List(Pods, ""); len(items) != 0 {
		t.Error("a failed create stored the pod")
	}
	s.FailNext(1, 500)
	if code, got := call(t, "GET", u, "", ""); code != 500 || got["reason"] != "InternalError" {
		t.Errorf("injected 500: %d %v", code, got)
	}
	if code, _ := call(t, "GET", u, "", ""); code != 200 {
		t.Errorf("after the failures: %d", code)
	}
	if code, _ := call(t, "GET", s.URL()+"/version", "", ""); code != 200 {
		t.Error("/version")
	}
	st := s.Stats()
	if st.Failed != 3 || st.Lists != 1 || st.Writes != 0 {
		t.Errorf("stats = %+v, want 3 failed (injected answers are not counted by verb), 1 list", st)
	}
}
