// bench_decode_test.go measures the informer's decoding of list and watch
// bodies (decodeList, decodeEvent: the one-pass readers of
// internal/jsonread) from memory, with no HTTP: a list of 1000 realistic
// pods and a watch stream of 1000 MODIFIED events of them, decoded into
// *Pod and into *Unstructured, our way and by the obvious code it replaces
// (each item through the object's own UnmarshalJSON; each event's object
// kept as raw JSON and decoded again). ns/obj and B/obj say what the
// one-pass readers save.
//
//	go test -run '^$' -bench Decode -benchmem .
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"time"
)

// decodeFactories are the two kinds of object the decoders fill.
var decodeFactories = map[string]func() Object{
	"Pod":          func() Object { return &Pod{} },
	"Unstructured": func() Object { return &Unstructured{} },
}

// benchDecodeInput returns a list body and a watch stream body of n bench
// pods, encoded as a server encodes them.
func benchDecodeInput(b *testing.B, n int) (list, stream []byte) {
	pod := benchPodTemplate(b)
	meta := pod["metadata"].(map[string]any)
	var items []json.RawMessage
	var events bytes.Buffer
	for i := range n {
		meta["name"], meta["namespace"] = benchName(i), benchNamespace(i)
		raw, err := json.Marshal(pod)
		if err != nil {
			b.Fatal(err)
		}
		items = append(items, raw)
		events.WriteString(`{"type":"MODIFIED","object":`)
		events.Write(raw)
		events.WriteString("}\n")
	}
	list, err := json.Marshal(map[string]any{
		"kind": "PodList", "apiVersion": "v1", "metadata": map[string]any{"resourceVersion": "9"}, "items": items,
	})
	if err != nil {
		b.Fatal(err)
	}
	return list, events.Bytes()
}

// naiveItems decodes a list's items the obvious way: dec.Decode(obj) for
// each, which hands a generic object's bytes to its UnmarshalJSON.
func naiveItems(body []byte, newObject func() Object) ([]Object, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	var objs []Object
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	for dec.More() {
		if key, _ := dec.Token(); key != "items" {
			var ignored json.RawMessage
			if err := dec.Decode(&ignored); err != nil {
				return objs, err
			}
			continue
		}
		_, _ = dec.Token()
		for dec.More() {
			obj := newObject()
			if err := dec.Decode(obj); err != nil {
				return objs, err
			}
			objs = append(objs, obj)
		}
		_, _ = dec.Token()
	}
	return objs, nil
}

// naiveEvents decodes a watch stream the obvious way: the envelope with the
// object as raw JSON, then json.Unmarshal of the object.
func naiveEvents(body []byte, newObject func() Object) ([]Object, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	var objs []Object
	for dec.More() {
		var raw struct {
			Type   WatchEventType  `json:"type"`
			Object json.RawMessage `json:"object"`
		}
		if err := dec.Decode(&raw); err != nil {
			return objs, err
		}
		obj := newObject()
		if err := json.Unmarshal(raw.Object, obj); err != nil {
			return objs, err
		}
		objs = append(objs, obj)
	}
	return objs, nil
}

// BenchmarkDecode: ns/obj, cpu-ns/obj (the process's CPU time, steadier on
// a shared machine) and allocations per object of each way of decoding, for
// each kind of object; for lists also B/obj, the heap the decoded objects
// hold (it shows what sharedValues saves).
func BenchmarkDecode(b *testing.B) {
	const n = 1000
	list, stream := benchDecodeInput(b, n)
	type way func(body []byte, newObject func() Object) ([]Object, error)
	ours := map[string]way{
		"list": func(body []byte, newObject func() Object) ([]Object, error) {
			l, err := decodeList(newBodyDecoder(jsonAnswer(bytes.NewReader(body))), newObject)
			if err != nil {
				return nil, err
			}
			return l.Items, nil
		},
		"watch": func(body []byte, newObject func() Object) ([]Object, error) {
			dec := newBodyDecoder(jsonAnswer(bytes.NewReader(body)))
			var objs []Object
			for {
				ev, err := decodeEvent(dec, newObject)
				if err == io.EOF {
					return objs, nil
				}
				if err != nil {
					return objs, err
				}
				objs = append(objs, ev.Object.(Object))
			}
		},
	}
	naive := map[string]way{"list": naiveItems, "watch": naiveEvents}
	for _, kind := range []string{"Pod", "Unstructured"} {
		newObject := decodeFactories[kind]
		for _, what := range []string{"list", "watch"} {
			body := list
			if what == "watch" {
				body = stream
			}
			for _, name := range []string{"jsonread", "naive"} {
				decode := ours[what]
				if name == "naive" {
					decode = naive[what]
				}
				b.Run(kind+"/"+what+"/"+name, func(b *testing.B) {
					b.SetBytes(int64(len(body)))
					b.ReportAllocs()
					var held float64
					var cpu time.Duration
					for b.Loop() {
						cpu0, _ := benchCPUTime()
						objs, err := decode(body, newObject)
						if err != nil || len(objs) != n {
							b.Fatalf("decoded %d objects (%v), want %d", len(objs), err, n)
						}
						cpu1, _ := benchCPUTime()
						cpu += cpu1 - cpu0
						if what == "list" {
							b.StopTimer()
							held = benchHeapHeld(func() { objs = nil }) / n
							b.StartTimer()
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/obj")
					if _, ok := benchCPUTime(); ok {
						b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*n), "cpu-ns/obj")
					}
					if what == "list" {
						b.ReportMetric(held, "B/obj")
					}
				})
			}
		}
	}
}
