// watch_test.go checks the watch-stream decoder on a pipe: events come out
// one by one as they are written (no buffering of the whole body), a broken
// event becomes an ERROR event, and both the end of the stream and Stop
// close the channel.
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
)

func newPipeWatcher() (*streamWatcher, *io.PipeWriter) {
	pr, pw := io.Pipe()
	_, cancel := context.WithCancel(context.Background())
	return newStreamWatcher(jsonAnswer(pr), objectFactory(GroupVersionResource{Version: "v1", Resource: "pods"}), cancel), pw
}

// jsonAnswer is an answer whose body is JSON, as newBodyDecoder and
// newStreamWatcher take it.
func jsonAnswer(body io.Reader) *http.Response {
	rc, ok := body.(io.ReadCloser) // closed when the watch stops
	if !ok {
		rc = io.NopCloser(body)
	}
	return &http.Response{Body: rc, Header: http.Header{"Content-Type": {"application/json"}}}
}

func TestStreamWatcherDecodesEventsAsTheyArrive(t *testing.T) {
	sw, pw := newPipeWatcher()
	defer sw.Stop()
	lines := []string{
		`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"default","resourceVersion":"5"}}}` + "\n",
		`{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"9"}}}` + "\n",
		`{"type":"DELETED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"default","resourceVersion":"10"}}}`,
	}
	wantType := []WatchEventType{WatchAdded, WatchBookmark, WatchDeleted}
	wantRV := []string{"5", "9", "10"}
	var seen []string
	for i, line := range lines {
		// The pipe blocks the writer until the decoder reads: an event that
		// comes out before the next is written proves nothing waits for EOF.
		go func() { _, _ = io.WriteString(pw, line) }()
		ev := receive(t, fmt.Sprintf("event %d before line %d is written", i, i+1), sw.ResultChan())
		pod, ok := ev.Object.(*Pod)
		if ev.Type != wantType[i] || !ok || pod.ResourceVersion != wantRV[i] {
			t.Fatalf("event %d: got %s %#v", i, ev.Type, ev.Object)
		}
		if pod.Kind != "" {
			t.Errorf("a typed object should drop its kind, as list items have none: %q", pod.Kind)
		}
		seen = append(seen, fmt.Sprintf("%s@%s", ev.Type, pod.ResourceVersion))
	}
	pw.Close()
	_, open := receiveOrClosed(t, "the channel to close at the end of the stream", sw.ResultChan())
	if open {
		t.Fatal("the channel should close at the end of the stream")
	}
	say(t, "3 JSON lines written one at a time; each came out before the next was written: %v; closed at EOF: %v",
		"逐行写入 3 行 JSON；每个事件都在下一行写入之前出来：%v；遇到 EOF 通道关闭：%v", seen, !open)
	say(t, "client-go's StreamWatcher.receive (apimachinery watch/streamwatcher.go) also decodes one event at a time.",
		"client-go 的 StreamWatcher.receive（apimachinery watch/streamwatcher.go）也是一次解码一个事件。")
}

func TestStreamWatcherErrorEventBecomesStatus(t *testing.T) {
	sw, pw := newPipeWatcher()
	defer sw.Stop()
	go func() {
		_, _ = io.WriteString(pw, `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (98)","reason":"Expired","code":410}}`)
	}()
	ev := receive(t, "the ERROR event", sw.ResultChan())
	err := FromObject(ev.Object)
	if ev.Type != WatchError || !IsResourceExpired(err) || err.Error() != "too old resource version: 1 (98)" {
		t.Fatalf("got %s %v", ev.Type, err)
	}
	if _, open := receiveOrClosed(t, "the end after the ERROR event", sw.ResultChan()); open {
		t.Fatal("the watch should end after an ERROR event")
	}
	say(t, "HTTP 200, then an ERROR event with a Status inside → %s %q (reason Expired, code 410); then the stream ends.",
		"HTTP 200，然后是里面带 Status 的 ERROR 事件 → %s %q（reason Expired，code 410）；之后事件流结束。", ev.Type, err.Error())
	say(t, "The 410 arrives inside the stream, not as the HTTP status: client-go's Reflector relists on it.",
		"410 是在事件流里来的，不是 HTTP 状态码：client-go 的 Reflector 见到它就重新 list。")
}

func TestStreamWatcherBrokenJSONBecomesInternalError(t *testing.T) {
	sw, pw := newPipeWatcher()
	defer sw.Stop()
	go func() { _, _ = io.WriteString(pw, `{"type":"ADDED","object":{]`) }()
	ev := receive(t, "an ERROR event for the broken JSON", sw.ResultChan())
	if ev.Type != WatchError || !IsInternalError(FromObject(ev.Object)) {
		t.Fatalf("got %s %#v", ev.Type, ev.Object)
	}
}

func TestStreamWatcherStopClosesChannel(t *testing.T) {
	checkLeaksAtEnd(t)
	sw, pw := newPipeWatcher()
	defer pw.Close()
	sw.Stop()
	sw.Stop() // twice is fine
	if _, open := receiveOrClosed(t, "Stop to close the channel", sw.ResultChan()); open {
		t.Fatal("the channel should close after Stop")
	}
}
