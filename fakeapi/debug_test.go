// debug_test.go: the debug endpoints switch the faults on over HTTP (POST,
// loopback only), and the graceful shutdown and black hole of the Go API.

package fakeapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

func post(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := client.Post(url, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestDebugEndpoints(t *testing.T) {
	s := startServer(t, Options{Debug: true})
	mustCreatePod(t, s, "a", "")
	old := s.ResourceVersion()
	mustCreatePod(t, s, "b", "")
	debug := s.URL() + "/debug/fakeapi/"

	t.Run("close-watches ends every watch", func(t *testing.T) {
		st := openWatch(t, s.URL()+"/api/v1/pods?watch=1&resourceVersion="+s.ResourceVersion())
		if code, msg := post(t, debug+"close-watches"); code != 200 {
			t.Fatalf("%d %s", code, msg)
		}
		st.ended(t)
	})
	t.Run("compact: a re-watch from an older version gets 410", func(t *testing.T) {
		if code, msg := post(t, debug+"compact"); code != 200 {
			t.Fatalf("%d %s", code, msg)
		}
		st := openWatch(t, s.URL()+"/api/v1/pods?watch=1&resourceVersion="+old)
		ev := st.next(t, false)
		if ev.Type != "ERROR" || ev.Object["code"] != float64(410) {
			t.Fatalf("got %s %v, want ERROR 410", ev.Type, ev.Object)
		}
	})
	t.Run("fail: the next N requests fail with the code", func(t *testing.T) {
		for _, code := range []int{500, 429, 503} {
			if c, msg := post(t, debug+"fail?count=2&code="+strconv.Itoa(code)); c != 200 {
				t.Fatalf("%d %s", c, msg)
			}
			for i := range 3 {
				got, _, h := callRaw(t, "GET", s.URL()+"/api/v1/pods", "", "")
				want := code
				if i == 2 {
					want = 200
				}
				if got != want {
					t.Fatalf("request %d after fail?code=%d: %d", i, code, got)
				}
				if got == 429 && h.Get("Retry-After") != "1" {
					t.Fatalf("429 without Retry-After: %v", h)
				}
			}
		}
	})
	t.Run("delay", func(t *testing.T) {
		if code, msg := post(t, debug+"delay?duration=250ms"); code != 200 || time.Duration(s.delay.Load()) != 250*time.Millisecond {
			t.Fatalf("%d %s, delay %v", code, msg, time.Duration(s.delay.Load()))
		}
		post(t, debug+"delay?duration=0") // debug requests are not delayed
		if d := s.delay.Load(); d != 0 {
			t.Fatalf("delay %v after duration=0", time.Duration(d))
		}
	})
	t.Run("shutdown, then back", func(t *testing.T) {
		st := openWatch(t, s.URL()+"/api/v1/pods?watch=1&resourceVersion="+s.ResourceVersion())
		if code, msg := post(t, debug+"shutdown?closeAfter=10ms&down=20ms"); code != 200 {
			t.Fatalf("%d %s", code, msg)
		}
		st.ended(t)
		deadline := time.Now().Add(5 * time.Second)
		for {
			if resp, err := client.Get(s.URL() + "/api/v1/pods"); err == nil {
				resp.Body.Close()
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the server did not come back")
			}
			time.Sleep(5 * time.Millisecond) // polling interval
		}
	})
	t.Run("refusals", func(t *testing.T) {
		for _, tc := range []struct {
			method, path string
			want         int
		}{
			{"GET", "compact", http.StatusMethodNotAllowed},
			{"POST", "fail?code=abc", http.StatusBadRequest},
			{"POST", "fail?code=200", http.StatusBadRequest},
			{"POST", "delay?duration=soon", http.StatusBadRequest},
			{"POST", "reboot", http.StatusBadRequest},
		} {
			if got, body, _ := callRaw(t, tc.method, debug+tc.path, "", ""); got != tc.want {
				t.Errorf("%s %s: %d %s, want %d", tc.method, tc.path, got, body, tc.want)
			}
		}
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", debug+"compact", nil)
		req.RemoteAddr = "192.0.2.7:40000"
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusForbidden {
			t.Errorf("a POST from 192.0.2.7: %d, want 403", rec.Code)
		}
	})
	t.Run("blackhole", func(t *testing.T) {
		// Last: every other connection to s goes dark (the request's own is spared).
		if code, msg := post(t, debug+"blackhole?duration=0s"); code != 200 {
			t.Fatalf("%d %s", code, msg)
		}
		client.CloseIdleConnections()
	})
}

func TestDebugEndpointsOffByDefault(t *testing.T) {
	s := startServer(t, Options{})
	if code, _ := post(t, s.URL()+"/debug/fakeapi/compact"); code != http.StatusNotFound {
		t.Fatalf("without Options.Debug: %d, want 404", code)
	}
}

func TestBlackHoleDarkensConnections(t *testing.T) {
	s := startServer(t, Options{})
	st := openWatch(t, s.URL()+"/api/v1/pods?watch=1&resourceVersion="+s.ResourceVersion())
	mustCreatePod(t, s, "before", "")
	st.expect(t, "ADDED", "before")
	s.BlackHole(0)
	mustCreatePod(t, s, "during", "")
	// A connection dialled after the hole works; the dark one stays dark.
	if code, _ := call(t, "GET", s.URL()+"/api/v1/pods", "", ""); code != 200 {
		t.Fatalf("a new connection after the hole: %d", code)
	}
	select {
	case ev := <-st.events:
		t.Fatalf("the dark connection delivered %s", ev.Type)
	case <-time.After(100 * time.Millisecond): // a bound on a negative: nothing may arrive
	}
}
