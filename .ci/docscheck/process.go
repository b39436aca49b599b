// process.go starts the programs a chapter leaves running while the reader
// goes on (a server until Ctrl-C, podwatch in a second terminal), collects
// what they print, waits for a line, and stops them with their whole process
// group. It has no client-go counterpart and teaches no tutorial section.

package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"sync"
	"syscall"
	"time"
)

// A process is a command started in the background: a "with" server or a
// command of a "background" block. It runs in a process group of its own, so
// that stopping it stops what it started too (go run's program).
type process struct {
	command string
	cmd     *exec.Cmd
	mu      sync.Mutex
	log     []string      // what it printed so far, stdout and stderr together
	more    chan struct{} // closed (and replaced) when a line arrives or the output ends
	done    chan struct{} // closed when the output has ended
}

// ports is held while a file's servers run: the chapters' servers listen on
// the same port (8080), and with -parallel the two languages run side by side.
var ports sync.Mutex

// running are the processes not stopped yet and the copies not removed yet,
// killed and removed if the checker itself is interrupted.
var running = struct {
	sync.Mutex
	all  map[*process]bool
	dirs []string
}{all: map[*process]bool{}}

// killOnInterrupt makes Ctrl-C (or SIGTERM) on the checker kill every
// process group it started before it exits.
func killOnInterrupt() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-c
		running.Lock()
		for p := range running.all {
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		}
		for _, d := range running.dirs {
			os.RemoveAll(d)
		}
		os.Exit(130)
	}()
}

// startProcess starts command with bash in dir. When wait is not nil it
// returns once the command has printed a line wait matches, and fails if the
// command ends first or timeout passes.
func startProcess(dir string, env []string, command string, wait *regexp.Regexp, timeout time.Duration) (*process, error) {
	p := &process{command: command, cmd: exec.Command("bash", "-c", "exec "+command),
		more: make(chan struct{}), done: make(chan struct{})}
	p.cmd.Dir, p.cmd.Env = dir, env
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	r, w := io.Pipe()
	p.cmd.Stdout, p.cmd.Stderr = w, w
	p.cmd.Stdin = nil // /dev/null: nobody types into it
	// A program that ends may leave a child holding its output open (go
	// run's helpers): the command has ended all the same.
	p.cmd.WaitDelay = 2 * time.Second
	running.Lock()
	if err := p.cmd.Start(); err != nil {
		running.Unlock()
		return nil, err
	}
	running.all[p] = true
	running.Unlock()
	go func() { p.cmd.Wait(); w.Close() }()
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.log = append(p.log, sc.Text())
			close(p.more)
			p.more = make(chan struct{})
			p.mu.Unlock()
		}
		io.Copy(io.Discard, r) // a line over 1 MiB: keep the pipe flowing
		p.mu.Lock()
		close(p.done)
		close(p.more)
		p.more = make(chan struct{})
		p.mu.Unlock()
	}()
	if wait == nil {
		return p, nil
	}
	if _, ok := p.waitFor(func(out []string) bool { return wait.MatchString(out[len(out)-1]) }, timeout); !ok {
		ended := "in " + timeout.String()
		select {
		case <-p.done:
			ended = "before it ended"
		default:
		}
		p.stop()
		return nil, fmt.Errorf("%q did not print a line matching %q %s; it printed:\n%s", command, wait, ended, tail(p.output(), 20))
	}
	return p, nil
}

// output returns what the process printed so far.
func (p *process) output() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.log...)
}

// waitFor waits until ok holds for the first n lines of the output, for some
// n ≥ 1 (every prefix is tried, so a line printed right after the one that
// counts does not hide it), and returns those n lines. It gives up when the
// output ends or timeout passes, returning all of it and false.
func (p *process) waitFor(ok func([]string) bool, timeout time.Duration) ([]string, bool) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tried := 0
	for {
		p.mu.Lock()
		out, more := append([]string(nil), p.log...), p.more
		p.mu.Unlock()
		for ; tried < len(out); tried++ {
			if ok(out[:tried+1]) {
				return out[:tried+1], true
			}
		}
		select {
		case <-p.done:
			if len(p.output()) == len(out) {
				return out, false
			}
		case <-more:
		case <-deadline.C:
			return out, false
		}
	}
}

// stop does what Ctrl-C does in a terminal (SIGINT to the process group),
// and kills the group if it has not ended 5 seconds later.
func (p *process) stop() {
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGINT)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
	}
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL) // whatever is left of the group
	<-p.done
	running.Lock()
	delete(running.all, p)
	running.Unlock()
}
