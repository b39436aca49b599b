// lab03_test.go grades lab 3: the ListerWatcher and the Reflector, against
// fakeapi over real HTTP. Copied into the workspace root package;
// `go test -run Lab03 ./...`.
//
// client-go counterpart: Reflector.ListAndWatch, list, watch, handleWatch,
// relistResourceVersion in k8s.io/client-go/tools/cache reflector.go, and
// the Reflector's backoff (wait.NewExponentialBackoffManager).
//
// Tutorial: 004 §2.4, §2.5, §4.1; 000 §4.1, §4.3.

//go:build informerlab

package informer

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
)

// lab03LW wraps a ListerWatcher and keeps a request log: every list and
// watch, with its version and how it ended ("list \"7\" → 410"). It can
// hold new watches back until released, and answer lists with an error
// instead of the server (failList).
type lab03LW struct {
	inner    ListerWatcher
	mu       sync.Mutex
	lists    []ListOptions
	watch    []ListOptions
	log      []string
	hold     chan struct{}
	failList func(ListOptions) error // nil, or says which lists fail, and how
	// failWatch, when set, says which watches fail to start, and how;
	// shortWatch makes every watch end at once, empty.
	failWatch  func(ListOptions) error
	shortWatch bool
	// emptyListRV makes lists answer no resourceVersion (as some
	// aggregated APIs do), so that the watch starts from ""; script, when
	// set, answers the watches instead of the server.
	emptyListRV bool
	script      func(n int, o ListOptions) Watcher
	pages       []string // each list answered: its version, limit, whether it continues, its items
	watchers    []*lab03Watcher
}

// lab03Closed is a watch that ends at once, with nothing in it.
type lab03Closed struct{}

func (lab03Closed) ResultChan() <-chan WatchEvent {
	ch := make(chan WatchEvent)
	close(ch)
	return ch
}

func (lab03Closed) Stop() {}

// lab03Events is a watch that delivers events, then closes unless open
// (then it stays open until Stop, as a quiet watch does).
type lab03Events struct {
	ch chan WatchEvent
}

func newLab03Events(open bool, events ...WatchEvent) lab03Events {
	w := lab03Events{ch: make(chan WatchEvent, len(events))}
	for _, e := range events {
		w.ch <- e
	}
	if !open {
		close(w.ch)
	}
	return w
}

func (w lab03Events) ResultChan() <-chan WatchEvent { return w.ch }

func (lab03Events) Stop() {}

func (l *lab03LW) List(ctx context.Context, o ListOptions) (*ObjectList, error) {
	l.mu.Lock()
	l.lists = append(l.lists, o)
	fail := l.failList
	l.mu.Unlock()
	if fail != nil {
		if err := fail(o); err != nil {
			l.record("list %q → %s", o.ResourceVersion, lab03Code(err))
			return nil, err
		}
	}
	list, err := l.inner.List(ctx, o)
	if err != nil {
		l.record("list %q → %s", o.ResourceVersion, lab03Code(err))
		return list, err
	}
	l.record("list %q → ok", o.ResourceVersion)
	l.mu.Lock()
	if l.emptyListRV {
		list.ResourceVersion = ""
	}
	l.pages = append(l.pages, fmt.Sprintf("list %q, limit %d, continue %t: %d items", o.ResourceVersion, o.Limit, o.Continue != "", len(list.Items)))
	l.mu.Unlock()
	return list, nil
}

func (l *lab03LW) Watch(ctx context.Context, o ListOptions) (Watcher, error) {
	l.mu.Lock()
	l.watch = append(l.watch, o)
	hold := l.hold
	l.mu.Unlock()
	fail, short, script, n := l.failWatch, l.shortWatch, l.script, len(l.watch)
	l.record("watch %q", o.ResourceVersion)
	if script != nil {
		return script(n, o), nil
	}
	if fail != nil {
		if err := fail(o); err != nil {
			l.record("watch %q → %s", o.ResourceVersion, lab03Code(err))
			return nil, err
		}
	}
	if short {
		l.record("watch %q → closed at once", o.ResourceVersion)
		return lab03Closed{}, nil
	}
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	w, err := l.inner.Watch(ctx, o)
	if err != nil {
		l.record("watch %q → %s", o.ResourceVersion, lab03Code(err))
		return nil, err
	}
	lw := newLab03Watcher(l, o.ResourceVersion, w)
	l.mu.Lock()
	l.watchers = append(l.watchers, lw)
	l.mu.Unlock()
	return lw, nil
}

// unstopped counts the watchers handed out that were not stopped.
func (l *lab03LW) unstopped() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, w := range l.watchers {
		if !w.stopped.Load() {
			n++
		}
	}
	return n
}

// record appends a line to the request log.
func (l *lab03LW) record(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.log = append(l.log, fmt.Sprintf(format, args...))
}

func (l *lab03LW) calls() (lists, watches []ListOptions) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lists), slices.Clone(l.watch)
}

// listed returns the lists answered, as pages.
func (l *lab03LW) listed() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.pages)
}

// requests returns the request log.
func (l *lab03LW) requests() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.log)
}

// lab03Code is an error as the request log writes it: the HTTP code of a
// Status error, else the error.
func lab03Code(err error) string {
	var se *StatusError
	if errors.As(err, &se) {
		return fmt.Sprint(se.ErrStatus.Code)
	}
	return labCause(err)
}

// lab03Expired is the 410 Expired a server answers for a version it no
// longer has.
func lab03Expired() error {
	return &StatusError{ErrStatus: Status{Status: "Failure", Code: 410, Reason: StatusReasonExpired,
		Message: "too old resource version"}}
}

// lab03Watcher passes a watch's events on and logs an ERROR event. After
// one it keeps its channel open until Stop, as a server may for a while:
// a Reflector must end the watch on the ERROR itself, not on the close.
type lab03Watcher struct {
	inner   Watcher
	ch      chan WatchEvent
	stop    chan struct{}
	once    sync.Once
	stopped atomic.Bool
}

func newLab03Watcher(l *lab03LW, rv string, inner Watcher) *lab03Watcher {
	w := &lab03Watcher{inner: inner, ch: make(chan WatchEvent), stop: make(chan struct{})}
	go func() {
		for e := range inner.ResultChan() {
			if e.Type == WatchError {
				l.record("watch %q → ERROR %s", rv, lab03Code(FromObject(e.Object)))
			}
			select {
			case w.ch <- e:
			case <-w.stop:
				return
			}
			if e.Type == WatchError {
				<-w.stop
				return
			}
		}
		close(w.ch)
	}()
	return w
}

func (w *lab03Watcher) ResultChan() <-chan WatchEvent { return w.ch }

func (w *lab03Watcher) Stop() {
	w.stopped.Store(true)
	w.once.Do(func() { close(w.stop) })
	w.inner.Stop()
}

// lab03Run runs a Reflector on the pods of namespace default of s into
// store until the test ends.
func lab03Run(t *testing.T, lw ListerWatcher, store Store) *Reflector {
	r := NewReflector(lw, &Pod{}, store)
	labRun(t, 3, 1, "Run did not return within 5 s of its context ending", "上下文（context）结束 5 秒后 Run 仍未返回", r.Run)
	return r
}

// lab03Start starts fakeapi (with opts) and a Reflector on its pods of
// namespace default, into a new Store.
func lab03Start(t *testing.T, opts fakeapi.Options) (*fakeapi.Server, *lab03LW, Store, *Reflector) {
	s, err := fakeapi.Start(opts)
	if err != nil {
		t.Fatalf(labPick("fakeapi: %v", "fakeapi 出错：%v"), err)
	}
	t.Cleanup(s.Close)
	lw := &lab03LW{inner: labPodsLW(t, s, "default")}
	store := NewStore(MetaNamespaceKeyFunc)
	return s, lw, store, lab03Run(t, lw, store)
}

// lab03WaitWatch waits for the first watch, failing the test if none comes.
func lab03WaitWatch(t *testing.T, lw *lab03LW) bool {
	if labWaitFor(func() bool { _, w := lw.calls(); return len(w) > 0 }) {
		return true
	}
	labFailf(t, 3, 3, "expected a watch after the list, none came", "list 之后期望开始 watch，实际没有")
	return false
}

func lab03Keys(s Store) []string {
	k := s.ListKeys()
	sort.Strings(k)
	return k
}

func TestLab03ListThenWatch(t *testing.T) {
	defer labStart(t, 3)()
	s := labServer(t)
	labCreate(t, s, "default", "web-1", nil, false)
	labCreate(t, s, "default", "web-2", nil, false)
	labCreate(t, s, "other", "dns", nil, false)
	lw := &lab03LW{inner: labPodsLW(t, s, "default")}
	store := NewStore(MetaNamespaceKeyFunc)
	r := lab03Run(t, lw, store)
	if !labWaitFor(func() bool { return len(store.ListKeys()) == 2 }) {
		labFailf(t, 3, 2, "after the first list: expected the store to hold default/web-1 and default/web-2, got %v", "第一次 list 之后：期望存储里有 default/web-1 和 default/web-2，实际 %v", lab03Keys(store))
		return
	}
	if !labWaitFor(func() bool { _, w := lw.calls(); return len(w) > 0 }) {
		labFailf(t, 3, 3, "after the list: expected a watch, none was started", "list 之后：期望开始 watch，实际没有")
		return
	}
	lists, watches := lw.calls()
	labExpect(t, 3, 2, "the first list's resourceVersion (\"0\": anything the server has cached)", "第一次 list 的 resourceVersion（\"0\"：服务器缓存的任何版本都可以）", "0", lists[0].ResourceVersion)
	w := watches[0]
	listRV := ""
	if l, err := lw.inner.List(context.Background(), ListOptions{}); err == nil {
		listRV = l.ResourceVersion
	}
	labExpect(t, 3, 3, "the watch starts from the list's resourceVersion", "watch 从 list 返回的 resourceVersion 开始", listRV, w.ResourceVersion)
	labExpect(t, 3, 3, "the watch asks for bookmarks (allowWatchBookmarks)", "watch 请求书签（allowWatchBookmarks）", true, w.AllowWatchBookmarks)
	if w.TimeoutSeconds == nil || *w.TimeoutSeconds < 300 || *w.TimeoutSeconds >= 600 {
		labFailf(t, 3, 3, "the watch's timeoutSeconds: expected a random value in [300, 600), got %v", "watch 的 timeoutSeconds：期望 [300, 600) 中的随机值，实际 %v", w.TimeoutSeconds)
	}
	labCreate(t, s, "default", "web-3", map[string]string{"v": "1"}, false)
	labCreate(t, s, "default", "web-3", map[string]string{"v": "2"}, true)
	labDelete(t, s, "default", "web-1")
	ok := labWaitFor(func() bool {
		obj, _, _ := store.GetByKey("default/web-3")
		return obj != nil && obj.(*Pod).Labels["v"] == "2" && len(store.ListKeys()) == 2
	})
	if !ok {
		labFailf(t, 3, 4, "after ADDED web-3, MODIFIED web-3, DELETED web-1: expected [default/web-2 default/web-3] with web-3 at v=2, got %v", "ADDED web-3、MODIFIED web-3、DELETED web-1 之后：期望 [default/web-2 default/web-3] 且 web-3 的 v=2，实际 %v", lab03Keys(store))
	}
	if !labWaitFor(func() bool { return r.LastSyncResourceVersion() == s.ResourceVersion() }) {
		labFailf(t, 3, 4, "LastSyncResourceVersion: expected the version of the last event, %s, got %q", "LastSyncResourceVersion：期望最后一个事件的版本 %s，实际 %q", s.ResourceVersion(), r.LastSyncResourceVersion())
	}
}

func TestLab03RewatchFromTheLastVersion(t *testing.T) {
	defer labStart(t, 3)()
	s, lw, store, r := lab03Start(t, fakeapi.Options{})
	if !lab03WaitWatch(t, lw) {
		return
	}
	labCreate(t, s, "default", "a", nil, false) // an event, so the watch is not "very short"
	if !labWaitFor(func() bool { return len(store.ListKeys()) == 1 }) {
		labFailf(t, 3, 4, "expected default/a in the store, got %v", "期望存储里有 default/a，实际 %v", lab03Keys(store))
		return
	}
	seen := r.LastSyncResourceVersion()
	s.CloseWatches()
	if !labWaitFor(func() bool { _, w := lw.calls(); return len(w) >= 2 }) {
		labFailf(t, 3, 3, "the server ended the watch: expected a new watch, none came", "服务器结束了 watch：期望重新 watch，实际没有")
		return
	}
	lists, watches := lw.calls()
	labExpect(t, 3, 3, "the re-watch starts from the last version seen", "重新 watch 从最后看到的版本开始", seen, watches[1].ResourceVersion)
	labExpect(t, 3, 3, "lists so far (a watch that ended normally is redone without a relist)", "到目前为止的 list 次数（正常结束的 watch 直接重做，不重新 list）", 1, len(lists))
}

// TestLab03RelistAfterExpired makes a re-watch start from a version the
// server has compacted away: it answers with an ERROR event (410 Expired)
// and keeps the stream open. The request log must show a relist from the
// last version seen right after that watch, and the store must follow it.
func TestLab03RelistAfterExpired(t *testing.T) {
	defer labStart(t, 3)()
	s, lw, store, r := lab03Start(t, fakeapi.Options{})
	// a and b come as events of the first watch (a watch that ends at once
	// and empty would be "very short", and cost a backoff).
	if !labWaitFor(func() bool { return s.Stats().OpenWatches == 1 }) {
		labFailf(t, 3, 3, "expected a watch after the list, none came; the request log: %v",
			"list 之后期望开始 watch，实际没有；请求日志：%v", lw.requests())
		return
	}
	labCreate(t, s, "default", "a", nil, false)
	labCreate(t, s, "default", "b", nil, false)
	// The watch must be open on the server before the server closes it.
	synced := func() bool {
		return len(store.ListKeys()) == 2 && r.LastSyncResourceVersion() == s.ResourceVersion() && s.Stats().OpenWatches == 1
	}
	if !labWaitFor(synced) {
		labFailf(t, 3, 4, "expected default/a and default/b in the store and a watch open, got %v and %d watches",
			"期望存储里有 default/a 和 default/b 并有一个打开的 watch，实际 %v、%d 个 watch", lab03Keys(store), s.Stats().OpenWatches)
		return
	}
	seen := r.LastSyncResourceVersion()
	lw.mu.Lock()
	lw.hold = make(chan struct{})
	lw.mu.Unlock()
	s.CloseWatches()
	if !labWaitFor(func() bool { _, w := lw.calls(); return len(w) >= 2 }) {
		labFailf(t, 3, 3, "the server ended the watch: expected a new watch, none came; the request log: %v",
			"服务器结束了 watch：期望重新 watch，实际没有；请求日志：%v", lw.requests())
		return
	}
	labDelete(t, s, "default", "a")
	labCreate(t, s, "default", "c", nil, false)
	s.Compact(0)
	lw.mu.Lock()
	close(lw.hold)
	lw.hold = nil
	lw.mu.Unlock()
	expired := fmt.Sprintf("watch %q → ERROR 410", seen)
	relist := fmt.Sprintf("list %q → ok", seen)
	after := func() []string {
		log := lw.requests()
		if i := slices.Index(log, expired); i >= 0 {
			return log[i+1:]
		}
		return nil
	}
	if !labWaitFor(func() bool { return slices.Contains(lw.requests(), expired) }) {
		labFailf(t, 3, 3, "expected the re-watch from %s to get 410 Expired; the request log: %v",
			"期望从 %s 重新 watch 得到 410 Expired；请求日志：%v", seen, lw.requests())
		return
	}
	// The stream stays open after its ERROR event: only a handleWatch that
	// returns on the event itself lets anything follow.
	if !labWaitFor(func() bool { return len(after()) > 0 }) {
		labFailf(t, 3, 4, "the watch's ERROR event (410 Expired) came and nothing followed: expected handleWatch to return its error at once (the stream stays open); the request log: %v",
			"watch 的 ERROR 事件（410 Expired）到了之后什么都没有发生：期望 handleWatch 立即返回它的错误（流一直开着）；请求日志：%v", lw.requests())
		return
	}
	if next := after()[0]; next != relist {
		labFailf(t, 3, 3, "after the watch's 410 Expired: expected a relist from the last version seen (%s), got %s; the request log: %v",
			"watch 得到 410 Expired 之后：期望从最后看到的版本重新 list（`%s`），实际是 `%s`；请求日志：%v", relist, next, lw.requests())
		return
	}
	if !labWaitFor(func() bool { return slices.Equal(lab03Keys(store), []string{"default/b", "default/c"}) }) {
		labFailf(t, 3, 2, "after the relist: expected the store [default/b default/c], got %v", "重新 list 之后：期望存储为 [default/b default/c]，实际 %v", lab03Keys(store))
	}
	// The watch that got the ERROR is kept open until the Reflector stops
	// it (a server may keep such a stream open): every watch before the
	// current one must have been stopped.
	if !labWaitFor(func() bool { return lw.unstopped() <= 1 }) {
		labFailf(t, 3, 3, "after the relist and the new watch: expected every earlier watcher stopped, %d are not (does watch call Stop once handleWatch returns?)",
			"重新 list 并开始新的 watch 之后：期望之前的 `watcher` 都已停止，实际还有 %d 个没有停止（handleWatch 返回后 watch 调用 Stop 了吗？）", lw.unstopped()-1)
	}
}

// TestLab03ListRetriesWithEmptyVersion calls list with a last version seen
// that the server no longer has (410 Expired): list must retry at once
// with "" (the newest state), and the next relist uses the version of that
// list again. When the retry fails too, the Reflector remembers to list
// with "" next time.
func TestLab03ListRetriesWithEmptyVersion(t *testing.T) {
	defer labStart(t, 3)()
	s := labServer(t)
	labCreate(t, s, "default", "a", nil, false)
	lw := &lab03LW{inner: labPodsLW(t, s, "default")}
	lw.failList = func(o ListOptions) error {
		if o.ResourceVersion == "1" {
			return lab03Expired()
		}
		return nil
	}
	store := NewStore(MetaNamespaceKeyFunc)
	r := NewReflector(lw, &Pod{}, store)
	r.setLastSyncResourceVersion("1")
	var err error
	labWithin(t, 3, 2, "list", func() { err = r.list(context.Background()) })
	if err != nil {
		labFailf(t, 3, 2, "list after a 410 on version 1: expected no error (retry with \"\"), got %v", "版本 1 的 list 得到 410 之后：期望没有错误（用 \"\" 重试），实际 %v", err)
	}
	labExpect(t, 3, 2, "the request log of list when version 1 is gone", "版本 1 已不存在时 list 的请求日志",
		[]string{`list "1" → 410`, `list "" → ok`}, lw.requests())
	labExpect(t, 3, 2, "the store after the retry", "重试之后的存储", []string{"default/a"}, lab03Keys(store))
	labExpect(t, 3, 2, "relistResourceVersion after the retry succeeded (the flag is cleared: the list's version again)",
		"重试成功之后的 relistResourceVersion（标志已清除：又是 list 返回的版本）", s.ResourceVersion(), r.relistResourceVersion())

	lw.failList = func(o ListOptions) error { return lab03Expired() }
	r.setLastSyncResourceVersion("1")
	labWithin(t, 3, 2, "list", func() { err = r.list(context.Background()) })
	if err == nil {
		labFailf(t, 3, 2, "list when the retry with \"\" fails too: expected an error, got none", "用 \"\" 重试也失败时 list：期望返回错误，实际没有")
	}
	labExpect(t, 3, 2, "relistResourceVersion after both lists failed (the next cycle lists the newest state)",
		"两次 list 都失败之后的 relistResourceVersion（下一轮 list 最新状态）", "", r.relistResourceVersion())
}

func TestLab03BookmarksMoveTheVersion(t *testing.T) {
	defer labStart(t, 3)()
	s, lw, store, r := lab03Start(t, fakeapi.Options{BookmarkInterval: 20 * time.Millisecond})
	if !lab03WaitWatch(t, lw) {
		return
	}
	labCreate(t, s, "elsewhere", "x", nil, false) // moves the server's version, no event for us
	if !labWaitFor(func() bool { return r.LastSyncResourceVersion() == s.ResourceVersion() }) {
		labFailf(t, 3, 4, "a BOOKMARK only moves the version: expected LastSyncResourceVersion %s, got %q", "BOOKMARK 只推进版本：期望 LastSyncResourceVersion 为 %s，实际 %q", s.ResourceVersion(), r.LastSyncResourceVersion())
	}
	labExpect(t, 3, 4, "store keys (a bookmark is not an object)", "存储里的键（书签不是对象）", []string{}, lab03Keys(store))
}

func TestLab03RelistResourceVersion(t *testing.T) {
	defer labStart(t, 3)()
	r := NewReflector(&ListWatch{}, &Pod{}, NewStore(MetaNamespaceKeyFunc))
	labExpect(t, 3, 2, "relistResourceVersion before any list", "任何 list 之前的 relistResourceVersion", "0", r.relistResourceVersion())
	r.setLastSyncResourceVersion("7")
	labExpect(t, 3, 2, "relistResourceVersion after seeing version 7", "看到版本 7 之后的 relistResourceVersion", "7", r.relistResourceVersion())
	r.setIsLastSyncResourceVersionUnavailable(true)
	labExpect(t, 3, 2, "relistResourceVersion once the server said version 7 is gone (a consistent read)", "服务器说版本 7 已不可用之后的 relistResourceVersion（一致性读）", "", r.relistResourceVersion())
}

func TestLab03BackoffSteps(t *testing.T) {
	defer labStart(t, 3)()
	clock := testingclock.NewFakeClock(time.Unix(1000, 0))
	b := newBackoffManager(clock)
	b.jitter = func(d time.Duration) time.Duration { return d }
	var got []time.Duration
	for range 8 {
		got = append(got, b.Step())
	}
	want := []time.Duration{800 * time.Millisecond, 1600 * time.Millisecond, 3200 * time.Millisecond, 6400 * time.Millisecond,
		12800 * time.Millisecond, 25600 * time.Millisecond, 30 * time.Second, 30 * time.Second}
	labExpect(t, 3, 5, "backoff steps (without jitter): 800 ms doubling to a cap of 30 s", "退避序列（不加抖动）：800 毫秒起翻倍，上限 30 秒", want, got)
	clock.Step(2*time.Minute + time.Second)
	labExpect(t, 3, 5, "the first step more than 2 minutes after the last reset", "距上次重置超过 2 分钟后的第一步", 800*time.Millisecond, b.Step())
	labExpect(t, 3, 5, "the step after that (the reset noted its time: doubling starts again)",
		"再下一步（重置记下了时间：重新开始翻倍）", 1600*time.Millisecond, b.Step())
	b = newBackoffManager(clock)
	for range 50 {
		d := b.Step()
		if d < 800*time.Millisecond || d > 1600*time.Millisecond {
			labFailf(t, 3, 5, "the first step with jitter: expected within [800ms, 1.6s], got %v", "加抖动的第一步：期望在 [800ms, 1.6s] 之内，实际 %v", d)
			return
		}
		b = newBackoffManager(clock)
	}
}

// lab03Calls is a Store that logs the calls the Reflector makes on it.
type lab03Calls struct {
	Store
	mu  sync.Mutex
	log []string
}

func (c *lab03Calls) note(what string, obj any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key, _ := MetaNamespaceKeyFunc(obj)
	c.log = append(c.log, what+" "+key)
}

func (c *lab03Calls) Add(obj any) error    { c.note("Add", obj); return c.Store.Add(obj) }
func (c *lab03Calls) Update(obj any) error { c.note("Update", obj); return c.Store.Update(obj) }
func (c *lab03Calls) Delete(obj any) error { c.note("Delete", obj); return c.Store.Delete(obj) }
func (c *lab03Calls) Replace(list []any, rv string) error {
	c.mu.Lock()
	c.log = append(c.log, fmt.Sprintf("Replace(%d)", len(list)))
	c.mu.Unlock()
	return c.Store.Replace(list, rv)
}

func (c *lab03Calls) calls() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.log)
}

// TestLab03EventsBecomeStoreCalls: each watch event is one call on the
// store, of its own kind (ADDED → Add, MODIFIED → Update, DELETED →
// Delete: a DeltaFIFO records them as Added, Updated and Deleted deltas),
// and every event moves the version, a DELETED one too (no bookmark comes
// here to move it instead).
func TestLab03EventsBecomeStoreCalls(t *testing.T) {
	defer labStart(t, 3)()
	s, err := fakeapi.Start(fakeapi.Options{BookmarkInterval: time.Hour})
	if err != nil {
		t.Fatalf(labPick("fakeapi: %v", "fakeapi 出错：%v"), err)
	}
	t.Cleanup(s.Close)
	labCreate(t, s, "default", "web-1", nil, false)
	lw := &lab03LW{inner: labPodsLW(t, s, "default")}
	store := &lab03Calls{Store: NewStore(MetaNamespaceKeyFunc)}
	r := lab03Run(t, lw, store)
	if !lab03WaitWatch(t, lw) {
		return
	}
	labCreate(t, s, "default", "web-2", nil, false)
	labCreate(t, s, "default", "web-2", map[string]string{"v": "2"}, true)
	labDelete(t, s, "default", "web-1")
	want := []string{"Replace(1)", "Add default/web-2", "Update default/web-2", "Delete default/web-1"}
	if !labWaitFor(func() bool { return len(store.calls()) >= len(want) }) {
		labFailf(t, 3, 4, "the store's calls: expected %v, got %v", "存储收到的调用：期望 %v，实际 %v", want, store.calls())
		return
	}
	labExpect(t, 3, 4, "the store's calls for the list, then ADDED, MODIFIED and DELETED events", "list 以及 ADDED、MODIFIED、DELETED 事件对应的存储调用",
		want, store.calls())
	if !labWaitFor(func() bool { return r.LastSyncResourceVersion() == s.ResourceVersion() }) {
		labFailf(t, 3, 4, "after the DELETED event, the last one: expected LastSyncResourceVersion %s (its version), got %q",
			"最后一个事件 DELETED 之后：期望 LastSyncResourceVersion 为 %s（它的版本），实际 %q", s.ResourceVersion(), r.LastSyncResourceVersion())
	}
}

// TestLab03ListsInPages: with a page size, the list asks for pages of that
// size and follows each page's continue token to the end.
func TestLab03ListsInPages(t *testing.T) {
	defer labStart(t, 3)()
	s := labServer(t)
	for i := range 5 {
		labCreate(t, s, "default", fmt.Sprint("p", i), nil, false)
	}
	lw := &lab03LW{inner: labPodsLW(t, s, "default")}
	store := NewStore(MetaNamespaceKeyFunc)
	r := NewReflectorWithOptions(lw, &Pod{}, store, ReflectorOptions{WatchListPageSize: 2})
	var err error
	labWithin(t, 3, 2, "list", func() { err = r.list(context.Background()) })
	if err != nil {
		labFailf(t, 3, 2, "list: expected no error, got %v", "list：期望没有错误，实际 %v", err)
	}
	labExpect(t, 3, 2, "the list's requests with a page size of 2 and 5 pods (through newPager: pages and their continue tokens)",
		"页大小为 2、有 5 个 Pod 时 list 的请求（通过 newPager：分页，并沿着 continue 令牌取完）",
		[]string{`list "0", limit 2, continue false: 2 items`, `list "", limit 2, continue true: 2 items`, `list "", limit 2, continue true: 1 items`},
		lw.listed())
	labExpect(t, 3, 2, "the store after the list in pages", "分页 list 之后的存储", 5, len(store.ListKeys()))
}

// TestLab03BacksOffBeforeTryingAgain runs a Reflector on a fake clock: a
// watch refused (connection refused) is tried again only after a backoff
// on the Reflector's clock, without a relist; a watch that ends at once,
// empty (a "very short watch"), ends the cycle: a backoff, then a relist.
// A Reflector that does not wait would try again at once, in a tight loop.
func TestLab03BacksOffBeforeTryingAgain(t *testing.T) {
	defer labStart(t, 3)()
	s := labServer(t)
	labCreate(t, s, "default", "a", nil, false)
	refused := fmt.Errorf("dial tcp 127.0.0.1:1: %w", syscall.ECONNREFUSED)
	lw := &lab03LW{inner: labPodsLW(t, s, "default"), failWatch: func(ListOptions) error { return refused }}
	clock := testingclock.NewFakeClock(time.Unix(1000, 0))
	r := NewReflectorWithOptions(lw, &Pod{}, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{Clock: clock})
	r.backoff.jitter = func(d time.Duration) time.Duration { return d }
	labRun(t, 3, 1, "Run did not return within 5 s of its context ending", "上下文（context）结束 5 秒后 Run 仍未返回", r.Run)
	// step moves the clock past the backoff the Reflector waits on.
	waiting := func() bool { return clock.HasWaiters() }
	if !labWaitFor(func() bool { _, w := lw.calls(); return len(w) >= 1 && waiting() }) {
		labFailf(t, 3, 3, "a watch refused (connection refused): expected the Reflector to wait a backoff on its clock (r.backoff), got the request log %v and no wait",
			"watch 被拒绝（连接被拒绝）：期望 Reflector 在它的时钟上等待退避（r.backoff），实际请求日志为 %v，没有等待", lw.requests())
		return
	}
	labExpect(t, 3, 3, "the requests while the backoff after a refused watch waits (no retry before it, no relist)",
		"被拒绝的 watch 之后、退避等待期间的请求（之前不重试，也不重新 list）",
		[]string{`list "0" → ok`, fmt.Sprintf("watch %q", s.ResourceVersion()), fmt.Sprintf("watch %q → %s", s.ResourceVersion(), refused)}, lw.requests())
	lw.mu.Lock()
	lw.failWatch, lw.shortWatch = nil, true
	lw.mu.Unlock()
	clock.Step(clock.Waiters()[0])
	if !labWaitFor(func() bool { return len(lw.requests()) >= 5 && waiting() }) {
		labFailf(t, 3, 4, "after the backoff, a watch that ends at once, empty: expected the cycle to end and a backoff before the relist, got the request log %v",
			"退避之后，一个立即结束、什么都没有的 watch：期望这一轮结束，并在重新 list 之前退避，实际请求日志为 %v", lw.requests())
		return
	}
	rv := s.ResourceVersion()
	if next := lw.requests()[3]; next != fmt.Sprintf("watch %q", rv) {
		labFailf(t, 3, 3, "after the backoff that followed the refused watch: expected the watch tried again from %s (a refused watch is retried without a relist), got %s; the request log: %v",
			"被拒绝的 watch 之后的退避结束：期望从 %s 再试 watch（被拒绝的 watch 不重新 list，直接重试），实际是 `%s`；请求日志：%v", rv, next, lw.requests())
		return
	}
	labExpect(t, 3, 4, "the requests after the very short watch, before the backoff ends (the cycle ends: no re-watch)",
		"很短的 watch 之后、退避结束之前的请求（这一轮结束：不重新 watch）",
		[]string{fmt.Sprintf("watch %q", rv), fmt.Sprintf("watch %q → closed at once", rv)}, lw.requests()[3:])
	lw.mu.Lock()
	lw.shortWatch = false
	lw.mu.Unlock()
	clock.Step(clock.Waiters()[0])
	if !labWaitFor(func() bool { return len(lw.requests()) >= 6 }) {
		labFailf(t, 3, 4, "after the backoff that followed the very short watch: expected a relist, got the request log %v",
			"很短的 watch 之后的退避结束：期望重新 list，实际请求日志为 %v", lw.requests())
		return
	}
	labExpect(t, 3, 4, "the request after that backoff (a new cycle: a relist)", "那次退避之后的请求（新的一轮：重新 list）",
		fmt.Sprintf("list %q → ok", rv), lw.requests()[5])
}

// TestLab03RandomChangesConverge makes random changes on the server while a
// Reflector runs, ending the watch once mid-way; at the end the store must
// hold exactly what the server holds, at the server's version.
func TestLab03RandomChangesConverge(t *testing.T) {
	defer labStart(t, 3)()
	for seed := uint64(1); seed <= 5; seed++ {
		rng := rand.New(rand.NewPCG(seed, 3))
		s, _, store, r := lab03Start(t, fakeapi.Options{})
		live := map[string]bool{}
		for step := range 40 {
			name := fmt.Sprint("p", rng.IntN(8))
			switch {
			case !live[name]:
				labCreate(t, s, "default", name, nil, false)
				live[name] = true
			case rng.IntN(2) == 0:
				labCreate(t, s, "default", name, map[string]string{"step": fmt.Sprint(step)}, true)
			default:
				labDelete(t, s, "default", name)
				delete(live, name)
			}
			if step == 20 { // end the watch once, mid-way; the next changes reach the new watch
				rv := s.ResourceVersion()
				if labWaitFor(func() bool { return r.LastSyncResourceVersion() == rv }) {
					s.CloseWatches()
				}
			}
		}
		var want []string
		for n := range live {
			want = append(want, "default/"+n)
		}
		sort.Strings(want)
		rv := s.ResourceVersion()
		if !labWaitFor(func() bool { return slices.Equal(lab03Keys(store), want) && r.LastSyncResourceVersion() == rv }) {
			labFailf(t, 3, 4, "random changes (seed %d): expected the store %v at version %s, got %v at %q",
				"随机修改（种子 %d）：期望存储为 %v、版本 %s，实际 %v、%q", seed, want, rv, lab03Keys(store), r.LastSyncResourceVersion())
			return
		}
	}
}

// TestLab03WatchFromTheStartKeepsTheVersion: a list that answers no
// resourceVersion makes the watch start from "", and such a watch opens
// with a synthetic ADDED per object in no version order (here b at 3, then
// a at 2). Their versions must not become the last version seen: a
// re-watch from 2 would skip b's later changes. The version moves with the
// first event of another kind (client-go's propagateRVFromStart).
func TestLab03WatchFromTheStartKeepsTheVersion(t *testing.T) {
	defer labStart(t, 3)()
	s := labServer(t)
	labCreate(t, s, "default", "a", nil, false)
	lw := &lab03LW{inner: labPodsLW(t, s, "default"), emptyListRV: true}
	lw.script = func(n int, o ListOptions) Watcher {
		if n == 1 {
			return newLab03Events(false, WatchEvent{Type: WatchAdded, Object: labPod("default", "b", "3", nil)},
				WatchEvent{Type: WatchAdded, Object: labPod("default", "a", "2", nil)})
		}
		return newLab03Events(true, WatchEvent{Type: WatchAdded, Object: labPod("default", "c", "8", nil)},
			WatchEvent{Type: WatchModified, Object: labPod("default", "a", "9", nil)})
	}
	store := NewStore(MetaNamespaceKeyFunc)
	r := lab03Run(t, lw, store)
	if !labWaitFor(func() bool { _, w := lw.calls(); return len(w) >= 2 }) {
		labFailf(t, 3, 3, "a watch from \"\" delivered ADDED b (version 3) and ADDED a (version 2), then ended: expected a re-watch, got the request log %v",
			"从 \"\" 开始的 watch 送来 ADDED b（版本 3）和 ADDED a（版本 2）后结束：期望重新 watch，实际请求日志为 %v", lw.requests())
		return
	}
	_, watches := lw.calls()
	if !labExpect(t, 3, 3, "the re-watch after a watch from \"\" that delivered only its synthetic ADDED events (versions 3, then 2: no order): the version must not move until an event other than ADDED arrives",
		"从 \"\" 开始的 watch 只送来合成的 ADDED 事件（版本 3，然后 2：没有顺序）之后的重新 watch：在 ADDED 以外的事件到来之前，版本不能前移",
		"", watches[1].ResourceVersion) {
		return
	}
	if !labWaitFor(func() bool { return r.LastSyncResourceVersion() == "9" }) {
		labFailf(t, 3, 4, "the second watch from \"\" delivered ADDED c (version 8), then MODIFIED a (version 9): expected LastSyncResourceVersion \"9\" (an event other than ADDED moves it), got %q",
			"第二个从 \"\" 开始的 watch 送来 ADDED c（版本 8），然后 MODIFIED a（版本 9）：期望 LastSyncResourceVersion 为 \"9\"（ADDED 以外的事件让它前移），实际 %q", r.LastSyncResourceVersion())
	}
}

// TestLab03StopIsNotAWatchEnd calls handleWatch with the stop already
// given and a stream that the stop ended too (closed, or an ERROR event
// waiting): whichever handleWatch sees first, the answer is
// errStopRequested, so that watch does not take the stop for a watch the
// server ended (and re-watch) or for a failure (and log it). Each case is
// tried many times: which of two ready channels a select takes is random.
func TestLab03StopIsNotAWatchEnd(t *testing.T) {
	defer labStart(t, 3)()
	r := NewReflector(&ListWatch{}, &Pod{}, NewStore(MetaNamespaceKeyFunc))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	gone := lab03Expired().(*StatusError).ErrStatus
	streams := []struct {
		en, zh string
		w      func() Watcher
	}{
		{"a stream the stop closed", "被停止关闭的流", func() Watcher { return newLab03Events(false) }},
		{"a stream that sent an ERROR event as the stop came", "停止到来时发出 ERROR 事件的流",
			func() Watcher { return newLab03Events(true, WatchEvent{Type: WatchError, Object: &gone}) }},
	}
	for _, c := range streams {
		for range 64 {
			var err error
			labWithin(t, 3, 4, "handleWatch with its context ended", func() {
				err = r.handleWatch(ctx, r.clock.Now(), c.w(), r.store, func(string, bool) {}, nil, false)
			})
			if !errors.Is(err, errStopRequested) {
				labFailf(t, 3, 4, "handleWatch after the stop, on %s: expected errStopRequested (the stop, even when the stream ended first), got %v",
					"停止之后 handleWatch 遇到%s：期望 errStopRequested（是停止，即使流先结束了），实际 %v", labPick(c.en, c.zh), err)
				return
			}
		}
	}
}
