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
	"encoding/binary"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/learn-k8s/informer/internal/protobuf"
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

// benchProtobufInput returns the same list and watch stream as
// benchDecodeInput, in Kubernetes protobuf, as a server encodes them
// (internal/protobuf.Encode of each pod: what client-go's encoder writes).
func benchProtobufInput(b *testing.B, list, stream []byte) (pbList, pbStream []byte) {
	var l struct{ Items []json.RawMessage }
	if err := json.Unmarshal(list, &l); err != nil {
		b.Fatal(err)
	}
	for i, item := range l.Items {
		obj, err := protobuf.Encode(append([]byte(`{"kind":"Pod","apiVersion":"v1",`), item[1:]...))
		if err != nil {
			b.Fatal(err)
		}
		_, msg := benchUnwrap(b, obj)
		l.Items[i] = msg
		pbStream = binary.BigEndian.AppendUint32(pbStream, 0) // the frame's length, set below
		frameStart := len(pbStream)
		pbStream = benchBytesField(pbStream, 1, []byte("MODIFIED"))
		pbStream = benchBytesField(pbStream, 2, benchBytesField(nil, 1, obj))
		binary.BigEndian.PutUint32(pbStream[frameStart-4:], uint32(len(pbStream)-frameStart))
	}
	var podList []byte
	podList = benchBytesField(podList, 1, benchBytesField(nil, 2, []byte("9")))
	for _, msg := range l.Items {
		podList = benchBytesField(podList, 2, msg)
	}
	typeMeta := benchBytesField(benchBytesField(nil, 1, []byte("v1")), 2, []byte("PodList"))
	pbList = benchBytesField([]byte("k8s\x00"), 1, typeMeta)
	pbList = benchBytesField(pbList, 2, podList)
	return pbList, pbStream
}

// benchUnwrap splits an object's protobuf body into its typeMeta and its message.
func benchUnwrap(b *testing.B, obj []byte) (typeMeta, msg []byte) {
	rest := obj[4:]
	for len(rest) > 0 {
		tag, n := binary.Uvarint(rest)
		l, m := binary.Uvarint(rest[n:])
		value := rest[n+m : n+m+int(l)]
		rest = rest[n+m+int(l):]
		switch tag >> 3 {
		case 1:
			typeMeta = value
		case 2:
			msg = value
		}
	}
	if msg == nil {
		b.Fatal("no message in the envelope")
	}
	return typeMeta, msg
}

// benchBytesField appends a length-delimited protobuf field.
func benchBytesField(dst []byte, num int, value []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(num)<<3|2)
	dst = binary.AppendUvarint(dst, uint64(len(value)))
	return append(dst, value...)
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
	pbList, pbStream := benchProtobufInput(b, list, stream)
	viaProtobuf := map[string]way{
		"list": func(_ []byte, newObject func() Object) ([]Object, error) {
			l, err := decodeList(newProtobufBodyDecoder(bytes.NewReader(pbList)), newObject)
			if err != nil {
				return nil, err
			}
			return l.Items, nil
		},
		"watch": func(_ []byte, newObject func() Object) ([]Object, error) {
			dec := newProtobufBodyDecoder(bytes.NewReader(pbStream))
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
	for _, kind := range []string{"Pod", "Unstructured"} {
		newObject := decodeFactories[kind]
		for _, what := range []string{"list", "watch"} {
			body := list
			if what == "watch" {
				body = stream
			}
			for _, name := range []string{"jsonread", "naive", "protobuf"} {
				decode := ours[what]
				switch name {
				case "naive":
					decode = naive[what]
				case "protobuf":
					if kind != "Pod" {
						continue // a generic object is asked for in JSON
					}
					decode = viaProtobuf[what]
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
