// cdp_test.go is a minimal client of the Chrome DevTools protocol for the
// browser test, on the standard library only: the WebSocket handshake and
// framing of RFC 6455 (text frames, masked from the client; no extensions),
// and the protocol's messages. It talks to the browser, and to each tab
// through a session of its own (flattened sessions: every message names
// its session). One goroutine reads every message from the start to the
// end: answers go to the call that waits for them, and every event of a
// tab is checked for trouble at once, whether or not the test is calling
// anything then: an exception, a console error, a failed request (Chromium
// logs those as errors too) is kept in the tab's problems.

package main

import (
	"bufio"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// cdp is a connection to the browser.
type cdp struct {
	conn net.Conn
	r    *bufio.Reader // read by readLoop only
	wmu  sync.Mutex    // one frame written at a time

	mu       sync.Mutex // guards the fields below
	id       int
	waiting  map[int]chan answer
	sessions map[string]*tab // by session id: whose events they are
	err      error           // why the connection ended; nil while it lasts
	done     chan struct{}   // closed when the connection ends
}

// answer is the browser's answer to one call.
type answer struct {
	result json.RawMessage
	err    error
}

// cdpMessage is any message from the browser: an answer (ID) or an event
// (Method), of the browser or of a session.
type cdpMessage struct {
	ID        int             `json:"id"`
	Method    string          `json:"method"`
	SessionID string          `json:"sessionId"`
	Params    json.RawMessage `json:"params"`
	Result    json.RawMessage `json:"result"`
	Error     *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// dialCDP opens the WebSocket of wsURL ("ws://127.0.0.1:port/devtools/browser/ID")
// and starts reading it.
func dialCDP(wsURL string) (*cdp, error) {
	u, err := url.Parse(wsURL)
	if err != nil {
		return nil, err
	}
	conn, err := net.DialTimeout("tcp", u.Host, 10*time.Second)
	if err != nil {
		return nil, err
	}
	var nonce [16]byte
	rand.Read(nonce[:])
	key := base64.StdEncoding.EncodeToString(nonce[:])
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", u.RequestURI(), u.Host, key)
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		conn.Close()
		return nil, err
	}
	sum := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	if resp.StatusCode != http.StatusSwitchingProtocols ||
		resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		conn.Close()
		return nil, fmt.Errorf("websocket handshake: %s", resp.Status)
	}
	c := &cdp{conn: conn, r: r, waiting: map[int]chan answer{}, sessions: map[string]*tab{}, done: make(chan struct{})}
	go c.readLoop()
	return c, nil
}

// Close ends the connection; readLoop ends with it.
func (c *cdp) Close() error {
	err := c.conn.Close()
	<-c.done
	return err
}

// readLoop reads every message until the connection ends.
func (c *cdp) readLoop() {
	var err error
	defer func() {
		c.mu.Lock()
		c.err = err
		c.mu.Unlock()
		close(c.done)
	}()
	for {
		var raw []byte
		if raw, err = c.readMessage(); err != nil {
			return
		}
		var m cdpMessage
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		c.mu.Lock()
		ch := c.waiting[m.ID]
		delete(c.waiting, m.ID)
		tb := c.sessions[m.SessionID]
		c.mu.Unlock()
		switch {
		case m.ID != 0 && ch != nil:
			a := answer{result: m.Result}
			if m.Error != nil {
				a.err = errors.New(m.Error.Message)
			}
			ch <- a
		case m.Method != "" && tb != nil:
			tb.notice(m.Method, m.Params)
		}
	}
}

// call sends a method (to the browser if session is "", else to that
// tab) and waits for its answer, up to 30 s.
func (c *cdp) call(session, method string, params any, result any) error {
	if params == nil {
		params = map[string]any{}
	}
	ch := make(chan answer, 1)
	c.mu.Lock()
	c.id++
	id := c.id
	c.waiting[id] = ch
	c.mu.Unlock()
	req := map[string]any{"id": id, "method": method, "params": params}
	if session != "" {
		req["sessionId"] = session
	}
	raw, err := json.Marshal(req)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	err = c.writeText(raw)
	c.wmu.Unlock()
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	timer := time.NewTimer(30 * time.Second)
	defer timer.Stop()
	select {
	case a := <-ch:
		if a.err != nil {
			return fmt.Errorf("%s: %w", method, a.err)
		}
		if result == nil {
			return nil
		}
		return json.Unmarshal(a.result, result)
	case <-c.done:
		return fmt.Errorf("%s: the DevTools connection ended: %v", method, c.err)
	case <-timer.C:
		c.mu.Lock()
		delete(c.waiting, id)
		c.mu.Unlock()
		return fmt.Errorf("%s: no answer within 30s", method)
	}
}

// writeText sends one masked text frame; the caller holds wmu.
func (c *cdp) writeText(payload []byte) error {
	hdr := []byte{0x81} // FIN, text
	switch n := len(payload); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n < 1<<16:
		hdr = append(hdr, 0x80|126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 0x80|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	var mask [4]byte
	rand.Read(mask[:])
	hdr = append(hdr, mask[:]...)
	masked := make([]byte, len(payload))
	for i, b := range payload {
		masked[i] = b ^ mask[i%4]
	}
	c.conn.SetWriteDeadline(time.Now().Add(30 * time.Second))
	_, err := c.conn.Write(append(hdr, masked...))
	return err
}

// readMessage reads one whole message, joining fragments, skipping pings.
func (c *cdp) readMessage() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(c.r, h[:]); err != nil {
			return nil, err
		}
		fin, op := h[0]&0x80 != 0, h[0]&0x0f
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(c.r, b[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(c.r, b[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		var mask []byte
		if h[1]&0x80 != 0 {
			mask = make([]byte, 4)
			if _, err := io.ReadFull(c.r, mask); err != nil {
				return nil, err
			}
		}
		if n > 64<<20 {
			return nil, errors.New("websocket frame over 64 MiB")
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(c.r, payload); err != nil {
			return nil, err
		}
		for i := range payload {
			if mask != nil {
				payload[i] ^= mask[i%4]
			}
		}
		switch op {
		case 0x8:
			return nil, io.EOF
		case 0x9, 0xA:
			continue // ping, pong
		}
		msg = append(msg, payload...)
		if fin {
			return msg, nil
		}
	}
}

// tab is one page of the browser, driven through its own session.
type tab struct {
	c       *cdp
	target  string // the target id, to close the tab
	session string

	mu       sync.Mutex // guards the fields below
	problems []string   // exceptions, console errors and failed requests, in order
	down     bool       // the program is stopped on purpose: its refused /events are expected
	refused  int        // refused /events while the program was down
}

// openTab opens a blank tab and starts watching it for trouble, from the
// first paint of whatever it loads.
func (c *cdp) openTab() (*tab, error) {
	var created struct{ TargetID string }
	// A window of its own: a tab behind another is hidden, and a hidden
	// tab draws no frames (a screenshot would wait for one).
	if err := c.call("", "Target.createTarget", map[string]any{"url": "about:blank", "newWindow": true}, &created); err != nil {
		return nil, err
	}
	var attached struct{ SessionID string }
	if err := c.call("", "Target.attachToTarget", map[string]any{"targetId": created.TargetID, "flatten": true}, &attached); err != nil {
		return nil, err
	}
	tb := &tab{c: c, target: created.TargetID, session: attached.SessionID}
	c.mu.Lock()
	c.sessions[tb.session] = tb
	c.mu.Unlock()
	for _, domain := range []string{"Runtime.enable", "Log.enable", "Page.enable"} {
		if err := c.call(tb.session, domain, nil, nil); err != nil {
			return nil, err
		}
	}
	return tb, nil
}

// close closes the tab; its problems stay readable.
func (tb *tab) close() error {
	return tb.c.call("", "Target.closeTarget", map[string]any{"targetId": tb.target}, nil)
}

// call sends a method to the tab.
func (tb *tab) call(method string, params, result any) error {
	return tb.c.call(tb.session, method, params, result)
}

// notice keeps the trouble an event reports: an uncaught exception, a
// console.error or failed assertion, or a log entry at level error (a
// failed request: a 404, a refused connection). While the program is down
// on purpose, the stream's refused reconnections are counted instead.
func (tb *tab) notice(method string, params json.RawMessage) {
	var problem string
	switch method {
	case "Runtime.exceptionThrown":
		var p struct {
			ExceptionDetails struct {
				Text      string `json:"text"`
				Exception struct {
					Description string `json:"description"`
				} `json:"exception"`
			} `json:"exceptionDetails"`
		}
		json.Unmarshal(params, &p)
		problem = "exception: " + p.ExceptionDetails.Text + " " + p.ExceptionDetails.Exception.Description
	case "Runtime.consoleAPICalled":
		var p struct {
			Type string `json:"type"`
			Args []struct {
				Value       any    `json:"value"`
				Description string `json:"description"`
			} `json:"args"`
		}
		json.Unmarshal(params, &p)
		if p.Type == "error" || p.Type == "assert" {
			problem = "console." + p.Type + ":"
			for _, a := range p.Args {
				problem += fmt.Sprintf(" %v%s", a.Value, a.Description)
			}
		}
	case "Log.entryAdded":
		var p struct {
			Entry struct {
				Level, Source, Text, URL string
			} `json:"entry"`
		}
		json.Unmarshal(params, &p)
		if p.Entry.Level == "error" {
			problem = "log (" + p.Entry.Source + "): " + p.Entry.Text + " " + p.Entry.URL
		}
	case "Inspector.targetCrashed":
		problem = "the tab crashed"
	}
	if problem == "" {
		return
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if tb.down && strings.Contains(problem, "ERR_CONNECTION_REFUSED") && strings.Contains(problem, "/events") {
		tb.refused++
		return
	}
	tb.problems = append(tb.problems, problem)
}

// trouble returns the problems so far.
func (tb *tab) trouble() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string(nil), tb.problems...)
}

// setDown says whether the program is stopped on purpose; it returns the
// refused reconnections counted so far.
func (tb *tab) setDown(down bool) int {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.down = down
	return tb.refused
}

// eval evaluates a JavaScript expression in the tab and returns its value.
func (tb *tab) eval(expr string) (any, error) {
	var res struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := tb.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &res); err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, fmt.Errorf("%s: %s", strings.SplitN(expr, "\n", 2)[0], res.ExceptionDetails.Text)
	}
	return res.Result.Value, nil
}
