// browser_test.go starts headless Chromium and drives the page in it the way
// a learner does, with mouse clicks, over the DevTools protocol (cdp_test.go):
// the helpers here start the browser and click, wait, check the layout and
// take screenshots; browser_checks_test.go holds the checks of the page's
// defects fixed in issue 22, browser_scenes_test.go plays every guided scene.
// Any exception, console error or failed request from the first paint on
// fails the test. Skipped, saying why, where no Chromium is installed.
//
//	LIVEVIEW_SCREENSHOTS=$PWD/docs go test -run Browser ./examples/liveview
//
// writes the screenshots into docs/ (otherwise into a temporary directory).

package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
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
	for _, domain := range []string{"Runtime.enable", "Log.enable", "Page.enable"} { // from the first paint on
		if err := c.call(domain, map[string]any{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// TestBrowserLiveView opens the page at once after the program starts, as
// a learner does after go run, and plays every guided scene, in English and
// in Chinese at once: each language has its own program and browser. The
// English page also checks the defects of issue 22 one by one. The scenes
// run at 1920x1080 and 1024x700 by turns (English and Chinese swapped), the
// screenshots are taken at 1280 px wide, and last the program stops to see
// the page say so.
func TestBrowserLiveView(t *testing.T) {
	bin := findChromium()
	if bin == "" {
		t.Skip("no Chromium installed (Debian: apt-get install chromium; or set LIVEVIEW_CHROMIUM): the browser test is skipped")
	}
	shots := os.Getenv("LIVEVIEW_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			began := time.Now()
			c := startChromium(t, bin)
			t.Logf("Chromium started: %v", time.Since(began).Round(time.Millisecond))
			p := page{t, c}
			p.size(1024, 700)
			// The program's own defaults (bookmarks every 10 s, no resync,
			// the RealFIFO), but a slowHandler at 200 ms (a clean restart
			// waits for its backlog, and the scenes restart the informer
			// five times) and backoffs ten times shorter (the missed
			// deletion keeps the server down a while).
			a, err := start(config{Addr: "127.0.0.1:0", BookmarkInterval: 10 * time.Second, Pods: 3,
				SlowDelay: 200 * time.Millisecond, BackoffScale: 0.1})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(a.Close)
			began = time.Now()
			p.open(a.URL(), lang)
			t.Logf("page open: %v", time.Since(began).Round(time.Millisecond))
			checkFirstPaint(p, began)
			if lang == "en" {
				checkLanguageButton(p)
				checkSelectableText(p)
				checkFeedReadsDownAndHolds(p)
				checkNoBankedStep(p)
			}
			t.Logf("checks: %v", time.Since(began).Round(time.Millisecond))
			playScenes(p, a, lang, shots)
			checkStaleWhenGone(p, a)
		})
	}
}
