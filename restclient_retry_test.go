// restclient_retry_test.go checks when the RESTClient sends a request
// again: when the server asks (429 or 5xx with Retry-After), at most ten
// times, and when the connection broke before an answer; never for a 5xx
// without Retry-After. The parity harness (parity/, case TooManyRequests)
// shows the same against client-go on fake time; this runs it on a real
// server.
//
// client-go counterpart: rest's with_retry_test.go and request_test.go.
//
// Tutorial: 004 §4.1 (the Reflector over HTTP).

package informer

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

func TestRESTClientRetriesWhenAsked(t *testing.T) {
	var mu sync.Mutex
	var script []func(http.ResponseWriter) // what the next requests get; then an empty list
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests++
		var answer func(http.ResponseWriter)
		if len(script) > 0 {
			answer, script = script[0], script[1:]
		}
		mu.Unlock()
		if answer != nil {
			answer(w)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[]}`))
	}))
	defer srv.Close()
	code := func(c int, retryAfter string) func(http.ResponseWriter) {
		return func(w http.ResponseWriter) {
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			w.WriteHeader(c)
		}
	}
	hangUp := func(w http.ResponseWriter) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	}
	c, _ := NewRESTClient(RESTConfig{Host: srv.URL})
	list := func(answers ...func(http.ResponseWriter)) (int, error) {
		mu.Lock()
		script, requests = answers, 0
		mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := NewListWatchFromClient(c, podsResource, "", "").List(ctx, ListOptions{})
		mu.Lock()
		defer mu.Unlock()
		return requests, err
	}

	if n, err := list(code(429, "0"), code(503, "0")); err != nil || n != 3 {
		t.Errorf("429 and 503 with Retry-After, then 200: %d requests, %v; want 3 and the list", n, err)
	}
	if n, err := list(code(500, "")); err == nil || n != 1 {
		t.Errorf("500 without Retry-After: %d requests, %v; want 1 and the 500", n, err)
	}
	many := make([]func(http.ResponseWriter), 12)
	for i := range many {
		many[i] = code(429, "0")
	}
	if n, err := list(many...); !IsTooManyRequests(err) || n != 11 {
		t.Errorf("429 twelve times: %d requests, %v; want 11 (one and ten retries) and the last 429", n, err)
	}
	// A connection closed before any answer: asked again a second later.
	// (A new connection: net/http itself retries only on a reused one.)
	c.client = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	if n, err := list(hangUp); err != nil || n != 2 {
		t.Errorf("a connection closed before the answer, then 200: %d requests, %v; want 2 and the list", n, err)
	}
}
