// store_index_test.go checks that the Indexer, which keeps no copy of the
// values each key is filed under (it computes them again, as client-go
// does), keeps its indexes exactly where a store that kept the copies would:
// against such a model, through random writes, deletes, Replace and
// AddIndexers, with several values per object, repeated values and none.

package informer

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// tagsIndex files a Pod under each of its "tags" labels' comma-free parts:
// several values per object, sometimes the same one twice, sometimes none.
func tagsIndex(obj any) ([]string, error) {
	p := obj.(*Pod)
	var vs []string
	for _, k := range []string{"t1", "t2", "t3"} {
		if v, ok := p.Labels[k]; ok {
			vs = append(vs, v)
		}
	}
	return vs, nil
}

// filedModel is the reference: it remembers, per key, the values the key
// was filed under when it was written, and derives the indexes from them.
type filedModel map[string]map[string][]string // key → index → values

func (m filedModel) snapshot(names []string) map[string]map[string][]string {
	out := map[string]map[string][]string{}
	for _, name := range names {
		out[name] = map[string][]string{}
	}
	for key, byIndex := range m {
		for name, vs := range byIndex {
			for _, v := range vs {
				if !slices.Contains(out[name][v], key) {
					out[name][v] = append(out[name][v], key)
				}
			}
		}
	}
	for _, index := range out {
		for _, keys := range index {
			slices.Sort(keys)
		}
	}
	return out
}

func TestIndexerMatchesAModelThatKeepsFiledValues(t *testing.T) {
	for seed := range uint64(8) {
		t.Run("seed="+strconv.FormatUint(seed, 10), func(t *testing.T) {
			checkIndexerAgainstModel(t, rand.New(rand.NewPCG(seed, 2)))
		})
	}
}

// checkIndexerAgainstModel runs 3000 random writes on an Indexer and on a
// filedModel, and compares their indexes after each.
func checkIndexerAgainstModel(t *testing.T, rnd *rand.Rand) {
	indexers := Indexers{NamespaceIndex: MetaNamespaceIndexFunc, "app": byApp, "tags": tagsIndex}
	names := []string{NamespaceIndex, "app", "tags"}
	value := func() string { return []string{"a", "b", "c"}[rnd.IntN(3)] }
	randomLabels := func() map[string]string {
		labels := map[string]string{}
		for _, k := range []string{"app", "t1", "t2", "t3"} {
			if rnd.IntN(2) == 0 {
				labels[k] = value()
			}
		}
		return labels
	}
	newPod := func() *Pod {
		return &Pod{ObjectMeta: ObjectMeta{
			Namespace: "ns" + strconv.Itoa(rnd.IntN(3)), Name: "p" + strconv.Itoa(rnd.IntN(12)), Labels: randomLabels(),
		}}
	}
	filedValues := func(p *Pod) map[string][]string {
		out := map[string][]string{}
		for _, name := range names {
			vs, _ := indexers[name](p)
			out[name] = vs
		}
		return out
	}

	idx := NewIndexer(MetaNamespaceKeyFunc, indexers)
	model := filedModel{}
	for step := range 3000 {
		var did string
		switch op := rnd.IntN(10); {
		case step == 1500: // an index added late files the objects as they are now
			late := func(obj any) ([]string, error) { return slices.Repeat([]string{"x"}, len(obj.(*Pod).Labels)%3), nil }
			must(t, idx.AddIndexers(Indexers{"late": late}))
			indexers["late"], names = late, append(names, "late")
			for key, byIndex := range model {
				obj, _, _ := idx.GetByKey(key)
				byIndex["late"], _ = late(obj)
			}
			did = "add an index"
		case op < 5:
			p := newPod()
			must(t, idx.Update(p))
			model[p.Namespace+"/"+p.Name] = filedValues(p)
			did = "update " + p.Name
		case op < 8:
			p := newPod()
			must(t, idx.Delete(p))
			delete(model, p.Namespace+"/"+p.Name)
			did = "delete " + p.Name
		default:
			var list []any
			clear(model)
			for range rnd.IntN(6) {
				p := newPod()
				list = append(list, p)
				model[p.Namespace+"/"+p.Name] = filedValues(p)
			}
			must(t, idx.Replace(list, "1"))
			did = "replace"
		}
		if got, want := indexSnapshot(t, idx), model.snapshot(names); !equalSnapshots(got, want) {
			t.Fatalf("step %d (%s): indexes\n got %v\nwant %v", step, did, got, want)
		}
	}
}
