// informer_test.go is the walkthrough: the tutorial's story told as tests,
// in its order, from objects and keys (Step01) to the whole informer and
// what it does when things go wrong (Step11): the core. The advanced
// chapters, Steps 12–18, are in the extras' packages (retry/, diff/, ...):
// `go test -v -run Step ./...` runs them all. Run
// `go test -v -run Step` to read it as a chapter, or one step alone with
// `go test -v -run Step06`. Each step names its tutorial section and the
// file it exercises, then narrates what happens and why, in English or
// Chinese (say, in narrate_test.go, picks the reader's language). From
// Step05 on, everything runs over real HTTP against fakeapi. Edge cases and
// stress live in the other _test.go files.

package informer

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
)

// nginx returns the tutorial's example Pod, default/nginx-pod.
func nginx(resourceVersion string) *Pod {
	return &Pod{
		TypeMeta:   TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: ObjectMeta{Namespace: "default", Name: "nginx-pod", ResourceVersion: resourceVersion},
		Spec:       PodSpec{Containers: []Container{{Name: "nginx", Image: "nginx:1.27"}}},
	}
}

func TestStep01ObjectsAndKeys(t *testing.T) {
	say(t, "Step 1 — objects and keys. Tutorial 004 §3.2 and 000 §2.1–2.2; file meta.go.", "第 1 步 — 对象与键。教程 004 §3.2 和 000 §2.1–2.2；文件 meta.go。")

	say(t, "A Kubernetes object is JSON with two parts an informer relies on (004 §3.2):",
		"Kubernetes 对象是一段 JSON，其中有两部分是 informer 依赖的（004 §3.2）：")
	say(t, "  TypeMeta (kind, apiVersion) says what it is;", "  TypeMeta（kind、apiVersion）说明它是什么；")
	say(t, "  ObjectMeta (name, namespace, uid, resourceVersion) says which one.",
		"  ObjectMeta（name、namespace、uid、resourceVersion）说明是哪一个。")
	raw, err := os.ReadFile("testdata/pod-get.json")
	must(t, err)
	var fromServer Pod
	must(t, json.Unmarshal(raw, &fromServer))
	say(t, "  a Pod from a real kube-apiserver (testdata/pod-get.json): kind=%q apiVersion=%q",
		"  真实 kube-apiserver 返回的 Pod（testdata/pod-get.json）：kind=%q apiVersion=%q",
		fromServer.Kind, fromServer.APIVersion)
	say(t, "  name=%q namespace=%q resourceVersion=%q",
		"  名字 name=%q，命名空间 namespace=%q，资源版本 resourceVersion=%q",
		fromServer.Name, fromServer.Namespace, fromServer.ResourceVersion)
	say(t, "  uid=%q", "  唯一标识 uid=%q", fromServer.UID)
	if fromServer.Kind != "Pod" || fromServer.Name == "" || fromServer.ResourceVersion == "" {
		t.Fatalf("decoded %+v", fromServer.ObjectMeta)
	}

	say(t, "The cache sees every object through one small interface, Object: the metadata getters,",
		"缓存只通过一个小接口 Object 看待每个对象：元数据的取值方法、")
	say(t, "SetResourceVersion and DeepCopyObject (client-go: metav1.Object and runtime.Object).",
		"SetResourceVersion 和 DeepCopyObject（client-go 里是 metav1.Object 和 runtime.Object）。")
	var obj Object = &fromServer
	copied := obj.DeepCopyObject()
	say(t, "  *Pod gets the getters by embedding ObjectMeta and writes DeepCopyObject itself:",
		"  *Pod 通过嵌入 ObjectMeta 得到取值方法，DeepCopyObject 则自己实现：")
	say(t, "  a copy is a %T at %q", "  拷贝是一个 %T，版本 %q", copied, copied.GetResourceVersion())
	if copied.GetResourceVersion() != fromServer.ResourceVersion {
		t.Fatalf("the copy is at version %q", copied.GetResourceVersion())
	}

	say(t, "The key function needs even less: GetNamespace and GetName. Anything with those two has a key;",
		"键函数要的更少：GetNamespace 和 GetName。有这两个方法的东西就有键；")
	say(t, "anything without them gets an error, not a guess.", "没有的就得到一个错误，而不是猜一个。")
	if key, err := MetaNamespaceKeyFunc(namedThing{namespace: "default", name: "just-names"}); err != nil || key != "default/just-names" {
		t.Fatalf("key of a namedThing = %q, %v", key, err)
	} else {
		say(t, "  a struct with only those two methods → key %q", "  只有这两个方法的结构体 → 键 %q", key)
	}
	if _, err := MetaNamespaceKeyFunc(struct{ Name string }{"no-methods"}); err == nil {
		t.Fatal("a struct without GetNamespace/GetName got a key")
	} else {
		say(t, "  a struct without them → error:", "  没有这两个方法的结构体 → 错误：")
		say(t, "    %v", "    %v", err)
	}

	say(t, "Every object carries ObjectMeta. A cache names it by a key: \"namespace/name\".", "每个对象都带着 ObjectMeta。缓存用一个键来称呼它：\"namespace/name\"。")
	p := nginx("1")
	key, err := MetaNamespaceKeyFunc(p)
	must(t, err)
	say(t, "  the key of the nginx Pod is %q", "  nginx 这个 Pod 的键是 %q", key)
	if key != "default/nginx-pod" {
		t.Fatalf("key = %q", key)
	}

	say(t, "A cluster-scoped object (a Node, a Namespace) has no namespace: its key is just its name.", "集群级对象（Node、Namespace）没有命名空间：它的键就是它的名字。")
	node := namedThing{name: "node-1"}
	if key, _ := MetaNamespaceKeyFunc(node); key != "node-1" {
		t.Fatalf("cluster-scoped key = %q", key)
	}

	say(t, "SplitMetaNamespaceKey takes a key apart again; a key with two '/' is an error, not a guess.", "SplitMetaNamespaceKey 把键拆回两半；带两个 '/' 的键是错误，不会去猜。")
	ns, name, err := SplitMetaNamespaceKey(key)
	if ns != "default" || name != "nginx-pod" || err != nil {
		t.Fatalf("split = %q, %q, %v", ns, name, err)
	}
	if _, _, err := SplitMetaNamespaceKey("a/b/c"); err == nil {
		t.Fatal("a/b/c split without error")
	}

	say(t, "A list from the server becomes a map by key (000 §2.1): what a cache is, at heart.", "服务器返回的列表按键变成一个 map（000 §2.1）：缓存说到底就是这个。")
	byKey := SliceToMapByKey([]*Pod{nginx("1"), {ObjectMeta: ObjectMeta{Namespace: "default", Name: "redis"}}},
		func(p *Pod) string { k, _ := MetaNamespaceKeyFunc(p); return k })
	say(t, "  keys: %v", "  键：%v", slices.Sorted(maps.Keys(byKey)))
	if len(byKey) != 2 || byKey["default/redis"] == nil {
		t.Fatalf("map = %v", byKey)
	}

	say(t, "Objects in a cache are shared with every reader: to change one, DeepCopy it first (000 §2.3).", "缓存里的对象被所有读者共享：要改，先 DeepCopy 一份（000 §2.3）。")
	changed := p.DeepCopy()
	changed.Spec.Containers[0].Image = "nginx:1.28"
	if p.Spec.Containers[0].Image != "nginx:1.27" {
		t.Fatal("changing the copy changed the cached object")
	}
}

func TestStep02DeltaFIFO(t *testing.T) {
	say(t, "Step 2 — deltas and the DeltaFIFO. Tutorial 004 §2.2 and 000 §3.1, §4.2.",
		"第 2 步 — 增量（Delta）与 DeltaFIFO。教程 004 §2.2 和 000 §3.1、§4.2。")
	say(t, "Files: delta.go, fifo.go.", "文件：delta.go、fifo.go。")

	say(t, "The Reflector writes changes into a DeltaFIFO. Each key is queued once;", "Reflector 把变化写进 DeltaFIFO。每个键只排一次队；")
	say(t, "what happens to it while it waits piles up as Deltas, oldest first.", "它排队期间发生的事情作为 Delta 依次累积，最早的在前。")
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{EmitDeltaTypeReplaced: true})
	must(t, f.Add(nginx("1")))
	must(t, f.Update(nginx("2")))
	must(t, f.Add(&Pod{ObjectMeta: ObjectMeta{Namespace: "default", Name: "redis", ResourceVersion: "3"}}))
	say(t, "  queued keys: %v", "  排队中的键：%v", fifoKeys(f))
	if !slices.Equal(fifoKeys(f), []string{"default/nginx-pod", "default/redis"}) {
		t.Fatalf("keys = %v", fifoKeys(f))
	}

	say(t, "Pop hands the first key to a process function, with all its deltas at once.", "Pop 把队首的键连同它的全部 Delta 一次交给处理函数。")
	var got Deltas
	_, err := pop(t, "Pop to hand over default/nginx-pod", f, func(obj any, _ bool) error {
		got = obj.(Deltas)
		return nil
	})
	must(t, err)
	for _, d := range got {
		say(t, "  %s %s", "  %s %s", d.Type, describeObj(d.Object))
	}
	if len(got) != 2 || got[0].Type != Added || got[1].Type != Updated {
		t.Fatalf("deltas = %v", got)
	}

	say(t, "Nothing is merged except one thing: the same deletion reported twice in a row.", "什么都不合并，只有一个例外：同一个删除连续报告了两次。")
	say(t, "(000 §3.1 says the queue drops older resource versions; client-go never does.)", "（000 §3.1 说队列会丢弃较旧的资源版本；client-go 从来不这样做。）")
	must(t, f.Delete(&Pod{ObjectMeta: ObjectMeta{Namespace: "default", Name: "redis", ResourceVersion: "4"}}))
	must(t, f.Delete(&Pod{ObjectMeta: ObjectMeta{Namespace: "default", Name: "redis", ResourceVersion: "5"}}))
	item, _ := fifoDeltas(f, "default/redis")
	say(t, "  default/redis holds %d deltas: Added, then one Deleted", "  default/redis 有 %d 个 Delta：Added，然后一个 Deleted", len(item))
	if d := item; len(d) != 2 || d.Newest().Type != Deleted {
		t.Fatalf("deltas = %v", d)
	}

	say(t, "A relist (Replace) that no longer contains a queued key proves it was deleted while", "重新 list（Replace）的结果里不再有某个排队中的键，说明它是在我们")
	say(t, "we were not watching: the queue adds a DeletedFinalStateUnknown tombstone (000 §4.2).", "没有 watch 的时候被删掉的：队列给它加一个 DeletedFinalStateUnknown 墓碑（000 §4.2）。")
	must(t, f.Add(&Pod{ObjectMeta: ObjectMeta{Namespace: "default", Name: "web", ResourceVersion: "6"}}))
	must(t, f.Replace([]any{nginx("7")}, "7"))
	item, _ = fifoDeltas(f, "default/web")
	tomb, ok := item.Newest().Object.(DeletedFinalStateUnknown)
	say(t, "  default/web now ends with: Deleted %s", "  default/web 的 Delta 列表最后一项是：Deleted %s", describeObj(tomb))
	if !ok || tomb.Key != "default/web" {
		t.Fatalf("deltas = %v", item)
	}
}

func TestStep04StoreAndIndexes(t *testing.T) {
	say(t, "Step 4 — the store and its indexes. Tutorial 004 §3.3 and 000 §1, §2.4.", "第 4 步 — 存储（Store）与索引。教程 004 §3.3 和 000 §1、§2.4。")
	say(t, "Files: store.go, thread_safe_store.go.", "文件：store.go、thread_safe_store.go。")

	say(t, "The informer keeps the current state in an Indexer: a thread-safe map by key", "informer 把当前状态放在索引器（Indexer）里：一个按键存放、线程安全的 map，")
	say(t, "plus indexes. Here, the usual one: by namespace.", "再加上索引。这里用最常见的一个：按命名空间。")
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	for _, p := range []*Pod{
		nginx("1"),
		{ObjectMeta: ObjectMeta{Namespace: "default", Name: "redis"}},
		{ObjectMeta: ObjectMeta{Namespace: "kube-system", Name: "coredns"}},
	} {
		must(t, idx.Add(p))
	}
	keys, err := idx.IndexKeys(NamespaceIndex, "default")
	must(t, err)
	say(t, "  pods in default: %v", "  default 里的 Pod：%v", keys)
	if !slices.Equal(keys, []string{"default/nginx-pod", "default/redis"}) {
		t.Fatalf("keys = %v", keys)
	}

	say(t, "Indexes follow every write. Deleting redis empties nothing but its own entry;", "每次写入，索引都跟着变。删掉 redis 只去掉它自己那一项；")
	say(t, "deleting coredns removes the now-empty kube-system value altogether.", "删掉 coredns 后 kube-system 已经空了，这个索引值整个被移除。")
	must(t, idx.Delete(&Pod{ObjectMeta: ObjectMeta{Namespace: "default", Name: "redis"}}))
	must(t, idx.Delete(&Pod{ObjectMeta: ObjectMeta{Namespace: "kube-system", Name: "coredns"}}))
	values := idx.ListIndexFuncValues(NamespaceIndex)
	say(t, "  namespaces indexed: %v", "  已索引的命名空间：%v", values)
	if !slices.Equal(values, []string{"default"}) {
		t.Fatalf("values = %v", values)
	}

	say(t, "Asking for an index that does not exist is an error, not a crash.", "查询不存在的索引会返回错误，而不会崩溃。")
	if _, err := idx.ByIndex("by-node", "node-1"); err == nil {
		t.Fatal("unknown index: no error")
	} else {
		say(t, "  %v", "  %v", err)
	}

	say(t, "Replace swaps the whole contents in one step (000 §2.5): a reader sees the old set or the", "Replace 一步换掉全部内容（000 §2.5）：读者看到的要么是旧的一整套，")
	say(t, "new one, never half of each. The map sits behind a sync.RWMutex; BenchmarkStore compares", "要么是新的一整套，绝不会各看到一半。map 由一个 sync.RWMutex 保护；BenchmarkStore 把它")
	say(t, "it with sync.Map (000 §2.4).", "和 sync.Map 做了对比（000 §2.4）。")
	must(t, idx.Replace([]any{&Pod{ObjectMeta: ObjectMeta{Namespace: "prod", Name: "api"}}}, "10"))
	if keys := idx.ListKeys(); !slices.Equal(keys, []string{"prod/api"}) {
		t.Fatalf("after Replace: %v", keys)
	}
	say(t, "  after Replace: %v, namespaces %v", "  Replace 之后：%v，命名空间 %v", idx.ListKeys(), idx.ListIndexFuncValues(NamespaceIndex))
}

// namedThing has the two methods a key function needs and nothing else.
type namedThing struct{ namespace, name string }

func (n namedThing) GetNamespace() string { return n.namespace }
func (n namedThing) GetName() string      { return n.name }

func TestStep05ListWatch(t *testing.T) {
	say(t, "Step 5 — ListWatch: all a Reflector asks of an API server. Tutorial 004 §2.4.",
		"第 5 步 — ListWatch：Reflector 对 API server 的全部要求。教程 004 §2.4。")
	say(t, "Files: restclient.go, watch.go.", "文件：restclient.go、watch.go。")
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "web-1", nil)
	createPod(t, s, "kube-system", "dns", nil)

	say(t, "A ListerWatcher has two methods, List(ctx, options) and Watch(ctx, options).",
		"ListerWatcher 只有两个方法：List(ctx, options) 和 Watch(ctx, options)。")
	say(t, "ListWatch makes one from two functions, ListFunc and WatchFunc",
		"ListWatch 用两个函数 ListFunc 和 WatchFunc 拼出一个")
	say(t, "(client-go: ListWithContextFunc, WatchFuncWithContext). NewListWatchFromClient fills both",
		"（client-go 里叫 ListWithContextFunc、WatchFuncWithContext）。NewListWatchFromClient 用 HTTP")
	say(t, "with HTTP: GET .../namespaces/default/pods, then the same with watch=true.",
		"填好这两个函数：GET .../namespaces/default/pods，然后同一路径加 watch=true。")
	overHTTP := podsLW(t, s, "default")

	say(t, "Our own ListWatch wraps it, as client-go's NewFilteredListWatchFromClient wraps",
		"我们自己的 ListWatch 包住它，就像 client-go 的 NewFilteredListWatchFromClient")
	say(t, "the REST client: it records each call's options before passing it on.",
		"包住 REST 客户端：它先记下每次调用的参数，再转交下去。")
	var mu sync.Mutex
	var lists, watches []ListOptions
	lw := &ListWatch{
		ListFunc: func(ctx context.Context, o ListOptions) (*ObjectList, error) {
			mu.Lock()
			lists = append(lists, o)
			mu.Unlock()
			return overHTTP.List(ctx, o)
		},
		WatchFunc: func(ctx context.Context, o ListOptions) (Watcher, error) {
			mu.Lock()
			watches = append(watches, o)
			mu.Unlock()
			return overHTTP.Watch(ctx, o)
		},
	}
	var _ ListerWatcher = lw

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	list, err := lw.List(ctx, ListOptions{ResourceVersion: "0"})
	must(t, err)
	say(t, "  List(resourceVersion=\"0\") → %d pod(s), %s, and the list's own version %q",
		"  List(resourceVersion=\"0\") → %d 个 Pod，%s，以及列表自己的版本 %q",
		len(list.Items), list.Items[0].GetName(), list.ResourceVersion)
	if len(list.Items) != 1 || list.ResourceVersion != s.ResourceVersion() {
		t.Fatalf("list: %d items at %q (server at %s)", len(list.Items), list.ResourceVersion, s.ResourceVersion())
	}
	w, err := lw.Watch(ctx, ListOptions{ResourceVersion: list.ResourceVersion})
	must(t, err)
	createPod(t, s, "default", "web-2", nil)
	select {
	case ev := <-w.ResultChan():
		say(t, "  Watch(resourceVersion=%q), then a pod is created → %s %s at version %s",
			"  Watch(resourceVersion=%q)，然后创建一个 Pod → %s %s，版本 %s",
			list.ResourceVersion, ev.Type, keyOf(ev.Object), ev.Object.(Object).GetResourceVersion())
		if ev.Type != WatchAdded || keyOf(ev.Object) != "default/web-2" {
			t.Fatalf("event %s %v", ev.Type, ev.Object)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no watch event")
	}
	w.Stop()
	drain(t, "Stop to close ResultChan", w.ResultChan())
	say(t, "  Stop ends the stream and closes ResultChan.", "  Stop 结束事件流并关闭 ResultChan。")

	say(t, "A Reflector needs nothing else: give it our ListWatch and it lists once,",
		"Reflector 不需要别的：把我们的 ListWatch 交给它，它 list 一次，")
	say(t, "then watches from the list's version.", "然后从列表的版本开始 watch。")
	// Reading 2: the streaming list.
	say(t, "(With WatchListClient on, an informer's Reflector streams the list instead: Step 6.)",
		"（特性门控 WatchListClient 开启时，informer 的 Reflector 改用流式列表：第 6 步。）")
	// End of reading 2.
	mu.Lock()
	lists, watches = nil, nil
	mu.Unlock()
	store := NewStore(MetaNamespaceKeyFunc)
	// A re-watch cut short by the test's end may log "context canceled": not part of the story.
	quietLogs(t)
	runReflector(t, NewReflector(lw, &Pod{}, store))
	waitFor(t, "the Reflector's watch", func() bool { mu.Lock(); defer mu.Unlock(); return len(watches) == 1 })
	mu.Lock()
	l, wo := lists[0], watches[0]
	mu.Unlock()
	say(t, "  our ListFunc got resourceVersion=%q limit=%d;", "  我们的 ListFunc 收到 resourceVersion=%q limit=%d；",
		l.ResourceVersion, l.Limit)
	say(t, "  our WatchFunc got resourceVersion=%q allowWatchBookmarks=%v",
		"  WatchFunc 收到 resourceVersion=%q allowWatchBookmarks=%v", wo.ResourceVersion, wo.AllowWatchBookmarks)
	if wo.ResourceVersion != s.ResourceVersion() || len(store.ListKeys()) != 2 {
		t.Fatalf("watch from %q (server at %s); store %v", wo.ResourceVersion, s.ResourceVersion(), store.ListKeys())
	}
	say(t, "Where the objects come from is the ListerWatcher's business: HTTP here, anything in a test.",
		"对象从哪里来是 ListerWatcher 的事：这里是 HTTP，测试里可以是任何东西。")
}

func TestStep06Reflector(t *testing.T) {
	say(t, "Step 6 — the Reflector: the initial list, then watch. Tutorial 004 §2.4, §4.1; 000 §4.1.",
		"第 6 步 — Reflector：先取得初始列表，再 watch。教程 004 §2.4、§4.1；000 §4.1。")
	say(t, "Files: reflector.go, reflector_watch.go, restclient.go, watch.go.",
		"文件：reflector.go、reflector_watch.go、restclient.go、watch.go。")
	// Reading 2: the streaming list.
	say(t, "The streaming list is in reflector_watchlist.go.", "流式列表在 reflector_watchlist.go 里。")
	// End of reading 2.
	checkLeaksAtEnd(t)
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "web-1", nil)
	createPod(t, s, "default", "web-2", nil)
	createPod(t, s, "kube-system", "dns", nil) // another namespace: not ours

	lw := &recordingLW{inner: podsLW(t, s, "default"), tap: true}
	store := NewStore(MetaNamespaceKeyFunc)
	var options ReflectorOptions
	// Reading 2: the streaming list, when the pipeline under test has it.
	// The WatchListClient gate of the pipeline this run tests decides how
	// the Reflector gets its initial list (client-go: Reflector.ListAndWatchWithContext
	// in tools/cache reflector.go asks r.useWatchList, then Reflector.watchList).
	options.UseWatchList = defaultPipelineGates.WatchListClient
	// End of reading 2.
	r := NewReflectorWithOptions(lw, &Pod{}, store, options)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	t.Cleanup(func() { // also when the test fails half-way
		cancel()
		receiveOrError(t, "the Reflector's Run to return after the cancel", done)
	})

	say(t, "The Reflector gets the pods of namespace default and Replaces the store with them at once.",
		"Reflector 取得命名空间 default 的 Pod，一步用它们 Replace 整个存储。")
	waitFor(t, "the initial list", func() bool { return len(store.ListKeys()) == 2 })
	waitFor(t, "the watch", func() bool { return lw.watchCount() == 1 })
	lists, watches := lw.calls()
	// Reading 2: client-go v0.37.2 streams the list instead.
	if len(lists) == 0 {
		step06Streamed(t, watches[0], lw.watchEvents())
	}
	// End of reading 2.
	if len(lists) > 0 {
		step06Listed(t, lists[0], watches[0])
	}
	keys := store.ListKeys()
	slices.Sort(keys)
	say(t, "Store keys after the initial list: %v", "初始列表之后存储里的键：%v", keys)
	if !slices.Equal(keys, []string{"default/web-1", "default/web-2"}) {
		t.Fatalf("got %v", keys)
	}

	say(t, "Each watch event becomes a store call: ADDED → Add, MODIFIED → Update, DELETED → Delete.",
		"每个 watch 事件变成一次存储操作：ADDED → Add，MODIFIED → Update，DELETED → Delete。")
	rv := createPod(t, s, "default", "web-3", nil)
	waitFor(t, "ADDED web-3", func() bool { _, ok, _ := store.GetByKey("default/web-3"); return ok })
	say(t, "  ADDED default/web-3 at version %s", "  ADDED default/web-3，版本 %s", rv)
	rv = relabelPod(t, s, "default", "web-3", map[string]string{"tier": "frontend"})
	waitFor(t, "MODIFIED web-3", func() bool {
		obj, _, _ := store.GetByKey("default/web-3")
		return obj != nil && obj.(*Pod).Labels["tier"] == "frontend"
	})
	say(t, "  MODIFIED default/web-3 at version %s: the store holds the new labels",
		"  MODIFIED default/web-3，版本 %s：存储里是新的标签", rv)
	deletePod(t, s, "default", "web-1")
	waitFor(t, "DELETED web-1", func() bool { _, ok, _ := store.GetByKey("default/web-1"); return !ok })
	say(t, "  DELETED default/web-1: gone from the store", "  DELETED default/web-1：已从存储中移除")

	waitFor(t, "the last version", func() bool { return r.LastSyncResourceVersion() == s.ResourceVersion() })
	say(t, "LastSyncResourceVersion = %s, the server's current version",
		"LastSyncResourceVersion = %s，就是服务器当前的版本", r.LastSyncResourceVersion())
	if n := lw.listCount(); n != 1 {
		t.Fatalf("%d initial lists; a healthy watch never relists", n)
	}

	say(t, "Cancelling the context stops the Reflector and every goroutine it started.",
		"取消 context 就停下 Reflector 以及它启动的每一个 goroutine。")
	cancel()
	receive(t, "the Reflector's Run to return after the cancel", done)
}

// step06Listed tells and checks Step 6's list then watch: client-go 1.32's
// way, and v0.37.2's with the streaming list off (client-go:
// Reflector.list, then Reflector.watch, in tools/cache reflector.go).
func step06Listed(t *testing.T, list, w ListOptions) {
	sayDiffers(t, "WatchListClient is off (client-go 1.32's gates): the Reflector lists, then watches.",
		"特性门控 WatchListClient 关闭（client-go 1.32 的设置）：Reflector 先 list，再 watch。")
	sayDiffers(t, "  the list asked for resourceVersion=%q (\"0\": anything the server has cached will do)",
		"  list 请求的是 resourceVersion=%q（\"0\"：服务器缓存里有什么都行）", list.ResourceVersion)
	if list.ResourceVersion != "0" {
		t.Fatalf("first list resourceVersion %q, want \"0\"", list.ResourceVersion)
	}
	sayDiffers(t, "  then a watch from the list's version %q, allowWatchBookmarks=%v, timeoutSeconds=%d",
		"  然后从 list 返回的版本 %q 开始 watch，allowWatchBookmarks=%v，timeoutSeconds=%d",
		w.ResourceVersion, w.AllowWatchBookmarks, *w.TimeoutSeconds)
	if !w.AllowWatchBookmarks {
		sayFailure(t, "the watch did not ask for bookmarks (allowWatchBookmarks=false); client-go's Reflector always does:",
			"这次 watch 没有请求书签（allowWatchBookmarks=false）；client-go 的 Reflector 总是请求：")
		sayFailure(t, "bookmarks keep a quiet watch's version recent, so that a re-watch does not start too old (410)",
			"书签让一个安静的 watch 记下的版本保持较新，重新 watch 时就不会因版本太旧而得到 410")
		t.FailNow()
	}
	if w.ResourceVersion == "" || w.ResourceVersion == "0" || *w.TimeoutSeconds < 300 || *w.TimeoutSeconds >= 600 {
		t.Fatalf("watch options %+v", w)
	}
	// Reading 2: a plain watch does not ask for the initial events.
	if w.SendInitialEvents != nil {
		t.Fatalf("watch options %+v", w)
	}
	// End of reading 2.
}

// Reading 2: the streaming list of client-go v0.37.2.

// step06Streamed tells and checks Step 6's streaming list, client-go
// v0.37.2's default (WatchListClient on; client-go: Reflector.watchList in
// tools/cache reflector.go): one watch with sendInitialEvents=true, whose
// events up to the initial-events-end bookmark are the list.
func step06Streamed(t *testing.T, w ListOptions, events []WatchEvent) {
	sayDiffers(t, "WatchListClient is on (client-go v0.37.2's default): no list request, one watch that",
		"特性门控 WatchListClient 开启（client-go v0.37.2 的默认值）：没有 list 请求，只有一个 watch，")
	sayDiffers(t, "streams the list: sendInitialEvents=%v resourceVersionMatch=%s resourceVersion=%q",
		"它以流式送来列表：sendInitialEvents=%v resourceVersionMatch=%s resourceVersion=%q",
		*w.SendInitialEvents, w.ResourceVersionMatch, w.ResourceVersion)
	if !*w.SendInitialEvents || w.ResourceVersionMatch != "NotOlderThan" || !w.AllowWatchBookmarks {
		t.Fatalf("streaming list options %+v", w)
	}
	for _, ev := range events {
		o := ev.Object.(*Pod)
		if ev.Type != WatchBookmark {
			sayDiffers(t, "  %s %s/%s: an initial event", "  %s %s/%s：一个初始事件", ev.Type, o.Namespace, o.Name)
			continue
		}
		if o.Annotations[InitialEventsAnnotationKey] != "true" {
			continue // a bookmark before the end (fakeapi sends none here)
		}
		sayDiffers(t, "  %s at resourceVersion %q, annotated %s: the list ends",
			"  %s，资源版本 %q，带注解 %s：列表到此为止", ev.Type, o.ResourceVersion, InitialEventsAnnotationKey)
		sayDiffers(t, "The Reflector gathered the ADDED objects aside, Replaced the store with them at that bookmark;",
			"Reflector 先把这些 ADDED 对象收集在一边，收到这个书签时用它们 Replace 存储；")
		sayDiffers(t, "the same watch then goes on with live events. (PipelineGates132() lists, then watches.)",
			"之后同一个 watch 继续送来实时事件。（PipelineGates132() 则是先 list 再 watch。）")
		return
	}
	t.Fatalf("no initial-events-end bookmark among %d events", len(events))
}

// End of reading 2.

func TestStep07Bookmarks(t *testing.T) {
	say(t, "Step 7 — bookmarks: the server says \"you are up to version N\" with no object change.",
		"第 7 步 — 书签（BOOKMARK）：服务器说\"你已经到版本 N 了\"，却没有任何对象变化。")
	say(t, "Tutorial 000 §4.1, §4.3. Files: reflector_watch.go, watch.go, informer.go.",
		"教程 000 §4.1、§4.3。文件：reflector_watch.go、watch.go、informer.go。")
	s := startServer(t, fakeapi.Options{BookmarkInterval: 20 * time.Millisecond})
	createPod(t, s, "default", "web", nil)
	lw := podsLW(t, s, "default")

	say(t, "On the wire: a watch with allowWatchBookmarks=true; pods change in another namespace only.",
		"在 HTTP 请求里看：带 allowWatchBookmarks=true 的 watch；只有别的命名空间里的 Pod 在变。")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	list, err := lw.List(ctx, ListOptions{})
	must(t, err)
	w, err := lw.Watch(ctx, ListOptions{ResourceVersion: list.ResourceVersion, AllowWatchBookmarks: true})
	must(t, err)
	createPod(t, s, "elsewhere", "other", nil)
	deadline := time.After(10 * time.Second)
	for seen := false; !seen; {
		select {
		case ev := <-w.ResultChan():
			if ev.Type != WatchBookmark || ev.Object.(Object).GetResourceVersion() != s.ResourceVersion() {
				if ev.Type != WatchBookmark {
					t.Fatalf("a %s event for a namespace we do not watch", ev.Type)
				}
				continue // an earlier bookmark
			}
			o := ev.Object.(*Pod)
			say(t, "  BOOKMARK: a %T with only metadata.resourceVersion=%q (name %q):",
				"  BOOKMARK：一个 %T，只有 metadata.resourceVersion=%q（name 是 %q）：",
				o, o.ResourceVersion, o.Name)
			say(t, "  no object, just a version", "  没有对象，只有版本")
			if o.Name != "" {
				t.Fatalf("a bookmark with a name: %+v", o.ObjectMeta)
			}
			seen = true
		case <-deadline:
			t.Fatal("no bookmark at the server's version")
		}
	}
	w.Stop()

	say(t, "Through a Reflector into a DeltaFIFO (client-go ≤1.32): the list queues default/web;",
		"经过 Reflector 进入 DeltaFIFO（client-go ≤1.32）：list 把 default/web 放进队列；")
	say(t, "then only bookmarks come.", "之后到来的只有书签。")
	fifo := NewDeltaFIFOWithOptions(DeltaFIFOOptions{EmitDeltaTypeReplaced: true})
	r := NewReflector(lw, &Pod{}, fifo)
	runReflector(t, r)
	waitFor(t, "the first list", func() bool { return r.LastSyncResourceVersion() != "" })
	before := r.LastSyncResourceVersion()
	for i := range 3 {
		createPod(t, s, "elsewhere", "p"+strconv.Itoa(i), nil)
	}
	waitFor(t, "a bookmark at the server's version", func() bool { return r.LastSyncResourceVersion() == s.ResourceVersion() })
	item, _ := fifoDeltas(fifo, "default/web")
	say(t, "  LastSyncResourceVersion %s → %s;", "  LastSyncResourceVersion 从 %s 变成 %s；", before, r.LastSyncResourceVersion())
	say(t, "  the queue still holds %v, default/web with %d delta (Replaced)",
		"  队列里仍然只有 %v，default/web 只有 %d 个 Delta（Replaced）", fifoKeys(fifo), len(item))
	if keys := fifoKeys(fifo); len(keys) != 1 || len(item) != 1 {
		t.Fatalf("a bookmark queued something: keys %v, deltas %v", keys, item)
	}
	say(t, "The version moved without a delta. The next re-watch starts from it, a version the server",
		"版本前进了，却没有产生 Delta。下一次重新 watch 就从这个版本开始，服务器的历史里还有它，")
	say(t, "still remembers, so a quiet resource does not fall out of the history into 410",
		"所以一个安静的资源不会掉出历史、得到 410、")
	say(t, "and a full relist (000 §4.3).", "再付出一次全量 list 的代价（000 §4.3）。")
}

func TestStep08RunLoop(t *testing.T) {
	say(t, "Step 8 — the run loop: the Reflector fills a DeltaFIFO; the Pop loop pops and processes.",
		"第 8 步 — 运行循环：Reflector 往 DeltaFIFO 里填，Pop 循环不断弹出并处理。")
	say(t, "Tutorial 004 §4.2. File: controller.go. (The second reading's Step08PopBatchLoop: v0.37.2's.)",
		"教程 004 §4.2。文件：controller.go。（v0.37.2 的循环见第二遍阅读的 Step08PopBatchLoop。）")
	checkLeaksAtEnd(t)
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", nil)
	createPod(t, s, "default", "b", nil)

	known := NewStore(MetaNamespaceKeyFunc) // what our process function has seen
	fifo := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known, EmitDeltaTypeReplaced: true})
	popped := make(chan string, 100)
	c := New(&Config{
		Queue:         fifo,
		ListerWatcher: podsLW(t, s, NamespaceAll),
		ObjectType:    &Pod{},
		Process: func(obj any, isInInitialList bool) error {
			for _, d := range obj.(Deltas) {
				key := keyOf(d.Object)
				if d.Type == Deleted {
					_ = known.Delete(d.Object)
				} else {
					_ = known.Update(d.Object)
				}
				popped <- string(d.Type) + " " + key
			}
			return nil
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx); close(done) }()

	say(t, "The initial list reaches the process function as Replaced deltas, one key at a time.", "初始列表以 Replaced 类型的 Delta 到达处理函数，一次一个键。")
	got := []string{
		receive(t, "the first key of the initial list to be popped", popped),
		receive(t, "the second key of the initial list to be popped", popped),
	}
	slices.Sort(got)
	say(t, "popped: %v", "Pop 出来的：%v", got)
	if !slices.Equal(got, []string{"Replaced default/a", "Replaced default/b"}) {
		t.Fatalf("got %v", got)
	}
	waitFor(t, "HasSynced", c.HasSynced)
	say(t, "HasSynced is true once every key of the initial list has been popped.", "初始列表的每个键都被 Pop 之后，HasSynced 才为 true。")

	createPod(t, s, "default", "c", nil)
	if d := receive(t, "Added default/c to be popped", popped); d != "Added default/c" {
		t.Fatalf("got %q", d)
	}
	deletePod(t, s, "default", "a")
	if d := receive(t, "Deleted default/a to be popped", popped); d != "Deleted default/a" {
		t.Fatalf("got %q", d)
	}
	say(t, "Then each watch event is one delta: Added default/c, Deleted default/a.", "之后每个 watch 事件就是一个 Delta：Added default/c，Deleted default/a。")

	say(t, "Cancelling the context closes the FIFO; Pop returns ErrFIFOClosed, the loop ends, Run returns.", "取消 context 会关闭 FIFO；Pop 返回 ErrFIFOClosed，循环结束，Run 返回。")
	cancel()
	receive(t, "Run to return after the cancel", done)
	if !fifo.IsClosed() {
		t.Fatal("the FIFO should be closed")
	}
}

func TestStep09SharedInformer(t *testing.T) {
	say(t, "Step 9 — the shared informer and its handlers. Tutorial 004 §2.1, §2.3, §4.3.", "第 9 步 — 共享 informer 和它的事件处理器。教程 004 §2.1、§2.3、§4.3。")
	say(t, "Files: informer.go, informer_handlers.go, processor.go, lister.go.", "文件：informer.go、informer_handlers.go、processor.go、lister.go。")
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "db", map[string]string{"app": "db"})

	inf := NewSharedIndexInformer(podsLW(t, s, NamespaceAll), &Pod{}, 0, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	logger, auditor := &recorder{}, &recorder{}
	if _, err := inf.AddEventHandler(logger); err != nil {
		t.Fatal(err)
	}
	if _, err := inf.AddEventHandler(auditor); err != nil {
		t.Fatal(err)
	}
	runInformer(t, inf)
	say(t, "Both handlers get the initial list as adds with isInInitialList=true.", "两个事件处理器都以 add 收到初始列表，isInInitialList=true。")
	logger.waitLine(t, "add default/db initial=true")
	auditor.waitLine(t, "add default/db initial=true")

	say(t, "kubectl apply of default/nginx-pod → ADD event for default/nginx-pod, in every handler.", "kubectl apply 创建 default/nginx-pod → 每个事件处理器都收到 default/nginx-pod 的 ADD 事件。")
	createPod(t, s, "default", "nginx-pod", map[string]string{"app": "web"})
	logger.waitLine(t, "add default/nginx-pod initial=false")
	auditor.waitLine(t, "add default/nginx-pod initial=false")
	relabelPod(t, s, "default", "nginx-pod", map[string]string{"app": "web", "version": "2"})
	logger.waitLine(t, "update default/nginx-pod")
	say(t, "An update arrives as OnUpdate(old, new) with two different resource versions.", "更新以 OnUpdate(old, new) 到达，两者的资源版本不同。")

	say(t, "The cache is updated before handlers are told: a lister reads it without asking the server.", "先更新缓存，再通知事件处理器：lister 直接读缓存，不用问服务器。")
	lister := NewPodLister(inf.GetIndexer())
	pod, err := lister.Pods("default").Get("nginx-pod")
	if err != nil || pod.Labels["version"] != "2" {
		t.Fatalf("lister Get: %v %v", pod, err)
	}
	web := SelectorFromSet(Set{"app": "web"})
	pods, _ := lister.List(web)
	say(t, "lister.List(%q) → %d pod(s); Pods(\"default\").Get(\"nginx-pod\") → version %s", "lister.List(%q) → %d 个 Pod；Pods(\"default\").Get(\"nginx-pod\") → 版本 %s", web, len(pods), pod.ResourceVersion)
	if len(pods) != 1 {
		t.Fatalf("got %d pods", len(pods))
	}

	deletePod(t, s, "default", "nginx-pod")
	logger.waitLine(t, "delete default/nginx-pod")
	auditor.waitLine(t, "delete default/nginx-pod")
	say(t, "A delete reaches OnDelete with the pod's last state.", "删除到达 OnDelete，带着 Pod 最后的状态。")

	say(t, "A handler added while the informer runs first gets the cache's contents as adds,",
		"informer 运行中新加的事件处理器，先以 add 收到缓存里的全部内容，")
	say(t, "then live events.", "然后才是实时事件。")
	late := &recorder{}
	reg, err := inf.AddEventHandler(late)
	if err != nil {
		t.Fatal(err)
	}
	late.waitLine(t, "add default/db initial=true")
	waitFor(t, "the late handler's HasSynced", reg.HasSynced)
	say(t, "late handler: %v; its registration HasSynced = %v", "后加的事件处理器：%v；它的注册 HasSynced = %v", late.get(), reg.HasSynced())
}

func TestStep10Resync(t *testing.T) {
	say(t, "Step 10 — resync: every period, handlers that asked for it get every cached object again", "第 10 步 — 重新同步（resync）：每个周期，要求重新同步的事件处理器会再收到缓存里的每个对象，")
	say(t, "as an update with old == new. Tutorial 004 §4.4.", "以 old == new 的 update 形式。教程 004 §4.4。")
	say(t, "Files: controller.go, processor.go, fifo.go; clock/clock.go (the test moves a fake clock).",
		"文件：controller.go、processor.go、fifo.go；clock/clock.go（测试拨动的是一个假时钟）。")
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", nil)
	clock := testingclock.NewFakeClock(time.Unix(0, 0))
	inf := NewSharedIndexInformerWithOptions(podsLW(t, s, NamespaceAll), &Pod{},
		SharedIndexInformerOptions{ResyncPeriod: 30 * time.Second, Clock: clock})
	every30s, every60s, never := &recorder{}, &recorder{}, &recorder{}
	_, _ = inf.AddEventHandler(every30s)
	_, _ = inf.AddEventHandlerWithResyncPeriod(every60s, time.Minute)
	_, _ = inf.AddEventHandlerWithResyncPeriod(never, 0)
	runInformer(t, inf)
	for _, r := range []*recorder{every30s, every60s, never} {
		r.waitLine(t, "add default/a initial=true")
	}

	say(t, "The fake clock moves 30 s: the resync timer fires; only the 30-second handler is due.", "假时钟走了 30 秒：重新同步定时器触发；只有周期 30 秒的事件处理器到期。")
	waitFor(t, "the resync timer", clock.HasWaiters)
	clock.Step(30 * time.Second)
	every30s.waitLine(t, "update default/a same")
	createPod(t, s, "default", "marker-1", nil) // a live event after the resync
	every60s.waitLine(t, "add default/marker-1 initial=false")
	never.waitLine(t, "add default/marker-1 initial=false")
	if every60s.has("update default/a same") || never.has("update default/a same") {
		t.Fatalf("resync reached a handler that was not due: 60s=%v never=%v", every60s.get(), never.get())
	}
	say(t, "At 60 s both periodic handlers are due; the handler with period 0 never resyncs.", "到 60 秒，两个周期性事件处理器都到期；周期为 0 的事件处理器从不重新同步。")
	clock.Step(30 * time.Second)
	every60s.waitLine(t, "update default/a same")
	createPod(t, s, "default", "marker-2", nil)
	never.waitLine(t, "add default/marker-2 initial=false")
	if never.has("update default/a same") {
		t.Fatal("the handler with resync period 0 was resynced")
	}
	say(t, "The 30-second handler heard:", "周期 30 秒的事件处理器收到：")
	for _, line := range every30s.get() {
		say(t, "  %s", "  %s", line)
	}
}

func TestStep11WhenThingsGoWrong(t *testing.T) {
	say(t, "Step 11 — when things go wrong: a dropped watch, a server that is down, 429,",
		"第 11 步 — 出错的时候：watch 断开、服务器宕机、429，")
	say(t, "and 410 after a compaction. Tutorial 000 §4.3, §2.5.", "以及压缩之后的 410。教程 000 §4.3、§2.5。")
	say(t, "Files: reflector_watch.go (with the backoff), reflector.go, status.go (410, 429),",
		"文件：reflector_watch.go（含退避）、reflector.go、status.go（410、429）、")
	say(t, "restclient_retry.go (the REST client's retries).", "restclient_retry.go（REST 客户端的重试）。")
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "keep", nil)
	createPod(t, s, "default", "doomed", nil)
	clock := testingclock.NewFakeClock(time.Unix(0, 0)) // backoffs wait on it: the test moves it
	lw := &recordingLW{inner: podsLW(t, s, NamespaceAll)}
	inf := NewSharedIndexInformerWithOptions(lw, &Pod{}, SharedIndexInformerOptions{Clock: clock})
	h := &recorder{}
	_, _ = inf.AddEventHandler(h)
	runInformer(t, inf)
	h.waitLine(t, "add default/keep initial=true")

	say(t, "1. The server ends the watch (a dropped connection, or timeoutSeconds):", "1. 服务器结束了 watch（连接断开，或到了 timeoutSeconds）：")

	say(t, "   the Reflector re-watches from the last version it saw. No relist.", "   Reflector 从它见过的最后一个版本重新 watch，不重新 list。")
	createPod(t, s, "default", "p1", nil)
	h.waitLine(t, "add default/p1 initial=false")
	watches := lw.watchCount()
	s.CloseWatches()
	waitFor(t, "the re-watch", func() bool { return lw.watchCount() > watches })
	createPod(t, s, "default", "p2", nil)
	h.waitLine(t, "add default/p2 initial=false")
	say(t, "re-watched from resourceVersion %s; lists so far: %d", "从 resourceVersion %s 重新 watch；到目前为止 list 了 %d 次", lw.lastWatch().ResourceVersion, lw.listCount())
	if lw.listCount() != 1 {
		t.Fatalf("a dropped watch caused a relist (%d lists)", lw.listCount())
	}

	say(t, "2. The server goes down: connection refused. The Reflector backs off",
		"2. 服务器宕机：连接被拒绝。Reflector 退避")
	say(t, "   (800 ms, doubling, with jitter) and re-watches; still no relist.",
		"   （800 毫秒起，逐次翻倍，带抖动），然后重新 watch；仍然不重新 list。")
	stopServer(t, s, lw)
	first := stepBackoff(t, clock)
	second := stepBackoff(t, clock)
	say(t, "backoffs while the server is down: %v, then %v", "服务器宕机期间的退避：%v，然后 %v", first, second)
	if first < 800*time.Millisecond || first >= 1600*time.Millisecond || second < 1600*time.Millisecond || second >= 3200*time.Millisecond {
		t.Fatalf("backoffs %v, %v; want [0.8s,1.6s) then [1.6s,3.2s)", first, second)
	}
	waitFor(t, "the third backoff", clock.HasWaiters)
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	stepBackoff(t, clock)
	createPod(t, s, "default", "p3", nil)
	h.waitLine(t, "add default/p3 initial=false")
	say(t, "the server is back; the watch resumed; lists so far: %d", "服务器恢复了；watch 接着进行；到目前为止 list 了 %d 次", lw.listCount())
	if lw.listCount() != 1 {
		t.Fatalf("connection refused caused a relist (%d lists)", lw.listCount())
	}

	say(t, "3. The server answers 429 Too Many Requests, with Retry-After: 1. The REST client waits",
		"3. 服务器回答 429 Too Many Requests，带 Retry-After: 1。REST 客户端等待")
	say(t, "   that second and asks again, as client-go's does (up to 10 times): the Reflector never",
		"   服务器要求的那一秒再请求一次，和 client-go 的一样（最多 10 次）：Reflector 根本")
	say(t, "   sees the 429. No backoff, no relist.", "   看不到这个 429。不退避，不重新 list。")
	failedBefore := s.Stats().Failed
	s.FailNext(1, 429)
	s.CloseWatches()
	createPod(t, s, "default", "p4", nil)
	h.waitLine(t, "add default/p4 initial=false")
	say(t, "one 429 (failed requests %d → %d), a retry a second later, and the watch resumed",
		"一次 429（失败请求 %d → %d），一秒后重试，然后 watch 接着进行", failedBefore, s.Stats().Failed)
	if s.Stats().Failed != failedBefore+1 || lw.listCount() != 1 || clock.HasWaiters() {
		t.Fatalf("failed %d, lists %d, a backoff waiting: %v", s.Stats().Failed, lw.listCount(), clock.HasWaiters())
	}

	say(t, "4. While the server is down, doomed is deleted, born is created, the history compacted.",
		"4. 服务器宕机期间，doomed 被删除，born 被创建，历史也被压缩了。")
	say(t, "   The re-watch gets 410 Expired: the Reflector relists.", "   重新 watch 得到 410 Expired：Reflector 重新 list。")
	lastSeen := inf.LastSyncResourceVersion()
	stopServer(t, s, lw)
	waitFor(t, "the Reflector backing off", clock.HasWaiters)
	deletePod(t, s, "default", "doomed")
	createPod(t, s, "default", "born", nil)
	s.Compact(0)
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	stepBackoff(t, clock) // the re-watch: 410, the cycle ends
	// Had the history kept lastSeen, the re-watch would go on: doomed's
	// deletion would arrive as a plain watch event, and no backoff follow.
	waitFor(t, "a backoff after the 410, or the re-watch going on", func() bool {
		return clock.HasWaiters() || h.has("delete default/doomed")
	})
	if h.has("delete default/doomed") {
		sayFailure(t, "part 4: the re-watch from resourceVersion %s got no 410: the history still held that version,",
			"第 4 部分：从资源版本 %s 重新 watch没有得到 410：历史里还留着这个版本，", lastSeen)
		sayFailure(t, "so the watch went on (doomed's deletion came as a plain DELETED event) and nothing relisted",
			"于是 watch 照常进行（doomed 的删除作为普通的 DELETED 事件送达），也没有重新 list")
		t.FailNow()
	}
	stepBackoff(t, clock) // the backoff between cycles; then the relist
	h.waitLine(t, "delete default/doomed tombstone")
	h.waitLine(t, "add default/born initial=false")
	h.waitLine(t, "update default/keep same")
	lists := lw.fullLists() // plain lists, or streaming lists (the default since client-go 1.35)
	say(t, "relisted from resourceVersion %q (the last seen was %s); the handlers got:",
		"从 resourceVersion %q 重新 list（最后见到的是 %s）；事件处理器收到：", lists[len(lists)-1].ResourceVersion, lastSeen)
	say(t, "  delete doomed as a DeletedFinalStateUnknown, add born, update keep with old == new",
		"  以 DeletedFinalStateUnknown 删除 doomed，add born，以 old == new 更新 keep")
	if len(lists) != 2 {
		t.Fatalf("%d lists, want 2", len(lists))
	}
}
