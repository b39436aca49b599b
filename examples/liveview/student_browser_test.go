// student_browser_test.go (issue 37) shows the live view in a student
// repository of the labs running the learner's own informer: the kit
// writes a repository with labs 1 to 6 done, and a second one where lab 2's
// deletion dedup is left out (the planted bug
// labs/02/bugs/01-no-deletion-dedup.patch); in each, the live view is
// started as a learner starts it (go run ./examples/liveview -queue
// DeltaFIFO) and played by hand in Chromium, as lab 2's handout tells:
// pause the consumer, delete a pod, server down, update a pod, compact the
// history, server up (the re-watch gets 410, the relist queues a tombstone
// behind the DELETED), resume. The page's feed must show each handler's OnDelete of
// that pod once with the reference, and twice without the dedup.
//
// It needs the kit (the project, not a student repository) and Chromium,
// and takes a minute or two, so it runs when asked (.ci/labs asks):
//
//	LIVEVIEW_STUDENT=1 go test -v -run TestBrowserStudentRepository ./examples/liveview

package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestBrowserStudentRepository(t *testing.T) {
	if os.Getenv("LIVEVIEW_STUDENT") == "" {
		t.Skip("the student repository's browser test takes minutes: it runs when asked, " +
			"LIVEVIEW_STUDENT=1 go test -v -run TestBrowserStudentRepository ./examples/liveview (bash .ci/labs does)")
	}
	kit, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(kit, "labs", "kit", "labkit_test.go")); err != nil {
		t.Skip("not the project (no labs/kit): the kit writes the student repositories")
	}
	bin := findChromium()
	if bin == "" {
		t.Skip("no Chromium installed (Debian: apt-get install chromium; or set LIVEVIEW_CHROMIUM): the browser test is skipped")
	}
	b := startChromium(t, bin)
	for _, c := range []struct {
		name, bug string
		want      int // each handler's OnDelete calls for the deleted pod
	}{
		{"reference", "", 1},
		{"no deletion dedup", "labs/02/bugs/01-no-deletion-dedup.patch", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo := filepath.Join(t.TempDir(), "course")
			studentCommand(t, kit, "go", "run", "./labs", "new", "-through", "6", repo)
			if c.bug != "" {
				studentCommand(t, kit, "go", "run", "./labs", "bugs", "-apply", c.bug, repo)
			}
			url := startStudentLiveView(t, repo)
			tb, err := b.openTab()
			if err != nil {
				t.Fatal(err)
			}
			defer tb.close()
			p := page{t: t, tb: tb, lang: "en"}
			p.open(url)
			got := playTheDedup(t, p)
			p.clean("after the dedup was played")
			for _, h := range []string{"fastHandler", "slowHandler"} {
				if got[h] != c.want {
					t.Errorf("%s: the page's feed shows %d OnDelete of the deleted pod in %s, want %d", c.name, got[h], h, c.want)
				}
			}
			t.Logf("%s: the feed shows OnDelete of the deleted pod %d time(s) in each handler", c.name, got["slowHandler"])
		})
	}
}

// studentCommand runs a command in dir, failing the test with its output.
func studentCommand(t *testing.T, dir string, name string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// startStudentLiveView starts the student repository's live view, as a
// learner does, on a loopback port of its choosing, and returns the URL it
// prints; the program is stopped with the test.
func startStudentLiveView(t *testing.T, repo string) string {
	t.Helper()
	cmd := exec.Command("go", "run", "./examples/liveview", "-queue", "DeltaFIFO", "-addr", "127.0.0.1:0")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "LANG=C.UTF-8", "INFORMER_LANG=en")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // go run's child ends with it
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		exited := make(chan struct{})
		go func() {
			cmd.Wait()
			close(exited)
		}()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			t.Errorf("the student's live view (pid %d) did not exit within 10 s of SIGKILL", cmd.Process.Pid)
		}
	})
	found := make(chan string, 1)
	go func() { // reads until the program exits
		re := regexp.MustCompile(`open (http://\S+)`)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case url := <-found:
		return url
	case <-time.After(4 * time.Minute): // go run compiles the repository first
		t.Fatal("the student's live view printed no URL within 4 minutes")
	}
	return ""
}

// playTheDedup plays lab 2's handout on the page, with the page driver of
// browser_page_test.go, and returns, per handler, how many OnDelete of the
// deleted pod the feed shows.
func playTheDedup(t *testing.T, p page) map[string]int {
	t.Helper()
	// feedCount counts the feed's lines of kind for key whose text holds handler.
	feedCount := func(kind, key, handler string) string {
		return fmt.Sprintf(`[...document.querySelectorAll("#feed li")].filter(li => {
			const k = li.querySelector(".t.%s"), key = li.querySelector(".k");
			return k && key && key.textContent === %q && li.textContent.includes(%q); }).length`, kind, key, handler)
	}
	keyIn := func(answer string) string {
		key := strings.TrimRight(regexp.MustCompile(`default/\S+`).FindString(answer), ".,;:)")
		if key == "" {
			t.Fatalf("the answer names no pod: %q", answer)
		}
		return key
	}
	p.waitFor(3*time.Minute, "the initial list's OnAdd in slowHandler",
		`[...document.querySelectorAll("#feed li")].filter(li => li.querySelector(".t.OnAdd") && li.textContent.includes("slowHandler")).length >= 3`)
	replaces := `[...document.querySelectorAll("#feed li.panel-queue")].filter(li => li.querySelector(".t.Replace")).length`
	p.control("pause")
	key := keyIn(p.control("delete"))
	p.wait("the DELETED of "+key+" on the watch", feedCount("DELETED", key, "")+" >= 1")
	before := p.num(replaces)
	p.control("down")
	p.control("update") // the server's history moves on while the watch is down
	p.control("compact")
	p.control("up")
	p.waitFor(3*time.Minute, "the relist's Replace in the queue", fmt.Sprintf("%s > %v", replaces, before))
	p.control("resume")
	// A pod created now reaches each handler after everything queued before
	// it: its OnAdd in slowHandler means the deletion has been told in full.
	created := keyIn(p.control("create"))
	p.waitFor(90*time.Second, "the OnAdd of "+created+" in slowHandler", feedCount("OnAdd", created, "slowHandler")+" >= 1")
	got := map[string]int{}
	for _, h := range []string{"fastHandler", "slowHandler"} {
		got[h] = int(p.num(feedCount("OnDelete", key, h)))
	}
	return got
}
