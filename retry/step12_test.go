// step12_test.go is Step 12 of the walkthrough, optimistic concurrency:
// four writers add to one counter through RetryOnConflict over HTTP against
// fakeapi, and no increment is lost. Steps 01–11 are the root package's
// (informer_test.go); `go test -v -run Step ./...` runs them all.
//
// client-go counterpart: none (it is how this project teaches).
//
// Tutorial: 000 §3.3 and 004 §2.5.

package retry_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/internal/walkthrough"
	"github.com/learn-k8s/informer/retry"
)

func TestStep12OptimisticConcurrency(t *testing.T) {
	walkthrough.Say(t, "Step 12 — optimistic concurrency: 409 Conflict and RetryOnConflict.",
		"第 12 步 — 乐观并发：409 Conflict 与 RetryOnConflict。")
	walkthrough.Say(t, "Tutorial 000 §3.3 (and 004 §2.5); file retry/retry.go.", "教程 000 §3.3（以及 004 §2.5）；文件 retry/retry.go。")
	srv := walkthrough.StartServer(t)
	c := walkthrough.Client(t, srv)
	ctx := context.Background()
	const counter = "example.com/counter"
	walkthrough.CreatePods(t, c, "counter")

	const writers, increments = 4, 5
	walkthrough.Say(t, "%d writers each add 1 to the pod's %q annotation %d times:",
		"%d 个写者，每个给 Pod 的注解 %q 加 1，各加 %d 次：", writers, counter, increments)
	walkthrough.Say(t, "GET, change, PUT with the resourceVersion read.", "GET，修改，带着读到的 resourceVersion PUT。")
	walkthrough.Say(t, "They all read before any of them writes, so all but one of the first writes are stale.",
		"它们都在任何人写之前读，所以第一轮写入只有一个不是过期的。")
	var conflicts atomic.Int64
	var mu sync.Mutex
	perWriter := make([]int, writers) // 409s each writer got
	var firstConflict error
	var firstRead sync.WaitGroup // the writers' first reads, all done before any write
	firstRead.Add(writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range increments {
				tries := 0
				err := retry.RetryOnConflict(retry.Backoff{Steps: 100, Duration: time.Millisecond, Factor: 1, Jitter: 1}, func() error {
					tries++
					obj, err := c.Get(ctx, walkthrough.PodsGVR, "default", "counter")
					if err != nil {
						return err
					}
					pod := obj.(*informer.Pod)
					if i == 0 && tries == 1 {
						firstRead.Done()
						firstRead.Wait()
					}
					if pod.Annotations == nil {
						pod.Annotations = map[string]string{}
					}
					pod.Annotations[counter] = strconv.Itoa(annotationInt(pod, counter) + 1)
					_, err = c.Update(ctx, walkthrough.PodsGVR, pod)
					if informer.IsConflict(err) {
						conflicts.Add(1)
						mu.Lock()
						perWriter[w]++
						if firstConflict == nil {
							firstConflict = err
						}
						mu.Unlock()
					}
					return err
				})
				if err != nil {
					t.Errorf("writer %d, increment %d: %v", w, i, err)
					return
				}
			}
		})
	}
	walkthrough.ReturnsWithin(t, "the writers to finish their increments", wg.Wait)
	if firstConflict != nil {
		walkthrough.Say(t, "Each stale PUT got 409 Conflict; the server's message:",
			"每个过期的 PUT 都得到 409 Conflict；服务器的消息（Status 的 message，原文是英文）：")
		for _, part := range strings.SplitAfter(firstConflict.Error(), "; ") {
			walkthrough.Say(t, "  %s", "  %s", strings.TrimSpace(part))
		}
		walkthrough.Say(t, "  409s per writer: %v", "  每个写者得到的 409 次数：%v", perWriter)
	}

	obj, err := c.Get(ctx, walkthrough.PodsGVR, "default", "counter")
	walkthrough.Must(t, err)
	got := annotationInt(obj.(*informer.Pod), counter)
	walkthrough.Say(t, "The counter reads %d after %d increments, with %d conflicts retried along the way.", "计数器读数 %d，共加了 %d 次，途中重试了 %d 次冲突。", got, writers*increments, conflicts.Load())
	if got != writers*increments {
		t.Fatalf("counter = %d, want %d: an increment was lost", got, writers*increments)
	}
	if conflicts.Load() < writers-1 {
		t.Fatalf("saw %d conflicts, want at least %d: the first round of writes should have collided", conflicts.Load(), writers-1)
	}
	walkthrough.Say(t, "No increment was lost: the server refused every stale write,", "没有丢失任何一次加 1：服务器拒绝了每个过期的写入，")
	walkthrough.Say(t, "and each writer re-read and tried again.", "每个写者都重新读、再试一次。")
}

// annotationInt reads an integer annotation of a pod (0 when absent).
func annotationInt(p *informer.Pod, key string) int {
	n, _ := strconv.Atoi(p.Annotations[key])
	return n
}

func TestNarrationIsBilingual(t *testing.T) { walkthrough.CheckNarration(t, 5) }
