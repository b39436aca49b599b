// faults_network.go: the faults of the network and of a restarting API
// server, beyond the reading path's faults.go: Shutdown (a graceful stop, as
// in a rolling restart: GOAWAY, then connections closed) and BlackHole.
//
// BlackHole makes connections go dark, as when a NAT or a load balancer
// forgets a flow or a node dies: the connection stays open, but nothing the
// client sends reaches the server (no request, no answer to an HTTP/2
// PING) and nothing the server writes reaches the client (no event, no
// bookmark). Neither side gets an error. Only the client can notice, by
// the silence: client-go's HTTP/2 health check does, after 30 s without a
// frame and 15 s without a PING's answer.
//
// The emulation works on the server's side of each TCP connection, so the
// kernels still acknowledge TCP segments: TCP keep-alive does not see the
// hole (on a real network it would, after minutes).
//
// client-go counterpart: none (client-go's side is transport.go in the
// root package). Tutorial: 000 §4.3. docs: the reliability chapter.

package fakeapi

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// BlackHole makes every open connection go dark for good, and so every
// connection accepted during the next d. Connections accepted after that
// work normally: a client that gives up on a dark connection and dials
// again gets through once the hole is over. A dark connection's resources
// are freed when the client closes it or the server stops. d <= 0 only
// darkens the open connections.
func (s *Server) BlackHole(d time.Duration) { s.blackHole(d, nil) }

// blackHole is BlackHole sparing one connection (the one a debug request
// came on, so that its answer gets out); nil spares none.
func (s *Server) blackHole(d time.Duration, spare *holeConn) {
	s.holeUntil.Store(time.Now().Add(d).UnixNano())
	s.conns.darkenAll(spare)
}

// connKey is the request context key of the connection a request came on.
type connKey struct{}

// withConn is the http.Server's ConnContext: it remembers the connection.
func withConn(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// holeConnOf returns the connection r came on.
func holeConnOf(r *http.Request) *holeConn {
	c, _ := r.Context().Value(connKey{}).(net.Conn)
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	hc, _ := c.(*holeConn)
	return hc
}

// connSet is the server's open connections, wrapped so they can go dark.
type connSet struct {
	mu    sync.Mutex
	conns map[*holeConn]struct{}
}

func (cs *connSet) add(c *holeConn) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.conns == nil {
		cs.conns = map[*holeConn]struct{}{}
	}
	cs.conns[c] = struct{}{}
}

func (cs *connSet) remove(c *holeConn) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	delete(cs.conns, c)
}

func (cs *connSet) darkenAll(spare *holeConn) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for c := range cs.conns {
		if c != spare {
			c.dark.Store(true)
		}
	}
}

// holeListener wraps every accepted connection in a holeConn.
type holeListener struct {
	net.Listener
	s *Server
}

func (l *holeListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	hc := &holeConn{Conn: c, set: &l.s.conns}
	hc.dark.Store(time.Now().UnixNano() < l.s.holeUntil.Load())
	l.s.conns.add(hc)
	return hc, nil
}

// holeConn is a connection that can go dark: then writes are dropped (and
// reported as written), and what arrives is read and dropped, so that the
// server still learns when the client hangs up.
type holeConn struct {
	net.Conn
	set       *connSet
	dark      atomic.Bool
	closeOnce sync.Once
}

func (c *holeConn) Read(p []byte) (int, error) {
	for {
		n, err := c.Conn.Read(p)
		switch {
		case !c.dark.Load():
			return n, err
		case err != nil:
			return 0, err
		}
	}
}

func (c *holeConn) Write(p []byte) (int, error) {
	if c.dark.Load() {
		return len(p), nil
	}
	return c.Conn.Write(p)
}

func (c *holeConn) Close() error {
	c.closeOnce.Do(func() { c.set.remove(c) })
	return c.Conn.Close()
}

// CloseWrite half-closes the connection as *net.TCPConn does: the HTTP
// server uses it to end a response cleanly before closing. A dark
// connection sends nothing, not even that.
func (c *holeConn) CloseWrite() error {
	cw, ok := c.Conn.(interface{ CloseWrite() error })
	if !ok || c.dark.Load() {
		return nil
	}
	return cw.CloseWrite()
}

// Shutdown stops the server the way kube-apiserver stops in a rolling
// restart, and keeps the data (Restart serves it again). It stops accepting
// connections (a client that dials gets "connection refused"), sends every
// HTTP/2 connection a GOAWAY ("no new requests here"), lets requests in
// flight finish, and after closeAfter closes every connection still open:
// the watches, which never finish by themselves, lose their connection
// mid-stream. A client-go watch over HTTP/2 then ends with "server sent
// GOAWAY and closed the connection", over HTTP/1.1 with an unexpected EOF;
// both are a normal end, and client-go re-watches without a relist.
// Shutdown returns when the server has stopped.
func (s *Server) Shutdown(closeAfter time.Duration) error {
	s.mu.Lock()
	hs := s.hs
	s.mu.Unlock()
	if hs == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeAfter)
	defer cancel()
	_ = hs.Shutdown(ctx) // GOAWAY, no new connections; ends when ctx does (the watches stay)
	return s.Stop()
}
