// queues_drive.go plays a queue sequence (queues.go) on both sides, in a
// testing/synctest bubble, and compares, after every operation, all that
// can be seen: the operation's error (by kind), the popped deltas (type,
// key, resourceVersion, labels; tombstones with their object), every
// handler call and what processing saw (isInInitialList; writes, HasSynced
// and IsClosed while a pop is being processed), what the queue holds,
// HasSynced, IsClosed, and the Indexer: every key with its object, the
// store's resourceVersion, and every index (values, keys and objects per
// value). A difference is shrunk: operations are dropped while one remains.
//
// Both sides' Indexers list their keys in sorted order (sortedIndexer):
// client-go's map order would otherwise decide the order of the tombstones
// of a relist and of a resync's deltas, which is no contract of either.
//
// A pop runs on a goroutine of its own. Once the bubble has settled
// (synctest.Wait), either it has returned or it waits for the queue (a
// sync.Cond wait is durably blocking): then the operation's Add or Close
// ends the wait, as the Reflector or the informer's stop ends it.
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

//go:build !reading1

package parity

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"
	"unsafe"
)

// queueSide is one side's queue, with its Indexer and handler, as the
// differential drives it. Each side builds its own objects from a qobj.
type queueSide interface {
	// write is Add, Update or Delete (kind) of o.
	write(kind qopKind, o qobj) error
	replace(list []qobj, rv string) error
	resync() error
	bookmark(rv string) error
	close()
	isClosed() bool
	hasSynced() bool
	// pop pops once (PopBatch in a batch configuration), processing
	// through the side's processDeltas into its Indexer and handler; fail
	// makes the processing return errProcess, and during runs in it. It
	// returns what Pop returned, described ("" for PopBatch), and how many
	// deltas were processed.
	pop(fail bool, during func()) (item string, deltas int, err error)
	// queued describes what the queue holds, in the order Pop hands it out.
	queued() []string
	// indexer describes the Indexer: objects, version, indexes.
	indexer() []string
	addIndexer() error
	// note records a line of what processing saw; takeNotes returns the
	// lines since the last call (handler calls among them).
	note(line string)
	takeNotes() []string
	// errKind names the kind of one of the side's errors.
	errKind(err error) string
}

var (
	// errProcess is what a pop's processing returns when told to fail.
	errProcess = errors.New("processing fails on purpose")
	// transformRefuses is the message of queueTransform's error.
	transformRefuses = "the transformer refuses"
)

// kindOf names err's kind, for errors the two sides word differently: ""
// for none, then by the first that fits: the side's own kinds (closed,
// key), errProcess, the transformer's refusal, a panic, else "other".
func kindOf(err error, sideKind func(error) string) string {
	switch {
	case err == nil:
		return ""
	case sideKind(err) != "":
		return sideKind(err)
	case errors.Is(err, errProcess):
		return "process"
	case strings.Contains(err.Error(), transformRefuses):
		return "transform"
	case strings.HasPrefix(err.Error(), "panic: "):
		return "panic"
	}
	return "other"
}

// queueCounts counts what a sequence did (on our side; the other side saw
// the same, or the differential failed).
type queueCounts struct {
	seqs, ops, pops, deltas, batches, tombstones, calls, waited, endedByClose int
	replaces, resyncs, bookmarks, during, closes                              int
	errs                                                                      map[string]int
}

// add adds c2 to c.
func (c *queueCounts) add(c2 queueCounts) {
	c.seqs += c2.seqs
	c.ops += c2.ops
	c.pops += c2.pops
	c.deltas += c2.deltas
	c.batches += c2.batches
	c.tombstones += c2.tombstones
	c.calls += c2.calls
	c.waited += c2.waited
	c.endedByClose += c2.endedByClose
	c.replaces += c2.replaces
	c.resyncs += c2.resyncs
	c.bookmarks += c2.bookmarks
	c.during += c2.during
	c.closes += c2.closes
	for k, n := range c2.errs {
		if c.errs == nil {
			c.errs = map[string]int{}
		}
		c.errs[k] += n
	}
}

// queueDiff is the first difference of a sequence.
type queueDiff struct {
	step              int // 1-based
	op                qop
	ours, clientGo    string // the first lines that differ
	oursAll, theirAll []string
}

// playQueues plays ops in cfg on both sides and returns the first
// difference (nil if none) and what the sequence did. A sequence that blocks for good is a deadlock the bubble reports; one
// that waits on a lock for good is stopped by the watchdog (run.go).
func playQueues(t *testing.T, cfg queueConfig, ops []qop) (diff *queueDiff, counts queueCounts) {
	dog := time.AfterFunc(watchdogLimit, func() {
		panic(fmt.Sprintf("parity: a queue sequence has not ended in %v of real time: %v", watchdogLimit, current.Load()))
	})
	defer dog.Stop()
	synctest.Test(t, func(t *testing.T) {
		ours, theirs := newOurQueue(cfg), newClientGoQueue(cfg)
		counts.seqs = 1
		for i, op := range ops {
			current.Store(fmt.Sprintf("%s, step %d: %s", cfg, i+1, op))
			a := applyQueueOp(ours, op, &counts)
			b := applyQueueOp(theirs, op, nil)
			counts.ops++
			if k := firstDifferentLine(a, b); k >= 0 {
				diff = &queueDiff{step: i + 1, op: op, ours: lineAt(a, k), clientGo: lineAt(b, k), oursAll: a, theirAll: b}
				return
			}
		}
	})
	return diff, counts
}

// applyQueueOp applies op to s and returns what can then be seen, as
// lines; counts, if not nil, counts it.
func applyQueueOp(s queueSide, op qop, counts *queueCounts) []string {
	if counts == nil {
		counts = &queueCounts{}
	}
	var res, kind string
	switch op.Kind {
	case qAdd, qUpdate, qDelete:
		kind = s.errKind(s.write(op.Kind, op.Obj))
	case qReplace:
		counts.replaces++
		kind = s.errKind(s.replace(op.List, op.RV))
	case qResync:
		counts.resyncs++
		kind = s.errKind(s.resync())
	case qBookmark:
		counts.bookmarks++
		kind = s.errKind(s.bookmark(op.RV))
	case qPop:
		var item string
		kind, item = popOnce(s, op, counts)
		res = "popped " + item
	case qClose:
		counts.closes++
		s.close()
	case qAddIndexer:
		kind = s.errKind(s.addIndexer())
	}
	if kind != "" {
		if counts.errs == nil {
			counts.errs = map[string]int{}
		}
		counts.errs[kind]++
	}
	notes := s.takeNotes()
	for _, n := range notes {
		switch {
		case strings.HasPrefix(n, "OnDelete tombstone"):
			counts.tombstones++
			counts.calls++
		case strings.HasPrefix(n, "On"):
			counts.calls++
		case strings.HasPrefix(n, "process batch"):
			counts.batches++
		}
	}
	lines := append([]string{"error: " + kind + res}, notes...)
	for _, q := range s.queued() {
		lines = append(lines, "queued: "+q)
	}
	lines = append(lines, "HasSynced "+strconv.FormatBool(s.hasSynced())+", IsClosed "+strconv.FormatBool(s.isClosed()))
	return append(lines, s.indexer()...)
}

// popOnce pops on a goroutine of its own, ends a wait with op's Add or
// Close, and returns the error's kind and what Pop returned.
func popOnce(s queueSide, op qop, counts *queueCounts) (kind, item string) {
	type popped struct {
		item   string
		deltas int
		err    error
	}
	done := make(chan popped, 1)
	during := func() {
		for _, d := range op.During {
			counts.during++
			s.note("while processing: " + d.String() + ": " + s.errKind(s.write(d.Kind, d.Obj)))
		}
		if len(op.During) > 0 {
			s.note(fmt.Sprintf("while processing: HasSynced %v, IsClosed %v", s.hasSynced(), s.isClosed()))
		}
	}
	go func() {
		var p popped
		defer func() {
			if r := recover(); r != nil {
				p.err = fmt.Errorf("panic: %v", r)
			}
			done <- p
		}()
		p.item, p.deltas, p.err = s.pop(op.Fail, during)
	}()
	synctest.Wait()
	var p popped
	select {
	case p = <-done:
	default:
		// The pop waits. Whatever ends the wait is noted first: from then
		// on the pop's goroutine writes the notes, until it returns.
		counts.waited++
		var err error
		if op.EndByClose {
			counts.endedByClose++
			s.note("the pop waits; Close")
			s.close()
		} else {
			s.note("the pop waits; Add " + op.Obj.String())
			err = s.write(qAdd, op.Obj)
		}
		synctest.Wait()
		select {
		case p = <-done:
		default:
			// The Add queued nothing (the transformer refused it).
			counts.endedByClose++
			s.note("the Add: " + s.errKind(err) + "; the pop still waits; Close")
			s.close()
			p = <-done
		}
	}
	if p.deltas > 0 {
		counts.pops++
		counts.deltas += p.deltas
	}
	return s.errKind(p.err), p.item
}

// fieldOf returns a pointer to the field name, exported or not, of the
// struct p points to, which must be of type T. Neither side's RealFIFO nor
// client-go's DeltaFIFO shows what it holds, so queued reads it, under the
// queue's own lock; a field renamed or retyped fails loudly here.
func fieldOf[T any](p any, name string) *T {
	v := reflect.ValueOf(p).Elem().FieldByName(name)
	if !v.IsValid() || v.Type() != reflect.TypeFor[T]() {
		panic(fmt.Sprintf("parity: %T has no field %s of type %v", p, name, reflect.TypeFor[T]()))
	}
	return (*T)(unsafe.Pointer(v.UnsafeAddr()))
}

// describeList describes objs in order, as "[a, b]".
func describeList(objs []any, describe func(any) string) string {
	parts := make([]string, len(objs))
	for i, o := range objs {
		parts[i] = describe(o)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// describeSorted describes objs in sorted order (an index's objects come
// in map order).
func describeSorted(objs []any, describe func(any) string) []string {
	parts := make([]string, len(objs))
	for i, o := range objs {
		parts[i] = describe(o)
	}
	slices.Sort(parts)
	return parts
}

// sortedKeys returns the names of indexers, sorted.
func sortedKeys[M ~map[string]V, V any](m M) []string { return slices.Sorted(maps.Keys(m)) }
