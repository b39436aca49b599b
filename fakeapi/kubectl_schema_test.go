// kubectl_schema_test.go: the parts of TestKubectl that need the real
// schema: kubectl's create commands, which send protobuf (compat_protobuf.go);
// kubectl run, which sends JSON; kubectl explain, which prints the real
// descriptions (compat_openapi.go); and an old kubectl (1.27, beside the real
// kubectl binary when installed), which validates client-side from
// /openapi/v2 in protobuf, creating and applying without --validate=false.

package fakeapi

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// kubectlCreateKinds runs kubectl's create commands and run, and checks
// what the server stored.
func kubectlCreateKinds(t *testing.T, s *Server, kubectl func(args ...string) string) {
	for _, args := range [][]string{
		{"create", "configmap", "cfg-pb", "--from-literal=a=b", "--from-literal=empty="},
		{"create", "secret", "generic", "sec-pb", "--from-literal=k=v"},
		{"create", "namespace", "ns-pb"},
		{"create", "deployment", "dep-pb", "--image=nginx:1", "--replicas=3", "--port=80"},
		{"run", "run-pb", "--image=nginx:1", "--labels=app=run", "--env=X=1", "--port=8080"},
	} {
		kubectl(args...)
	}
	check := func(r Resource, ns, name, path, want string) {
		t.Helper()
		obj, err := s.Get(r, ns, name)
		if err != nil {
			t.Errorf("%s %s: %v", r, name, err)
			return
		}
		if got := jsonText(dig(obj, strings.Split(path, ".")...)); got != want {
			t.Errorf("%s %s: %s = %s, want %s", r, name, path, got, want)
		}
	}
	check(ConfigMaps, "default", "cfg-pb", "data", `{"a":"b","empty":""}`)
	check(Secrets, "default", "sec-pb", "data", `{"k":"dg=="}`)
	check(Namespaces, "", "ns-pb", "metadata.name", `"ns-pb"`)
	check(Deployments, "default", "dep-pb", "spec.replicas", `3`)
	check(Deployments, "default", "dep-pb", "spec.selector", `{"matchLabels":{"app":"dep-pb"}}`)
	check(Deployments, "default", "dep-pb", "spec.template.spec.containers",
		`[{"image":"nginx:1","imagePullPolicy":"IfNotPresent","name":"nginx","ports":[{"containerPort":80,"protocol":"TCP"}],"resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}]`)
	check(Pods, "default", "run-pb", "spec.containers",
		`[{"env":[{"name":"X","value":"1"}],"image":"nginx:1","imagePullPolicy":"IfNotPresent","name":"run-pb","ports":[{"containerPort":8080,"protocol":"TCP"}],"resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}]`)
}

// kubectlExplain checks that kubectl explain prints the description the
// real document gives the field.
func kubectlExplain(t *testing.T, kubectl func(args ...string) string) {
	podSpec := openAPISchemas()["io.k8s.api.core.v1.PodSpec"]
	desc, _ := propertySchema(podSpec, "containers")["description"].(string)
	if len(desc) < 40 {
		t.Fatalf("no description of PodSpec.containers in the document: %q", desc)
	}
	out := kubectl("explain", "pods.spec.containers")
	if !strings.Contains(strings.Join(strings.Fields(out), " "), desc[:40]) || !strings.Contains(out, "FIELD: containers <[]Container>") {
		t.Errorf("kubectl explain pods.spec.containers: want the field and the start of %q:\n%s", desc, out)
	}
}

// kubectlOld creates and applies a pod with kubectl 1.27, which checks the
// object against /openapi/v2 (protobuf) itself, and explains a field.
func kubectlOld(ctx context.Context, t *testing.T, s *Server, dir string) {
	t.Run("kubectl1.27", func(t *testing.T) {
		path, _ := exec.LookPath("kubectl")
		real, err := filepath.EvalSymlinks(path)
		bin := filepath.Join(filepath.Dir(real), "kubectl.1.27")
		if _, statErr := os.Stat(bin); err != nil || statErr != nil {
			t.Skip("kubectl.1.27 is not installed beside kubectl")
		}
		_, kubectl := kubectlRunner(ctx, t, bin, s, dir)
		file := filepath.Join(dir, "old.yaml")
		write := func(content string) {
			if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		write(strings.ReplaceAll(podYAML, "name: web", "name: old"))
		if out := kubectl("create", "-f", file); !strings.Contains(out, "pod/old created") {
			t.Errorf("create -f: %s", out)
		}
		write(strings.ReplaceAll(podYAML, "name: web", "name: old-applied"))
		kubectl("apply", "-f", file)
		write(strings.ReplaceAll(strings.ReplaceAll(podYAML, "name: web", "name: old-applied"), "nginx:1", "nginx:2"))
		if out := kubectl("apply", "-f", file); !strings.Contains(out, "pod/old-applied configured") {
			t.Errorf("second apply: %s", out)
		}
		if obj, err := s.Get(Pods, "default", "old-applied"); err != nil || jsonText(dig(obj, "spec", "containers")) != `[{"image":"nginx:2","imagePullPolicy":"IfNotPresent","name":"main","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}]` {
			t.Errorf("after kubectl 1.27's apply: %v %v", err, dig(obj, "spec", "containers"))
		}
		kubectlExplain(t, kubectl)
		// A field the schema does not have: kubectl sends
		// fieldValidation=Strict, and the server refuses the object.
		write(strings.ReplaceAll(podYAML, "image: nginx:1", "image: nginx:1\n    imagePolicy: x"))
		cmd := exec.CommandContext(ctx, bin, "--server", s.URL(), "--cache-dir", filepath.Join(dir, "cache-kubectl.1.27"), "create", "-f", file)
		cmd.Env = append(os.Environ(), "KUBECONFIG="+filepath.Join(dir, "kubeconfig"))
		if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), `strict decoding error: unknown field "spec.containers[0].imagePolicy"`) {
			t.Errorf("kubectl 1.27 create with an unknown field: %v\n%s", err, out)
		}
	})
}
