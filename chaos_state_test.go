// chaos_state_test.go: how the chaos convergence test (chaos_test.go)
// pictures and compares states: the server's pods and the cache as key →
// resource version, a short description of their differences, every index
// checked against one rebuilt from scratch, and the fault counts in a
// stable order.
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/learn-k8s/informer/fakeapi"
)

// serverState is key → resource version of every pod on the server.
func serverState(srv *fakeapi.Server) map[string]string {
	items, _ := srv.List(fakeapi.Pods, "")
	state := map[string]string{}
	for _, it := range items {
		m := it["metadata"].(map[string]any)
		state[m["namespace"].(string)+"/"+m["name"].(string)] = m["resourceVersion"].(string)
	}
	return state
}

// cacheState is key → resource version of every object in the cache.
func cacheState(store Store) map[string]string {
	state := map[string]string{}
	for _, obj := range store.List() {
		state[keyOf(obj)] = versionOf(obj)
	}
	return state
}

// diffStates describes how got differs from want, briefly.
func diffStates(got, want map[string]string) string {
	var d []string
	for k, v := range want {
		if got[k] != v {
			d = append(d, fmt.Sprintf("%s: have %q want %q", k, got[k], v))
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			d = append(d, fmt.Sprintf("%s: have %q, not on the server", k, v))
		}
	}
	slices.Sort(d)
	if len(d) > 10 {
		d = append(d[:10], fmt.Sprintf("... %d more", len(d)-10))
	}
	return fmt.Sprintf("%d objects (server %d), %d differences: %s", len(got), len(want), len(d), strings.Join(d, "; "))
}

// checkIndexes compares every index of idx with one rebuilt from scratch
// from idx's objects.
func checkIndexes(t *testing.T, idx Indexer, indexers Indexers) {
	t.Helper()
	fresh := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, indexers)
	for _, obj := range idx.List() {
		if err := fresh.Add(obj); err != nil {
			t.Fatal(err)
		}
	}
	for name := range indexers {
		values := idx.ListIndexFuncValues(name)
		wantValues := fresh.ListIndexFuncValues(name)
		slices.Sort(values)
		slices.Sort(wantValues)
		if !slices.Equal(values, wantValues) {
			t.Errorf("index %s: values %v, rebuilt %v", name, values, wantValues)
		}
		for _, v := range wantValues {
			got, err1 := idx.IndexKeys(name, v)
			want, err2 := fresh.IndexKeys(name, v)
			slices.Sort(got)
			slices.Sort(want)
			if err1 != nil || err2 != nil || !slices.Equal(got, want) {
				t.Errorf("index %s=%s: keys %v (%v), rebuilt %v (%v)", name, v, got, err1, want, err2)
			}
		}
	}
}

// formatCounts renders counts as "k=v" pairs in a stable order.
func formatCounts(counts map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, counts[k]))
	}
	return strings.Join(parts, " ")
}
