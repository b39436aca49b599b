// structs_test.go checks the one-pass readers of typed structs (structs.go,
// readers.go) against the reference: the struct's own UnmarshalJSON, which
// applies the rules of the informer's lossless.go with encoding/json. They
// must agree on every input, valid or not.

package jsonread_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"testing"

	informer "github.com/learn-k8s/informer"
)

// fastReaderCases are texts that take each reader's plain path, and each
// form that must fall back to encoding/json or be refused.
var fastReaderCases = []string{
	`{"metadata":{"name":"a\u0062","labels":{"k":"v\n"},"annotations":{"a":"b\"c"}}}`,
	`{"metadata":{"name":"né","labels":{"é":"x"},"finalizers":["a","ü"]}}`,
	`{"metadata":{"annotations":{"描述":"一个中文说明  "},"中文":"键"},"spec":{"containers":[{"command":["echo","你好"]}]}}`,
	"{\"metadata\":{\"name\":\"a\x7fb\",\"labels\":{\"k\":\"\xe4\xb8\"}}}",
	"{\"metadata\":{\"name\":\"a\xffb\",\"labels\":{\"k\":\"\xfe\"}}}",
	`{"metadata":{"name":"<a&b>","<x>":1,"a\u0000b":2,"a\u003cb":3}}`,
	`{"metadata":{"generation":-0}}`, `{"metadata":{"generation":01}}`, `{"metadata":{"generation":1e3}}`,
	`{"metadata":{"generation":-7}}`, `{"metadata":{"generation":99999999999999999999}}`,
	`{"metadata":{"generation":999999999999999999}}`, `{"metadata":{"generation":"1"}}`,
	`{"spec":{"containers":[{"ports":[{"containerPort":2147483648}]}]}}`,
	`{"spec":{"containers":[{"ports":[{"containerPort":-2147483648}]}]}}`,
	`{"metadata":{"creationTimestamp":"2026-12-02T13:47:56+01:00"}}`,
	`{"metadata":{"creationTimestamp":"2026-12-02T13:47:56.000Z"}}`,
	`{"metadata":{"creationTimestamp":"2026-12-02T13:47:56.5Z"}}`,
	`{"metadata":{"creationTimestamp":"2026-13-01T00:00:00Z"}}`,
	`{"metadata":{"creationTimestamp":"0001-01-01T00:00:00Z"}}`,
	`{"metadata":{"creationTimestamp":"2026-12-02t13:47:56z"}}`,
	`{"status":{"startTime":"2026-12-02T13:47:56Z","conditions":[{"lastTransitionTime":"2026-12-02T13:47:56.123456789Z"}]}}`,
	`{"metadata":{"labels":{},"annotations":{"a":1}}}`, `{"metadata":{"labels":{"a":null}}}`,
	`{"metadata":{"finalizers":[]}}`, `{"metadata":{"finalizers":["x",null]}}`, `{"metadata":{"finalizers":["x",]}}`,
	`{"metadata":{"labels":{"a":"b",}}}`, `{"metadata":{"labels":{"a":"b" , "c" : "d" }}}`,
	`{"status":{"containerStatuses":[{"ready":true,"started":false,"restartCount":0}]}}`,
	`{"status":{"containerStatuses":[{"ready":tru}]}}`, `{"status":{"containerStatuses":[{"ready":"true"}]}}`,
	`{"metadata":{"name":"a"},"metadata":{"namespace":"b"}}`, `{"metadata":{"name":"a"},"metadata":null}`,
	`{"metadata":null,"metadata":{"name":"a"}}`,
	` { "spec" : { "containers" : [ { "name" : "a" } , { "name" : "b" } ] } } `,
	`{"spec":{"containers":[{"name":"a"},]}}`, `{"spec":{"containers":[null]}}`, `{"spec":{"containers":{}}}`,
	`{"spec":{"terminationGracePeriodSeconds":0,"nodeSelector":null,"tolerations":[]}}`,
	`{"spec":{"x":{"y":[1,2,{"z":null}]},"w":"a b"}}`, `{"spec":{"x":[1,2}}`, `{"spec":{"x":tru}}`,
	`{"details":{"causes":[{"field":"x"}],"retryAfterSeconds":3},"code":409}`, `{"code":4.0e2}`, `{"details":null}`,
	`{"details":{}}`, `{"a":1,}`, `{,}`, `{"a"}`, `{"a":}`, `{"a":1`, `{"a":1}x`, `{}`, `{} `, `[]`, `null`, ``, `"x"`,
}

// decodeFast decodes data, one JSON value and nothing after it, into obj
// with the Decoder.
func decodeFast(data []byte, obj any) error {
	d := newDecoder(bytes.NewReader(data))
	if err := d.Decode(obj); err != nil {
		return err
	}
	if err := d.Decode(new(json.RawMessage)); err != io.EOF {
		return errors.New("more than one JSON value")
	}
	return nil
}

// checkFastReaders decodes data into a Pod and a Status both ways and
// fails unless both give the same error-ness and the same object. Text
// that is not JSON must be an error both ways: the readers get the text of
// list items and watch events unchecked, and UnmarshalJSON may be called
// straight, with no encoding/json in front to check it.
func checkFastReaders(t *testing.T, data []byte) {
	t.Helper()
	for _, newObject := range []func() json.Unmarshaler{
		func() json.Unmarshaler { return &informer.Pod{} },
		func() json.Unmarshaler { return &informer.Status{} },
	} {
		fast, slow := newObject(), newObject()
		errFast, errSlow := decodeFast(data, fast), slow.UnmarshalJSON(data)
		if (errFast == nil || errSlow == nil) && !json.Valid(data) {
			t.Fatalf("%T: %q is not JSON but decoded (fast: %v, reference: %v)", fast, data, errFast, errSlow)
		}
		if (errFast == nil) != (errSlow == nil) {
			t.Fatalf("%T: %q: error %v, the reference's %v", fast, data, errFast, errSlow)
		}
		if errFast == nil && !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%T: %q:\n got %#v\nwant %#v", fast, data, fast, slow)
		}
	}
}

func TestFastReadersDecodeAsEncodingJSON(t *testing.T) {
	for _, data := range fastReaderCases {
		checkFastReaders(t, []byte(data))
	}
	for _, data := range savedObjects(t) {
		checkFastReaders(t, data)
	}
}

// FuzzFastReaders checks, for any input, that the readers and the
// reference agree (checkFastReaders).
func FuzzFastReaders(f *testing.F) {
	for _, data := range fastReaderCases {
		f.Add([]byte(data))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastReaders(t, data)
	})
}
