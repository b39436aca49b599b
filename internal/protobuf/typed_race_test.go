// typed_race_test.go checks that the typed plans are safe to build from
// several goroutines at once: decoders that meet a struct type for the
// first time together must not see one another's plans half built (run
// with -race).
//
// client-go counterpart: none (client-go's generated Unmarshal methods
// need no plans).
//
// Tutorial: none (the speed layer).

package protobuf

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// racePod is a pod as a typed struct that keeps what it does not model:
// a type no other test decodes, so its plans are built here first.
type racePod struct {
	Kind       string   `json:"kind"`
	APIVersion string   `json:"apiVersion"`
	Metadata   raceMeta `json:"metadata"`
	unknown    []byte
}

// raceMeta is racePod's metadata, which keeps what it does not model too.
type raceMeta struct {
	Name    string `json:"name"`
	unknown []byte
}

// racePodUnknown is the Layout's Unknown for racePod and raceMeta.
func racePodUnknown(structPtr any) *[]byte {
	switch p := structPtr.(type) {
	case *racePod:
		return &p.unknown
	case *raceMeta:
		return &p.unknown
	}
	return nil
}

func TestTypedPlansBuiltByManyDecodersAtOnce(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(captures, "server", "pod-rich.pb"))
	if err != nil {
		t.Fatal(err)
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	names := make([]string, 8)
	errs := make([]error, 8)
	for i := range names {
		wg.Go(func() {
			<-start // all together: the first decode of racePod builds its plans
			var p racePod
			errs[i] = NewDecoder(bytes.NewReader(data), Layout{Unknown: racePodUnknown}).Decode(&p)
			names[i] = p.Kind + " " + p.Metadata.Name
		})
	}
	close(start)
	decoded := make(chan struct{})
	go func() {
		wg.Wait()
		close(decoded)
	}()
	select {
	case <-decoded:
	case <-time.After(10 * time.Second):
		t.Fatal("8 decoders of one pod did not return within 10 s")
	}
	for i := range names {
		if errs[i] != nil || names[i] != names[0] || names[0] == " " {
			t.Fatalf("decoder %d: %q, %v; decoder 0: %q", i, names[i], errs[i], names[0])
		}
	}
}
