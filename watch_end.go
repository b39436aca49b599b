// watch_end.go decides how a watch stream ends when reading it fails: as
// the normal end of a watch (the Reflector re-watches from the last version
// it saw, no relist) or as an error (an ERROR event: the Reflector ends the
// cycle and relists). The rules are client-go's, error by error, because
// the difference is visible to every handler: a relist turns a delete and
// re-create into one update, and replays every object.
//
// client-go counterpart: StreamWatcher.receive in
// k8s.io/apimachinery/pkg/watch/streamwatcher.go, with IsProbableEOF,
// IsTimeout and IsConnectionRefused in k8s.io/apimachinery/pkg/util/net.
//
// Tutorial: 004 §4.1 (the Reflector over HTTP streaming), 000 §4.3 (when
// things go wrong). docs: the reliability chapter.

package informer

import (
	"errors"
	"io"
	"net"
	"net/url"
	"strings"
)

// endsWatchLikeClientGo reports whether err, returned while reading a watch
// stream, is the normal end of the watch. client-go v0.37.2's
// StreamWatcher.receive ends quietly on io.EOF, io.ErrUnexpectedEOF, and
// whatever utilnet.IsProbableEOF or utilnet.IsTimeout accepts; every other
// error becomes an ERROR event with code 500.
//
// What that means on the wire: a server that ends the response (EOF), drops
// the connection mid-event (unexpected EOF) or resets it, an HTTP/2 server
// that sent GOAWAY before closing the connection (a graceful shutdown, as in
// a rolling restart), and a read deadline: all re-watch. An HTTP/2
// connection closed because the server stopped answering pings ("http2:
// client connection lost"), a cancelled context and a body read after Close
// are errors: the cycle ends and the next one relists.
func endsWatchLikeClientGo(err error) bool {
	return isProbableEOF(err) || isTimeout(err)
}

// probableEOFMessages are the texts by which utilnet.IsProbableEOF
// recognises a connection that ended, for errors net/http does not export.
// The second and third are matched as substrings, the last one also
// ignoring case; the first must be the whole message.
var probableEOFMessages = struct {
	brokenRequest, goAway, reset, closedConn string
}{
	brokenRequest: "http: can't write HTTP request on broken connection",
	goAway:        "http2: server sent GOAWAY and closed the connection",
	reset:         "connection reset by peer",
	closedConn:    "use of closed network connection",
}

// isProbableEOF follows utilnet.IsProbableEOF: it looks through one
// *url.Error (what http.Client.Do wraps errors in), then accepts io.EOF and
// io.ErrUnexpectedEOF themselves (not errors that wrap them) and the
// messages above.
func isProbableEOF(err error) bool {
	if err == nil {
		return false
	}
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		err = ue.Err
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return true
	}
	m := probableEOFMessages
	msg := err.Error()
	return msg == m.brokenRequest ||
		strings.Contains(msg, m.goAway) ||
		strings.Contains(msg, m.reset) ||
		strings.Contains(strings.ToLower(msg), m.closedConn)
}

// isTimeout follows utilnet.IsTimeout: any error in the chain that is a
// net.Error reporting Timeout(). That includes a read deadline
// (os.ErrDeadlineExceeded), http.Client's Timeout, and
// context.DeadlineExceeded.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
