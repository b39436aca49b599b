// kubectl_writes_test.go: kubectl's writes behave as on a cluster:
// `kubectl delete --dry-run=server` deletes nothing (kubectl sends dryRun
// in the DeleteOptions body), `kubectl create ns` and `kubectl delete ns`
// (Terminating while a pod bound to a node waits for its kubelet, then
// gone), and create in a missing (404) or Terminating (403) namespace is
// refused. Skipped where kubectl is not on the PATH.

package fakeapi

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// kubectlAny returns a function that runs kubectl against s and returns
// its combined output and error, failing or not (kubectlRunner in
// kubectl_test.go fails the test instead). An argument "-f=<manifest>"
// passes the manifest on stdin ("-f -").
func kubectlAny(t *testing.T, s *Server) func(args ...string) (string, error) {
	t.Helper()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Skip("kubectl is not on the PATH")
	}
	dir := t.TempDir()
	return func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var stdin string
		for i, a := range args {
			if m, ok := strings.CutPrefix(a, "-f="); ok {
				args[i], stdin = "-f=-", m
			}
		}
		args = append([]string{"--server", s.URL(), "--cache-dir", filepath.Join(dir, "cache")}, args...)
		cmd := exec.CommandContext(ctx, "kubectl", args...)
		cmd.Stdin = strings.NewReader(stdin)
		cmd.Env = append(os.Environ(), "KUBECONFIG="+filepath.Join(dir, "none"))
		out, err := cmd.CombinedOutput()
		t.Logf("kubectl %s\n%s", strings.Join(args[4:], " "), out)
		return string(out), err
	}
}

func TestKubectlDeleteDryRunDeletesNothing(t *testing.T) {
	s := startServer(t, Options{})
	kubectl := kubectlAny(t, s)
	for _, n := range []string{"a", "b"} {
		if code, got := call(t, "POST", s.URL()+"/api/v1/namespaces/default/pods", "application/json", podJSON(n, "app=demo")); code != 201 {
			t.Fatalf("create %s: %d %v", n, code, got)
		}
	}
	before := s.ResourceVersion()
	out, err := kubectl("delete", "pods", "-l", "app=demo", "--dry-run=server")
	if err != nil || !strings.Contains(out, `pod "a" deleted (server dry run)`) {
		t.Fatalf("kubectl delete --dry-run=server: %v\n%s", err, out)
	}
	if items, _ := s.List(Pods, "default"); len(items) != 2 || s.ResourceVersion() != before {
		t.Fatalf("after a server dry run: %d pods, resourceVersion %s -> %s; want both pods, nothing written", len(items), before, s.ResourceVersion())
	}
	if out, err := kubectl("delete", "pods", "-l", "app=demo"); err != nil || !strings.Contains(out, `pod "b" deleted`) {
		t.Fatalf("kubectl delete: %v\n%s", err, out)
	}
	if items, _ := s.List(Pods, "default"); len(items) != 0 {
		t.Fatalf("after kubectl delete: %d pods left", len(items))
	}
}

func TestKubectlNamespaces(t *testing.T) {
	s := startServer(t, Options{})
	kubectl := kubectlAny(t, s)
	if out, err := kubectl("create", "ns", "team"); err != nil || !strings.Contains(out, "namespace/team created") {
		t.Fatalf("create ns: %v\n%s", err, out)
	}
	if out, err := kubectl("create", "ns", "Team"); err == nil || !strings.Contains(out, `The Namespace "Team" is invalid`) {
		t.Errorf("create ns Team: want the server's 422, got %v\n%s", err, out)
	}
	if out, err := kubectl("-n", "nowhere", "create", "configmap", "c"); err == nil || !strings.Contains(out, `namespaces "nowhere" not found`) {
		t.Errorf("create in a missing namespace: want 404, got %v\n%s", err, out)
	}
	if out, err := kubectl("get", "ns"); err != nil || !strings.Contains(out, "kube-system") || !strings.Contains(out, "team ") {
		t.Errorf("get ns: want the four a cluster starts with and team, got %v\n%s", err, out)
	}
	// A pod bound to a node waits for its kubelet, which fakeapi has not:
	// the namespace stays Terminating until the pod is deleted for good.
	bound := `{"metadata":{"name":"bound"},"spec":{"nodeName":"node-1","containers":[{"name":"c","image":"busybox"}]}}`
	if code, got := call(t, "POST", s.URL()+"/api/v1/namespaces/team/pods", "application/json", bound); code != 201 {
		t.Fatalf("create pod: %d %v", code, got)
	}
	if out, err := kubectl("delete", "ns", "team", "--wait=false"); err != nil || !strings.Contains(out, `namespace "team" deleted`) {
		t.Fatalf("delete ns: %v\n%s", err, out)
	}
	if out, _ := kubectl("get", "ns", "team"); !strings.Contains(out, "Terminating") {
		t.Errorf("get ns team: want Terminating\n%s", out)
	}
	if out, err := kubectl("-n", "team", "create", "-f="+cmManifest); err == nil || !strings.Contains(out, "because it is being terminated") {
		t.Errorf("create in a Terminating namespace: want 403, got %v\n%s", err, out)
	}
	if out, err := kubectl("delete", "ns", "default"); err == nil || !strings.Contains(out, "this namespace may not be deleted") {
		t.Errorf("delete ns default: want 403, got %v\n%s", err, out)
	}
	// The kubelet's part: the last delete, with no grace period.
	if out, err := kubectl("-n", "team", "delete", "pod", "bound", "--grace-period=0", "--force"); err != nil {
		t.Fatalf("delete pod --force: %v\n%s", err, out)
	}
	// The namespace controller then removes the empty namespace.
	if out, err := kubectl("wait", "--for=delete", "ns/team", "--timeout=20s"); err != nil {
		t.Errorf("namespace team still there once it is empty: %v\n%s", err, out)
	}
	// An empty namespace goes once the controller has run: kubectl's wait ends.
	if out, err := kubectl("create", "ns", "short"); err != nil {
		t.Fatalf("create ns: %v\n%s", err, out)
	}
	if out, err := kubectl("delete", "ns", "short"); err != nil || !strings.Contains(out, `namespace "short" deleted`) {
		t.Fatalf("delete ns short: %v\n%s", err, out)
	}
}

const cmManifest = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\n"
