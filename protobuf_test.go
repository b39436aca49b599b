// protobuf_test.go checks that an object read over protobuf equals the same
// object read over JSON, every member, including those the typed Pod does
// not model: on the answers of a real kube-apiserver v1.37.2 saved in
// fakeapi/testdata/protobuf/server (realprotobuf_test.go made them: each
// request asked once for JSON and once for protobuf), for a single object,
// a Status, list pages, a watch, a streaming list and an expired watch.

package informer

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestProtobufAnswersDecodeAsJSON(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(serverCapturesDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no saved answers in %s: %v", serverCapturesDir, err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			js, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			pb, err := os.ReadFile(strings.TrimSuffix(file, ".json") + ".pb")
			if err != nil {
				t.Fatal(err)
			}
			checkProtobufAnswer(t, name, js, pb)
		})
	}
}

// checkProtobufAnswer decodes the JSON answer js with encoding/json (the
// reference) and the protobuf answer pb to the same request, and fails
// unless they give the same objects, and the same JSON when encoded again.
func checkProtobufAnswer(t *testing.T, name string, js, pb []byte) {
	t.Helper()
	newPod := func() Object { return &Pod{} }
	var fromJSON, fromProtobuf any
	switch {
	case strings.HasPrefix(name, "watch"):
		fromJSON = allEvents(t, jsonDecoder{json.NewDecoder(bytes.NewReader(js))}, newPod)
		fromProtobuf = allEvents(t, newProtobufBodyDecoder(bytes.NewReader(pb)), newPod)
	case strings.HasPrefix(name, "list"):
		var err error
		if fromJSON, err = decodeList(jsonDecoder{json.NewDecoder(bytes.NewReader(js))}, newPod); err != nil {
			t.Fatalf("JSON: %v", err)
		}
		if fromProtobuf, err = decodeList(newProtobufBodyDecoder(bytes.NewReader(pb)), newPod); err != nil {
			t.Fatalf("protobuf: %v", err)
		}
	default:
		newObject := func() any { return &Pod{} }
		if strings.HasPrefix(name, "status") {
			newObject = func() any { return &Status{} }
		}
		fromJSON, fromProtobuf = newObject(), newObject()
		if err := json.Unmarshal(js, fromJSON); err != nil {
			t.Fatalf("JSON: %v", err)
		}
		if err := decodeProtobufObject(pb, fromProtobuf); err != nil {
			t.Fatalf("protobuf: %v", err)
		}
	}
	if !reflect.DeepEqual(fromJSON, fromProtobuf) {
		t.Errorf("decoded differently\nJSON:     %+v\nprotobuf: %+v", fromJSON, fromProtobuf)
	}
	again, err := json.Marshal(fromJSON)
	if err != nil {
		t.Fatal(err)
	}
	againPB, err := json.Marshal(fromProtobuf)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, againPB) {
		t.Errorf("encoded differently\nJSON:     %s\nprotobuf: %s", again, againPB)
	}
}

// allEvents decodes every event of a watch body.
func allEvents(t *testing.T, dec bodyDecoder, newObject func() Object) []WatchEvent {
	t.Helper()
	var events []WatchEvent
	for {
		ev, err := decodeEvent(dec, newObject)
		if err == io.EOF {
			return events
		}
		if err != nil {
			t.Fatalf("event %d: %v", len(events), err)
		}
		events = append(events, ev)
	}
}
