// decode_test.go checks the Decoder against encoding/json itself: an
// object read as a list item or as the object of a watch event, generic or
// typed, is exactly what json.Unmarshal makes of its bytes (numbers, nulls,
// empty maps and all), for every saved real object and for fuzzed input.
// The objects are the informer's own (Pod, Status, Unstructured), decoded
// with the Layout the informer gives (testLayout).

package jsonread_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/internal/jsonread"
)

// Object is the informer's object contract.
type Object = informer.Object

// testLayout is the Layout the informer gives (newBodyDecoder in
// restclient.go), written from outside the informer's package. Its typed
// kinds keep their unmodelled members in the embedded field unknownFields,
// which the informer reaches through a method of its own; from outside, a
// test can only take the field's address with reflect's UnsafePointer.
var testLayout = jsonread.Layout{
	Content: func(obj any) *map[string]any {
		if u, ok := obj.(*informer.Unstructured); ok {
			return &u.Object
		}
		return nil
	},
	Unknown: func(structPtr any) *[]byte {
		v := reflect.ValueOf(structPtr)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			return nil
		}
		f := v.Elem().FieldByName("unknownFields")
		if !f.IsValid() || f.Kind() != reflect.Slice || f.Type().Elem().Kind() != reflect.Uint8 {
			return nil
		}
		return (*[]byte)(f.Addr().UnsafePointer())
	},
}

// newDecoder returns a Decoder of body with testLayout.
func newDecoder(body io.Reader) *jsonread.Decoder { return jsonread.NewDecoder(body, testLayout) }

// withoutTypeMeta drops a typed object's kind and apiVersion, as the
// informer does for every object it decodes.
func withoutTypeMeta(obj Object) Object {
	if p, ok := obj.(*informer.Pod); ok {
		p.TypeMeta = informer.TypeMeta{}
	}
	return obj
}

// decodeList decodes a list body as the informer does, into its items.
func decodeList(d *jsonread.Decoder, newObject func() Object) ([]Object, error) {
	var items []Object
	err := d.DecodeList(func(name string) any {
		if name == "items" {
			items = nil
		}
		return nil
	}, func() any {
		items = append(items, newObject())
		return items[len(items)-1]
	})
	for _, obj := range items {
		withoutTypeMeta(obj)
	}
	return items, err
}

// decodeEvent decodes the next watch event of d as the informer does.
func decodeEvent(d *jsonread.Decoder, newObject func() Object) (string, Object, error) {
	typ, obj, err := d.DecodeEvent(func(t string) any {
		switch t {
		case "ADDED", "MODIFIED", "DELETED", "BOOKMARK":
			return newObject()
		case "ERROR":
			return &informer.Status{}
		}
		return nil
	})
	if err != nil {
		return "", nil, err
	}
	o, _ := obj.(Object)
	return typ, withoutTypeMeta(o), nil
}

// decodeFactories are the two kinds of object the decoders fill.
var decodeFactories = map[string]func() Object{
	"Pod":          func() Object { return &informer.Pod{} },
	"Unstructured": func() Object { return &informer.Unstructured{} },
}

// savedObjects returns every JSON object saved in the repository's testdata
// (real server answers among them), and the items of those that are lists.
func savedObjects(t testing.TB) map[string][]byte {
	files, err := filepath.Glob("../../testdata/*.json")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../../fakeapi/testdata/*.json")
	objects := map[string][]byte{}
	for _, file := range append(files, more...) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var probe struct {
			Items []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(data, &probe); err != nil {
			continue // not a JSON object
		}
		objects[file] = data
		for i, item := range probe.Items {
			objects[file+"#items["+strconv.Itoa(i)+"]"] = item
		}
	}
	if len(objects) < 5 {
		t.Fatalf("found only %d saved objects", len(objects))
	}
	return objects
}

// referenceDecode is what encoding/json makes of data: json.Unmarshal into
// the object (for *Unstructured, through its UnmarshalJSON), with the
// typed object's kind dropped as every decoder drops it.
func referenceDecode(data []byte, newObject func() Object) (Object, error) {
	obj := newObject()
	if err := json.Unmarshal(data, obj); err != nil {
		return nil, err
	}
	return withoutTypeMeta(obj), nil
}

// decodeAsItem decodes data as the only item of a list.
func decodeAsItem(data []byte, newObject func() Object) (Object, error) {
	body := `{"kind":"PodList","metadata":{"resourceVersion":"7"},"items":[` + string(data) + `]}`
	items, err := decodeList(newDecoder(strings.NewReader(body)), newObject)
	if err != nil {
		return nil, err
	}
	return items[0], nil
}

// decodeAsEvent decodes data as the object of an ADDED event, with the
// type first as servers send it, or last.
func decodeAsEvent(data []byte, newObject func() Object, typeFirst bool) (Object, error) {
	body := `{"type":"ADDED","object":` + string(data) + `}`
	if !typeFirst {
		body = `{"object":` + string(data) + `,"type":"ADDED"}`
	}
	_, obj, err := decodeEvent(newDecoder(strings.NewReader(body)), newObject)
	return obj, err
}

// checkSameDecode fails t unless every way the Decoder reads an object makes of data
// exactly what referenceDecode makes.
func checkSameDecode(t *testing.T, data []byte, newObject func() Object) {
	t.Helper()
	want, wantErr := referenceDecode(data, newObject)
	check := func(how string, got Object, err error) {
		t.Helper()
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("%s: error %v, encoding/json's %v", how, err, wantErr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got %#v\nwant %#v", how, got, want)
		}
	}
	got, err := decodeAsItem(data, newObject)
	check("as a list item", got, err)
	if wantErr == nil && want.GetName() == "" {
		return // an event refuses an object without a name
	}
	got, err = decodeAsEvent(data, newObject, true)
	check("as a watch event, type first", got, err)
	got, err = decodeAsEvent(data, newObject, false)
	check("as a watch event, object first", got, err)
}

func TestDecodeMatchesEncodingJSONOnSavedObjects(t *testing.T) {
	for name, data := range savedObjects(t) {
		for kind, newObject := range decodeFactories {
			t.Run(filepath.Base(name)+"/"+kind, func(t *testing.T) {
				checkSameDecode(t, data, newObject)
			})
		}
	}
}

func TestDecodeGenericKeepsJSONValues(t *testing.T) {
	const data = `{"metadata":{"name":"n","labels":{},"annotations":null},
		"spec":{"int":1,"big":123456789012345678901234567890,"float":1.50,"exp":-2e-3,
		"list":[],"nested":[{"a":null},[true,false]],"s":"\u00e9\n"}}`
	checkSameDecode(t, []byte(data), decodeFactories["Unstructured"])
	got, err := decodeAsItem([]byte(data), decodeFactories["Unstructured"])
	if err != nil {
		t.Fatal(err)
	}
	spec := got.(*informer.Unstructured).Object["spec"].(map[string]any)
	if spec["big"] != json.Number("123456789012345678901234567890") || spec["float"] != json.Number("1.50") {
		t.Fatalf("numbers changed: big=%#v float=%#v", spec["big"], spec["float"])
	}
	meta := got.(*informer.Unstructured).Object["metadata"].(map[string]any)
	if labels, ok := meta["labels"].(map[string]any); !ok || labels == nil || len(labels) != 0 {
		t.Fatalf("an empty map became %#v", meta["labels"])
	}
	if v, ok := meta["annotations"]; !ok || v != nil {
		t.Fatalf("a null became %#v (present: %v)", v, ok)
	}
}

func TestDecodeEventRefusesAmbiguousEnvelopes(t *testing.T) {
	newObject := decodeFactories["Pod"]
	for _, body := range []string{
		`{"type":"ADDED","type":"ERROR","object":{"metadata":{"name":"a"}}}`,
		`{"type":"ADDED","object":{"metadata":{"name":"a"}},"object":{"metadata":{"name":"b"}}}`,
		`{"type":"NOPE","object":{"metadata":{"name":"a"}}}`,
		`{"type":"ADDED"}`,
		`[]`, `null`, `"ADDED"`,
	} {
		if typ, obj, err := decodeEvent(newDecoder(strings.NewReader(body)), newObject); err == nil {
			t.Errorf("%s: decoded %s %+v, want an error", body, typ, obj)
		}
	}
	// Field names match whatever their case, as encoding/json matches them.
	body := `{"Object":{"metadata":{"name":"a"}},"TYPE":"MODIFIED","extra":[1]}`
	typ, obj, err := decodeEvent(newDecoder(strings.NewReader(body)), newObject)
	if err != nil || typ != "MODIFIED" || obj.(*informer.Pod).Name != "a" {
		t.Fatalf("got %s %+v, %v", typ, obj, err)
	}
}

// checkRefusesBrokenJSON puts data, which is not JSON, inside a list and
// inside a watch event: where encoding/json's Decoder cannot read the first
// value of the body, ours must fail too (they frame the body themselves).
func checkRefusesBrokenJSON(t *testing.T, data []byte, newObject func() Object) {
	t.Helper()
	for _, body := range []string{
		`{"kind":"PodList","metadata":{"resourceVersion":"7"},"items":[` + string(data) + `]}`,
		`{"type":"ADDED","object":` + string(data) + `}`,
	} {
		if json.NewDecoder(strings.NewReader(body)).Decode(new(any)) == nil {
			continue // data closed the list or event early: the first value is JSON
		}
		d := newDecoder(strings.NewReader(body))
		var err error
		if strings.HasPrefix(body, `{"kind"`) {
			_, err = decodeList(d, newObject)
		} else {
			_, _, err = decodeEvent(d, newObject)
		}
		if err == nil {
			t.Fatalf("decoded %q, which encoding/json refuses", body)
		}
	}
}

// FuzzDecodeMatchesEncodingJSON decodes arbitrary JSON values as a list item
// and as a watch event's object, generic and typed, and compares with
// encoding/json's own answer; text that is not JSON must be refused.
// Seeded with every saved object.
func FuzzDecodeMatchesEncodingJSON(f *testing.F) {
	for _, data := range savedObjects(f) {
		f.Add(data, false)
		f.Add(data, true)
	}
	f.Add([]byte(`{"metadata":{"name":"x"},"n":[1,1.0,1e2,-0,null,{}]}`), true)
	f.Add([]byte(`{"metadata":{"name":"x","annotations":{"描述":"中文说明"}},"spec":{"命令":["你好","\u4e16"]}}`), true)
	f.Fuzz(func(t *testing.T, data []byte, generic bool) {
		data = bytes.TrimSpace(data)
		newObject := decodeFactories["Pod"]
		if generic {
			newObject = decodeFactories["Unstructured"]
		}
		if !json.Valid(data) {
			checkRefusesBrokenJSON(t, data, newObject)
			return // only one whole value can be put inside a list or an event
		}
		checkSameDecode(t, data, newObject)
	})
}

// TestDecodeAcrossReads decodes the same list and watch stream from bodies
// that hand over their bytes one at a time, in halves, and with the end of
// the body arriving together with the last bytes: every value split across
// reads must come out exactly as from one read (valueScan goes on where
// it stopped), and the stream must end with io.EOF.
func TestDecodeAcrossReads(t *testing.T) {
	data, err := os.ReadFile("../../testdata/bench-pod.json")
	if err != nil {
		t.Fatal(err)
	}
	var pod bytes.Buffer
	if err := json.Compact(&pod, data); err != nil {
		t.Fatal(err)
	}
	list := `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"9"},"items":[` +
		pod.String() + `, ` + pod.String() + "]}\n"
	stream := `{"type":"ADDED","object":` + pod.String() + "}\n" +
		`{"object":` + pod.String() + `,"type":"MODIFIED"}` + "\n"
	readers := map[string]func(string) io.Reader{
		"one read":    func(s string) io.Reader { return strings.NewReader(s) },
		"halves":      func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) },
		"byte a time": func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
		"EOF with data": func(s string) io.Reader {
			return iotest.DataErrReader(strings.NewReader(s))
		},
	}
	for kind, newObject := range decodeFactories {
		want, err := decodeList(newDecoder(strings.NewReader(list)), newObject)
		if err != nil || len(want) != 2 {
			t.Fatalf("%s: the list: %v", kind, err)
		}
		for how, reader := range readers {
			got, err := decodeList(newDecoder(reader(list)), newObject)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, %s: list %+v, %v", kind, how, got, err)
			}
			d := newDecoder(reader(stream))
			for i, want1 := range []string{"ADDED", "MODIFIED"} {
				typ, obj, err := decodeEvent(d, newObject)
				if err != nil || typ != want1 || !reflect.DeepEqual(obj, want[i]) {
					t.Fatalf("%s, %s: event %d: %s %+v, %v", kind, how, i, typ, obj, err)
				}
			}
			if _, _, err := decodeEvent(d, newObject); err != io.EOF {
				t.Fatalf("%s, %s: after the last event: %v, want io.EOF", kind, how, err)
			}
		}
	}
}
