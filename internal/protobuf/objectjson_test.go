package protobuf

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestObjectJSONMatchesClientGo decodes every protobuf body a real client
// sent (fakeapi/testdata/protobuf) and compares the JSON with what
// client-go's own serializer and encoding/json made of the same bytes.
func TestObjectJSONMatchesClientGo(t *testing.T) {
	files, err := filepath.Glob("../../fakeapi/testdata/protobuf/*.pb")
	if err != nil || len(files) == 0 {
		t.Fatalf("no captures: %v", err)
	}
	for _, pb := range files {
		name := strings.TrimSuffix(filepath.Base(pb), ".pb")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(pb)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(pb, ".pb") + ".sent.json")
			if err != nil {
				t.Fatal(err)
			}
			got, err := ObjectJSON(data)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, bytes.TrimSpace(want)) {
				t.Errorf("JSON differs\n got: %s\nwant: %s", got, bytes.TrimSpace(want))
			}
		})
	}
}
