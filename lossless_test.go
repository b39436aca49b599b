// lossless_test.go proves that the typed kinds lose nothing (lossless.go):
// every answer of a real kube-apiserver saved in testdata decodes and
// encodes back to the same JSON, compared as plain JSON; a member nobody
// modeled survives at every nesting level; zero and null members come back
// as they came; a field the caller sets wins over the raw member; DeepCopy
// shares nothing that can change. FuzzTypedRoundTrip checks the same for
// any JSON object: lossless, or an error, never a panic.
//
//	go test -run=^$ -fuzz=^FuzzTypedRoundTrip$ -fuzztime=60s -parallel=1 .
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// plainJSON decodes data as plain JSON (maps, slices, exact numbers).
func plainJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// typedFor returns a new typed object for the kind of a JSON answer.
func typedFor(t *testing.T, data []byte) any {
	t.Helper()
	var tm TypeMeta
	if err := json.Unmarshal(data, &tm); err != nil {
		t.Fatal(err)
	}
	switch tm.Kind {
	case "Pod", "":
		return &Pod{}
	case "Status":
		return &Status{}
	}
	t.Fatalf("no typed kind for %q", tm.Kind)
	return nil
}

// roundTrip decodes data into obj, encodes it again and fails the test if
// the two differ as plain JSON.
func roundTrip(t *testing.T, name string, data []byte, obj any) {
	t.Helper()
	if err := json.Unmarshal(data, obj); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out, err := json.Marshal(obj)
	if err != nil {
		t.Fatalf("%s: encoding: %v", name, err)
	}
	want, _ := plainJSON(data)
	got, err := plainJSON(out)
	if err != nil || !reflect.DeepEqual(want, got) {
		t.Fatalf("%s: re-encoded JSON differs (%v)\n got %s\nwant %s", name, err, out, data)
	}
}

// realAnswers lists the saved answers of real kube-apiservers.
func realAnswers(t *testing.T) []string {
	files, err := filepath.Glob("testdata/real/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no answers in testdata/real (%v)", err)
	}
	var answers []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".request.json") { // what we sent, not what the server answered
			answers = append(answers, f)
		}
	}
	return append(answers, "testdata/pod-get.json", "testdata/bench-pod.json")
}

func TestTypedKindsRoundTripRealAnswers(t *testing.T) {
	for _, file := range realAnswers(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, file, data, typedFor(t, data))
		// The cached copy of an object must be as lossless as the object.
		if p, ok := typedFor(t, data).(*Pod); ok {
			_ = json.Unmarshal(data, p)
			roundTrip(t, file+" (DeepCopy)", mustMarshal(t, p.DeepCopy()), &Pod{})
		}
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sampleJSON builds, for a typed struct, a JSON value with every modeled
// field set and one member no struct models, "notModeled", at every level.
func sampleJSON(t reflect.Type) any {
	switch {
	case t == timeType:
		return "2026-12-02T13:47:56Z"
	case t.Kind() == reflect.Pointer:
		return sampleJSON(t.Elem())
	case t.Kind() == reflect.Struct:
		obj := map[string]any{"notModeled": map[string]any{"in": t.Name()}}
		for _, f := range fieldsOf(t).fields {
			obj[f.name] = sampleJSON(t.FieldByIndex(f.index).Type)
		}
		return obj
	case t.Kind() == reflect.Slice:
		return []any{sampleJSON(t.Elem()), sampleJSON(t.Elem())}
	case t.Kind() == reflect.Map:
		return map[string]any{"k1": sampleJSON(t.Elem()), "k2": sampleJSON(t.Elem())}
	case t.Kind() == reflect.String:
		return "s"
	case t.Kind() == reflect.Bool:
		return true
	}
	return 7 // the integers
}

// typedStructs lists every struct type reachable from t, but time.Time.
func typedStructs(t reflect.Type, seen map[reflect.Type]bool) {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map:
		typedStructs(t.Elem(), seen)
	case reflect.Struct:
		if t == timeType || seen[t] {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			typedStructs(t.Field(i).Type, seen)
		}
	}
}

func TestEveryTypedStructKeepsUnknownMembers(t *testing.T) {
	for _, kind := range []any{&Pod{}, &Status{}} {
		data := mustMarshal(t, sampleJSON(reflect.TypeOf(kind).Elem()))
		roundTrip(t, reflect.TypeOf(kind).String(), data, kind)
		// Every modeled field was typed: only "notModeled" was kept raw.
		seen := map[reflect.Type]bool{}
		typedStructs(reflect.TypeOf(kind).Elem(), seen)
		for st := range seen {
			if st == reflect.TypeFor[TypeMeta]() {
				continue // its members belong to the enclosing object
			}
			f, ok := st.FieldByName("unknownFields")
			if !ok || f.Type != reflect.TypeFor[unknownFields]() {
				t.Errorf("%s does not embed unknownFields: its unmodeled members would be lost", st)
			}
			p := reflect.PointerTo(st)
			if !p.Implements(reflect.TypeFor[json.Unmarshaler]()) || !st.Implements(reflect.TypeFor[json.Marshaler]()) {
				t.Errorf("%s lacks UnmarshalJSON (on *%s) or MarshalJSON (on %s)", st, st.Name(), st.Name())
			}
		}
	}
	var p Pod
	_ = json.Unmarshal(mustMarshal(t, sampleJSON(reflect.TypeFor[Pod]())), &p)
	if string(p.Spec.Containers[1].Ports[0].unknownFields) != `{"notModeled":{"in":"ContainerPort"}}` ||
		p.Spec.Containers[1].Ports[0].ContainerPort != 7 || p.Status.Conditions[0].Status != "s" {
		t.Errorf("a port keeps %s and has number %d", p.Spec.Containers[1].Ports[0].unknownFields, p.Spec.Containers[1].Ports[0].ContainerPort)
	}
}

func TestZeroAndNullMembersComeBackAsTheyCame(t *testing.T) {
	data := `{"metadata":{"name":"p","creationTimestamp":null,"generation":0,"labels":{}},
		"spec":{"nodeName":"","containers":[{"name":"a","resources":{},"stdin":false,"ports":[]}],
		"terminationGracePeriodSeconds":0},
		"status":{"startTime":null,"conditions":[{"type":"Ready","lastProbeTime":null,
		"lastTransitionTime":"2026-12-02T13:47:56+00:00"}]}}`
	var p Pod
	roundTrip(t, "zero members", []byte(data), &p)
	if p.Spec.TerminationGracePeriodSeconds == nil || p.Labels == nil || p.Spec.Containers[0].Ports == nil {
		t.Errorf("a pointer to 0, an empty map or list should be typed: %+v", p)
	}
	if !p.Status.Conditions[0].LastTransitionTime.IsZero() {
		t.Error("a time written as +00:00 (it would come back as Z) should be kept raw")
	}
}

// TestMemberNamesMatchExactly decodes a member whose name differs from a
// field's json tag only in case, as client-go's decoder does: it fills no
// field (encoding/json alone would), and it comes back as it came.
func TestMemberNamesMatchExactly(t *testing.T) {
	data := `{"metadata":{"name":"p"},"Spec":{"nodeName":"n"}}`
	var p Pod
	roundTrip(t, "a member named in another case", []byte(data), &p)
	if p.Spec.NodeName != "" {
		t.Errorf(`"Spec" filled the field spec: nodeName %q`, p.Spec.NodeName)
	}
}

func TestASetFieldWinsOverTheRawMember(t *testing.T) {
	var p Pod
	if err := json.Unmarshal([]byte(`{"spec":{"containers":[{"name":"a","resources":{}}],"nodeName":""}}`), &p); err != nil {
		t.Fatal(err)
	}
	p.Spec.Containers[0].Resources.Limits = map[string]string{"cpu": "1"}
	p.Spec.NodeName = "node-1"
	out := string(mustMarshal(t, &p))
	want := `{"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1"}}}],"nodeName":"node-1"}}`
	if out != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
}

func TestBadObjectsAreErrors(t *testing.T) {
	for _, data := range []string{`null`, `[]`, `"pod"`, `{"metadata":[]}`, `{"spec":{"containers":[null]}}`,
		`{"metadata":{"labels":{"a":null}}}`, `{"spec":{"containers":[{"command":["a",null]}]}}`,
		`{"metadata":{"generation":1.5}}`, `{"metadata":{"creationTimestamp":"yesterday"}}`} {
		var p Pod
		if err := json.Unmarshal([]byte(data), &p); err == nil {
			t.Errorf("%s: decoded without an error into %+v", data, p)
		}
	}
}

// shares reports a map, slice or pointer that a and b (two values of the
// same type) share, other than the immutable unknownFields.
func shares(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() {
			return ""
		}
		if a.Pointer() == b.Pointer() && a.Type() != reflect.TypeFor[*time.Location]() {
			return path
		}
		return shares(a.Elem(), b.Elem(), path)
	case reflect.Map:
		if !a.IsNil() && a.Pointer() == b.Pointer() {
			return path
		}
	case reflect.Slice:
		if a.Type() == reflect.TypeFor[unknownFields]() {
			return ""
		}
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			return path
		}
		for i := range a.Len() {
			if p := shares(a.Index(i), b.Index(i), path+"[]"); p != "" {
				return p
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if p := shares(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); p != "" {
				return p
			}
		}
	}
	return ""
}

func TestDeepCopySharesNothingThatChanges(t *testing.T) {
	var p Pod
	if err := json.Unmarshal(mustMarshal(t, sampleJSON(reflect.TypeFor[Pod]())), &p); err != nil {
		t.Fatal(err)
	}
	cp := p.DeepCopy()
	if !reflect.DeepEqual(&p, cp) {
		t.Fatal("the copy differs from the original")
	}
	if path := shares(reflect.ValueOf(&p), reflect.ValueOf(cp), "Pod"); path != "" {
		t.Fatalf("the copy shares %s with the original", path)
	}
}

// FuzzTypedRoundTrip checks, for any input, that decoding into Pod and into
// Status either fails with an error or gives back the same JSON object.
func FuzzTypedRoundTrip(f *testing.F) {
	for _, seed := range []string{`{}`, `null`, `{"kind":"Pod","metadata":{"name":"a","x":1}}`, `{"a":[}`, `{"spec":{"x":1]}`,
		`{"spec":{"containers":[{"name":"a","resources":{}}]},"spec":{"nodeName":""}}`,
		`{"metadata":{"creationTimestamp":"2026-01-01T00:00:00.000Z"}}`,
		`{"status":"Failure","details":{"causes":[{"reason":"FieldValueInvalid","x":null}]},"code":422}`} {
		f.Add([]byte(seed))
	}
	for _, file := range []string{"testdata/pod-get.json", "testdata/real/pod-rich.json", "testdata/real/status-422.json"} {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, obj := range []json.Unmarshaler{&Pod{}, &Status{}} {
			if obj.UnmarshalJSON(data) == nil { // straight, as encoding/json would not: no panic, and it encodes
				if _, err := json.Marshal(obj); err != nil {
					t.Fatalf("%T decoded %q but does not encode: %v", obj, data, err)
				}
			}
		}
		want, err := plainJSON(data)
		if _, isObject := want.(map[string]any); err != nil || !isObject {
			return // bad input: an error, never a panic
		}
		for _, obj := range []any{&Pod{}, &Status{}} {
			if json.Unmarshal(data, obj) != nil {
				continue
			}
			out, err := json.Marshal(obj)
			if err != nil {
				t.Fatalf("%T decoded %s but does not encode: %v", obj, data, err)
			}
			if got, err := plainJSON(out); err != nil || !reflect.DeepEqual(want, got) {
				t.Fatalf("%T: %s came back as %s", obj, data, out)
			}
		}
	})
}

func TestPodDecodesRealJSONAndRoundTrips(t *testing.T) {
	var p Pod
	if err := json.Unmarshal(readPodJSON(t), &p); err != nil {
		t.Fatal(err)
	}
	created := time.Date(2026, 12, 2, 13, 47, 56, 0, time.UTC)
	if p.Kind != "Pod" || p.APIVersion != "v1" || p.Name != "demo" || p.Namespace != "default" ||
		p.UID != "023c2465-817a-4e90-8d17-b282e782edfc" || p.ResourceVersion != "69" ||
		p.Generation != 1 || !p.CreationTimestamp.Equal(created) || p.Labels["app"] != "demo" ||
		len(p.Spec.Containers) != 1 || p.Spec.Containers[0].Name != "main" || p.Spec.Containers[0].Image != "busybox" ||
		p.Status.Phase != "Pending" {
		t.Fatalf("decoded Pod is missing fields: %+v", p)
	}

	// Encode and compare as plain JSON: every member comes back, modeled or not.
	out, err := json.Marshal(&p)
	if err != nil {
		t.Fatal(err)
	}
	if orig, again := decodeMap(t, readPodJSON(t)), decodeMap(t, out); !reflect.DeepEqual(orig, again) {
		t.Errorf("re-encoded pod differs:\n got %s\nwant %s", out, readPodJSON(t))
	}
	var empty Pod
	if out, _ := json.Marshal(&empty); string(out) != "{}" {
		t.Errorf("an empty Pod encodes as %s, want {} (unset fields are left out)", out)
	}
}

// userKind is a kind a user writes, as examples/controller's ReplicaSet:
// it embeds ObjectMeta (so it has ObjectMeta's kept method, and its JSON
// methods, promoted) and decodes itself with its own UnmarshalJSON, through
// a wire struct that holds the metadata as a field.
type userKind struct {
	TypeMeta
	ObjectMeta            `json:"metadata,omitzero"`
	Replicas              int
	decodedByItsOwnMethod bool
}

// UnmarshalJSON decodes the kind through its wire form, and marks that it ran.
func (u *userKind) UnmarshalJSON(data []byte) error {
	var wire struct {
		Metadata ObjectMeta `json:"metadata"`
		Spec     struct {
			Replicas int `json:"replicas"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(data, &wire); err != nil {
		return err
	}
	*u = userKind{ObjectMeta: wire.Metadata, Replicas: wire.Spec.Replicas, decodedByItsOwnMethod: true}
	return nil
}

// DeepCopyObject implements Object.
func (u *userKind) DeepCopyObject() Object {
	c := *u
	return &c
}

// careless is a kind that embeds ObjectMeta and has no JSON methods of its
// own: ObjectMeta's, promoted, would read the whole object as metadata.
type careless struct {
	TypeMeta
	ObjectMeta `json:"metadata,omitzero"`
}

// DeepCopyObject implements Object.
func (c *careless) DeepCopyObject() Object {
	d := *c
	return &d
}

// TestUserKindsDecodeByTheirOwnMethods checks that the one-pass decoder
// reads a user's kind as encoding/json does: by its own UnmarshalJSON. Its
// kept method, promoted from the embedded ObjectMeta, must not make the
// decoder read it member by member and file the members it does not know
// in the metadata, where a write-back would send them. And a kind that
// forgot its own methods gets an error that says so, not its whole object
// read as metadata.
func TestUserKindsDecodeByTheirOwnMethods(t *testing.T) {
	body := `{"kind":"ThingList","apiVersion":"v1","metadata":{"resourceVersion":"5"},` +
		`"items":[{"metadata":{"name":"a","namespace":"ns"},"spec":{"replicas":3},"extra":{"x":1}}]}`
	for _, fast := range []bool{false, true} {
		newDecoder := func() bodyDecoder {
			if fast {
				return newFastBodyDecoder(strings.NewReader(body))
			}
			return jsonDecoder{json.NewDecoder(strings.NewReader(body))}
		}
		list, err := decodeList(newDecoder(), func() Object { return &userKind{} })
		if err != nil {
			t.Fatalf("fast=%t: %v", fast, err)
		}
		u := list.Items[0].(*userKind)
		if !u.decodedByItsOwnMethod || u.Name != "a" || u.Replicas != 3 {
			t.Fatalf("fast=%t: decoded %+v; want it decoded by its own UnmarshalJSON", fast, u)
		}
		if len(u.ObjectMeta.unknownFields) != 0 {
			t.Fatalf("fast=%t: the metadata kept %s, which is not metadata", fast, u.ObjectMeta.unknownFields)
		}
		_, err = decodeList(newDecoder(), func() Object { return &careless{} })
		if err == nil || !strings.Contains(err.Error(), "UnmarshalJSON of its own") {
			t.Fatalf("fast=%t: a kind without JSON methods of its own decoded with error %v; "+
				"want one that says it needs them", fast, err)
		}
	}
}
