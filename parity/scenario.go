// scenario.go holds the scenario type and the steps scenarios are written
// with: changes on the server, faults, time, handlers, the informer's Run
// and its stop.
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

package parity

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// scenario is a script both informers are run through.
type scenario struct {
	name string
	// doc says what the scenario shows and, for a case, which client-go
	// function decides it.
	doc string
	cfg config
	// pageCap is the most items a page of a list holds (0: the client's
	// limit, 500).
	pageCap int
	// noCache turns the server's watch cache off: lists at a version with
	// a limit are read at exactly that version.
	noCache bool
	// emptyListRV makes lists answer no resourceVersion, as some
	// aggregated APIs do: the Reflector then watches from "".
	emptyListRV bool
	steps       []step
}

// labelsOf reads "k=v,k2=v2".
func labelsOf(s string) map[string]string {
	if s == "" {
		return nil
	}
	m := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

// labelText writes labels as labelsOf reads them, sorted.
func labelText(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, ",")
}

// create creates pods on the server, without labels.
func create(names ...string) step {
	return step{what: "create " + strings.Join(names, " "), do: func(r *run) error {
		for _, n := range names {
			if err := r.srv.write("ADDED", n, nil); err != nil {
				return err
			}
		}
		return nil
	}}
}

// createWith creates a pod with labels ("app=a").
func createWith(name, labels string) step {
	return step{what: fmt.Sprintf("create %s {%s}", name, labels), do: func(r *run) error {
		return r.srv.write("ADDED", name, labelsOf(labels))
	}}
}

// update changes a pod (its labels to labels; "" keeps none).
func update(name, labels string) step {
	return step{what: fmt.Sprintf("update %s {%s}", name, labels), do: func(r *run) error {
		return r.srv.write("MODIFIED", name, labelsOf(labels))
	}}
}

// del deletes a pod.
func del(name string) step {
	return step{what: "delete " + name, do: func(r *run) error {
		return r.srv.write("DELETED", name, nil)
	}}
}

// bookmark sends a BOOKMARK to the open watches that allow them.
func bookmark() step {
	return step{what: "bookmark", do: func(r *run) error { r.srv.bookmark(); return nil }}
}

// endWatch ends the open watches: "normal" (the server ends the response,
// as at its timeout), "expire" (an ERROR event 410), "error500" (an ERROR
// event 500), "garbage" (a line that is not JSON), or a fault of the
// network (reset, goaway, timeout, lost).
func endWatch(how string) step {
	return step{what: "end the watch: " + how, do: func(r *run) error { r.srv.endWatches(how); return nil }}
}

// compact drops the server's history: older versions are 410 from now on.
func compact() step {
	return step{what: "compact the history", do: func(r *run) error { r.srv.compact(); return nil }}
}

// fail makes the next count requests of verb ("LIST", "WATCH") get a.
func fail(verb string, count int, a answer) step {
	what := fmt.Sprintf("the next %d %s requests: ", count, verb)
	if a.Continue {
		what = fmt.Sprintf("the next %d requests for a later page of a list: ", count)
	}
	switch {
	case a.Fault != faultNone && a.MidBody:
		what += "break the body half-way (" + string(a.Fault) + ")"
	case a.Fault != faultNone:
		what += "break the connection (" + string(a.Fault) + ")"
	default:
		what += fmt.Sprint(a.Code)
		if a.RetryAfter > 0 {
			what += fmt.Sprintf(" with Retry-After: %d", a.RetryAfter)
		}
	}
	return step{what: what, do: func(r *run) error { r.srv.plan(verb, count, a); return nil }}
}

// serverDown stops the server: connections are refused, open ones reset.
func serverDown() step {
	return step{what: "the server goes down", do: func(r *run) error { r.srv.setDown(true); return nil }}
}

// serverUp starts the server again.
func serverUp() step {
	return step{what: "the server comes back", do: func(r *run) error { r.srv.setDown(false); return nil }}
}

// advance lets d of fake time pass.
func advance(d time.Duration) step {
	return step{what: "advance " + d.String(), do: func(r *run) error { time.Sleep(d); return nil }}
}

// nextRequest lets fake time pass until the informer's next request
// arrives (or ten minutes, an error). After a failure the informer waits a
// random backoff (jittered in both informers) before it asks again: a step
// that waits for the request instead of a fixed time sees the same
// requests on both sides, and leaves the harness's clock in step with the
// watch that follows, whose resync timer starts with it.
func nextRequest() step {
	return step{what: "wait for the next request", do: func(r *run) error {
		return r.awaitRequest(r.srv.requestCount())
	}}
}

// awaitWatch lets fake time pass, a request at a time, until the informer
// has a watch open again (or twenty requests, or ten minutes after one, an
// error): after a failure, the way back may take several requests (lists
// that fail, Retry-After waits, backoffs), and fake time must not pass
// beyond it, so that the resync timer, which starts with the watch, keeps
// in step with the harness's clock.
func awaitWatch() step {
	return step{what: "wait until a watch is open", do: func(r *run) error {
		for range 20 {
			r.settle()
			if r.srv.openWatches() > 0 {
				return nil
			}
			if err := r.awaitRequest(r.srv.requestCount()); err != nil {
				return err
			}
		}
		return fmt.Errorf("no watch open after 20 requests")
	}}
}

// handler adds a handler named name, with its own resync period (nil: the
// informer's default), taking delay per call.
func handler(name string, resync *time.Duration, delay time.Duration) step {
	what := "add handler " + name
	if resync != nil {
		what += " (resync " + resync.String() + ")"
	}
	if delay > 0 {
		what += fmt.Sprintf(" (%v per call)", delay)
	}
	return step{what: what, do: func(r *run) error {
		rec := &recorder{name: name, delay: delay}
		if err := r.sub.addHandler(rec, resync); err != nil {
			// The two informers word it differently: that it failed is compared.
			return fmt.Errorf("AddEventHandler failed")
		}
		r.recs[name] = rec
		r.order = append(r.order, name)
		return nil
	}}
}

// removeHandler removes the handler named name.
func removeHandler(name string) step {
	return step{what: "remove handler " + name, lenient: true, loosens: name, do: func(r *run) error {
		if err := r.sub.removeHandler(name); err != nil {
			return fmt.Errorf("RemoveEventHandler failed")
		}
		return nil
	}}
}

// startInformer runs the informer.
func startInformer() step { return step{what: "run", do: startRun} }

// stopInformer cancels Run's context and waits for Run to return.
func stopInformer() step { return step{what: "stop", do: stopRun, lenient: true, loosens: "*"} }

// period is a resync period for handler.
func period(d time.Duration) *time.Duration { return &d }
