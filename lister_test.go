// lister_test.go checks the typed PodLister over an Indexer: a label
// selector across namespaces, a list by namespace (with and without the
// namespace index) and a get by name. Like the Store's tests it needs no
// server: a lister only reads the cache.

package informer

import (
	"slices"
	"testing"
)

func TestPodLister(t *testing.T) {
	for _, indexers := range []Indexers{{NamespaceIndex: MetaNamespaceIndexFunc}, {}} {
		_, indexed := indexers[NamespaceIndex]
		idx := NewIndexer(MetaNamespaceKeyFunc, indexers)
		must(t, idx.Add(testPod("ns1", "web", "1", map[string]string{"app": "web"})))
		must(t, idx.Add(testPod("ns1", "db", "2", map[string]string{"app": "db"})))
		must(t, idx.Add(testPod("ns2", "web", "3", map[string]string{"app": "web"})))
		must(t, idx.Add(namedThing{namespace: "ns1", name: "cm"})) // not a Pod: the lister skips it
		lister := NewPodLister(idx)
		web := SelectorFromSet(Set{"app": "web"})
		keys := func(pods []*Pod, err error) []string {
			if err != nil {
				t.Fatalf("namespace index %v: %v", indexed, err)
			}
			var out []string
			for _, p := range pods {
				out = append(out, p.Namespace+"/"+p.Name)
			}
			slices.Sort(out)
			return out
		}
		for _, tt := range []struct {
			what string
			got  []string
			want []string
		}{
			{"List(app=web)", keys(lister.List(web)), []string{"ns1/web", "ns2/web"}},
			{"List(everything)", keys(lister.List(Everything())), []string{"ns1/db", "ns1/web", "ns2/web"}},
			{"Pods(ns1).List(everything)", keys(lister.Pods("ns1").List(Everything())), []string{"ns1/db", "ns1/web"}},
			{"Pods(ns1).List(app=web)", keys(lister.Pods("ns1").List(web)), []string{"ns1/web"}},
			{"Pods(none).List(everything)", keys(lister.Pods("none").List(Everything())), nil},
		} {
			if !slices.Equal(tt.got, tt.want) {
				t.Errorf("namespace index %v: %s = %v, want %v", indexed, tt.what, tt.got, tt.want)
			}
		}
		if p, err := lister.Pods("ns2").Get("web"); err != nil || p.ResourceVersion != "3" {
			t.Errorf("namespace index %v: Pods(ns2).Get(web) = %v, %v", indexed, p, err)
		}
		for _, name := range []string{"nope", "cm"} { // missing, and not a pod
			if _, err := lister.Pods("ns1").Get(name); !IsNotFound(err) {
				t.Errorf("namespace index %v: Pods(ns1).Get(%s) error %v, want NotFound", indexed, name, err)
			}
		}
	}
}
