// reflector_watchlist_test.go tests the streaming list against fakeapi: the
// initial events, the bookmark that ends them, and the fallback to list and
// watch when the server refuses; and the list in pages.
//
// client-go counterpart: reflector_watchlist_test.go in k8s.io/client-go/tools/cache.
//
// Tutorial: 004 §4.1 (the Reflector over HTTP streaming).
//
// Reading 2: today's client-go: the RealFIFO, batches, the streaming list, the gates.

package informer

import (
	"net/http"
	"testing"

	"github.com/learn-k8s/informer/fakeapi"
)

func TestReflectorStreamingList(t *testing.T) {
	checkLeaksAtEnd(t)
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", nil)
	createPod(t, s, "default", "b", nil)
	lw := &recordingLW{inner: podsLW(t, s, NamespaceAll)}
	store := newCountingStore()
	r := NewReflectorWithOptions(lw, &Pod{}, store, ReflectorOptions{UseWatchList: true})
	runReflector(t, r)
	waitFor(t, "the streamed initial list", func() bool { _, _, _, n := store.counts(); return n == 1 })
	if keys := store.ListKeys(); len(keys) != 2 {
		t.Fatalf("store has %v", keys)
	}
	createPod(t, s, "default", "c", nil)
	waitFor(t, "a live event on the same watch", func() bool { _, ok, _ := store.GetByKey("default/c"); return ok })
	lists, watches := lw.calls()
	w := watches[0]
	if len(lists) != 0 || len(watches) != 1 || w.SendInitialEvents == nil || !*w.SendInitialEvents ||
		w.ResourceVersionMatch != ResourceVersionMatchNotOlderThan || w.ResourceVersion != "" || !w.AllowWatchBookmarks {
		t.Fatalf("lists %v, watches %+v", lists, watches)
	}
	adds, _, _, replaces := store.counts()
	if adds != 1 {
		t.Fatalf("the initial objects must reach the store in one Replace, not as %d adds", adds)
	}
	say(t, "UseWatchList with pods a, b: %d lists, %d watch (sendInitialEvents=%v, resourceVersionMatch=%s, bookmarks=%v)",
		"UseWatchList，Pod a、b：%d 次 list，%d 次 watch（sendInitialEvents=%v，resourceVersionMatch=%s，书签=%v）",
		len(lists), len(watches), *w.SendInitialEvents, w.ResourceVersionMatch, w.AllowWatchBookmarks)
	say(t, "a and b reached the store in %d Replace; c then came as %d Add on the same watch",
		"a 和 b 通过 %d 次 Replace 进入 store；之后 c 在同一个 watch 上作为 %d 次 Add 到达", replaces, adds)
	say(t, "client-go's Reflector.watchList (reflector.go) streams the initial list, then Replaces the store once.",
		"client-go 的 Reflector.watchList（reflector.go）以流式取得初始列表，然后一次 Replace 整个 store。")
}

func TestReflectorStreamingListFallsBackToList(t *testing.T) {
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", nil)
	lw := &recordingLW{inner: podsLW(t, s, NamespaceAll), beforeWatch: func(o ListOptions) error {
		if o.SendInitialEvents != nil { // a server without streaming lists refuses the parameter
			return &StatusError{Status{Code: http.StatusBadRequest, Reason: StatusReason("BadRequest"), Message: "sendInitialEvents: unsupported"}}
		}
		return nil
	}}
	store := newCountingStore()
	runReflector(t, NewReflectorWithOptions(lw, &Pod{}, store, ReflectorOptions{UseWatchList: true}))
	waitFor(t, "the fallback list", func() bool { _, _, _, n := store.counts(); return n == 1 })
	waitFor(t, "the watch after the list", func() bool { return lw.watchCount() == 2 })
	lists, _ := lw.calls()
	if len(lists) != 1 || lw.lastWatch().SendInitialEvents != nil {
		t.Fatalf("lists %d, last watch %+v", len(lists), lw.lastWatch())
	}
	say(t, "the server refuses sendInitialEvents with 400: the Reflector made %d list, then a plain watch from %q",
		"服务器以 400 拒绝 sendInitialEvents：Reflector 做了 %d 次 list，然后从 %q 开始普通的 watch",
		len(lists), lw.lastWatch().ResourceVersion)
	say(t, "client-go's ListAndWatchWithContext (reflector.go) falls back to a list when watchList fails.",
		"client-go 的 ListAndWatchWithContext（reflector.go）在 watchList 失败时退回到 list。")
}
