// mutationdetector_test.go holds the edge cases of the detector: Run
// reports every period, a failed transform records nothing, the
// environment switch, and the detector attached to an informer over HTTP
// against fakeapi as the package comment shows.

package mutationdetector

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

func TestDetectorRunReportsPeriodically(t *testing.T) {
	clock := testingclock.NewFakeClock(time.Unix(0, 0))
	reports := make(chan MutatedObject, 1)
	d := New("pods")
	d.Clock, d.Period = clock, time.Minute
	d.FailureFunc = func(m MutatedObject) { reports <- m }
	p := walkthrough.Pod("p")
	transformed, err := d.Transform(func(obj any) (any, error) { return obj, nil })(p)
	walkthrough.Must(t, err)
	if transformed != any(p) {
		t.Fatal("Transform must hand on the very object it recorded")
	}
	d.AddObject(informer.DeletedFinalStateUnknown{Key: "x", Obj: walkthrough.Pod("x")}) // ignored
	d.AddObject(42)                                                                     // ignored

	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { d.Run(ctx); close(stopped) }()
	walkthrough.WaitFor(t, "Run to wait on the clock", clock.HasWaiters)
	p.Spec.Containers[0].Image = "evil:latest"
	clock.Step(time.Minute)
	m := walkthrough.Receive(t, "a report of the mutated pod", reports)
	if m.Key != "default/p" || !slices.Equal(m.Changes, []string{`spec.containers: [{"image":"nginx:1.27","name":"c"}] → [{"image":"evil:latest","name":"c"}]`}) {
		t.Fatalf("report = %+v", m)
	}
	cancel()
	walkthrough.Receive(t, "the detector's Run to return after the cancel", stopped)
}

func TestDetectorTransformError(t *testing.T) {
	d := New("pods")
	boom := errors.New("boom")
	if _, err := d.Transform(func(any) (any, error) { return nil, boom })(walkthrough.Pod("p")); err != boom {
		t.Fatalf("err = %v, want the inner transform's error", err)
	}
	if len(d.CompareObjects()) != 0 || len(d.watched) != 0 {
		t.Fatal("a failed transform must record nothing")
	}
}

func TestEnabled(t *testing.T) {
	t.Setenv("KUBE_CACHE_MUTATION_DETECTOR", "true")
	if !Enabled() {
		t.Fatal("true not honoured")
	}
	t.Setenv("KUBE_CACHE_MUTATION_DETECTOR", "")
	if Enabled() {
		t.Fatal("empty means off")
	}
}

// The idiom of the package comment: with KUBE_CACHE_MUTATION_DETECTOR=true
// a detector is attached before Run and runs until the informer stops.
func TestAttachedWhenEnabled(t *testing.T) {
	t.Setenv("KUBE_CACHE_MUTATION_DETECTOR", "true")
	srv := walkthrough.StartServer(t)
	walkthrough.CreatePods(t, walkthrough.Client(t, srv), "web")
	clock := testingclock.NewFakeClock(time.Now())
	inf, _ := walkthrough.Informer(t, srv, clock)
	found := make(chan MutatedObject, 1)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	if Enabled() {
		d := New("pods")
		d.Clock, d.FailureFunc = clock, func(m MutatedObject) { found <- m }
		walkthrough.Must(t, inf.SetTransform(d.Transform(nil)))
		go func() { d.Run(ctx); close(stopped) }()
	}
	mutated := make(chan struct{})
	_, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{AddFunc: func(obj any) {
		obj.(*informer.Pod).Labels["oops"] = "yes"
		close(mutated)
	}})
	walkthrough.Must(t, err)
	walkthrough.Run(t, inf)
	walkthrough.Receive(t, "the handler's write on the cached pod", mutated)
	walkthrough.WaitFor(t, "the detector's timer", clock.HasWaiters) // the only timer of this informer
	clock.Step(defaultMutationCheckPeriod)
	if m := walkthrough.Receive(t, "the detector's report", found); m.Key != "default/web" {
		t.Fatalf("found %v, want default/web", m)
	}
	cancel()
	walkthrough.Receive(t, "the detector's Run to return after the cancel", stopped)
}
