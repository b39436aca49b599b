// bench_decode_test.go measures decode.go from memory, with no HTTP: a list
// of 1000 realistic pods and a watch stream of 1000 MODIFIED events of them,
// decoded into *Pod and into *Unstructured, by decode.go and by the obvious
// code it replaces (each item through the object's own UnmarshalJSON; each
// event's object kept as raw JSON and decoded again). ns/obj and B/obj say
// what each trick of decode.go saves.
//
//	go test -run '^$' -bench Decode -benchmem .

package informer

import (
	"bytes"
	"encoding/json"
	"testing"
)

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
func naiveItems(dec *json.Decoder, newObject func() Object) (n int, err error) {
	// Token by token, as decodeList, but through the object itself.
	if _, err := dec.Token(); err != nil {
		return 0, err
	}
	for dec.More() {
		key, _ := dec.Token()
		if key != "items" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return n, err
			}
			continue
		}
		_, _ = dec.Token()
		for dec.More() {
			if err := dec.Decode(newObject()); err != nil {
				return n, err
			}
			n++
		}
		_, _ = dec.Token()
	}
	return n, nil
}

// naiveEvents decodes a watch stream the obvious way: the envelope with the
// object as raw JSON, then json.Unmarshal of the object.
func naiveEvents(dec *json.Decoder, newObject func() Object) (n int, err error) {
	for dec.More() {
		var raw struct {
			Type   WatchEventType  `json:"type"`
			Object json.RawMessage `json:"object"`
		}
		if err := dec.Decode(&raw); err != nil {
			return n, err
		}
		if err := json.Unmarshal(raw.Object, newObject()); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// BenchmarkDecode: ns/obj and allocations per object of each way of
// decoding, for each kind of object.
func BenchmarkDecode(b *testing.B) {
	const n = 1000
	list, stream := benchDecodeInput(b, n)
	ours := map[string]func(*json.Decoder, func() Object) (int, error){
		"list": func(dec *json.Decoder, newObject func() Object) (int, error) {
			l, err := decodeList(dec, newObject)
			if err != nil {
				return 0, err
			}
			return len(l.Items), nil
		},
		"watch": func(dec *json.Decoder, newObject func() Object) (int, error) {
			count := 0
			for dec.More() {
				if _, err := decodeEvent(dec, newObject); err != nil {
					return count, err
				}
				count++
			}
			return count, nil
		},
	}
	naive := map[string]func(*json.Decoder, func() Object) (int, error){"list": naiveItems, "watch": naiveEvents}
	for _, kind := range []string{"Pod", "Unstructured"} {
		newObject := decodeFactories[kind]
		for _, what := range []string{"list", "watch"} {
			body := list
			if what == "watch" {
				body = stream
			}
			for _, way := range []string{"decode.go", "naive"} {
				decode := ours[what]
				if way == "naive" {
					decode = naive[what]
				}
				b.Run(kind+"/"+what+"/"+way, func(b *testing.B) {
					b.SetBytes(int64(len(body)))
					b.ReportAllocs()
					for b.Loop() {
						dec := json.NewDecoder(bytes.NewReader(body))
						if way == "decode.go" {
							dec = newDecoder(bytes.NewReader(body), newObject)
						}
						if got, err := decode(dec, newObject); err != nil || got != n {
							b.Fatalf("decoded %d objects (%v), want %d", got, err, n)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/obj")
				})
			}
		}
	}
}
