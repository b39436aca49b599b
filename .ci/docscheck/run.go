// run.go makes the fresh copy of the repository and runs a block's commands
// in it with bash, one output per command. It has no client-go counterpart
// and teaches no tutorial section.

package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
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
	running.Lock()
	running.dirs = append(running.dirs, dir)
	running.Unlock()
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

// portFree reports whether ":port" can be listened on at 127.0.0.1.
func portFree(port string) bool {
	l, err := net.Listen("tcp", "127.0.0.1"+port)
	if err != nil {
		return false
	}
	l.Close()
	return true
}
