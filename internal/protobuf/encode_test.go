package protobuf

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEncodeMatchesClientGo encodes the JSON of each body a real client-go
// or kubectl sent (NAME.sent.json) and compares the bytes with what it sent
// in protobuf (NAME.pb).
func TestEncodeMatchesClientGo(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(captures, "*.sent.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no captures: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".sent.json"), func(t *testing.T) {
			obj, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(file, ".sent.json") + ".pb")
			if err != nil {
				t.Fatal(err)
			}
			got, err := Encode(obj)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				t.Errorf("bytes differ at %d of %d (want %d)\n got: % x\nwant: % x", i, len(got), len(want),
					got[max(0, i-16):min(len(got), i+32)], want[max(0, i-16):min(len(want), i+32)])
			}
		})
	}
}

// TestEncodeMatchesServer encodes the JSON of each object a real
// kube-apiserver answered with, and compares the bytes with its protobuf
// answer to the same request: the server's encoder is the same generated
// code as client-go's.
func TestEncodeMatchesServer(t *testing.T) {
	for _, pattern := range []string{"pod-*.pb", "status-*.pb"} {
		files, err := filepath.Glob(filepath.Join(captures, "server", pattern))
		if err != nil || len(files) == 0 {
			t.Fatalf("no captures %s: %v", pattern, err)
		}
		for _, file := range files {
			t.Run(strings.TrimSuffix(filepath.Base(file), ".pb"), func(t *testing.T) {
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				obj, err := os.ReadFile(strings.TrimSuffix(file, ".pb") + ".json")
				if err != nil {
					t.Fatal(err)
				}
				got, err := Encode(obj)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("bytes differ: got %d, want %d", len(got), len(want))
				}
			})
		}
	}
}
