// restclient_test.go checks the HTTP ListerWatcher against fakeapi: a group
// resource decoded as Unstructured with every field kept, server-side label
// selectors (a pod that stops matching arrives as a delete), Status errors,
// and TLS with a CA file or insecure-skip-verify plus a bearer token.
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"context"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/learn-k8s/informer/fakeapi"
)

func TestRESTClientGroupResourceIsUnstructured(t *testing.T) {
	s := startServer(t, fakeapi.Options{})
	_, err := s.Create(fakeapi.Deployments, "default", map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "default"},
		"spec":     map[string]any{"replicas": 3, "selector": map[string]any{"matchLabels": map[string]any{"app": "web"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := NewRESTClient(RESTConfig{Host: s.URL()})
	lw := NewListWatchFromClient(c, GroupVersionResource{"apps", "v1", "deployments"}, NamespaceAll, "")
	inf := NewSharedIndexInformer(lw, &Unstructured{}, 0, Indexers{})
	runInformer(t, inf)
	obj, ok, _ := inf.GetStore().GetByKey("default/web")
	if !ok {
		t.Fatalf("keys %v", inf.GetStore().ListKeys())
	}
	u := obj.(*Unstructured)
	spec, _ := u.Object["spec"].(map[string]any)
	if u.GetKind() != "Deployment" || u.GetAPIVersion() != "apps/v1" || spec == nil || spec["replicas"] == nil {
		t.Fatalf("fields lost: %v", u.Object)
	}
}

func TestRESTClientLabelSelectorOnTheServer(t *testing.T) {
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "web", map[string]string{"app": "web"})
	createPod(t, s, "default", "db", map[string]string{"app": "db"})
	c, _ := NewRESTClient(RESTConfig{Host: s.URL()})
	lw := NewFilteredListWatchFromClient(c, podsResource, "default", func(o *ListOptions) { o.LabelSelector = "app=web" })
	inf := NewSharedIndexInformer(lw, &Pod{}, 0, Indexers{})
	h := &recorder{}
	_, _ = inf.AddEventHandler(h)
	runInformer(t, inf)
	if keys := inf.GetStore().ListKeys(); len(keys) != 1 || keys[0] != "default/web" {
		t.Fatalf("keys %v", keys)
	}
	relabelPod(t, s, "default", "web", map[string]string{"app": "other"})
	h.waitLine(t, "delete default/web") // stopped matching: the server says DELETED
	relabelPod(t, s, "default", "db", map[string]string{"app": "web"})
	h.waitLine(t, "add default/db initial=false") // started matching: ADDED
}

func TestRESTClientFieldSelectorOnTheServer(t *testing.T) {
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "web", nil)
	createPod(t, s, "other", "web", nil)
	createPod(t, s, "default", "db", nil)
	c, _ := NewRESTClient(RESTConfig{Host: s.URL()})
	inf := NewSharedIndexInformer(NewListWatchFromClient(c, podsResource, NamespaceAll, "metadata.name=web"), &Pod{}, 0, Indexers{})
	h := &recorder{}
	_, _ = inf.AddEventHandler(h)
	runInformer(t, inf)
	if keys := slices.Sorted(slices.Values(inf.GetStore().ListKeys())); !slices.Equal(keys, []string{"default/web", "other/web"}) {
		t.Fatalf("listed %v", keys)
	}
	createPod(t, s, "default", "cache", nil) // filtered out by the server
	deletePod(t, s, "other", "web")
	h.waitLine(t, "delete other/web")
	if h.has("add default/cache initial=false") {
		t.Fatal("the watch delivered a pod the field selector excludes")
	}
}

func TestRESTClientStatusErrors(t *testing.T) {
	s := startServer(t, fakeapi.Options{Token: "secret"})
	c, _ := NewRESTClient(RESTConfig{Host: s.URL(), BearerToken: "wrong"})
	_, err := NewListWatchFromClient(c, podsResource, "", "").List(context.Background(), ListOptions{})
	if ReasonForError(err) != StatusReasonUnauthorized {
		t.Fatalf("wrong token: %v (reason %q)", err, ReasonForError(err))
	}
	s.FailNext(1, 429)
	c, _ = NewRESTClient(RESTConfig{Host: s.URL(), BearerToken: "secret"})
	c.maxRetries = 0 // the 429 itself, not the retry (TestRESTClientRetriesWhenAsked)
	_, err = NewListWatchFromClient(c, podsResource, "", "").List(context.Background(), ListOptions{})
	if secs, ok := SuggestsClientDelay(err); !IsTooManyRequests(err) || !ok || secs != 1 {
		t.Fatalf("429: %v", err)
	}
	if _, err := NewRESTClient(RESTConfig{Host: "127.0.0.1:6443"}); err == nil {
		t.Fatal("a host without a scheme should be refused")
	}
}

// TestRESTClientBareCodes checks what a failure without a Status body
// becomes, as in client-go (apimachinery's errors.NewGenericServerResponse):
// each code's reason, the body kept as the cause, the Retry-After header as
// retryAfterSeconds; and that a Status body is taken as written, header or not.
func TestRESTClientBareCodes(t *testing.T) {
	answer := make(chan func(http.ResponseWriter), 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case f := <-answer:
			f(w)
		case <-time.After(5 * time.Second):
			http.Error(w, "the test gave no answer", http.StatusTeapot)
		}
	}))
	defer srv.Close()
	c, _ := NewRESTClient(RESTConfig{Host: srv.URL})
	c.maxRetries = 0 // the answers themselves, not the retries (TestRESTClientRetriesWhenAsked)
	ctx := context.Background()
	bare := func(code int, body string, header ...string) error {
		answer <- func(w http.ResponseWriter) {
			for i := 0; i+1 < len(header); i += 2 {
				w.Header().Set(header[i], header[i+1])
			}
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(code)
			w.Write([]byte(body))
		}
		_, err := c.Get(ctx, podsResource, "default", "web")
		return err
	}

	err := bare(429, "slow down\n", "Retry-After", "2")
	if secs, ok := SuggestsClientDelay(err); !IsTooManyRequests(err) || !ok || secs != 2 {
		t.Errorf("a bare 429 with Retry-After: 2: %v (delay %d, %v); want TooManyRequests and 2 s", err, secs, ok)
	}
	if s := err.(*StatusError).Status(); s.Details == nil || len(s.Details.Causes) != 1 ||
		s.Details.Causes[0].Type != CauseTypeUnexpectedServerResponse || s.Details.Causes[0].Message != "slow down" {
		t.Errorf("a bare 429: details %+v; want the body as an UnexpectedServerResponse cause", s.Details)
	}
	err = bare(410, "")
	if ReasonForError(err) != StatusReasonUnknown || !IsGone(err) {
		t.Errorf("a bare 410: %v (reason %q); client-go gives it no reason, and IsGone holds by its code", err, ReasonForError(err))
	}
	err = bare(403, `pods "web" is forbidden: User "x" cannot get resource "pods"`)
	if ReasonForError(err) != StatusReasonForbidden || !strings.HasPrefix(err.Error(), `pods "web" is forbidden`) {
		t.Errorf("a bare 403: %v (reason %q); client-go keeps the server's words", err, ReasonForError(err))
	}
	err = bare(502, "bad gateway")
	if !IsInternalError(err) || !strings.Contains(err.Error(), `"bad gateway"`) {
		t.Errorf("a bare 502: %v; want InternalError quoting the body", err)
	}
	answer <- func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "7")
		w.WriteHeader(429)
		w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"busy","reason":"TooManyRequests","code":429}`))
	}
	_, err = c.Get(ctx, podsResource, "default", "web")
	if _, ok := SuggestsClientDelay(err); !IsTooManyRequests(err) || ok || err.Error() != "busy" {
		t.Errorf("a Status 429 without retryAfterSeconds but a Retry-After header: %v (delay given: %v); "+
			"client-go takes the Status as written", err, ok)
	}
}

func TestRESTClientUpdateStatusChangesOnlyTheStatus(t *testing.T) {
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", nil)
	c, _ := NewRESTClient(RESTConfig{Host: s.URL()})
	ctx := context.Background()
	obj, err := c.Get(ctx, podsResource, "default", "a")
	if err != nil {
		t.Fatal(err)
	}
	pod := obj.(*Pod)
	stale := pod.GetResourceVersion()
	pod.Status.Phase = "Running"
	pod.Spec.Containers[0].Image = "changed:1" // ignored by /status
	obj, err = c.UpdateStatus(ctx, podsResource, pod)
	if err != nil {
		t.Fatal(err)
	}
	got := obj.(*Pod)
	if got.Status.Phase != "Running" || got.Spec.Containers[0].Image == "changed:1" {
		t.Fatalf("after UpdateStatus: phase %q, image %q; want the status changed and the spec kept",
			got.Status.Phase, got.Spec.Containers[0].Image)
	}
	pod.SetResourceVersion(stale)
	if _, err := c.UpdateStatus(ctx, podsResource, pod); !IsConflict(err) {
		t.Fatalf("UpdateStatus with a stale resourceVersion: %v, want 409 Conflict", err)
	}
}

func TestRESTClientTLSWithCAFileOrInsecure(t *testing.T) {
	s := startServer(t, fakeapi.Options{Token: "secret"})
	createPod(t, s, "default", "a", nil)
	target, _ := url.Parse(s.URL())
	tlsFront := httptest.NewTLSServer(httputil.NewSingleHostReverseProxy(target))
	defer tlsFront.Close()
	caFile := filepath.Join(t.TempDir(), "ca.crt")
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tlsFront.Certificate().Raw})
	if err := os.WriteFile(caFile, caPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	list := func(cfg RESTConfig) (*ObjectList, error) {
		c, err := NewRESTClient(cfg)
		if err != nil {
			return nil, err
		}
		return NewListWatchFromClient(c, podsResource, "default", "").List(context.Background(), ListOptions{})
	}
	for name, tc := range map[string]TLSClientConfig{"ca file": {CAFile: caFile}, "insecure": {Insecure: true}} {
		l, err := list(RESTConfig{Host: tlsFront.URL, BearerToken: "secret", TLSClientConfig: tc})
		if err != nil || len(l.Items) != 1 {
			t.Fatalf("%s: %v %v", name, l, err)
		}
	}
	if _, err := list(RESTConfig{Host: tlsFront.URL, BearerToken: "secret"}); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("an unknown CA must be refused: %v", err)
	}
}

func TestParseSelector(t *testing.T) {
	labels := Set{"app": "web", "tier": "frontend"}
	cases := map[string]bool{
		"":                              true,
		"app=web":                       true,
		"app==web,tier=frontend":        true,
		"app!=web":                      false,
		"app in (web, api)":             true,
		"app notin (web)":               false,
		"tier":                          true,
		"!tier":                         false,
		"!canary":                       true,
		"app in (web),env notin (prod)": true,
	}
	for text, want := range cases {
		sel, err := ParseSelector(text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if got := sel.Matches(labels); got != want {
			t.Errorf("%q matches %v: got %v", text, labels, got)
		}
		if again, err := ParseSelector(sel.String()); err != nil || again.String() != sel.String() {
			t.Errorf("%q does not round-trip: %q, %v", text, sel.String(), err)
		}
	}
	for _, bad := range []string{"a b", "app in web", ",", "x in (a,b", "=web"} {
		if _, err := ParseSelector(bad); err == nil {
			t.Errorf("%q should not parse", bad)
		}
	}
	if got := SelectorFromSet(Set{"b": "2", "a": "1"}).String(); got != "a=1,b=2" {
		t.Errorf("SelectorFromSet: %q", got)
	}
}

// TestRESTClientRejectsABadCA: a CA file or CA data without a certificate
// in it is a configuration error, reported at once, not a silent fallback
// to the system roots (which would fail later with a puzzling x509 error).
func TestRESTClientRejectsABadCA(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.crt")
	must(t, os.WriteFile(empty, nil, 0o600))
	for name, tc := range map[string]TLSClientConfig{
		"empty CA file":       {CAFile: empty},
		"CA data without PEM": {CAData: []byte("not a certificate")},
		"missing CA file":     {CAFile: filepath.Join(t.TempDir(), "nope.crt")},
	} {
		if _, err := NewRESTClient(RESTConfig{Host: "https://127.0.0.1:6443", TLSClientConfig: tc}); err == nil {
			t.Errorf("%s: NewRESTClient accepted it", name)
		}
	}
}
