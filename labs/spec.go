// spec.go lists the labs: for each, the functions whose bodies the
// workspace stubs (by receiver type and name, so that a spec survives a
// file moving), the handout section each stub points to, and the project
// tests that grade the lab besides its own TestLabNN graders.
//
// client-go counterpart: none; each lab names the client-go v0.37.2
// functions it mirrors in its handout (labs/NN/README.md).
//
// Tutorial: none of its own; each Lab's Tutorial field names the sections
// that lab builds, and its graders (labs/NN/labNN_test.go) cite them.

package main

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

// Lab is one lab of the course.
type Lab struct {
	N              int
	Title, TitleZH string
	Tutorial       string // the tutorial sections it builds
	Minutes        int    // what a learner should expect to spend
	Funcs          []Func // stubbed in the lab's workspace
	ProjectGraders []string
}

// Labs are the labs in tutorial order.
var Labs = []Lab{
	{
		N: 1, Title: "keys, the thread-safe Store and the Indexer", TitleZH: "键、线程安全的 Store 与 Indexer",
		Tutorial: "004 §3.3; 000 §1, §2.2, §2.4", Minutes: 120,
		Funcs: []Func{
			{"", "MetaNamespaceKeyFunc", 1}, {"", "SplitMetaNamespaceKey", 1},
			{"*cache", "GetByKey", 2}, {"*threadSafeStore", "List", 2}, {"*threadSafeStore", "ListKeys", 2},
			{"*threadSafeStore", "updateLocked", 3}, {"*threadSafeStore", "deleteLocked", 3}, {"*threadSafeStore", "Replace", 3},
			{"", "updateIndices", 4}, {"Index", "addKey", 4}, {"Index", "deleteKey", 4},
			{"*threadSafeStore", "Index", 5}, {"*threadSafeStore", "ByIndex", 5}, {"*threadSafeStore", "IndexKeys", 5},
		},
		ProjectGraders: []string{"TestKeyFuncs", "TestSplitMetaNamespaceKey", "TestStoreAddGetDelete",
			"TestIndexerKeepsIndexesExact", "TestIndexerQueries", "TestIndexerUnknownIndexIsAnError",
			"TestIndexerMatchesAModelThatKeepsFiledValues", "TestIndexerReplaceIsAtomicForReaders",
			"TestIndexerFailingIndexFuncLeavesStoreUnchanged", "TestIndexerAddIndexers",
			"TestStep04StoreAndIndexes"},
	},
	{
		N: 2, Title: "Delta and the DeltaFIFO", TitleZH: "Delta 与 DeltaFIFO",
		Tutorial: "004 §2.2, §4.4; 000 §3.1, §3.2, §4.2", Minutes: 150,
		Funcs: []Func{
			{"*DeltaFIFO", "appendLocked", 1}, {"*DeltaFIFO", "Delete", 2},
			{"*DeltaFIFO", "Pop", 3}, {"*DeltaFIFO", "Replace", 4}, {"*DeltaFIFO", "Resync", 5},
		},
		ProjectGraders: []string{"TestDeltaFIFOQueuesEachKeyOnceWithDeltasInOrder", "TestDeltaFIFODedupsOnlyBackToBackDeletions",
			"TestDeltaFIFODeleteOfKeyNeitherQueuedNorKnownDoesNothing", "TestDeltaFIFOReplace",
			"TestDeltaFIFOReplaceTombstoneWhenKnownLookupFails", "TestDeltaFIFOResyncQueuesSyncOnlyForKnownKeysWithNothingQueued",
			"TestDeltaFIFOHasSyncedAcrossTheInitialList", "TestDeltaFIFOPopAfterClose",
			"TestDeltaFIFOPopReturnsProcessErrorAndDoesNotRequeue", "TestDeltaFIFOPopBlocksUntilAnAddOrClose",
			"TestDeltaFIFOConcurrentAddAndPop", "TestDeltaFIFOReplaceFailingPartWay", "TestDeltaFIFOHasSyncedShortcuts",
			"TestDeltaFIFOTransformerRules", "TestDeltaFIFOTransformerError",
			"TestStep02DeltaFIFO"},
	},
	{
		N: 3, Title: "ListerWatcher and the Reflector", TitleZH: "ListerWatcher 与 Reflector",
		Tutorial: "004 §2.4, §2.5, §4.1; 000 §4.1, §4.3", Minutes: 180,
		Funcs: []Func{
			{"*Reflector", "ListAndWatch", 1}, {"*Reflector", "list", 2}, {"*Reflector", "relistResourceVersion", 2},
			{"*Reflector", "watch", 3}, {"*Reflector", "handleWatch", 4}, {"*backoffManager", "Step", 5},
		},
		// The project's other Reflector tests wait 10 s for what a stub never
		// does; the graders above cover the same rules and fail fast.
		ProjectGraders: []string{"TestBackoffSequenceCapAndReset", "TestStep06Reflector"},
	},
	{
		N: 4, Title: "the controller's run loop and resync", TitleZH: "controller 的运行循环与重新同步（resync）",
		Tutorial: "004 §2.3, §4.2, §4.4", Minutes: 90,
		Funcs: []Func{
			{"*controller", "Run", 1}, {"*controller", "processLoop", 2}, {"", "processDeltas", 3},
		},
		// TestStep08RunLoop waits on a channel without a timeout: with the
		// stubs in place it would hang; it runs with INFORMER_LAB_FULL=1.
		ProjectGraders: []string{"TestStep10Resync"},
	},
	{
		N: 5, Title: "the SharedIndexInformer: processor, one buffer per handler, late joiners",
		TitleZH:  "SharedIndexInformer：processor、每个处理器一个缓冲区、后加入的处理器",
		Tutorial: "004 §2.1, §2.3, §4.3", Minutes: 150,
		Funcs: []Func{
			{"*sharedProcessor", "addListener", 1}, {"*sharedProcessor", "distribute", 1},
			{"*processorListener", "add", 2}, {"*processorListener", "pop", 2}, {"*processorListener", "run", 3},
			{"*sharedIndexInformer", "AddEventHandlerWithResyncPeriod", 4},
		},
		// The project's other handler tests wait 10 s each for what a stub
		// never delivers; the graders above cover the same rules.
		ProjectGraders: []string{"TestProcessorSyncNotificationsGoOnlyToDueListeners", "TestStep09SharedInformer"},
	},
	{
		N: 6, Title: "client-go 1.37: the RealFIFO, atomic ReplacedAll and PopBatch",
		TitleZH:  "client-go 1.37：RealFIFO、原子的 ReplacedAll 与 PopBatch",
		Tutorial: "000 §2.5, §3.2, §4.2; 004 §4.4 (and docs/client-go-1.37.md)", Minutes: 150,
		Funcs: []Func{
			{"*RealFIFO", "replaceAllLocked", 1}, {"*RealFIFO", "Pop", 2}, {"*RealFIFO", "PopBatch", 3},
			{"*RealFIFO", "batchLenLocked", 3}, {"*RealFIFO", "Resync", 4}, {"", "processReplacedAllInfo", 5},
		},
		ProjectGraders: []string{"TestRealFIFOKeepsEveryNotificationInOrder", "TestRealFIFOAtomicReplaceIsOneDelta",
			"TestRealFIFOResync", "TestRealFIFOPopBatchRules", "TestRealFIFOCloseDrainsThenFails",
			"TestProcessReplacedAllReplacesTheCacheFirst", "TestStep03RealFIFO"},
	},
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
