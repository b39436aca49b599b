// browser_test.go runs the page in a real browser: headless Chromium loads
// it, clicks the buttons a learner would, and checks that the panels show
// the ADD, the re-watch after a dropped watch, and the 410, relist and
// tombstone after a deletion missed while the server was down and
// compacted away; then it takes the screenshots the docs show (English and
// Chinese). Skipped where no Chromium is installed.
//
//	LIVEVIEW_SCREENSHOTS=../../docs go test -run Browser ./examples/liveview
//
// writes the screenshots into docs/ (otherwise into a temporary directory).

package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// findChromium returns the Chromium to run, or "" when there is none.
func findChromium() string {
	if p := os.Getenv("LIVEVIEW_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// startChromium starts a headless Chromium with a fresh profile and returns
// a DevTools connection to its page; everything ends with the test.
func startChromium(t *testing.T, bin string) *cdp {
	t.Helper()
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
		"about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its helpers end with it
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	found := make(chan string, 1)
	go func() { // reads until Chromium exits, so that its stderr never blocks
		re := regexp.MustCompile(`DevTools listening on (ws://\S+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	var browserURL string
	select {
	case browserURL = <-found:
	case <-time.After(60 * time.Second):
		t.Fatal("Chromium did not open its DevTools port within 60s")
	}
	hostPort := strings.Split(strings.TrimPrefix(browserURL, "ws://"), "/")[0]
	var targets []struct{ Type, WebSocketDebuggerURL string }
	deadline := time.Now().Add(20 * time.Second)
	for len(targets) == 0 || targets[0].WebSocketDebuggerURL == "" {
		if time.Now().After(deadline) {
			t.Fatal("Chromium shows no page target")
		}
		resp, err := http.Get("http://" + hostPort + "/json/list")
		if err == nil {
			var all []struct{ Type, WebSocketDebuggerURL string }
			json.NewDecoder(resp.Body).Decode(&all)
			resp.Body.Close()
			targets = targets[:0]
			for _, tg := range all {
				if tg.Type == "page" {
					targets = append(targets, tg)
				}
			}
		}
		if len(targets) == 0 {
			time.Sleep(100 * time.Millisecond) // polling Chromium's list, with a deadline
		}
	}
	c, err := dialCDP(targets[0].WebSocketDebuggerURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// page drives the page through c.
type page struct {
	t *testing.T
	c *cdp
}

func (p page) eval(expr string) any {
	p.t.Helper()
	v, err := p.c.eval(expr)
	if err != nil {
		p.t.Fatal(err)
	}
	return v
}

// click clicks a control's button, as a learner does, and waits for the
// page to show the answer (so that the next click comes after it).
func (p page) click(control string) {
	p.t.Helper()
	p.eval(fmt.Sprintf(`document.getElementById("answer").textContent = "";
		document.querySelector("[data-control=%s]").click()`, control))
	p.waitText("answer", "✓ "+control+":")
}

// waitText waits until the element's text contains every one of want.
func (p page) waitText(id string, want ...string) {
	p.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		text, _ := p.eval(fmt.Sprintf(`document.getElementById(%q).textContent`, id)).(string)
		missing := ""
		for _, w := range want {
			if !strings.Contains(text, w) {
				missing = w
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("#%s never showed %q; it shows:\n%s", id, missing, text)
		}
		time.Sleep(50 * time.Millisecond) // polling the page, with a deadline
	}
}

// open loads the page in lang and waits for its live feed.
func (p page) open(url, lang string) {
	p.t.Helper()
	if err := p.c.call("Page.navigate", map[string]any{"url": url + "?lang=" + lang}, nil); err != nil {
		p.t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		v, _ := p.c.eval(`document.getElementById("conn") && document.getElementById("conn").className`)
		if s, _ := v.(string); strings.Contains(s, "ok") {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatal("the page never connected to its feed")
		}
		time.Sleep(50 * time.Millisecond) // polling the page, with a deadline
	}
}

// screenshot saves a PNG of the page.
func (p page) screenshot(path string) {
	p.t.Helper()
	var shot struct{ Data string }
	if err := p.c.call("Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
		p.t.Fatal(err)
	}
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil || len(png) < 8 || string(png[1:4]) != "PNG" {
		p.t.Fatalf("the screenshot is no PNG (%v)", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s (%d bytes)", path, len(png))
}

func TestBrowserShowsAddRewatchAndRelist(t *testing.T) {
	bin := findChromium()
	if bin == "" {
		t.Skip("no Chromium installed (Debian: apt-get install chromium; or set LIVEVIEW_CHROMIUM): the browser test is skipped")
	}
	a := startTestApp(t, 2)
	c := startChromium(t, bin)
	if err := c.call("Emulation.setDeviceMetricsOverride", map[string]any{
		"width": 1500, "height": 1350, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		t.Fatal(err)
	}
	p := page{t, c}
	p.open(a.URL(), "en")
	p.waitText("p-wire", "watching")

	p.click("create") // pod-3
	p.waitText("wire-events", "ADDED", "default/pod-3")
	p.waitText("handlers", "OnAdd", "default/pod-3")
	p.waitText("cache", "default/pod-3")

	p.click("dropwatch")
	p.waitText("feed", "watch ended")
	p.waitText("wire-requests", "WATCH?allowWatchBookmarks=true&resourceVersion="+a.api.ResourceVersion())
	if n := strings.Count(p.eval(`document.getElementById("wire-requests").textContent`).(string), "LIST?"); n != 1 {
		t.Fatalf("a dropped watch should re-watch, not relist; the page shows %d lists", n)
	}

	// A deletion the informer misses, compacted away: 410, relist, tombstone.
	// (First an event on the new watch: a watch that ends within a second
	// with nothing in it ends the whole cycle, as client-go's does.)
	p.click("update")
	p.waitText("wire-events", "MODIFIED")
	p.click("down")
	p.waitText("wire-state", "backing off")
	p.click("delete") // default/pod-1, unseen
	p.click("compact")
	p.waitText("server-window", "0 events kept")
	p.click("up")
	p.waitText("wire-events", "ERROR", "too old resource version")
	p.waitText("wire-requests", "LIST?resourceVersion=")
	p.waitText("handlers", "OnDelete", "default/pod-1", "DeletedFinalStateUnknown")
	p.waitText("feed", "Replace")

	// Step mode, for the picture: two keys wait, one with merged Deltas.
	p.click("pause")
	p.waitText("queue-meta", "paused")
	p.click("create")
	p.click("burst")
	p.waitText("queue", "Updated@", "default/pod-4")
	p.click("step") // Pops default/pod-4, the first key, with its merged Deltas
	p.waitText("cache", "default/pod-4")
	if q := p.eval(`document.getElementById("queue").textContent`).(string); strings.Contains(q, "default/pod-4") {
		t.Fatalf("after one step default/pod-4 is both in the cache and still queued: %s", q)
	}

	dir := os.Getenv("LIVEVIEW_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	p.screenshot(filepath.Join(dir, "liveview.png"))
	p.open(a.URL(), "zh")
	p.waitText("p-queue", "队列", "Updated@")
	p.screenshot(filepath.Join(dir, "liveview.zh-CN.png"))
}
