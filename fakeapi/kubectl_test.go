// kubectl_test.go: the real kubectl works against the fake server: get
// (with the server's columns, from a Table: pods, config maps, services),
// get -w, create -f, apply -f (the first apply creates, the second
// configures), get -l, delete. create and apply run with kubectl's default
// --validate=strict: compat_openapi.go tells kubectl the server validates fields.
// Skipped where kubectl is not on the PATH.

package fakeapi

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const podYAML = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels:
    app: x
spec:
  containers:
  - name: main
    image: nginx:1
`

func TestKubectl(t *testing.T) {
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Skip("kubectl is not on the PATH")
	}
	s := startServer(t, Options{})
	mustCreatePod(t, s, "seeded", "app=y")
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	command, kubectl := kubectlRunner(ctx, t, "kubectl", s, dir)
	file := filepath.Join(dir, "pod.yaml")
	write := func(content string) {
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	// The columns are the server's (a Table, see compat_table.go), as on a real
	// cluster; without one, kubectl would print only NAME and AGE.
	out := kubectl("get", "pods")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || strings.Join(strings.Fields(lines[0]), " ") != "NAME READY STATUS RESTARTS AGE" {
		t.Fatalf("get pods: want the READY STATUS RESTARTS AGE header and one pod:\n%s", out)
	}
	if row := strings.Fields(lines[1]); len(row) != 5 || strings.Join(row[:4], " ") != "seeded 0/1 Pending 0" ||
		!regexp.MustCompile(`^[0-9]+s$`).MatchString(row[4]) {
		t.Errorf("get pods: row %q, want seeded 0/1 Pending 0 and an age in seconds", lines[1])
	}
	if out := kubectl("get", "pods", "-o", "wide", "-A"); !strings.Contains(out, "NOMINATED NODE") || !strings.Contains(out, "default ") {
		t.Errorf("get pods -o wide -A: want the wide columns and a NAMESPACE from the row objects:\n%s", out)
	}
	// Other kinds print their own columns too (compat_printers_core.go).
	for _, o := range []struct {
		r      Resource
		body   string
		args   []string
		header string
	}{
		{ConfigMaps, `{"metadata":{"name":"cfg"},"data":{"k":"v"}}`, []string{"get", "cm"}, "NAME DATA AGE"},
		{Services, `{"metadata":{"name":"web"},"spec":{"clusterIP":"10.0.0.9","ports":[{"port":80}]}}`,
			[]string{"get", "svc"}, "NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE"},
	} {
		var body map[string]any
		_ = json.Unmarshal([]byte(o.body), &body)
		if _, err := s.Create(o.r, "default", body); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(kubectl(o.args...)), "\n")
		if len(lines) != 2 || strings.Join(strings.Fields(lines[0]), " ") != o.header {
			t.Errorf("kubectl %s: want the %s header and one row:\n%s", strings.Join(o.args, " "), o.header, strings.Join(lines, "\n"))
		}
	}

	// get -w prints a line when a pod appears.
	watch := command("get", "pods", "-w")
	stdout, err := watch.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	events := make(chan string)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			events <- sc.Text()
		}
	}()
	waitLine := func(want string) string {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for {
			select {
			case line, ok := <-events:
				if !ok {
					t.Fatalf("kubectl get -w ended before printing %q", want)
				}
				if strings.Contains(line, want) {
					return line
				}
			case <-timeout:
				t.Fatalf("kubectl get -w printed no line with %q within 10s", want)
			}
		}
	}
	waitLine("seeded") // the initial list is printed: the watch is about to start
	waitFor(t, "kubectl get -w's watch to open", func() bool { return s.Stats().OpenWatches == 1 })
	mustCreatePod(t, s, "appeared", "")
	if line := strings.Fields(waitLine("appeared")); len(line) != 5 || line[2] != "Pending" || line[4] == "<unknown>" {
		t.Errorf("get -w printed %q, want the pod's columns with an age", line)
	}
	_ = watch.Process.Kill()
	drained := make(chan struct{})
	go func() {
		for range events { // drain, so the reader goroutine ends
		}
		_ = watch.Wait()
		close(drained)
	}()
	select {
	case <-drained:
	case <-time.After(10 * time.Second):
		t.Fatal("kubectl get -w did not exit within 10s of its kill")
	}

	write(podYAML)
	if out := kubectl("create", "-f", file); !strings.Contains(out, "pod/web created") {
		t.Errorf("create -f: %s", out)
	}
	write(strings.ReplaceAll(podYAML, "name: web", "name: applied"))
	if out := kubectl("apply", "-f", file); !strings.Contains(out, "pod/applied created") {
		t.Errorf("first apply: %s", out)
	}
	write(strings.ReplaceAll(strings.ReplaceAll(podYAML, "name: web", "name: applied"), "nginx:1", "nginx:2"))
	if out := kubectl("apply", "-f", file); !strings.Contains(out, "pod/applied configured") {
		t.Errorf("second apply: %s", out)
	}
	applied, err := s.Get(Pods, "default", "applied")
	if err != nil {
		t.Fatal(err)
	}
	c := applied["spec"].(map[string]any)["containers"].([]any)
	if len(c) != 1 || c[0].(map[string]any)["image"] != "nginx:2" {
		t.Errorf("after the second apply, containers = %v", c)
	}

	out = kubectl("get", "pods", "-l", "app=x")
	if !strings.Contains(out, "web") || !strings.Contains(out, "applied") || strings.Contains(out, "seeded") {
		t.Errorf("get pods -l app=x:\n%s", out)
	}
	if out := kubectl("delete", "pod", "web"); !strings.Contains(out, `pod "web" deleted`) {
		t.Errorf("delete: %s", out)
	}
	if _, err := s.Get(Pods, "default", "web"); err == nil {
		t.Error("pod web still there after kubectl delete")
	}
	kubectlCreateKinds(t, s, kubectl)
	kubectlExplain(t, kubectl)
	kubectlOld(ctx, t, s, dir)
}

// kubectlRunner returns a kubectl command maker and a runner for the
// binary bin against s: the runner fails t if kubectl fails or prints
// anything on stderr, and returns its output. The kubeconfig is an empty
// one (a missing one makes old kubectls warn on stderr).
func kubectlRunner(ctx context.Context, t *testing.T, bin string, s *Server, dir string) (func(args ...string) *exec.Cmd, func(args ...string) string) {
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, []byte("apiVersion: v1\nkind: Config\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, "cache-"+filepath.Base(bin))
	command := func(args ...string) *exec.Cmd {
		args = append([]string{"--server", s.URL(), "--cache-dir", cache}, args...)
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
		return cmd
	}
	kubectl := func(args ...string) string {
		t.Helper()
		cmd := command(args...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		name := filepath.Base(bin) + " " + strings.Join(args, " ")
		if err != nil {
			t.Fatalf("%s: %v\n%s%s", name, err, out, stderr.String())
		}
		if stderr.Len() > 0 { // e.g. "warning: error calculating patch from openapi v3 spec"
			t.Errorf("%s printed on stderr:\n%s", name, stderr.String())
		}
		t.Logf("%s\n%s", name, out)
		return string(out)
	}
	return command, kubectl
}
