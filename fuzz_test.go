// fuzz_test.go: fuzz targets for what the client side reads from outside:
// object keys, label selectors, and the watch stream a server sends. Plain
// `go test` runs the seeds and the corpus in testdata/fuzz/;
// `go test -run=^$ -fuzz=^FuzzWatchStream$ -fuzztime=5m -parallel=1 .`
// searches for more (figures in docs/how-we-know.md).
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/learn-k8s/informer/internal/protobuf"
)

// FuzzSplitMetaNamespaceKey checks that splitting a key never panics, fails
// exactly when the key has more than one '/', and otherwise gives parts that
// join back into the key (a leading '/' means "no namespace", as in client-go).
func FuzzSplitMetaNamespaceKey(f *testing.F) {
	for _, k := range []string{"", "name", "ns/name", "/name", "ns/", "/", "a/b/c", "//", "ns/na me", "é/ü"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		ns, name, err := SplitMetaNamespaceKey(key)
		slashes := strings.Count(key, "/")
		switch {
		case slashes > 1:
			if err == nil {
				t.Fatalf("%q: split into %q, %q; want an error", key, ns, name)
			}
		case err != nil:
			t.Fatalf("%q: %v", key, err)
		case strings.Contains(ns, "/") || strings.Contains(name, "/"):
			t.Fatalf("%q: parts %q, %q contain '/'", key, ns, name)
		case slashes == 0 && (ns != "" || name != key):
			t.Fatalf("%q: split into %q, %q; want \"\", %q", key, ns, name, key)
		case slashes == 1 && ns+"/"+name != key:
			t.Fatalf("%q: split into %q, %q, which do not join back", key, ns, name)
		}
	})
}

// FuzzParseSelector checks that parsing a label selector never panics, and
// that an accepted selector printed with String parses back to the same
// selector, matching the same label sets.
func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{"", "app=web", "app==web", "app!=web", "app in (a, b)", "app notin (a)",
		"tier", "!tier", "a in (x),b!=y,!c", "example.com/app=x", "app in ()", "app in (x", "a),b", ",",
		"app=", " app = web ", "a=b=c", "!", "a in (b,c))", "a notin (,)", "a in(b)", "é=1"} {
		f.Add(s)
	}
	sets := []Set{{}, {"app": "web", "tier": "front"}, {"app": "", "a": "x", "b": "y"}}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseSelector(s)
		if err != nil {
			return
		}
		again, err := ParseSelector(sel.String())
		if err != nil || again.String() != sel.String() {
			t.Fatalf("%q printed as %q parses as %v (%v)", s, sel.String(), again, err)
		}
		for _, set := range sets {
			if sel.Matches(set) != again.Matches(set) {
				t.Fatalf("%q and its print %q disagree on %v", s, sel.String(), set)
			}
		}
	})
}

// FuzzWatchStream feeds arbitrary bytes as a watch response body to the
// stream decoder and the Reflector's watch loop. The decoder must end with
// only well-formed events (an ERROR event carries a *Status; the others an
// object of the expected type); the loop must return (an ERROR event as an
// error) and leave the store with only well-keyed objects of that type.
func FuzzWatchStream(f *testing.F) {
	pod := `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x","namespace":"ns","resourceVersion":"5"}}}`
	for _, s := range []string{
		pod + "\n",
		pod + "\n" + strings.ReplaceAll(pod, "ADDED", "MODIFIED") + "\n" + strings.ReplaceAll(pod, "ADDED", "DELETED"),
		`{"type":"DELETED","object":{"metadata":{"name":"a","namespace":"ns","resourceVersion":"9"}}}`,
		`{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"73","annotations":{"k8s.io/initial-events-end":"true"}}}}`,
		`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (5)","reason":"Expired","code":410}}`,
		`{"type":"ERROR","object":{"code":"410","details":[]}}`,
		`{"type":"ERROR","object":null}`,
		`{"type":"ERROR"}`,
		`{"type":"ADDED","object":null}`,
		`{"type":"ADDED","object":{}}`,
		`{"type":"ADDED","object":[1,2]}`,
		`{"type":"ADDED","object":{"metadata":{"name":7}}}`,
		`{"type":"SURPRISE","object":{"metadata":{"name":"x"}}}`,
		`{"type":7}`,
		`{"type":"ADDED","object":{"metadata":{"name":"x"`,
		"garbage\n" + pod,
		"[]", "null", "\n\n\n", "",
		`{"type":"ADDED","object":{"metadata":{"name":"big","labels":{"a":"` + strings.Repeat("x", 1<<20) + `"}}}}`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	quietLogs(f) // bad events are logged: keep the fuzzer quiet
	f.Fuzz(func(t *testing.T, stream []byte, unstructured bool) {
		newObject := func() Object { return &Pod{} }
		seed := []Object{testPod("ns", "a", "1", nil), testPod("ns", "b", "2", nil)}
		if unstructured {
			newObject = func() Object { return &Unstructured{} }
			seed = []Object{&Unstructured{Object: map[string]any{"metadata": map[string]any{"namespace": "ns", "name": "a", "resourceVersion": "1"}}}}
		}
		want := newObject()
		open := func() *streamWatcher {
			return newStreamWatcher(jsonAnswer(bytes.NewReader(stream)), newObject, func() {})
		}

		// The decoder alone: every event well formed, then the end.
		sw := open()
		timeout := time.NewTimer(10 * time.Second)
		defer timeout.Stop()
	events:
		for {
			select {
			case ev, ok := <-sw.ResultChan():
				if !ok {
					break events
				}
				checkEvent(t, ev, want)
			case <-timeout.C:
				t.Fatal("the decoder neither sent an event nor ended within 10s")
			}
		}

		// The Reflector's watch loop: it returns, and the store stays sound.
		store := NewStore(DeletionHandlingMetaNamespaceKeyFunc)
		for _, obj := range seed {
			must(t, store.Add(obj))
		}
		sw = open()
		defer sw.Stop()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		r := NewReflector(nil, want, store)
		setVersion := func(string, bool) {}
		if err := r.handleWatch(ctx, time.Now(), sw, store, setVersion, nil, false); errors.Is(err, errStopRequested) {
			t.Fatal("the watch loop did not return within 10s")
		}
		for _, key := range store.ListKeys() {
			obj, _, _ := store.GetByKey(key)
			o, ok := obj.(Object)
			if k, err := DeletionHandlingMetaNamespaceKeyFunc(obj); !ok || isNilPointer(obj) || err != nil || k != key || o.GetName() == "" {
				t.Fatalf("store holds %#v under %q", obj, key)
			}
		}
	})
}

// checkEvent fails t unless ev is a well-formed decoded watch event whose
// object, if it carries one, has the type of want.
func checkEvent(t *testing.T, ev WatchEvent, want Object) {
	t.Helper()
	switch ev.Type {
	case WatchError:
		if s, ok := ev.Object.(*Status); !ok || s == nil {
			t.Fatalf("ERROR event with a %T", ev.Object)
		}
	case WatchAdded, WatchModified, WatchDeleted, WatchBookmark:
		if ev.Object == nil || isNilPointer(ev.Object) || !sameType(ev.Object, want) {
			t.Fatalf("%s event with a %T, want a %T", ev.Type, ev.Object, want)
		}
		if o := ev.Object.(Object); ev.Type != WatchBookmark && o.GetName() == "" {
			t.Fatalf("%s event for an object without a name", ev.Type)
		}
	default:
		t.Fatalf("event of type %q", ev.Type)
	}
}

// sameType reports whether a and b have the same dynamic type.
func sameType(a, b any) bool {
	switch a.(type) {
	case *Pod:
		_, ok := b.(*Pod)
		return ok
	case *Unstructured:
		_, ok := b.(*Unstructured)
		return ok
	}
	return false
}

// FuzzProtobufTyped feeds the protobuf decoders arbitrary bytes, seeded with
// the real server's saved answers: bad input is an error, never a panic; an
// object that decodes into the typed Pod (or Status) decodes exactly as its
// JSON text (internal/protobuf's ObjectJSON) does through encoding/json, the
// reference; lists and watch streams decode without a panic.
func FuzzProtobufTyped(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(serverCapturesDir, "*.pb"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, newObject := range []func() any{func() any { return &Pod{} }, func() any { return &Status{} }} {
			got := newObject()
			if decodeProtobufObject(data, got) != nil {
				continue
			}
			text, err := protobuf.ObjectJSON(data)
			if err != nil {
				t.Fatalf("decoded into %T, but ObjectJSON fails: %v", got, err)
			}
			want := newObject()
			if err := json.Unmarshal(text, want); err != nil {
				t.Fatalf("decoded into %T, but its JSON %s does not: %v", got, text, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("decoded differently from its JSON %s\nprotobuf: %+v\nJSON:     %+v", text, got, want)
			}
		}
		newPod := func() Object { return &Pod{} }
		_, _ = decodeList(newProtobufBodyDecoder(bytes.NewReader(data)), newPod)
		dec := newProtobufBodyDecoder(bytes.NewReader(data))
		for range 1000 {
			if _, err := decodeEvent(dec, newPod); err != nil {
				break
			}
		}
	})
}
