// fakenet.go holds the harness's network: connections that are pairs of
// net.Pipe ends, so that an informer, its HTTP client and the scripted
// server all run inside one testing/synctest bubble, where time is fake and
// synctest.Wait knows when everything has settled. A real socket would do
// neither: a goroutine reading one is not "durably blocked", so the
// bubble's clock would never move.
//
// The network also plays the failures a real one has, by the errors Go's
// own transport would hand up: a refused connection (the server is down), a
// connection reset by the peer, a GOAWAY from an HTTP/2 server that then
// closed the connection, a read that timed out, an HTTP/2 connection lost
// to unanswered pings. The scripted server arms one on the client's end of
// a connection, then closes its own: the client's next read returns that
// error instead of io.EOF. (The connections are HTTP/1.1: the GOAWAY and
// lost-connection errors are the ones golang.org/x/net/http2 and net/http
// report, delivered by the fake network, so that both informers judge the
// same error; how an HTTP/2 transport comes to report them is not what is
// compared here.)
//
// client-go counterpart: none (test machinery); the errors are those that
// utilnet.IsConnectionRefused, IsConnectionReset, IsProbableEOF, IsTimeout
// and IsHTTP2ConnectionLost (k8s.io/apimachinery/pkg/util/net) recognise.
//
// Tutorial: none (test machinery).

package parity

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
)

// fault is a failure the network can play on a connection.
type fault string

// The faults, by the error the client's read (or dial) returns.
const (
	// faultNone: the connection ends as TCP does, the client reads io.EOF.
	faultNone fault = ""
	// faultReset: "read: connection reset by peer" (ECONNRESET).
	faultReset fault = "reset"
	// faultGoAway: an HTTP/2 server sent GOAWAY and closed the connection.
	faultGoAway fault = "goaway"
	// faultTimeout: "i/o timeout", a net.Error whose Timeout() is true.
	faultTimeout fault = "timeout"
	// faultLost: "http2: client connection lost", after unanswered pings.
	faultLost fault = "lost"
)

// readError is the error a client's read returns for f.
func (f fault) readError(addr string) error {
	switch f {
	case faultReset:
		return &net.OpError{Op: "read", Net: "tcp", Addr: pipeAddr(addr),
			Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	case faultGoAway:
		// golang.org/x/net/http2's GoAwayError, as its Error() writes it.
		return errors.New(`http2: server sent GOAWAY and closed the connection; ` +
			`LastStreamID=1, ErrCode=NO_ERROR, debug=""`)
	case faultTimeout:
		return &net.OpError{Op: "read", Net: "tcp", Addr: pipeAddr(addr), Err: os.ErrDeadlineExceeded}
	case faultLost:
		// net/http's (and x/net/http2's) errClientConnLost.
		return errors.New("http2: client connection lost")
	}
	return nil
}

// pipeAddr is a net.Addr for a name on the fake network.
type pipeAddr string

func (a pipeAddr) Network() string { return "tcp" }
func (a pipeAddr) String() string  { return string(a) }

// network is the fake network: servers listen on names, clients dial them.
// One network serves every run of the test binary; each run's server has a
// name of its own, so runs in different bubbles never share a connection.
type network struct {
	mu        sync.Mutex
	listeners map[string]*pipeListener
	next      atomic.Int64
}

// theNetwork is the test binary's one fake network.
var theNetwork = &network{listeners: map[string]*pipeListener{}}

// listen returns a listener on a fresh name, such as "server-7:80".
func (n *network) listen() *pipeListener {
	addr := fmt.Sprintf("server-%d:80", n.next.Add(1))
	l := &pipeListener{net: n, addr: addr, conns: make(chan net.Conn), done: make(chan struct{})}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.listeners[addr] = l
	return l
}

// dial connects to the listener named addr: the client's end of a new pipe,
// or ECONNREFUSED when nobody listens there or the server is down.
func (n *network) dial(ctx context.Context, _, addr string) (net.Conn, error) {
	n.mu.Lock()
	l := n.listeners[addr]
	n.mu.Unlock()
	refused := &net.OpError{Op: "dial", Net: "tcp", Addr: pipeAddr(addr),
		Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	if l == nil || l.down.Load() {
		return nil, refused
	}
	client, server := net.Pipe()
	c := &clientConn{Conn: client, addr: addr}
	s := &serverConn{Conn: server, client: c}
	select {
	case l.conns <- s:
		return c, nil
	case <-l.done:
		return nil, refused
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// pipeListener is a net.Listener on the fake network.
type pipeListener struct {
	net   *network
	addr  string
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
	// down makes dial refuse connections, as a server that stopped does.
	down atomic.Bool
}

// Accept waits for a client to dial.
func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops listening and forgets the name.
func (l *pipeListener) Close() error {
	l.once.Do(func() {
		close(l.done)
		l.net.mu.Lock()
		defer l.net.mu.Unlock()
		delete(l.net.listeners, l.addr)
	})
	return nil
}

// Addr is the listener's name.
func (l *pipeListener) Addr() net.Addr { return pipeAddr(l.addr) }

// clientConn is the client's end of a connection; a fault armed on it
// replaces the io.EOF of its next read.
type clientConn struct {
	net.Conn
	addr  string
	fault atomic.Value // fault
}

// Read reads from the pipe, with the armed fault in place of its end.
func (c *clientConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err != nil {
		if f, _ := c.fault.Load().(fault); f != faultNone {
			return n, f.readError(c.addr)
		}
	}
	return n, err
}

// serverConn is the server's end of a connection; it knows the client's.
type serverConn struct {
	net.Conn
	client *clientConn
}

// breakWith arms f on the client's end and closes the connection: the
// client's next read fails with f's error.
func (s *serverConn) breakWith(f fault) {
	s.client.fault.Store(f)
	s.Conn.Close()
}

// connKey is the request context key under which the server finds the
// connection a request came on (http.Server.ConnContext puts it there).
type connKey struct{}
