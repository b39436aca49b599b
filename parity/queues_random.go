// queues_random.go makes the queue differential's random sequences
// (queues.go): the operations and their generator. The same seed makes the
// same sequence.
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

//go:build !reading1

package parity

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// qopKind is what an operation does.
type qopKind int

const (
	qAdd qopKind = iota
	qUpdate
	qDelete
	qReplace
	qResync
	qBookmark
	qPop
	qClose
	qAddIndexer
)

// qop is one operation of a sequence.
type qop struct {
	Kind qopKind
	// Obj is the object of an Add, Update or Delete, and what a pop that
	// blocks is ended with (an Add), unless EndByClose.
	Obj qobj
	// List and RV are a Replace's; RV is also a Bookmark's.
	List []qobj
	RV   string
	// Fail makes the pop's processing return errProcess after applying
	// the deltas.
	Fail       bool
	EndByClose bool
	// During runs while the pop is being processed (only on a queue that
	// unlocks then): these writes, then HasSynced and IsClosed.
	During []qop
}

// String describes op for a report (no parentheses: the planted-bug proof
// reads the report with a pattern).
func (op qop) String() string {
	switch op.Kind {
	case qAdd, qUpdate, qDelete:
		return [...]string{"Add", "Update", "Delete"}[op.Kind] + " " + op.Obj.String()
	case qReplace:
		items := make([]string, len(op.List))
		for i, o := range op.List {
			items[i] = o.String()
		}
		return "Replace@" + op.RV + " [" + strings.Join(items, " ") + "]"
	case qResync:
		return "Resync"
	case qBookmark:
		return "Bookmark " + op.RV
	case qPop:
		s := "Pop"
		if op.Fail {
			s += ", processing fails"
		}
		if len(op.During) > 0 {
			during := make([]string, len(op.During))
			for i, d := range op.During {
				during[i] = d.String()
			}
			s += ", while processing: " + strings.Join(during, "; ")
		}
		if op.EndByClose {
			return s + "; if it waits: Close"
		}
		return s + "; if it waits: Add " + op.Obj.String()
	case qClose:
		return "Close"
	case qAddIndexer:
		return "AddIndexers byTier"
	}
	return fmt.Sprintf("op %d", op.Kind)
}

// queueGen makes one random sequence.
type queueGen struct {
	rng  *rand.Rand
	cfg  queueConfig
	rv   int // the last resourceVersion given out
	keys int // keyless objects made so far
}

// Few keys, so that one key often has several deltas queued, and is
// deleted and created again.
var (
	queueNamespaces = []string{"ns-a", "ns-b"}
	queueNames      = []string{"p0", "p1", "p2", "p3", "p4"}
	queueApps       = []string{"", "web", "db"}
	queueTiers      = []string{"", "front", "front,back", "back"}
)

// randomQueueSequence returns seed's sequence of n operations for cfg.
func randomQueueSequence(seed uint64, cfg queueConfig, n int) []qop {
	g := &queueGen{rng: rand.New(rand.NewPCG(seed, 2000)), cfg: cfg}
	ops := make([]qop, 0, n)
	for len(ops) < n {
		ops = append(ops, g.op())
	}
	return ops
}

// chance is true with probability p.
func (g *queueGen) chance(p float64) bool { return g.rng.Float64() < p }

// obj returns a new version of a random object, or (rarely) a keyless one.
func (g *queueGen) obj(keyless float64) qobj {
	if g.chance(keyless) {
		g.keys++
		return qobj{Keyless: true, ID: g.keys}
	}
	g.rv++
	return qobj{
		Namespace: pick(g.rng, queueNamespaces), Name: pick(g.rng, queueNames), RV: strconv.Itoa(g.rv),
		App: pick(g.rng, queueApps), Tier: pick(g.rng, queueTiers),
		FailTransform: g.chance(0.03),
	}
}

// op returns the next operation.
func (g *queueGen) op() qop {
	p := g.rng.Float64()
	switch {
	case p < 0.16:
		return qop{Kind: qAdd, Obj: g.obj(0.03)}
	case p < 0.30:
		return qop{Kind: qUpdate, Obj: g.obj(0.03)}
	case p < 0.42:
		return qop{Kind: qDelete, Obj: g.obj(0.03)}
	case p < 0.48:
		op := qop{Kind: qReplace}
		for range g.rng.IntN(7) {
			op.List = append(op.List, g.obj(0.02))
		}
		g.rv++
		op.RV = strconv.Itoa(g.rv)
		return op
	case p < 0.53:
		return qop{Kind: qResync}
	case p < 0.57 && g.cfg.Real:
		g.rv++
		return qop{Kind: qBookmark, RV: strconv.Itoa(g.rv)}
	case p < 0.99:
		op := qop{Kind: qPop, Fail: g.chance(0.05), EndByClose: g.chance(0.1)}
		if !op.EndByClose {
			op.Obj = g.obj(0)
		}
		if g.cfg.Unlock && g.chance(0.3) {
			for range 1 + g.rng.IntN(2) {
				op.During = append(op.During, qop{Kind: pick(g.rng, []qopKind{qAdd, qUpdate, qDelete}), Obj: g.obj(0.03)})
			}
		}
		return op
	case p < 0.994:
		return qop{Kind: qClose}
	default:
		return qop{Kind: qAddIndexer}
	}
}
