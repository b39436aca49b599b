// bench_protobuf_test.go measures decoding the realistic pod a real
// kube-apiserver v1.37.2 serves (testdata/real/pod-realistic.json and .pb:
// 4.7 KB of JSON, 3.2 KB of protobuf, managedFields included) into the
// typed Pod, as a list item and as a watch event, over JSON (the one-pass
// reader of internal/jsonread) and over protobuf (internal/protobuf).
//
//	go test -run '^$' -bench DecodeRealistic -benchmem .
//
// Reading 3: the real wire (protobuf for the built-in kinds).

package informer

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"testing"
	"time"
)

// realisticBodies returns a list of n copies of the realistic pod and a
// watch stream of n MODIFIED events of it, in JSON and in protobuf.
func realisticBodies(b *testing.B, n int) (jsonList, jsonStream, pbList, pbStream []byte) {
	js, err := os.ReadFile("testdata/real/pod-realistic.json")
	if err != nil {
		b.Fatal(err)
	}
	pb, err := os.ReadFile("testdata/real/pod-realistic.pb")
	if err != nil {
		b.Fatal(err)
	}
	js = bytes.TrimSpace(js)
	var item map[string]json.RawMessage
	if err := json.Unmarshal(js, &item); err != nil {
		b.Fatal(err)
	}
	delete(item, "kind")
	delete(item, "apiVersion")
	itemJSON, _ := json.Marshal(item) // members sorted: the decoders take any order
	_, msg := benchUnwrap(b, pb)
	var items [][]byte
	var events bytes.Buffer
	var podList []byte
	podList = benchBytesField(podList, 1, benchBytesField(nil, 2, []byte("9")))
	for range n {
		items = append(items, itemJSON)
		events.WriteString(`{"type":"MODIFIED","object":`)
		events.Write(js)
		events.WriteString("}\n")
		podList = benchBytesField(podList, 2, msg)
		frame := benchBytesField(nil, 1, []byte("MODIFIED"))
		frame = benchBytesField(frame, 2, benchBytesField(nil, 1, pb))
		pbStream = binary.BigEndian.AppendUint32(pbStream, uint32(len(frame)))
		pbStream = append(pbStream, frame...)
	}
	jsonList = append([]byte(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"9"},"items":[`),
		bytes.Join(items, []byte(","))...)
	jsonList = append(jsonList, "]}"...)
	typeMeta := benchBytesField(benchBytesField(nil, 1, []byte("v1")), 2, []byte("PodList"))
	pbList = benchBytesField([]byte("k8s\x00"), 1, typeMeta)
	pbList = benchBytesField(pbList, 2, podList)
	return jsonList, events.Bytes(), pbList, pbStream
}

// BenchmarkDecodeRealistic: CPU per object (cpu-ns/obj) and allocations of
// decoding the realistic pod into the typed Pod, JSON against protobuf.
func BenchmarkDecodeRealistic(b *testing.B) {
	const n = 1000
	jsonList, jsonStream, pbList, pbStream := realisticBodies(b, n)
	newPod := func() Object { return &Pod{} }
	answer := func(body []byte, contentType string) *http.Response {
		return &http.Response{Body: io.NopCloser(bytes.NewReader(body)), Header: http.Header{"Content-Type": {contentType}}}
	}
	for _, c := range []struct {
		name, contentType string
		list, stream      []byte
	}{{"json", "application/json", jsonList, jsonStream}, {"protobuf", ContentTypeProtobuf, pbList, pbStream}} {
		b.Run("list/"+c.name, func(b *testing.B) {
			benchDecodeLoop(b, n, func() (int, error) {
				l, err := decodeList(newBodyDecoder(answer(c.list, c.contentType)), newPod)
				if err != nil {
					return 0, err
				}
				return len(l.Items), nil
			})
		})
		b.Run("watch/"+c.name, func(b *testing.B) {
			benchDecodeLoop(b, n, func() (int, error) {
				dec := newBodyDecoder(answer(c.stream, c.contentType))
				for i := 0; ; i++ {
					if _, err := decodeEvent(dec, newPod); err == io.EOF {
						return i, nil
					} else if err != nil {
						return i, err
					}
				}
			})
		})
	}
}

// benchDecodeLoop runs decode, which must decode n objects, and reports
// the CPU time per object.
func benchDecodeLoop(b *testing.B, n int, decode func() (int, error)) {
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		cpu0, _ := benchCPUTime()
		got, err := decode()
		if err != nil || got != n {
			b.Fatalf("decoded %d objects (%v), want %d", got, err, n)
		}
		cpu1, _ := benchCPUTime()
		cpu += cpu1 - cpu0
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*n), "cpu-ns/obj")
}
