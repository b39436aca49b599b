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
// Tutorial: 004 §4.1 (the Reflector over HTTP). docs: the reliability chapter.
//
// Reading 3: the real wire (a real cluster's TLS and tokens, failures as client-go reads them).

package informer

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
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
// seconds (an unreadable value is logged and ignored, as client-go does:
// TestTransportLikeClientGo), else the default.
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
