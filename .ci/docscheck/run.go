// run.go makes the fresh copy of the repository and runs a block's commands
// in it with bash, one output per command. It has no client-go counterpart
// and teaches no tutorial section.

package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
)

// freshCopy copies the files git knows (tracked, or new and not ignored) into
// a new temporary directory, as a learner's clone would hold them.
func freshCopy(root string) (string, error) {
	out, err := exec.Command("git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		return "", fmt.Errorf("git ls-files: %v", err)
	}
	dir, err := os.MkdirTemp("", "docscheck")
	if err != nil {
		return "", err
	}
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			continue // deleted in the work tree
		}
		info, err := os.Stat(filepath.Join(root, f))
		if err != nil {
			continue
		}
		dst := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return dir, err
		}
		if err := os.WriteFile(dst, data, info.Mode().Perm()); err != nil {
			return dir, err
		}
	}
	return dir, nil
}

// environ is the environment a block runs in: ours, with the language the
// document is written in and no pipeline choice, so that a reader of either
// README sees what the samples show.
func environ(chinese bool) []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE", "INFORMER_LANG", "INFORMER_PIPELINE":
			continue
		}
		env = append(env, kv)
	}
	if chinese {
		return append(env, "LANG=zh_CN.UTF-8")
	}
	return append(env, "LANG=C.UTF-8")
}

// A result is what one command printed (stdout and stderr together) and
// how it exited.
type result struct {
	output []string
	err    error // nil, or why the command failed
}

var sentinelRE = regexp.MustCompile(`^@@docscheck (\d+) (\d+)$`)

// runCommands runs the commands in one bash process (so that a variable set
// by one is seen by the next) in dir and returns what each printed. A command
// that exits non-zero ends the block. The block is stopped after timeout.
func runCommands(dir string, env []string, cmds []string, timeout time.Duration) []result {
	var script strings.Builder
	script.WriteString("exec 2>&1 </dev/null\n")
	for i, c := range cmds {
		fmt.Fprintf(&script, "%s\n__rc=$?; printf '\\n@@docscheck %d %%d\\n' $__rc; [ $__rc = 0 ] || exit $__rc\n", c, i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script.String())
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	results := make([]result, len(cmds))
	var cur []string
	done := 0
	for _, l := range strings.Split(out.String(), "\n") {
		g := sentinelRE.FindStringSubmatch(l)
		if g == nil {
			cur = append(cur, l)
			continue
		}
		// The sentinel starts with a newline: drop the empty line it made.
		if len(cur) > 0 && cur[len(cur)-1] == "" {
			cur = cur[:len(cur)-1]
		}
		var i int
		fmt.Sscan(g[1], &i)
		results[i].output = cur
		if g[2] != "0" {
			results[i].err = fmt.Errorf("exit status %s", g[2])
		}
		cur, done = nil, i+1
	}
	if done < len(cmds) {
		results[done].output = cur
		results[done].err = fmt.Errorf("did not finish: %v", err)
		if ctx.Err() != nil {
			results[done].err = fmt.Errorf("still running after %v", timeout)
		}
		for i := done + 1; i < len(cmds); i++ {
			results[i].err = fmt.Errorf("not reached: an earlier command failed")
		}
	}
	return results
}

// A server is a command started in the background for a block (the "with"
// marker), stopped after the block's samples are compared.
type server struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	log  []string
	done chan struct{}
}

// serving is held while a server runs: the chapters' servers listen on the
// same port (8080), and with -parallel the two languages run side by side.
var serving sync.Mutex

// startServer starts command in dir and waits until it prints its first line
// (fakeapi prints its address once it listens) or timeout passes.
func startServer(dir string, env []string, command string, timeout time.Duration) (*server, error) {
	serving.Lock()
	s, err := start(dir, env, command, timeout)
	if err != nil {
		serving.Unlock()
	}
	return s, err
}

func start(dir string, env []string, command string, timeout time.Duration) (*server, error) {
	s := &server{cmd: exec.Command("bash", "-c", "exec "+command), done: make(chan struct{})}
	s.cmd.Dir, s.cmd.Env = dir, env
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	r, w := io.Pipe()
	s.cmd.Stdout, s.cmd.Stderr = w, w
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { s.cmd.Wait(); w.Close() }()
	first := make(chan struct{})
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(r)
		for n := 0; sc.Scan(); n++ {
			s.mu.Lock()
			s.log = append(s.log, sc.Text())
			s.mu.Unlock()
			if n == 0 {
				close(first)
			}
		}
	}()
	select {
	case <-first:
		return s, nil
	case <-s.done:
		return nil, fmt.Errorf("%q exited: %s", command, strings.Join(s.output(), "\n"))
	case <-time.After(timeout):
		s.kill()
		return nil, fmt.Errorf("%q printed nothing in %v", command, timeout)
	}
}

func (s *server) output() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

// stop kills the server and lets the next one start.
func (s *server) stop() {
	s.kill()
	serving.Unlock()
}

// kill kills the server's process group (go run's child too) and waits for
// its output to end.
func (s *server) kill() {
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.done
}

// portFree reports whether ":port" can be listened on at 127.0.0.1.
func portFree(port string) bool {
	l, err := net.Listen("tcp", "127.0.0.1"+port)
	if err != nil {
		return false
	}
	l.Close()
	return true
}
