// reflector_test.go holds the Reflector's edge cases over HTTP against
// fakeapi: bookmarks, paged lists across a compaction, the relist versions
// after 410, and the backoff sequence while the server is down.

package informer

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
)

// countingStore is a Store that counts the Reflector's calls.
type countingStore struct {
	Store
	mu                  sync.Mutex
	adds, updates, dels int
	replaces            int
}

func newCountingStore() *countingStore {
	return &countingStore{Store: NewStore(MetaNamespaceKeyFunc)}
}

func (c *countingStore) count(f func()) { c.mu.Lock(); f(); c.mu.Unlock() }

func (c *countingStore) Add(obj any) error {
	c.count(func() { c.adds++ })
	return c.Store.Add(obj)
}

func (c *countingStore) Update(obj any) error {
	c.count(func() { c.updates++ })
	return c.Store.Update(obj)
}

func (c *countingStore) Delete(obj any) error {
	c.count(func() { c.dels++ })
	return c.Store.Delete(obj)
}

func (c *countingStore) Replace(list []any, rv string) error {
	c.count(func() { c.replaces++ })
	return c.Store.Replace(list, rv)
}

func (c *countingStore) counts() (adds, updates, dels, replaces int) {
	c.count(func() { adds, updates, dels, replaces = c.adds, c.updates, c.dels, c.replaces })
	return
}

// runReflector runs r until the test ends.
func runReflector(t *testing.T, r *Reflector) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	t.Cleanup(func() {
		cancel()
		receiveOrError(t, "the Reflector's Run to return after the cancel", done)
	})
}

func TestReflectorBookmarksMoveTheVersionWithoutEvents(t *testing.T) {
	s := startServer(t, fakeapi.Options{BookmarkInterval: 10 * time.Millisecond})
	createPod(t, s, "default", "a", nil)
	store := newCountingStore()
	lw := &recordingLW{inner: podsLW(t, s, "default")}
	r := NewReflector(lw, &Pod{}, store)
	runReflector(t, r)
	waitFor(t, "the first list", func() bool { _, _, _, n := store.counts(); return n == 1 })
	before := r.LastSyncResourceVersion()
	waitFor(t, "the watch", func() bool { return lw.watchCount() > 0 })
	if !lw.lastWatch().AllowWatchBookmarks {
		sayFailure(t, "the Reflector watches without allowWatchBookmarks=true, so the server sends it no bookmarks:",
			"Reflector 在 watch 时没有带 allowWatchBookmarks=true，服务器就不给它发书签：")
		sayFailure(t, "while only other namespaces change, its version stays at %s however far the server moves",
			"只有别的命名空间在变化时，不管服务器的版本走了多远，它记下的版本都停在 %s", before)
		t.FailNow()
	}
	// Changes in another namespace move the server's version, not our objects.
	for i := range 3 {
		createPod(t, s, "elsewhere", fmt.Sprint("p", i), nil)
	}
	waitFor(t, "a bookmark at the server's version", func() bool { return r.LastSyncResourceVersion() == s.ResourceVersion() })
	adds, updates, dels, replaces := store.counts()
	if adds+updates+dels != 0 || replaces != 1 {
		t.Fatalf("bookmarks changed the store: %d adds, %d updates, %d deletes, %d replaces", adds, updates, dels, replaces)
	}
	say(t, "version %s → %s by bookmarks alone", "仅靠书签（bookmark），版本从 %s 变成 %s", before, r.LastSyncResourceVersion())
}

func TestReflectorRelistVersions(t *testing.T) {
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", nil)
	clock := testingclock.NewFakeClock(time.Unix(0, 0))
	expired := &StatusError{Status{Code: http.StatusGone, Reason: StatusReasonExpired, Message: "too old resource version"}}
	var failWatches atomic.Bool
	var gone atomic.Value // a version lists at are refused
	gone.Store("")
	lw := &recordingLW{inner: podsLW(t, s, NamespaceAll)}
	lw.beforeWatch = func(ListOptions) error {
		if failWatches.Load() {
			return expired
		}
		return nil
	}
	lw.beforeList = func(o ListOptions) (*ObjectList, error) {
		if o.ResourceVersion != "" && o.ResourceVersion == gone.Load() {
			return nil, expired
		}
		return nil, nil
	}
	r := NewReflectorWithOptions(lw, &Pod{}, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{Clock: clock, WatchErrorHandler: func(*Reflector, error) {}})
	runReflector(t, r)
	waitFor(t, "the first watch", func() bool { return lw.watchCount() == 1 })
	createPod(t, s, "default", "b", nil) // an event, so the watch's end is not "very short"
	waitFor(t, "b", func() bool { return r.LastSyncResourceVersion() == s.ResourceVersion() })
	last := r.LastSyncResourceVersion()

	// The watch now fails with 410, and so does a list at the last version.
	failWatches.Store(true)
	gone.Store(last)
	s.CloseWatches()
	waitFor(t, "the failed re-watch", func() bool { return lw.watchCount() == 2 })
	failWatches.Store(false)
	stepBackoff(t, clock)
	waitFor(t, "the relists", func() bool { return lw.listCount() == 3 })
	lists, _ := lw.calls()
	versions := []string{lists[0].ResourceVersion, lists[1].ResourceVersion, lists[2].ResourceVersion}
	if !slices.Equal(versions, []string{"0", last, ""}) {
		t.Fatalf("list versions %q; want \"0\", the last seen %q, then \"\"", versions, last)
	}
	say(t, "Lists asked for resourceVersion %q: \"0\" first, the last seen after the watch's 410, \"\" after that list's 410.",
		"各次 list 请求的 resourceVersion 是 %q：先是 \"0\"，watch 得到 410 后用最后见到的版本，那次 list 也 410 后用 \"\"。",
		versions)
	say(t, "client-go's Reflector does the same (relistResourceVersion in reflector.go).",
		"client-go 的 Reflector 也是这样（reflector.go 里的 relistResourceVersion）。")
}

func TestReflectorBackoffWhileTheServerIsDown(t *testing.T) {
	checkLeaksAtEnd(t)
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", nil)
	clock := testingclock.NewFakeClock(time.Unix(0, 0))
	lw := &recordingLW{inner: podsLW(t, s, NamespaceAll)}
	store := newCountingStore()
	r := NewReflectorWithOptions(lw, &Pod{}, store, ReflectorOptions{Clock: clock})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	waitFor(t, "the first watch", func() bool { return lw.watchCount() == 1 })
	createPod(t, s, "default", "b", nil) // the watch has seen an event: its end is not "very short"
	waitFor(t, "b", func() bool { _, ok, _ := store.GetByKey("default/b"); return ok })

	stopServer(t, s, lw)
	base := backoffInitial
	var sinceReset time.Duration // the backoff starts over every two minutes (reflector_watch.go)
	for i := range 10 {
		if sinceReset > backoffResetAfter {
			base, sinceReset = backoffInitial, 0
		}
		got := stepBackoff(t, clock)
		if got < base || got >= 2*base {
			t.Fatalf("backoff %d: %v, want within [%v, %v)", i, got, base, 2*base)
		}
		base = min(2*base, backoffCap)
		sinceReset += got
	}
	if lw.listCount() != 1 {
		t.Fatalf("%d lists: connection refused must re-watch, not relist", lw.listCount())
	}
	say(t, "cancelling in the middle of a backoff ends everything", "在退避中途取消，一切都会结束")
	waitFor(t, "the next backoff", clock.HasWaiters)
	cancel()
	receive(t, "the Reflector's Run to return after the cancel in the backoff", done)
}

// injectingLW passes lists and watches through to inner, and lets a test
// slip an event of its own (such as an ERROR) into the open watch.
type injectingLW struct {
	inner  ListerWatcher
	inject chan WatchEvent
}

func (l *injectingLW) List(ctx context.Context, o ListOptions) (*ObjectList, error) {
	return l.inner.List(ctx, o)
}

func (l *injectingLW) Watch(ctx context.Context, o ListOptions) (Watcher, error) {
	w, err := l.inner.Watch(ctx, o)
	if err != nil {
		return nil, err
	}
	iw := &injectingWatcher{inner: w, out: make(chan WatchEvent), stop: make(chan struct{})}
	go iw.forward(l.inject)
	return iw, nil
}

// injectingWatcher forwards the server's events and the injected ones.
type injectingWatcher struct {
	inner Watcher
	out   chan WatchEvent
	stop  chan struct{}
	once  sync.Once
}

func (w *injectingWatcher) ResultChan() <-chan WatchEvent { return w.out }

func (w *injectingWatcher) Stop() {
	w.once.Do(func() { close(w.stop); w.inner.Stop() })
}

func (w *injectingWatcher) forward(inject <-chan WatchEvent) {
	for {
		var ev WatchEvent
		select {
		case <-w.stop:
			return
		case e, ok := <-w.inner.ResultChan():
			if !ok {
				close(w.out)
				return
			}
			ev = e
		case ev = <-inject:
		}
		select {
		case <-w.stop:
			return
		case w.out <- ev:
		}
	}
}

func TestReflectorOtherErrorsEndTheCycleAndRelist(t *testing.T) {
	checkLeaksAtEnd(t)
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", nil)
	clock := testingclock.NewFakeClock(time.Unix(0, 0))
	inject := make(chan WatchEvent)
	lw := &recordingLW{inner: &injectingLW{inner: podsLW(t, s, NamespaceAll), inject: inject}}
	r := NewReflectorWithOptions(lw, &Pod{}, NewStore(MetaNamespaceKeyFunc),
		ReflectorOptions{Clock: clock, WatchErrorHandler: func(*Reflector, error) {}})
	runReflector(t, r)
	waitFor(t, "the first watch", func() bool { return lw.watchCount() == 1 })

	// An ERROR event that is not a 410 ends the cycle; after a backoff the
	// Reflector lists again, from the last version it saw.
	last := r.LastSyncResourceVersion()
	deliver(t, "the open watch to take the injected ERROR event", inject, WatchEvent{
		Type: WatchError,
		Object: &Status{Status: "Failure", Code: http.StatusInternalServerError,
			Reason: StatusReasonInternalError, Message: "etcdserver: request timed out"},
	})
	stepBackoff(t, clock)
	waitFor(t, "the relist after the ERROR event", func() bool { return lw.listCount() == 2 })
	if lists, _ := lw.calls(); lists[1].ResourceVersion != last {
		t.Fatalf("relist from %q, want the last version seen %q", lists[1].ResourceVersion, last)
	}
	say(t, "an ERROR event with code 500 (not 410) ends the watch; after the backoff the Reflector lists from %q",
		"一个 code 500（不是 410）的 ERROR 事件结束 watch；退避之后 Reflector 从资源版本 %q 重新 list", last)

	// A watch request refused with 500 also ends the cycle: relist.
	waitFor(t, "the second watch", func() bool { return lw.watchCount() == 2 })
	createPod(t, s, "default", "b", nil) // an event, so the watch's end is not "very short"
	waitFor(t, "b", func() bool { return r.LastSyncResourceVersion() == s.ResourceVersion() })
	s.FailNext(1, http.StatusInternalServerError)
	s.CloseWatches()
	waitFor(t, "the refused re-watch", func() bool { return lw.watchCount() == 3 })
	stepBackoff(t, clock)
	waitFor(t, "the relist after the refused watch", func() bool { return lw.listCount() == 3 })
	say(t, "a watch request refused with 500 ends the cycle too: %d lists, %d watches so far",
		"以 500 拒绝的 watch 请求同样结束这一轮：到此 %d 次 list，%d 次 watch", lw.listCount(), lw.watchCount())
	say(t, "client-go: Reflector.watch returns, RunWithContext relists after the backoff (reflector.go);",
		"client-go：Reflector.watch 返回，RunWithContext 退避后重新 list（reflector.go）；")
	say(t, "internal errors are retried on the watch only if MaxInternalErrorRetryDuration is set (default 0).",
		"只有设置了 MaxInternalErrorRetryDuration（默认 0）时，内部错误才在 watch 上重试。")
}

// TestReflectorPagingAcrossACompaction lists in pages of 2 and compacts the
// server's history after the first page: the continue token expires, and
// the Reflector makes one full list instead, as client-go's pager does.
func TestReflectorPagingAcrossACompaction(t *testing.T) {
	s := startServer(t, fakeapi.Options{})
	for i := range 5 {
		createPod(t, s, "default", fmt.Sprint("p", i), nil)
	}
	lw := &recordingLW{inner: podsLW(t, s, NamespaceAll)}
	lw.afterList = func(o ListOptions, l *ObjectList) {
		if o.Continue == "" && l.Continue != "" { // after the first page
			createPod(t, s, "default", "late", nil)
			s.Compact(0) // the snapshot of the continue token is gone
		}
	}
	store := newCountingStore()
	runReflector(t, NewReflectorWithOptions(lw, &Pod{}, store, ReflectorOptions{WatchListPageSize: 2}))
	waitFor(t, "the list", func() bool { _, _, _, n := store.counts(); return n == 1 })
	lists, _ := lw.calls()
	if len(lists) != 3 ||
		lists[0].ResourceVersion != "0" || lists[0].Limit != 2 ||
		lists[1].Continue == "" || lists[1].ResourceVersion != "" ||
		lists[2].Continue != "" || lists[2].Limit != 0 || lists[2].ResourceVersion != "0" {
		t.Fatalf("requests %+v; want page 1, an expired page 2, then one full list at \"0\"", lists)
	}
	n := len(store.ListKeys())
	if n != 6 {
		t.Fatalf("store has %d pods, want 6", n)
	}
	say(t, "page 1 (resourceVersion=%q, limit=%d); page 2's continue token expires after a compaction;",
		"第 1 页（resourceVersion=%q，limit=%d）；压缩之后第 2 页的 continue 令牌过期；",
		lists[0].ResourceVersion, lists[0].Limit)
	say(t, "then one full list (resourceVersion=%q, limit=%d): the store has %d pods, the late one included",
		"于是做一次完整 list（resourceVersion=%q，limit=%d）：store 有 %d 个 Pod，包括后来创建的那个",
		lists[2].ResourceVersion, lists[2].Limit, n)
	say(t, "client-go's ListPager.list (tools/pager/pager.go) does the same: FullListIfExpired, on by default.",
		"client-go 的 ListPager.list（tools/pager/pager.go）也这样做：FullListIfExpired，默认开启。")
}
