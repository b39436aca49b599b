// example_advanced_test.go holds runnable examples of the advanced helpers;
// `go test -run Example` checks their output.

package informer

import "fmt"

// Two snapshots of a cache, a minute apart: one pod came, one changed
// (a new resource version), one went.
func ExampleDiffSnapshots() {
	pod := func(name, rv string) *Pod {
		return &Pod{ObjectMeta: ObjectMeta{Namespace: "default", Name: name, ResourceVersion: rv}}
	}
	before := Snapshot{
		"default/web":   pod("web", "10"),
		"default/db":    pod("db", "11"),
		"default/cache": pod("cache", "12"),
	}
	after := Snapshot{
		"default/web":    pod("web", "10"), // same version: unchanged
		"default/db":     pod("db", "15"),  // new version: updated
		"default/worker": pod("worker", "16"),
	}
	d := DiffSnapshots(before, after)
	fmt.Println("added:  ", d.Added)
	fmt.Println("updated:", d.Updated)
	fmt.Println("deleted:", d.Deleted)
	// Output:
	// added:   [default/worker]
	// updated: [default/db]
	// deleted: [default/cache]
}
