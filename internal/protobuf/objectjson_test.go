package protobuf

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// captures is where the saved protobuf bodies are: what real clients sent,
// and in server/ what a real kube-apiserver answered.
const captures = "../../fakeapi/testdata/protobuf"

// TestObjectJSONMatchesClientGo decodes every protobuf body a real client
// sent and compares the JSON with what client-go's own serializer and
// encoding/json made of the same bytes (NAME.sent.json).
func TestObjectJSONMatchesClientGo(t *testing.T) {
	checkObjectJSON(t, filepath.Join(captures, "*.pb"), ".sent.json")
}

// TestObjectJSONMatchesServer decodes every single object a real
// kube-apiserver answered in protobuf and compares the JSON with the
// server's own JSON answer to the same request (server/NAME.json).
func TestObjectJSONMatchesServer(t *testing.T) {
	checkObjectJSON(t, filepath.Join(captures, "server", "pod-*.pb"), ".json")
	checkObjectJSON(t, filepath.Join(captures, "server", "status-*.pb"), ".json")
}

func checkObjectJSON(t *testing.T, pattern, jsonSuffix string) {
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no captures %s: %v", pattern, err)
	}
	for _, pb := range files {
		t.Run(strings.TrimSuffix(filepath.Base(pb), ".pb"), func(t *testing.T) {
			data, err := os.ReadFile(pb)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(pb, ".pb") + jsonSuffix)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ObjectJSON(data)
			if err != nil {
				t.Fatal(err)
			}
			if want = bytes.TrimSpace(want); !bytes.Equal(got, want) {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				t.Errorf("JSON differs at byte %d\n got: …%s\nwant: …%s", i,
					got[max(0, i-80):min(len(got), i+80)], want[max(0, i-80):min(len(want), i+80)])
			}
		})
	}
}
