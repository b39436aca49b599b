// spec.go lists the labs: for each, the functions whose bodies the student
// repository stubs (by receiver type and name, so that a spec survives a
// file moving), the handout section each stub points to, the pipeline its
// graders run in, and the project tests that grade the lab besides its own
// TestLabNN graders. Adding a lab is an entry here and a folder labs/NN
// (docs/teaching.md, "Adding a lab").
//
// client-go counterpart: none; each lab names the client-go v0.37.2
// functions it mirrors in its handout (labs/NN/README.md).
//
// Tutorial: none of its own; each Lab's Tutorial field names the sections
// that lab builds, and its graders (labs/NN/labNN_test.go) cite them.

package main

import (
	"path"
	"slices"
	"strings"
)

// Func names one function of the reading: Recv is its receiver type as
// written in Go ("*DeltaFIFO", "Deltas"), "" for a plain function.
type Func struct {
	Recv, Name string
	// Section is the handout section (§N) that explains it.
	Section int
}

// String is the name a learner reads: "(*DeltaFIFO).Pop", "dedupDeltas".
func (f Func) String() string {
	if f.Recv == "" {
		return f.Name
	}
	return "(" + f.Recv + ")." + f.Name
}

// Grader is a project test that grades a lab besides its own TestLabNN
// graders. The project's tests speak English; What and WhatZH say, in the
// learner's language, what the test proves, so that a failure reads in it.
type Grader struct {
	Name         string
	Section      int // the handout section it checks (§N)
	What, WhatZH string
}

// graderWhere points some failures of a project grader elsewhere than its
// Section: a project test checks several sections' work in one story, and
// its failure should name the section where the fix is, not the one the
// story is mostly about.
var graderWhere = map[string][]Where{
	// The first list's version is relistResourceVersion's, and the initial
	// list is list's (§2); the watch, its options and its re-watches are
	// §3's.
	"TestStep06Reflector": {{"first list resourceVersion", 2}, {"waiting for the initial list", 2}},
}

// Where is a failure a project test can print (Says, a part of its
// message) and the handout section where its fix is.
type Where struct {
	Says    string
	Section int
}

// sectionFor is the section a failure of g that printed out points to.
func (g Grader) sectionFor(out string) int {
	for _, w := range graderWhere[g.Name] {
		if strings.Contains(out, w.Says) {
			return w.Section
		}
	}
	return g.Section
}

// Lab is one lab of the course.
type Lab struct {
	N              int
	Title, TitleZH string
	Tutorial       string // the tutorial sections it builds
	Minutes        int    // what a learner should expect to spend
	// Dir is the package its functions and graders are in, a directory of
	// the repository: "" for the root (the informer), "workqueue" for
	// lab 7. Its graders are compiled into that package's tests.
	Dir string
	// Pipeline is the informer pipeline its graders run in
	// (INFORMER_PIPELINE): the tutorial's "deltafifo" until lab 6 builds the
	// RealFIFO that "realfifo", client-go v0.37.2's default, runs on.
	Pipeline string
	// Alone says that the lab's graders need none of the labs before it
	// (lab 7's work queue is a package of its own). Any other lab needs
	// every lab before it done: its graders run the pipeline they build.
	Alone          bool
	Funcs          []Func   // stubbed in the student repository
	ProjectGraders []Grader // the project tests that prove the same piece
}

// Labs are the labs in tutorial order. Lab N's graders must pass with the
// labs before it and N done and the labs after it still stubs: a learner
// works them in this order in one repository.
var Labs = []Lab{
	{
		N: 1, Title: "keys, the thread-safe Store and the Indexer", TitleZH: "键、线程安全的 Store 与 Indexer",
		Tutorial: "004 §3.3; 000 §1, §2.2, §2.4", Minutes: 120, Pipeline: "deltafifo",
		Funcs: []Func{
			{"", "MetaNamespaceKeyFunc", 1}, {"", "SplitMetaNamespaceKey", 1},
			{"*cache", "GetByKey", 2}, {"*threadSafeStore", "Get", 2},
			{"*threadSafeStore", "List", 2}, {"*threadSafeStore", "ListKeys", 2},
			{"*threadSafeStore", "updateLocked", 3}, {"*threadSafeStore", "deleteLocked", 3}, {"*threadSafeStore", "Replace", 3},
			{"", "updateIndices", 4}, {"Index", "addKey", 4}, {"Index", "deleteKey", 4},
			{"*threadSafeStore", "AddIndexers", 4},
			{"*threadSafeStore", "Index", 5}, {"*threadSafeStore", "ByIndex", 5}, {"*threadSafeStore", "IndexKeys", 5},
		},
		ProjectGraders: []Grader{
			{"TestKeyFuncs", 1, "the key functions: namespace/name, name alone, tombstones", "键函数：namespace/name、只有名称、墓碑"},
			{"TestSplitMetaNamespaceKey", 1, "splitting a key back into namespace and name", "把键拆回命名空间和名称"},
			{"TestStoreAddGetDelete", 3, "a Store's Add, Get, Update and Delete", "Store 的 Add、Get、Update 和 Delete"},
			{"TestIndexerKeepsIndexesExact", 4, "the indexes follow every write exactly", "索引准确跟随每一次写入"},
			{"TestIndexerQueries", 5, "Index, ByIndex, IndexKeys and ListIndexFuncValues", "Index、ByIndex、IndexKeys 和 ListIndexFuncValues"},
			{"TestIndexerUnknownIndexIsAnError", 5, "a query of an unknown index is an error", "查询不存在的索引返回错误"},
			{"TestIndexerMatchesAModelThatKeepsFiledValues", 4, "random writes compared with a model of the indexes", "随机写入与索引模型的比较"},
			{"TestIndexerReplaceIsAtomicForReaders", 3, "readers never see half of a Replace (run with -race)", "读者永远看不到做了一半的 Replace（用 -race 运行）"},
			{"TestIndexerFailingIndexFuncLeavesStoreUnchanged", 3, "a write whose index function fails changes nothing", "索引函数失败的写入不改变任何东西"},
			{"TestIndexerAddIndexers", 4, "indexes added later file the stored objects", "后加的索引为已存的对象建索引"},
			{"TestStep04StoreAndIndexes", 5, "the walkthrough's Step 4: the store and its indexes", "分步讲解第 4 步：存储与索引"},
		},
	},
	{
		N: 2, Title: "Delta and the DeltaFIFO", TitleZH: "Delta 与 DeltaFIFO",
		Tutorial: "004 §2.2, §4.4; 000 §3.1, §3.2, §4.2", Minutes: 150, Pipeline: "deltafifo",
		Funcs: []Func{
			{"*DeltaFIFO", "appendLocked", 1}, {"", "dedupDeltas", 1}, {"", "isDeletionDup", 1},
			{"*DeltaFIFO", "Delete", 2},
			{"*DeltaFIFO", "Pop", 3}, {"*DeltaFIFO", "Replace", 4}, {"*DeltaFIFO", "Resync", 5},
		},
		ProjectGraders: []Grader{
			{"TestDeltaFIFOQueuesEachKeyOnceWithDeltasInOrder", 1, "one entry per key, its deltas in order", "每个键一项，其 Delta 按顺序"},
			{"TestDeltaFIFODedupsOnlyBackToBackDeletions", 1, "only two deletions in a row merge", "只有紧挨着的两次删除才合并"},
			{"TestDeltaFIFODeleteOfKeyNeitherQueuedNorKnownDoesNothing", 2, "deleting a key neither queued nor known does nothing", "删除既未排队也未知的键什么也不做"},
			{"TestDeltaFIFOReplace", 4, "Replace: Replaced for the listed, tombstones for the vanished", "Replace：列出的入队 Replaced，消失的入队墓碑"},
			{"TestDeltaFIFOReplaceTombstoneWhenKnownLookupFails", 4, "a tombstone even when the known object cannot be read", "已知对象读不到时也要有墓碑"},
			{"TestDeltaFIFOResyncQueuesSyncOnlyForKnownKeysWithNothingQueued", 5, "Resync queues Sync only for known keys with nothing queued", "Resync 只为没有排队的已知键入队 Sync"},
			{"TestDeltaFIFOHasSyncedAcrossTheInitialList", 3, "HasSynced once the first list is popped", "第一次 list 的内容全部 Pop 后 HasSynced"},
			{"TestDeltaFIFOPopAfterClose", 3, "Pop drains a closed queue, then fails", "Pop 先取完已关闭的队列，然后报错"},
			{"TestDeltaFIFOPopReturnsProcessErrorAndDoesNotRequeue", 3, "Pop returns process's error and does not requeue", "Pop 返回 `process` 的错误，不重新入队"},
			{"TestDeltaFIFOPopBlocksUntilAnAddOrClose", 3, "Pop waits until an Add or a Close", "Pop 一直等到有 Add 或 Close"},
			{"TestDeltaFIFOConcurrentAddAndPop", 3, "Add and Pop from many goroutines (run with -race)", "多个 goroutine 同时 Add 和 Pop（用 -race 运行）"},
			{"TestDeltaFIFOReplaceFailingPartWay", 4, "a Replace that fails part-way, as client-go's", "中途失败的 Replace，与 client-go 一致"},
			{"TestDeltaFIFOHasSyncedShortcuts", 2, "HasSynced when events come before any list", "事件先于任何 list 到来时的 HasSynced"},
			{"TestDeltaFIFOTransformerRules", 5, "what goes through the transformer, and what does not (a resync's Sync)", "哪些经过转换函数，哪些不经过（resync 的 Sync）"},
			{"TestDeltaFIFOTransformerError", 4, "a transformer's error comes back", "转换函数的错误被返回"},
			{"TestStep02DeltaFIFO", 3, "the walkthrough's Step 2: deltas and the DeltaFIFO", "分步讲解第 2 步：Delta 与 DeltaFIFO"},
		},
	},
	{
		N: 3, Title: "ListerWatcher and the Reflector", TitleZH: "ListerWatcher 与 Reflector",
		Tutorial: "004 §2.4, §2.5, §4.1; 000 §4.1, §4.3", Minutes: 180, Pipeline: "deltafifo",
		Funcs: []Func{
			{"*Reflector", "ListAndWatch", 1}, {"*Reflector", "list", 2}, {"*Reflector", "relistResourceVersion", 2},
			{"*Reflector", "watch", 3}, {"*Reflector", "handleWatch", 4}, {"*backoffManager", "Step", 5},
		},
		// The project's other Reflector tests wait 10 s for what a stub never
		// does; the graders above cover the same rules and fail fast.
		ProjectGraders: []Grader{
			{"TestBackoffSequenceCapAndReset", 5, "the backoff: 800 ms doubling to 30 s, reset after 2 minutes", "退避：800 毫秒起翻倍到 30 秒，2 分钟后重置"},
			{"TestStep06Reflector", 3, "the walkthrough's Step 6: the list, then the watch", "分步讲解第 6 步：先 list，再 watch"},
		},
	},
	{
		N: 4, Title: "the controller's run loop and resync", TitleZH: "控制器的运行循环与重新同步（resync）",
		Tutorial: "004 §2.3, §4.2, §4.4", Minutes: 90, Pipeline: "deltafifo",
		Funcs: []Func{
			{"*controller", "Run", 1}, {"*controller", "processLoop", 2},
			{"", "processDeltas", 3}, {"*Reflector", "startResync", 4},
		},
		ProjectGraders: []Grader{
			{"TestStep08RunLoop", 2, "the walkthrough's Step 8: the run loop pops what the Reflector queues", "分步讲解第 8 步：运行循环弹出 Reflector 排入的内容"},
		},
	},
	{
		N: 5, Title: "the SharedIndexInformer: processor, one buffer per handler, late joiners",
		TitleZH:  "SharedIndexInformer：sharedProcessor、每个事件处理器一个缓冲区、后加入的事件处理器",
		Tutorial: "004 §2.1, §2.3, §4.3", Minutes: 150, Pipeline: "deltafifo",
		Funcs: []Func{
			{"*sharedProcessor", "addListener", 1}, {"*sharedProcessor", "distribute", 1},
			{"*processorListener", "add", 2}, {"*processorListener", "pop", 2}, {"*processorListener", "run", 3},
			{"*sharedIndexInformer", "AddEventHandlerWithResyncPeriod", 4},
		},
		// The project's other handler tests wait 10 s each for what a stub
		// never delivers; the graders above cover the same rules.
		ProjectGraders: []Grader{
			{"TestProcessorSyncNotificationsGoOnlyToDueListeners", 1, "a resync's updates go only to the handlers due", "重新同步的 update 只发给到期的事件处理器"},
			{"TestStep09SharedInformer", 4, "the walkthrough's Step 9: the shared informer and its handlers", "分步讲解第 9 步：共享 informer 与它的事件处理器"},
			{"TestStep10Resync", 1, "the walkthrough's Step 10: resync, per handler", "分步讲解第 10 步：按事件处理器的重新同步"},
		},
	},
	{
		N: 6, Title: "client-go 1.37: the RealFIFO, atomic ReplacedAll and PopBatch",
		TitleZH:  "client-go 1.37：RealFIFO、原子的 ReplacedAll 与 PopBatch",
		Tutorial: "000 §2.5, §3.2, §4.2; 004 §4.4 (and docs/client-go-1.37.md)", Minutes: 150, Pipeline: "realfifo",
		Funcs: []Func{
			{"*RealFIFO", "replaceAllLocked", 1}, {"*RealFIFO", "waitLocked", 2}, {"*RealFIFO", "Pop", 2},
			{"*RealFIFO", "whileProcessingLocked", 2}, {"*RealFIFO", "PopBatch", 3},
			{"*RealFIFO", "batchLenLocked", 3}, {"*RealFIFO", "Resync", 4}, {"", "processReplacedAllInfo", 5},
		},
		ProjectGraders: []Grader{
			{"TestRealFIFOKeepsEveryNotificationInOrder", 2, "every notification, in order, nothing merged", "每个通知都按顺序保留，不合并"},
			{"TestRealFIFOAtomicReplaceIsOneDelta", 1, "an atomic relist is one ReplacedAll Delta", "原子的重新 list 是一个 ReplacedAll Delta"},
			{"TestRealFIFOResync", 4, "Resync: one SyncAll when atomic", "Resync：原子模式下一个 SyncAll"},
			{"TestRealFIFOPopBatchRules", 3, "where PopBatch cuts a batch", "PopBatch 在哪里切分批次"},
			{"TestRealFIFOCloseDrainsThenFails", 2, "a closed RealFIFO drains, then fails", "关闭的 RealFIFO 先取完，然后报错"},
			{"TestProcessReplacedAllReplacesTheCacheFirst", 5, "a ReplacedAll replaces the cache, then tells the handlers", "ReplacedAll 先替换缓存，再通知事件处理器"},
			{"TestStep03RealFIFO", 2, "the walkthrough's Step 3: the RealFIFO", "分步讲解第 3 步：RealFIFO"},
		},
	},
	{
		N: 7, Title: "the work queue: the dirty and processing sets, shutdown, backoff",
		TitleZH:  "工作队列：待处理集合（dirty）与处理中集合、关闭、退避",
		Tutorial: "004 §2.3; 000 §5 (and docs/controller.md)", Minutes: 150, Pipeline: "realfifo",
		Dir: "workqueue", Alone: true,
		Funcs: []Func{
			{"*Typed[T]", "Add", 1}, {"*Typed[T]", "Get", 1}, {"*Typed[T]", "Done", 1},
			{"*Typed[T]", "ShutDown", 2}, {"*Typed[T]", "ShutDownWithDrain", 2},
			{"*TypedItemExponentialFailureRateLimiter[T]", "When", 3},
			{"*failureCounts[T]", "count", 3}, {"*failureCounts[T]", "NumRequeues", 3}, {"*failureCounts[T]", "Forget", 3},
			{"*rateLimitingType[T]", "AddRateLimited", 4}, {"*rateLimitingType[T]", "Forget", 4},
			{"*rateLimitingType[T]", "NumRequeues", 4},
		},
		ProjectGraders: []Grader{
			{"TestQueueWaitingItemIsQueuedOnce", 1, "a waiting key is queued once, first in first out", "排队中的键只排一次，先进先出"},
			{"TestQueueItemAddedWhileProcessingWaitsForDone", 1, "a key added while processed waits for Done", "处理中又被加入的键要等到 Done"},
			{"TestQueueGetBlocksUntilAddOrShutDown", 1, "Get waits until an Add or a ShutDown", "Get 一直等到有 Add 或 ShutDown"},
			{"TestQueueTouchesAWaitingItemAddedAgain", 1, "only a waiting key added again is touched", "只有排队中又被加入的键才会被 Touch"},
			{"TestQueueNoItemIsProcessedTwiceAtOnce", 1, "no key with two workers at once (run with -race)", "没有键同时在两个工作协程手里（用 -race 运行）"},
			{"TestQueueShutDownIgnoresAddButHandsOutWhatWaits", 2, "after ShutDown, Add is ignored and what waits is handed out", "ShutDown 之后 Add 被忽略，排队中的照样交出"},
			{"TestQueueShutDownWithDrainWaitsForProcessingOnly", 2, "ShutDownWithDrain waits for the keys in hand only", "ShutDownWithDrain 只等工作协程手里的键"},
			{"TestQueueShutDownEndsAWaitingDrain", 2, "ShutDown ends a waiting ShutDownWithDrain", "ShutDown 结束正在等待的 ShutDownWithDrain"},
			{"TestItemExponentialFailureRateLimiter", 3, "the exponential backoff: 5 ms doubling to the cap, Forget", "指数退避：从 5 毫秒翻倍到上限，Forget"},
			{"TestItemExponentialFailureRateLimiterNeverOverflows", 3, "the backoff never overflows", "退避永不溢出"},
			{"TestItemFastSlowRateLimiter", 3, "fast then slow, counted per key", "先快后慢，按键计数"},
			{"TestMaxOfRateLimiterTakesTheLongestAndForgetsInAll", 3, "the longest of several limiters; Forget in all", "几个限速器中取最长的等待；Forget 对每个都生效"},
			{"TestRateLimitingQueueWaitsLongerAfterEachFailure", 4, "AddRateLimited waits longer after each failure, until Forget", "AddRateLimited 每失败一次等得更久，直到 Forget"},
			{"TestStep19WorkQueue", 1, "the walkthrough's Step 19: the work queue", "分步讲解第 19 步：工作队列"},
		},
	},
	{
		N: 8, Title: "the ReplicaSet controller: count, expectations, claim, status",
		TitleZH:  "ReplicaSet 控制器：计数、期望、认领、状态",
		Tutorial: "004 §2.3, §2.5; 000 §3.3, §5", Minutes: 180, Pipeline: "realfifo",
		Dir: "examples/controller",
		// The controller's other tests (the chaos test, the story, the
		// comparison with kube-controller-manager) wait 10 s or more for a
		// convergence a stub never brings; the graders above cover the same
		// rules and fail fast. INFORMER_LAB_FULL=1 go test ./examples/controller
		// runs them all.
		Funcs: []Func{
			{"*Controller", "addPod", 1}, {"*Controller", "updatePod", 1}, {"*Controller", "deletePod", 1},
			{"*Controller", "processNextWorkItem", 2},
			{"*expectations", "SatisfiedExpectations", 3}, {"*expectations", "CreationObserved", 3},
			{"*expectations", "DeletionObserved", 3},
			{"*Controller", "syncReplicaSet", 4}, {"*Controller", "manageReplicas", 4}, {"", "IsPodActive", 4},
			{"", "deletesBefore", 4},
			{"*Controller", "claimPod", 5},
			{"", "calculateStatus", 6}, {"*Controller", "updateReplicaSetStatus", 6},
		},
		ProjectGraders: []Grader{
			{"TestHandlersQueueTheReplicaSetsAPodConcerns", 1, "the pod handlers queue the ReplicaSets a pod concerns and observe expectations",
				"Pod 事件处理器把 Pod 涉及的 ReplicaSet 入队，并观察期望"},
			{"TestExpectationsAreMetObservedOnceAndExpire", 3, "expectations: met, a deletion observed once, expired after 5 minutes",
				"期望：满足、删除只观察一次、5 分钟后过期"},
			{"TestPodsToDeleteGoInTheRealOrder", 4, "which pods a scale-down deletes first", "缩容时先删哪些 Pod"},
			{"TestStep20Controller", 2, "the walkthrough's Step 20: the controller", "分步讲解第 20 步：控制器"},
			{"TestStep21Expectations", 3, "the walkthrough's Step 21: why expectations exist", "分步讲解第 21 步：期望为什么存在"},
		},
	},
}

// pkgDir is the directory of lab's package: "." for the root.
func (l Lab) pkgDir() string {
	if l.Dir == "" {
		return "."
	}
	return l.Dir
}

// labDirs are the directories of the labs' packages, the root first, each
// once.
func labDirs() []string {
	dirs := []string{"."}
	for _, l := range Labs {
		if !slices.Contains(dirs, l.pkgDir()) {
			dirs = append(dirs, l.pkgDir())
		}
	}
	return dirs
}

// inDir reports whether the slash-separated path name is a file of the
// package in dir (not of a package below it).
func inDir(name, dir string) bool {
	return path.Dir(name) == dir
}

// needs returns the labs l's graders need done: none for a lab that
// stands alone, else every lab before it.
func (l Lab) needs() []Lab {
	var out []Lab
	for _, m := range Labs {
		if m.N < l.N && !l.Alone {
			out = append(out, m)
		}
	}
	return out
}

// labByNumber returns lab n, or false.
func labByNumber(n int) (Lab, bool) {
	for _, l := range Labs {
		if l.N == n {
			return l, true
		}
	}
	return Lab{}, false
}
