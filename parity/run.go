// run.go plays one scenario against one informer inside a testing/synctest
// bubble and writes down what it saw after every step: the requests the
// server got, every handler's calls, the cache and its index, HasSynced of
// the informer and of each registration, LastSyncResourceVersion, and the
// panics client-go recovered from.
//
// A step is an action (a change on the server, a fault, time passing, a
// handler added or removed, the stop) followed by synctest.Wait: the
// bubble's goroutines have all settled (blocked on each other, on the fake
// network or on fake time), so what is read then is a fixed point, not a
// moment picked by a sleep. Time moves only when a step says so: the
// bubble's clock is the fake clock of both informers (client-go's reads
// time.Now and time.NewTimer; ours reads its clock.RealClock, which reads
// the same), so a resync period or a backoff of minutes takes no real time.
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

package parity

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// step is one step of a scenario.
type step struct {
	// what says what the step does, as a difference report prints it.
	what string
	// do acts; an error it returns is part of what the step saw.
	do func(r *run) error
	// lenient marks a step whose outcome client-go itself does not fix
	// (the stop, RemoveEventHandler): each handler's calls for each key
	// need only be a prefix of the other side's, or the other way round.
	lenient bool
	// loosens names the handler whose calls may differ from this step on
	// (the one removed; "*": every handler, at the stop).
	loosens string
}

// seen is what one step saw.
type seen struct {
	What     string
	Err      string
	Requests []string
	Notes    map[string][]note
	// Busy lists the handlers in a call (a slow handler with a backlog).
	Busy          map[string]bool
	Cache         []string
	Index         []string
	Synced        bool
	HandlerSynced map[string]bool
	LastRV        string
	Panics        []string
	Returned      bool
	// At is when the step ended, in fake time since the run began; not
	// compared (a backoff is random), shown in reports.
	At time.Duration
	// Lenient and Loosens are the step's (see step); not compared.
	Lenient bool
	Loosens string
}

// trace is what a run of a scenario saw, step by step.
type trace struct {
	Side    string
	Setting string
	Steps   []seen
	// Fatal is set when the run could not go on (the informer could not
	// be built, say).
	Fatal string
}

// run is one scenario being played against one informer.
type run struct {
	srv     *server
	hooks   *hooks
	sub     subject
	recs    map[string]*recorder
	order   []string // handler names, in the order they were added
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{} // closed when the informer's Run returns
	started bool
}

// current names the scenario and step being played, for the watchdog.
var current atomic.Value // string

// watchdogLimit is how long one run may take in real time. Runs take
// milliseconds: a run that takes this long is stuck, and the watchdog
// fails the test binary, naming the scenario and the step.
const watchdogLimit = 2 * time.Minute

// play runs sc against the informer that newSubject builds, in setting, in
// a bubble of its own, and returns what it saw.
func play(t *testing.T, sc scenario, side, setting string,
	newSubject func(url string, cfg config, h *hooks) (subject, error)) trace {
	tr := trace{Side: side, Setting: setting}
	current.Store(fmt.Sprintf("%s (%s, %s): starting", sc.name, side, setting))
	dog := time.AfterFunc(watchdogLimit, func() {
		panic(fmt.Sprintf("parity: a run has not ended in %v of real time: %v", watchdogLimit, current.Load()))
	})
	defer dog.Stop()
	synctest.Test(t, func(t *testing.T) {
		began := time.Now()
		r := &run{srv: newServer(serverOptions{pageCap: sc.pageCap, noCache: sc.noCache, emptyListRV: sc.emptyListRV}), hooks: newHooks(sc.cfg), recs: map[string]*recorder{}}
		defer r.srv.close()
		sub, err := newSubject(r.srv.url(), sc.cfg, r.hooks)
		if err != nil {
			tr.Fatal = err.Error()
			return
		}
		r.sub = sub
		r.ctx, r.cancel = context.WithCancel(context.Background())
		defer r.cancel()
		r.done = make(chan struct{})
		steps := append(sc.steps, step{what: "stop (end of scenario)", do: stopRun, lenient: true, loosens: "*"})
		stopped := false
		for i, s := range steps {
			if stopped && s.what == "stop (end of scenario)" {
				break
			}
			current.Store(fmt.Sprintf("%s (%s, %s): step %d, %s", sc.name, side, setting, i+1, s.what))
			var seen seen
			seen.What, seen.Lenient, seen.Loosens = s.what, s.lenient, s.loosens
			if err := s.do(r); err != nil {
				seen.Err = err.Error()
			}
			r.settle()
			r.observe(&seen)
			seen.At = time.Since(began)
			tr.Steps = append(tr.Steps, seen)
			stopped = stopped || isStop(s)
		}
		r.srv.close()
		r.settle()
	})
	return tr
}

// settle waits until every goroutine of the bubble but this one is durably
// blocked (synctest.Wait). It is bounded by the watchdog: a goroutine that
// never blocks (or blocks on a lock held across a sleep) keeps it waiting,
// and after watchdogLimit of real time the watchdog ends the test binary
// with the scenario and step that did not settle.
func (r *run) settle() { synctest.Wait() }

// isStop reports whether s stops the informer.
func isStop(s step) bool { return s.what == "stop" || s.what == "stop (end of scenario)" }

// observe fills in what the informer and the server show now.
func (r *run) observe(s *seen) {
	s.Requests = r.srv.takeRequests()
	s.Notes = map[string][]note{}
	s.HandlerSynced = map[string]bool{}
	s.Busy = map[string]bool{}
	for _, name := range r.order {
		if n := r.recs[name].take(); len(n) > 0 {
			s.Notes[name] = n
		}
		if r.recs[name].inCall() {
			s.Busy[name] = true
		}
		s.HandlerSynced[name] = r.sub.handlerSynced(name)
	}
	s.Cache = r.sub.cache()
	s.Index = r.sub.index()
	s.Synced = r.sub.synced()
	s.LastRV = r.sub.lastSyncResourceVersion()
	s.Panics = takePanics()
	select {
	case <-r.done:
		s.Returned = true
	default:
	}
}

// startRun starts the informer's Run.
func startRun(r *run) error {
	if r.started {
		return fmt.Errorf("the scenario runs the informer twice")
	}
	r.started = true
	go func() {
		defer close(r.done)
		r.sub.run(r.ctx)
	}()
	return nil
}

// stopRun cancels Run's context and waits for Run to return, moving fake
// time a second at a time (a handler call in progress takes its time), for
// at most ten minutes of it.
func stopRun(r *run) error {
	r.cancel()
	if !r.started {
		return nil
	}
	for range 600 {
		r.settle()
		select {
		case <-r.done:
			return nil
		default:
		}
		time.Sleep(time.Second)
	}
	return fmt.Errorf("Run did not return within 10 minutes (fake time) of the stop")
}

// stopWhileIndexing runs the informer, waits until the index function is
// at the pod config.IndexBlocksAt names and the rest of the bubble has
// settled (the Reflector, which does not wait for the processing, has sent
// its watch), stops the informer there, lets the index function go on, and
// waits for Run to return. Nothing is read from the informer while the
// index function holds its locks.
func stopWhileIndexing() step {
	return step{what: "run, and stop while the index function is at its pod", lenient: true, loosens: "*", do: func(r *run) error {
		if err := startRun(r); err != nil {
			return err
		}
		select {
		case <-r.hooks.reached:
		case <-time.After(time.Hour):
			return fmt.Errorf("the index function never met pod %q", r.hooks.cfg.IndexBlocksAt)
		}
		r.settle()
		r.cancel()
		close(r.hooks.release)
		return stopRun(r)
	}}
}

// awaitRequest lets fake time pass until more than after requests have
// arrived, for at most ten minutes of it.
func (r *run) awaitRequest(after int) error {
	select {
	case <-r.srv.awaitRequest(after):
		return nil
	case <-time.After(10 * time.Minute):
		return fmt.Errorf("no request within 10 minutes")
	}
}
