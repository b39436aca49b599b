// transport.go builds the RESTClient's HTTP transport the way client-go
// v0.37.2 does, so that a connection that dies without closing is noticed:
// HTTP/2 health-check pings (a PING after 30 s without a frame, the
// connection closed when no answer comes within 15 s), TCP keep-alive every
// 30 s, 30 s to connect and 10 s for a TLS handshake. The same environment
// variables as client-go change them (HTTP2_READ_IDLE_TIMEOUT_SECONDS,
// HTTP2_PING_TIMEOUT_SECONDS, DISABLE_HTTP2), and so do RESTConfig's fields.
//
// client-go counterpart: transport.New / tlsCache.get in
// k8s.io/client-go/transport/cache.go, and SetTransportDefaults,
// readIdleTimeoutSeconds, pingTimeoutSeconds and configureHTTP2Transport in
// k8s.io/apimachinery/pkg/util/net/http.go. We use net/http's own HTTP/2
// settings (http.HTTP2Config) where client-go uses golang.org/x/net/http2.
//
// It also holds how a watch stream ends when reading it fails (the second
// half of this file): as the normal end of a watch (the Reflector re-watches
// from the last version it saw, no relist) or as an error (an ERROR event:
// the Reflector ends the cycle and relists), by client-go's rules, error by
// error: StreamWatcher.receive in k8s.io/apimachinery/pkg/watch, with
// IsProbableEOF and IsTimeout in k8s.io/apimachinery/pkg/util/net. The
// difference is visible to every handler: a relist turns a delete and
// re-create into one update, and replays every object.
//
// Tutorial: 004 §4.1 (the Reflector over HTTP). docs: the reliability chapter.
//
// Reading 3: the real wire (a real cluster's TLS and tokens, failures as client-go reads them).

package informer

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// TLSClientConfig holds the TLS settings of a RESTConfig.
type TLSClientConfig struct {
	// Insecure skips verifying the server's certificate: for tests only.
	Insecure bool
	// CAFile is a PEM file of the certificate authorities to trust.
	CAFile string
	// CAData is PEM data, used instead of CAFile when set.
	CAData []byte
}

// client-go's transport settings.
const (
	// defaultHTTP2ReadIdleTimeout: utilnet's readIdleTimeoutSeconds.
	defaultHTTP2ReadIdleTimeout = 30 * time.Second
	// defaultHTTP2PingTimeout: utilnet's pingTimeoutSeconds.
	defaultHTTP2PingTimeout = 15 * time.Second
	// dialTimeout and tcpKeepAlive: the net.Dialer of transport.New.
	dialTimeout  = 30 * time.Second
	tcpKeepAlive = 30 * time.Second
	// tlsHandshakeTimeout: SetOldTransportDefaults.
	tlsHandshakeTimeout = 10 * time.Second
	// idleConnTimeout: http.DefaultTransport's, via SetOldTransportDefaults.
	idleConnTimeout = 90 * time.Second
	// maxIdleConnsPerHost: idleConnsPerHost in transport/cache.go.
	maxIdleConnsPerHost = 25
)

// newTransport returns the transport for cfg (NewRESTClient, restclient.go). Like client-go's
// transport.New, a config with no TLS settings (plain http://, or https://
// trusting the system's certificates) and no transport options gets a copy
// of http.DefaultTransport, which never pings; any TLS setting gets
// client-go's own transport, with the HTTP/2 health check.
func newTransport(cfg RESTConfig) (*http.Transport, error) {
	tlsConf, err := tlsConfigFor(cfg.TLSClientConfig)
	if err != nil {
		return nil, err
	}
	noOptions := cfg.HTTP2ReadIdleTimeout == 0 && cfg.HTTP2PingTimeout == 0 && !cfg.DisableHTTP2
	if tlsConf == nil && noOptions {
		return http.DefaultTransport.(*http.Transport).Clone(), nil
	}
	dialer := &net.Dialer{Timeout: dialTimeout, KeepAlive: tcpKeepAlive}
	t := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         dialer.DialContext,
		TLSClientConfig:     tlsConf,
		TLSHandshakeTimeout: tlsHandshakeTimeout,
		IdleConnTimeout:     idleConnTimeout,
		MaxIdleConnsPerHost: maxIdleConnsPerHost,
		Protocols:           new(http.Protocols),
	}
	t.Protocols.SetHTTP1(true)
	if cfg.DisableHTTP2 || os.Getenv("DISABLE_HTTP2") != "" {
		return t, nil // HTTP/1.1: nothing but TCP keep-alive watches the connection
	}
	t.Protocols.SetHTTP2(true)
	t.HTTP2 = &http.HTTP2Config{
		SendPingTimeout: durationSetting(cfg.HTTP2ReadIdleTimeout,
			"HTTP2_READ_IDLE_TIMEOUT_SECONDS", defaultHTTP2ReadIdleTimeout),
		PingTimeout: durationSetting(cfg.HTTP2PingTimeout,
			"HTTP2_PING_TIMEOUT_SECONDS", defaultHTTP2PingTimeout),
	}
	return t, nil
}

// durationSetting picks a transport timeout: the option when set (a
// negative option means 0, "off"), else the environment variable in whole
// seconds (an unreadable value is logged and ignored, as client-go does),
// else the default.
func durationSetting(option time.Duration, env string, def time.Duration) time.Duration {
	switch {
	case option < 0:
		return 0
	case option > 0:
		return option
	}
	s := os.Getenv(env)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		slog.Warn("ignoring an unreadable transport setting",
			"env", env, "value", s, "default", def)
		return def
	}
	return time.Duration(n) * time.Second
}

// tlsConfigFor returns the TLS settings of tc, or nil when it has none.
func tlsConfigFor(tc TLSClientConfig) (*tls.Config, error) {
	if !tc.Insecure && tc.CAFile == "" && len(tc.CAData) == 0 {
		return nil, nil
	}
	conf := &tls.Config{InsecureSkipVerify: tc.Insecure} //nolint:gosec // the caller asked for it
	pem := tc.CAData
	if len(pem) == 0 && tc.CAFile != "" {
		var err error
		if pem, err = os.ReadFile(tc.CAFile); err != nil {
			return nil, fmt.Errorf("rest config: reading CA file: %w", err)
		}
	}
	if len(pem) > 0 || tc.CAFile != "" {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, errors.New("rest config: no certificate found in the CA data")
		}
		conf.RootCAs = pool
	}
	return conf, nil
}

// How a watch stream ends, by client-go v0.37.2's rules (watch.go's
// endsWatchNormally asks isProbableEOF and isTimeout): StreamWatcher.receive
// ends quietly on io.EOF, io.ErrUnexpectedEOF, and whatever
// utilnet.IsProbableEOF or utilnet.IsTimeout accepts; every other error
// becomes an ERROR event with code 500.
//
// What that means on the wire: a server that ends the response (EOF), drops
// the connection mid-event (unexpected EOF) or resets it, an HTTP/2 server
// that sent GOAWAY before closing the connection (a graceful shutdown, as in
// a rolling restart), and a read deadline: all re-watch. An HTTP/2
// connection closed because the server stopped answering pings ("http2:
// client connection lost"), a cancelled context and a body read after Close
// are errors: the cycle ends and the next one relists.

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
