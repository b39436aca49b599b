// planted_test.go proves the harness: six bugs, each planted in a copy
// of the root package, must each be caught within the first plantedSeeds
// seeds: three by the random scenarios, three by the queue differential.
// PARITY_PLANTED=1 runs it (CI does): for each bug it copies the packages
// the harness builds from the root, plants the bug, and runs
// TestRandomScenarios or TestQueueDifferential against the copy (go test
// -modfile, the replace pointing at the copy), which must fail and name
// the seed and the step (and, for the queues, how short the sequence
// shrank).
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

package parity

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// plantedSeeds is how many seeds each planted bug gets to be caught in.
const plantedSeeds = 20

// plantedBugs are the bugs: each replaces old by new, once, in file, and
// must make test fail (a random-scenario bug when test is empty).
var plantedBugs = []struct{ name, file, old, new, test string }{
	{"a resync's updates go to every handler, not only those due (processor.go, distribute)",
		"processor.go", "if !sync || syncing {", "if true || syncing {", ""},
	{"a bookmark does not move the version a re-watch starts from (reflector_watch.go, handleWatch)",
		"reflector_watch.go", "		setVersion(obj.GetResourceVersion(), pastInitialEvents)\n",
		"		if event.Type != WatchBookmark {\n\t\t\tsetVersion(obj.GetResourceVersion(), pastInitialEvents)\n\t\t}\n", ""},
	{"a late handler's adds of the cached objects are not marked as its initial list (informer_handlers.go)",
		"informer_handlers.go", "l.add(addNotification{newObj: item, isInInitialList: true})",
		"l.add(addNotification{newObj: item, isInInitialList: false})", ""},
	{"two deletions of one key in a row are not merged into one (fifo.go, dedupDeltas)",
		"fifo.go", "keep := isDeletionDup(&deltas[n-1], &deltas[n-2]); keep != nil {",
		"keep := isDeletionDup(&deltas[n-1], &deltas[n-2]); keep != nil && false {", queueTest},
	{"a relist makes no tombstones for known objects that are gone (realfifo_relist.go, reconcileReplacement)",
		"realfifo_relist.go", "	for _, key := range knownObjects.ListKeys() {",
		"	for _, key := range knownObjects.ListKeys()[:0] {", queueTest},
	{"an update that changes an object's index values leaves the old ones (thread_safe_store.go, updateIndices)",
		"thread_safe_store.go", "		case !slices.Equal(oldValues[i], newValues[i]):\n\t\t\tindex.deleteKey(key, oldValues[i])\n",
		"		case !slices.Equal(oldValues[i], newValues[i]):\n", queueTest},
}

// queueTest is the test that must catch a planted bug of the queues.
const queueTest = "TestQueueDifferential"

func TestPlantedBugs(t *testing.T) {
	if os.Getenv("PARITY_PLANTED") == "" {
		t.Skip("PARITY_PLANTED=1 runs it: each planted bug builds a copy and runs the random scenarios")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dirs := rootPackageDirs(t, root)
	caught := regexp.MustCompile(`seed (\d+): .*first difference at step (\d+) \(([^)]*)\): ([^\n]{0,160})`)
	shrunkTo := regexp.MustCompile(`shrunk to (\d+) operations`)
	for i, bug := range plantedBugs {
		dir := t.TempDir()
		copyPackages(t, root, dir, dirs)
		plant(t, filepath.Join(dir, bug.file), bug.old, bug.new)
		mod, err := os.ReadFile("go.mod")
		if err != nil {
			t.Fatal(err)
		}
		mod = regexp.MustCompile(`(?m)^replace github.com/learn-k8s/informer => .*$`).
			ReplaceAll(mod, []byte("replace github.com/learn-k8s/informer => "+dir))
		writeFile(t, filepath.Join(dir, "parity.mod"), mod)
		sum, err := os.ReadFile("go.sum")
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "parity.sum"), sum)
		test, env := "TestRandomScenarios", []string{"PARITY_SEEDS=20", "PARITY_FIRST=1", "PARITY_SEED="}
		if bug.test == queueTest {
			test, env = queueTest, []string{"PARITY_QUEUE_SEEDS=20", "PARITY_QUEUE_FIRST=1", "PARITY_QUEUE_SEED="}
		}
		cmd := exec.Command("go", "test", "-modfile="+filepath.Join(dir, "parity.mod"),
			"-run", "^"+test+"$", "-count=1", ".")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		m := caught.FindSubmatch(out)
		shrunk := ""
		if s := shrunkTo.FindSubmatch(out); s != nil {
			shrunk = ", shrunk to " + string(s[1]) + " operations"
		}
		switch {
		case err == nil:
			t.Errorf("planted bug %d (%s): not caught in %d seeds", i+1, bug.name, plantedSeeds)
		case m == nil:
			t.Errorf("planted bug %d (%s): the run failed without a difference:\n%s", i+1, bug.name, out)
		default:
			t.Logf("planted bug %d (%s): caught on seed %s, step %s%s (%s): %s", i+1, bug.name, m[1], m[2], shrunk, m[3], m[4])
		}
	}
}

// rootPackageDirs lists the directories of the packages the root package
// is built from, the root among them, relative to root.
func rootPackageDirs(t *testing.T, root string) []string {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.Dir}}{{end}}", ".")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list in %s: %v", root, err)
	}
	var dirs []string
	for _, d := range strings.Fields(string(out)) {
		if rel, err := filepath.Rel(root, d); err == nil && !strings.HasPrefix(rel, "..") {
			dirs = append(dirs, rel)
		}
	}
	return dirs
}

// copyPackages copies go.mod and the files (tests left out) of each of
// dirs from root to dst.
func copyPackages(t *testing.T, root, dst string, dirs []string) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dst, "go.mod"), b)
	for _, d := range dirs {
		entries, err := os.ReadDir(filepath.Join(root, d))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Type()&fs.ModeType != 0 || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(root, d, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dst, d, e.Name()), b)
		}
	}
}

// plant replaces old by new in file, which must hold old exactly once.
func plant(t *testing.T, file, old, new string) {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte(old)); n != 1 {
		t.Fatalf("planting in %s: the text to replace occurs %d times: %q", file, n, old)
	}
	writeFile(t, file, bytes.Replace(b, []byte(old), []byte(new), 1))
}

// writeFile writes b to name, making its directory.
func writeFile(t *testing.T, name string, b []byte) {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
