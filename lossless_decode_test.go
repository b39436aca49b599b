// lossless_decode_test.go checks the one-pass readers of lossless_decode.go
// against the reference: the same text decoded with the readers switched
// off, so that encoding/json reads every value. They must agree on every
// input, valid or not.

package informer

import (
	"encoding/json"
	"reflect"
	"testing"
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

// decodeReference decodes data into obj with the readers off: encoding/json
// reads every value, as lossless.go's rules say.
func decodeReference(data []byte, obj json.Unmarshaler) error {
	fastReads = false
	defer func() { fastReads = true }()
	return obj.UnmarshalJSON(data)
}

// checkFastReaders decodes data into a Pod and a Status both ways and
// fails unless both give the same error-ness and the same object. Given
// straight to UnmarshalJSON, text that is not JSON must be an error: the
// decoders get the text of list items and watch events unchecked.
func checkFastReaders(t *testing.T, data []byte) {
	t.Helper()
	for _, newObject := range []func() json.Unmarshaler{
		func() json.Unmarshaler { return &Pod{} },
		func() json.Unmarshaler { return &Status{} },
	} {
		fast, slow := newObject(), newObject()
		errFast, errSlow := fast.UnmarshalJSON(data), decodeReference(data, slow)
		if errFast == nil && !json.Valid(data) {
			t.Fatalf("%T: %q is not JSON but decoded", fast, data)
		}
		if (errFast == nil) != (errSlow == nil) && json.Valid(data) {
			t.Fatalf("%T: %q: error %v, the reference's %v", fast, data, errFast, errSlow)
		}
		if errFast == nil && errSlow == nil && !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%T: %q:\n got %#v\nwant %#v", fast, data, fast, slow)
		}
	}
}

func TestFastReadersDecodeAsEncodingJSON(t *testing.T) {
	say(t, "The one-pass readers of the typed kinds decode every saved object, and every odd form, exactly as encoding/json does.",
		"类型化对象的单遍读取器对每个保存的对象和每种特殊写法的解码结果都与 encoding/json 完全一致。")
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
