// restclient_retry.go holds when the RESTClient sends a request again, as
// client-go's REST client does: when the server asks it to (a 429, or any
// 5xx, with a Retry-After header: after that many seconds), and when the
// connection broke before any answer came (after a second), for requests
// that may be repeated: a watch, whose stream would take the error as the
// normal end of a watch, and any other read, after a reset or closed
// connection. A write is never sent again on a broken connection: it may
// have been applied. At most ten times; then the last outcome stands.
//
// So a busy server's 429 to the second page of a list costs the second page
// again, not the list from its start (parity case TooManyRequests).
//
// client-go counterpart: k8s.io/client-go/rest with_retry.go (withRetry:
// IsNextRetry, Before, checkWait; retryAfterResponse's one second) and
// request.go (Request.request's and Request.Watch's retriable errors, the
// default of 10 retries, the empty watch of a watch that kept failing).
//
// Tutorial: 004 §4.1 (the Reflector over HTTP).

package informer

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// defaultMaxRetries is how many times, at most, a request is sent again:
// the default of client-go's rest.Request (RESTClient.maxRetries).
const defaultMaxRetries = 10

// retryAfter says whether one attempt's outcome (resp, or err when no
// answer came) is worth another, and after how long.
func retryAfter(req *http.Request, resp *http.Response, err error) (time.Duration, bool) {
	if err != nil {
		return time.Second, retriableError(req, err)
	}
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
		return 0, false
	}
	seconds, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	return time.Duration(seconds) * time.Second, err == nil
}

// retriableError reports whether a request that got no answer, only err, may
// be sent again: a watch after an error its stream would take as the normal
// end of a watch (endsWatchNormally), another read after a reset or closed
// connection, or an HTTP/2 connection lost to unanswered pings.
func retriableError(req *http.Request, err error) bool {
	switch {
	case req.URL.Query().Get("watch") == "true":
		return endsWatchNormally(err)
	case req.Method == http.MethodGet:
		return errors.Is(err, syscall.ECONNRESET) || isProbableEOF(err) ||
			strings.Contains(err.Error(), "http2: client connection lost")
	}
	return false
}

// discard reads what is left of resp's body (at most 2 KiB, so that the
// connection can serve the next attempt) and closes it.
func discard(resp *http.Response) {
	if resp == nil {
		return
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 2<<10))
	resp.Body.Close()
}

// sleep waits d; false if ctx ended first.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
