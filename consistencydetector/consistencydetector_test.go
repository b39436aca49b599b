// consistencydetector_test.go holds the edge cases of the detector, over
// HTTP against fakeapi: a check before the informer synced fails, and Run
// reports a difference every period.

package consistencydetector_test

import (
	"context"
	"slices"
	"testing"
	"time"

	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/consistencydetector"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

func TestRunAndErrors(t *testing.T) {
	srv := walkthrough.StartServer(t)
	walkthrough.CreatePods(t, walkthrough.Client(t, srv), "a")
	inf, lw := walkthrough.Informer(t, srv, nil)
	clock := testingclock.NewFakeClock(time.Unix(0, 0))
	d := consistencydetector.New(lw, inf)
	d.Clock, d.Settle = clock, time.Second
	if _, err := d.Check(context.Background()); err == nil {
		t.Fatal("Check before the informer synced must fail")
	}
	walkthrough.Run(t, inf)

	reports := make(chan consistencydetector.Report, 1)
	d.OnInconsistency = func(r consistencydetector.Report) { reports <- r }
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { d.Run(ctx, time.Minute); close(stopped) }()
	walkthrough.Must(t, inf.GetIndexer().Add(walkthrough.Pod("ghost")))
	var r consistencydetector.Report
	walkthrough.WaitStepping(t, clock, "a periodic report", func() bool {
		select {
		case r = <-reports:
			return true
		default:
			return false
		}
	})
	if !slices.Equal(r.Diff.Deleted, []string{"default/ghost"}) {
		t.Fatalf("report = %+v, want ghost as not on the server", r)
	}
	cancel()
	walkthrough.Receive(t, "the detector's Run to return after the cancel", stopped)
}
