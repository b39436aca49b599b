// walkthrough_advanced_test.go continues the walkthrough with the tutorial's
// advanced chapters, Steps 09–15: conflict retry, snapshot diff, handler
// chains, health figures, the consistency and mutation detectors, and typed
// helpers. Each step runs alone (`go test -v -run Step12`) against a real
// HTTP fakeapi server and narrates with t.Log.
package informer

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestStep09OptimisticConcurrency(t *testing.T) {
	t.Log("Step 9 — optimistic concurrency: 409 Conflict and RetryOnConflict. Tutorial 000 §3.3 (and 004 §2.5); file retry.go.")
	srv := advServer(t)
	c := advClient(t, srv)
	ctx := context.Background()
	const counter = "example.com/counter"
	advCreatePods(t, c, "counter")

	const writers, increments = 4, 5
	t.Logf("%d writers each add 1 to the pod's %q annotation %d times: GET, change, PUT with the resourceVersion read.", writers, counter, increments)
	t.Log("They all read before any of them writes, so all but one of the first writes are stale.")
	var conflicts atomic.Int64
	var firstRead sync.WaitGroup // the writers' first reads, all done before any write
	firstRead.Add(writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range increments {
				tries := 0
				err := RetryOnConflict(Backoff{Steps: 100, Duration: time.Millisecond, Factor: 1, Jitter: 1}, func() error {
					tries++
					obj, err := c.Get(ctx, podsGVR, "default", "counter")
					if err != nil {
						return err
					}
					pod := obj.(*Pod)
					if i == 0 && tries == 1 {
						firstRead.Done()
						firstRead.Wait()
					}
					if pod.Annotations == nil {
						pod.Annotations = map[string]string{}
					}
					pod.Annotations[counter] = strconv.Itoa(annotationInt(pod, counter) + 1)
					_, err = c.Update(ctx, podsGVR, pod)
					if IsConflict(err) {
						conflicts.Add(1)
						t.Logf("  writer %d: 409 Conflict writing over resourceVersion %s: %v", w, pod.ResourceVersion, err)
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
	wg.Wait()

	obj, err := c.Get(ctx, podsGVR, "default", "counter")
	must(t, err)
	got := annotationInt(obj.(*Pod), counter)
	t.Logf("The counter reads %d after %d increments, with %d conflicts retried along the way.", got, writers*increments, conflicts.Load())
	if got != writers*increments {
		t.Fatalf("counter = %d, want %d: an increment was lost", got, writers*increments)
	}
	if conflicts.Load() < writers-1 {
		t.Fatalf("saw %d conflicts, want at least %d: the first round of writes should have collided", conflicts.Load(), writers-1)
	}
	t.Log("No increment was lost: the server refused every stale write, and each writer re-read and tried again.")
}
