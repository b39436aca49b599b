// kubectl_test.go: the real kubectl works against the fake server: get,
// get -w, create -f, apply -f (the first apply creates), get -l, delete.
// Skipped where kubectl is not on the PATH.
package fakeapi

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
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
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	command := func(args ...string) *exec.Cmd {
		// --validate=false: the fake serves no OpenAPI schema to validate against.
		args = append([]string{"--server", s.URL(), "--cache-dir", filepath.Join(dir, "cache")}, args...)
		cmd := exec.CommandContext(ctx, "kubectl", args...)
		cmd.Env = append(os.Environ(), "KUBECONFIG="+filepath.Join(dir, "none"))
		return cmd
	}
	kubectl := func(args ...string) string {
		t.Helper()
		out, err := command(args...).CombinedOutput()
		if err != nil {
			t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Logf("kubectl %s\n%s", strings.Join(args, " "), out)
		return string(out)
	}
	file := filepath.Join(dir, "pod.yaml")
	write := func(content string) {
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	if out := kubectl("get", "pods"); !strings.Contains(out, "seeded") || !strings.Contains(out, "NAME") {
		t.Errorf("get pods:\n%s", out)
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
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	waitLine := func(want string) {
		t.Helper()
		for line := range lines {
			if strings.Contains(line, want) {
				return
			}
		}
		t.Fatalf("kubectl get -w ended before printing %q", want)
	}
	waitLine("seeded") // the initial list is printed: the watch is about to start
	waitFor(t, func() bool { return s.Stats().OpenWatches == 1 })
	mustCreatePod(t, s, "appeared", "")
	waitLine("appeared")
	_ = watch.Process.Kill()
	for range lines { // drain, so the reader goroutine ends
	}
	_ = watch.Wait()

	write(podYAML)
	if out := kubectl("create", "--validate=false", "-f", file); !strings.Contains(out, "pod/web created") {
		t.Errorf("create -f: %s", out)
	}
	write(strings.ReplaceAll(podYAML, "name: web", "name: applied"))
	if out := kubectl("apply", "--validate=false", "-f", file); !strings.Contains(out, "pod/applied created") {
		t.Errorf("first apply: %s", out)
	}
	write(strings.ReplaceAll(strings.ReplaceAll(podYAML, "name: web", "name: applied"), "nginx:1", "nginx:2"))
	if out := kubectl("apply", "--validate=false", "-f", file); !strings.Contains(out, "pod/applied configured") {
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

	out := kubectl("get", "pods", "-l", "app=x")
	if !strings.Contains(out, "web") || !strings.Contains(out, "applied") || strings.Contains(out, "seeded") {
		t.Errorf("get pods -l app=x:\n%s", out)
	}
	if out := kubectl("delete", "pod", "web"); !strings.Contains(out, `pod "web" deleted`) {
		t.Errorf("delete: %s", out)
	}
	if _, err := s.Get(Pods, "default", "web"); err == nil {
		t.Error("pod web still there after kubectl delete")
	}
}
