// watch_end_test.go checks how a watch stream ends, error by error, against
// the rules of client-go v0.37.2's StreamWatcher.receive (utilnet.IsProbableEOF
// and utilnet.IsTimeout): the stream decoder reads an event, then meets the
// error, and either just closes its channel (the Reflector re-watches) or
// sends a 500 ERROR event first (the Reflector relists).
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
)

// failingBody returns one event, then fails with err.
type failingBody struct {
	r   io.Reader
	err error
}

func (b *failingBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF {
		return n, b.err
	}
	return n, err
}

func (b *failingBody) Close() error { return nil }

func TestWatchStreamEndsLikeClientGo(t *testing.T) {
	resetErr := &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	refusedErr := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	deadlineErr := &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
	goAway := errors.New(`http2: server sent GOAWAY and closed the connection; LastStreamID=3, ErrCode=NO_ERROR, debug=""`)
	cases := []struct {
		name   string
		err    error
		normal bool // true: the watch just ends; false: an ERROR event first
	}{
		// The normal end: the server finished the response.
		{"io.EOF", io.EOF, true},
		// The connection dropped in the middle of an event (HTTP/1.1 chunked body cut short).
		{"io.ErrUnexpectedEOF", io.ErrUnexpectedEOF, true},
		{"url.Error wrapping io.EOF", &url.Error{Op: "Get", URL: "https://x", Err: io.EOF}, true},
		// client-go compares with ==: an EOF wrapped by anything but url.Error is an error.
		{"fmt wrapping io.EOF", fmt.Errorf("reading: %w", io.EOF), false},
		// A graceful HTTP/2 shutdown: GOAWAY, then the connection closed under the watch.
		{"HTTP/2 GOAWAY then close", goAway, true},
		{"connection reset by peer", resetErr, true},
		{"use of closed network connection", fmt.Errorf("read: %w", net.ErrClosed), true},
		{"broken connection on write", errors.New("http: can't write HTTP request on broken connection"), true},
		// Timeouts: any net.Error whose Timeout() is true.
		{"read deadline (i/o timeout)", deadlineErr, true},
		{"context.DeadlineExceeded", context.DeadlineExceeded, true},
		// What client-go turns into an ERROR event (then a relist).
		{"HTTP/2 ping unanswered (client connection lost)", errors.New("http2: client connection lost"), false},
		{"context.Canceled", context.Canceled, false},
		{"body read after Close", http.ErrBodyReadAfterClose, false},
		{"connection refused", refusedErr, false},
		{"broken JSON", &json.SyntaxError{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := endsWatchNormally(tc.err); got != tc.normal {
				t.Fatalf("endsWatchNormally(%v) = %v, want %v", tc.err, got, tc.normal)
			}
			event := `{"type":"ADDED","object":{"metadata":{"name":"a","namespace":"default","resourceVersion":"5"}}}`
			body := &failingBody{r: strings.NewReader(event), err: tc.err}
			sw := newStreamWatcher(jsonAnswer(body), objectFactory(podsResource), func() {})
			defer sw.Stop()
			if ev := receive(t, "the first event", sw.ResultChan()); ev.Type != WatchAdded {
				t.Fatalf("first event: %s %#v", ev.Type, ev.Object)
			}
			ev, open := receiveOrClosed(t, "an ERROR event or the watch's end", sw.ResultChan())
			switch {
			case tc.normal && open:
				t.Fatalf("want the watch to end normally, got %s %v", ev.Type, FromObject(ev.Object))
			case !tc.normal && !open:
				t.Fatal("want an ERROR event, the watch just ended")
			case !tc.normal:
				if err := FromObject(ev.Object); ev.Type != WatchError || !IsInternalError(err) ||
					!strings.Contains(err.Error(), "unable to decode an event from the watch stream") {
					t.Fatalf("want a 500 ERROR event, got %s %v", ev.Type, err)
				}
				_, open := receiveOrClosed(t, "the close after the ERROR event", sw.ResultChan())
				if open {
					t.Fatal("the channel should close after the ERROR event")
				}
			}
		})
	}
}
