// step21_test.go is Step 21 of the walkthrough: why a controller keeps
// expectations. The controller's pod watch is held, as a slow watch would
// hold it, while a ReplicaSet of 5 is created: the cache the syncs read
// shows none of the pods they create. Without expectations the second
// sync (its own status write wakes it) creates 5 more; with them it waits
// for the 5 creations it expects. The ConsistencyStore, the second guard,
// is off in both runs, to see the first alone. `go test -v -run Step
// ./...` runs every Step.
//
// client-go counterpart: none (it is how this project teaches); the rule
// is k8s.io/kubernetes pkg/controller's ControllerExpectations.
//
// Tutorial: 004 §2.3 (the cache lags the server).

package main

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/learn-k8s/informer/internal/walkthrough"
)

// noExpectations is a controller without expectations: every sync may
// create and delete.
type noExpectations struct{}

func (noExpectations) SatisfiedExpectations(string) bool              { return true }
func (noExpectations) ExpectCreations(string, int)                    {}
func (noExpectations) ExpectDeletions(string, []string)               {}
func (noExpectations) CreationObserved(string)                        {}
func (noExpectations) DeletionObserved(string, string)                {}
func (noExpectations) DeleteExpectations(string)                      {}
func (noExpectations) GetExpectations(string) (add, del int, ok bool) { return 0, 0, false }

func TestStep21Expectations(t *testing.T) {
	walkthrough.Say(t, "Step 21 — why a controller keeps expectations: its cache lags behind its own writes.",
		"第 21 步 — 控制器为什么要有期望（expectations）：它的缓存落后于它自己的写入。")
	walkthrough.Say(t, "Tutorial 004 §2.3; examples/controller (expectations.go, sync.go).",
		"教程 004 §2.3；examples/controller（expectations.go、sync.go）。")
	walkthrough.Say(t, "The controller's pod watch is held (a slow watch): its cache shows none of the pods it creates.",
		"控制器的 Pod watch 被扣住（一个很慢的 watch）：它的缓存里看不到它创建的任何 Pod。")
	walkthrough.Say(t, "A ReplicaSet of 5 is created; the ConsistencyStore, the second guard, is off in both runs.",
		"创建一个 replicas 5 的 ReplicaSet；第二道防线 ConsistencyStore 在两次运行里都关掉。")
	without := expectationsRun(t, false)
	walkthrough.Say(t, "Without expectations: %d pods created for replicas 5 while the watch was held, by %d syncs",
		"没有期望：watch 被扣住期间，为 replicas 5 创建了 %d 个 Pod，出自 %d 次同步，", without.created, without.creatingSyncs)
	walkthrough.Say(t, "  that each saw 0 pods (the second one woken by the first one's status write).",
		"  每次都看到 0 个 Pod（第二次是被第一次写 status 引起的事件唤醒的）。")
	walkthrough.Say(t, "  Once the events came through, the syncs deleted %d and created %d more before settling on 5:",
		"  事件放行之后，后面的同步删掉 %d 个、又创建 %d 个，才稳定在 5 个：", without.deleted, without.createdAfter)
	walkthrough.Say(t, "  they too acted on a cache behind their own deletes. Pods started and stopped for nothing.",
		"  它们同样依据落后于自身删除操作的缓存行事。Pod 白白地启动又停止。")
	if without.created <= 5 {
		t.Fatalf("without expectations the controller created %d pods for replicas 5: the Step shows nothing", without.created)
	}
	with := expectationsRun(t, true)
	walkthrough.Say(t, "With expectations: %d pods. The first sync expected 5 creations (ExpectCreations); the second",
		"有期望：%d 个 Pod。第一次同步期望 5 次创建（ExpectCreations）；第二次同步", with.created)
	walkthrough.Say(t, "  found %d still expected (SatisfiedExpectations false) and created nothing; %d deleted.",
		"  发现还有 %d 次没有观察到（SatisfiedExpectations 为 false），什么也没创建；删掉 %d 个。", with.stillExpected, with.deleted)
	walkthrough.Say(t, "  The pod handler observed each creation (CreationObserved) when the events came.",
		"  事件到达时，Pod 事件处理器逐个观察到这些创建（CreationObserved）。")
	if with.created != 5 || with.deleted != 0 || with.stillExpected != 5 {
		t.Fatalf("with expectations: %d created, %d deleted, %d still expected at the second sync; want 5, 0, 5",
			with.created, with.deleted, with.stillExpected)
	}
}

// expectationsResult is what one run of Step 21 counted.
type expectationsResult struct {
	created       int // while the watch was held
	creatingSyncs int // syncs that created a pod while the watch was held
	stillExpected int // creations still expected when the second sync began
	deleted       int // once the events came through
	createdAfter  int // once the events came through
}

// expectationsRun plays Step 21 once, with or without expectations.
func expectationsRun(t *testing.T, withExpectations bool) expectationsResult {
	t.Helper()
	f := newFixture(t, 1, nil)
	c := f.r.controller
	c.consistencyStore = NoopConsistencyStore{}
	if !withExpectations {
		c.expectations = noExpectations{}
	}
	var res expectationsResult
	var syncs, lastCreatingSync atomic.Int32
	next := c.syncHandler
	c.syncHandler = func(ctx context.Context, key string) error {
		if syncs.Add(1) == 2 {
			add, _, _ := c.expectations.GetExpectations(key)
			res.stillExpected = add
		}
		return next(ctx, key)
	}
	var creatingSyncs atomic.Int32
	f.events.hook = func(reason, _ string) {
		if reason == "SuccessfulCreate" && lastCreatingSync.Swap(syncs.Load()) != syncs.Load() {
			creatingSyncs.Add(1)
		}
	}
	f.start(t)
	f.gate.hold() // from now on no pod event reaches the controller
	f.createReplicaSet(t, "web", 5)
	walkthrough.WaitFor(t, inReaderLanguage("the two syncs the held watch lets happen", "扣住的 watch 所允许的两次同步"), func() bool {
		rs, err := c.replicaSetLister.Get("default/web")
		return err == nil && rs.Status.ObservedGeneration == 1 && syncs.Load() >= 2 &&
			c.workqueue.Len() == 0 && f.r.busy.Load() == 0
	})
	res.created = len(f.events.find("SuccessfulCreate", ""))
	res.creatingSyncs = int(creatingSyncs.Load())
	f.gate.release()
	f.waitConverged(t, inReaderLanguage("web once the pod events came through", "Pod 事件放行之后的 `web`"))
	res.deleted = len(f.events.find("SuccessfulDelete", ""))
	res.createdAfter = len(f.events.find("SuccessfulCreate", "")) - res.created
	stopAndCheck(t, f.r)
	return res
}
