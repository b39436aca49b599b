// random.go makes random scenarios from a seed: a random informer (resync
// or not, an index, a transform, paged lists, a server without a watch
// cache), handlers fast and slow added before and after Run and removed,
// and then changes, bookmarks, time, and every fault the server and the
// network can play, each followed by what brings the informer back to a
// watch. The same seed makes the same scenario.
//
// Two rules keep a random scenario's outcome fixed, so that a difference
// is a difference: after a fault, the scenario waits for the informer's
// requests (awaitWatch) instead of letting a fixed time pass, because the
// informer's backoff is random; and with resync on, it plays no fault that
// makes the Reflector back off while it watches (a 429 without Retry-After
// to a watch, a server that refuses connections), since the resync timer
// runs then, and how many resyncs a random wait holds is random too.
// (Retry-After waits are not random: they stay in.) For the same reason a
// transform that fails is left to case D7: a relist it fails backs off at
// a moment the script does not know.
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

package parity

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

// gen builds one random scenario.
type gen struct {
	rng      *rand.Rand
	sc       scenario
	pods     map[string]string // the server's pods: name → labels
	handlers []string          // handlers added and not removed
	next     int               // the next handler's number
	resync   time.Duration     // the informer's resync period; 0: none
	stopped  bool
}

// podNames are the names random pods take: few, so that they are often
// updated, deleted and created again.
var podNames = []string{"a", "b", "c", "d", "e", "f"}

// randomScenario returns the scenario of seed, with at least n steps.
func randomScenario(seed uint64, n int) scenario {
	g := &gen{rng: rand.New(rand.NewPCG(seed, 35)), pods: map[string]string{}}
	g.sc.name = fmt.Sprintf("random scenario, seed %d", seed)
	if g.chance(0.5) {
		g.resync = pick(g.rng, []time.Duration{time.Second, 5 * time.Second, 30 * time.Second})
	}
	g.sc.cfg = config{Resync: g.resync, Index: g.chance(0.5), Transform: g.chance(0.3)}
	if g.chance(0.3) {
		g.sc.pageCap = 2 + g.rng.IntN(2)
	}
	g.sc.noCache = g.chance(0.3)
	g.sc.emptyListRV = g.chance(0.05)
	for range g.rng.IntN(5) {
		g.change()
	}
	for range 1 + g.rng.IntN(3) {
		g.addHandler()
	}
	g.add(startInformer())
	for len(g.sc.steps) < n {
		g.oneMore()
	}
	return g.sc
}

// chance is true with probability p.
func (g *gen) chance(p float64) bool { return g.rng.Float64() < p }

// pick returns one of choices.
func pick[T any](rng *rand.Rand, choices []T) T { return choices[rng.IntN(len(choices))] }

// add appends steps.
func (g *gen) add(steps ...step) { g.sc.steps = append(g.sc.steps, steps...) }

// change creates, updates or deletes a pod.
func (g *gen) change() {
	name := pick(g.rng, podNames)
	labels := pick(g.rng, []string{"", "app=x", "app=y", "app=z"})
	_, exists := g.pods[name]
	switch {
	case !exists:
		g.pods[name] = labels
		g.add(createWith(name, labels))
	case g.chance(0.4):
		delete(g.pods, name)
		g.add(del(name))
	default:
		g.pods[name] = labels
		g.add(update(name, labels))
	}
}

// addHandler adds a handler: its own resync period or the informer's, fast
// or slow.
func (g *gen) addHandler() {
	g.next++
	name := fmt.Sprintf("h%d", g.next)
	var resync *time.Duration
	if g.resync > 0 && g.chance(0.5) {
		// 0 or the informer's own period: a handler due every other
		// check would be due on checks whose phase a random backoff moved
		// (its next resync is kept across relists, the timer restarts with
		// each watch), so how many resyncs it gets would be random too.
		resync = period(pick(g.rng, []time.Duration{0, g.resync}))
	}
	var delay time.Duration
	if g.chance(0.3) {
		delay = pick(g.rng, []time.Duration{10 * time.Millisecond, 50 * time.Millisecond, 300 * time.Millisecond})
	}
	g.add(handler(name, resync, delay))
	if !g.stopped {
		g.handlers = append(g.handlers, name)
	}
}

// recover waits until the informer watches again.
func (g *gen) recover() {
	if !g.stopped {
		g.add(awaitWatch())
	}
}

// oneMore appends one more thing to do (and what it needs after it).
func (g *gen) oneMore() {
	x := g.rng.Float64()
	switch {
	case x < 0.35:
		g.change()
	case x < 0.40:
		g.add(bookmark())
	case x < 0.55:
		g.add(advance(pick(g.rng, []time.Duration{100 * time.Millisecond, time.Second,
			3 * time.Second, 10 * time.Second, 45 * time.Second})))
	case x < 0.63:
		g.add(endWatch(pick(g.rng, []string{"normal", string(faultReset), string(faultGoAway), string(faultTimeout)})))
		g.recover()
	case x < 0.69:
		g.add(endWatch(pick(g.rng, []string{"expire", "error500", "garbage", string(faultLost)})))
		g.recover()
	case x < 0.74:
		g.add(fail("LIST", 1+g.rng.IntN(3), pick(g.rng, []answer{{Code: 500}, {Code: 503, RetryAfter: 1},
			{Code: 429, RetryAfter: 1}, {Code: 429}, {Code: 410}, {Fault: faultReset}, {Fault: faultReset, MidBody: true}})))
		g.add(endWatch("expire"))
		g.recover()
	case x < 0.78:
		answers := []answer{{Code: 500}, {Code: 410}, {Code: 429, RetryAfter: 1}, {Fault: faultReset}}
		if g.resync == 0 {
			answers = append(answers, answer{Code: 429})
		}
		g.add(fail("WATCH", 1+g.rng.IntN(2), pick(g.rng, answers)), endWatch("normal"))
		g.recover()
	case x < 0.80 && g.sc.pageCap > 0:
		g.add(fail("LIST", 1, answer{Code: 410, Continue: true}), endWatch("expire"))
		g.recover()
	case x < 0.83:
		g.add(compact())
		if g.chance(0.5) {
			g.add(endWatch("normal"))
			g.recover()
		}
	case x < 0.85 && g.resync == 0 && !g.stopped:
		g.add(serverDown())
		for range g.rng.IntN(3) {
			g.change()
		}
		if g.chance(0.5) {
			g.add(compact())
		}
		g.add(advance(pick(g.rng, []time.Duration{time.Second, 20 * time.Second})), serverUp())
		g.recover()
	case x < 0.90:
		g.addHandler()
	case x < 0.94 && len(g.handlers) > 0:
		i := g.rng.IntN(len(g.handlers))
		g.add(removeHandler(g.handlers[i]))
		g.handlers = slices.Delete(g.handlers, i, i+1)
	case x < 0.96 && !g.stopped:
		g.add(stopInformer())
		g.stopped = true
	default:
		g.change()
	}
}
