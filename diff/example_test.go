// example_test.go holds the runnable example of Snapshots; `go test -run
// Example ./diff` checks its output.
//
// client-go counterpart: none (an example).
//
// Tutorial: 000 §3.2.

package diff_test

import (
	"fmt"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/diff"
)

// Two snapshots of a cache, a minute apart: one pod came, one changed
// (a new resource version), one went.
func ExampleSnapshots() {
	pod := func(name, rv string) *informer.Pod {
		return &informer.Pod{ObjectMeta: informer.ObjectMeta{Namespace: "default", Name: name, ResourceVersion: rv}}
	}
	before := diff.Snapshot{
		"default/web":   pod("web", "10"),
		"default/db":    pod("db", "11"),
		"default/cache": pod("cache", "12"),
	}
	after := diff.Snapshot{
		"default/web":    pod("web", "10"), // same version: unchanged
		"default/db":     pod("db", "15"),  // new version: updated
		"default/worker": pod("worker", "16"),
	}
	d := diff.Snapshots(before, after)
	fmt.Println("added:  ", d.Added)
	fmt.Println("updated:", d.Updated)
	fmt.Println("deleted:", d.Deleted)
	// Output:
	// added:   [default/worker]
	// updated: [default/db]
	// deleted: [default/cache]
}
