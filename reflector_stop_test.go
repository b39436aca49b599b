// reflector_stop_test.go checks that stopping a Reflector is quiet: when its
// context ends mid-watch (a request in flight, or a watch open), it logs no
// warning and no error, in both list modes, over HTTP against fakeapi.
// client-go counterpart: the stop paths of tools/cache reflector.go
// (errorStopRequested from handleAnyWatch; watch, list and watchList return nil).
//
// Reading 2: today's client-go: the RealFIFO, batches, the streaming list, the gates.

package informer

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/learn-k8s/informer/fakeapi"
)

// lockedBuffer is a bytes.Buffer that a logger and a test may share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// logWarnings sends what the library logs at WARN or above to the returned
// buffer until the test ends.
func logWarnings(t *testing.T) *lockedBuffer {
	logs := &lockedBuffer{}
	logger := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn})))
	t.Cleanup(func() { slog.SetDefault(logger) })
	return logs
}

// TestReflectorStopIsQuiet stops a Reflector at three moments: while its
// first request (a list, or a streaming list's watch) waits for the server,
// while a re-watch waits for it, and while a watch is open. Each time Run
// must return without a WARN or ERROR line: a stop is not a failure.
func TestReflectorStopIsQuiet(t *testing.T) {
	for _, streaming := range []bool{false, true} {
		for _, moment := range []stopMoment{
			{"first request", "第一个请求"}, {"re-watch", "重新 watch"}, {"open watch", "watch 已打开"},
		} {
			name := moment.en + map[bool]string{false: ", list then watch", true: ", streaming list"}[streaming]
			t.Run(name, func(t *testing.T) { stopReflectorAt(t, streaming, moment) })
		}
	}
}

// stopMoment is when stopReflectorAt stops the Reflector, in both languages.
type stopMoment struct{ en, zh string }

// stopReflectorAt runs a Reflector, cancels its context at moment, waits for
// Run to return and checks the log.
func stopReflectorAt(t *testing.T, streaming bool, moment stopMoment) {
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", nil)
	logs := logWarnings(t)
	store := newCountingStore()
	lw := &recordingLW{inner: podsLW(t, s, "default")}
	r := NewReflectorWithOptions(lw, &Pod{}, store, ReflectorOptions{UseWatchList: streaming})
	synced := func() bool { _, _, _, n := store.counts(); return n == 1 }
	if moment.en == "first request" {
		s.SetDelay(time.Hour) // the server holds every request until its client gives up
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	defer func() {
		cancel()
		receiveOrError(t, "the Reflector's Run to return after the cancel", done)
	}()

	switch moment.en {
	case "first request":
		waitFor(t, "the first request", func() bool { return lw.listCount() == 1 })
	case "re-watch":
		waitFor(t, "the watch", func() bool { return synced() && s.Stats().OpenWatches == 1 })
		createPod(t, s, "default", "b", nil) // an event: the watch that ends below is not "very short"
		waitFor(t, "pod b", func() bool { _, ok, _ := store.GetByKey("default/b"); return ok })
		s.SetDelay(time.Hour)
		s.CloseWatches()
		waitFor(t, "the re-watch", func() bool { return lw.watchCount() == 2 })
	case "open watch":
		waitFor(t, "the watch", func() bool { return synced() && s.Stats().OpenWatches == 1 })
	}
	cancel()
	receive(t, "the Reflector's Run to return after the cancel", done)
	if got := logs.String(); got != "" {
		when := moment.en
		if narrationLanguage() == "zh" {
			when = moment.zh
		}
		sayFailure(t, "stopping the Reflector during the %s is not a failure, yet it logged:\n%s",
			"在%s期间停止 Reflector 不是失败，它却记下了：\n%s", when, got)
	}
}
