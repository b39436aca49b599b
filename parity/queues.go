// queues.go holds what the queue differential's sequences are made of:
// our DeltaFIFO, RealFIFO and Indexer beside client-go v0.37.2's
// (tools/cache), driven by the same seeded random operations
// (queues_random.go), every observable compared after every one
// (queues_drive.go). A sequence is one queue configuration and its
// operations: adds, updates and deletes (some of objects without a key,
// some the transformer refuses), Replace with random lists (tombstones for
// known objects that are gone), Resync, bookmarks, pops through each
// side's own processDeltas into an Indexer with handlers, pops that block
// until an Add or a Close ends them, writes and reads while a pop is being
// processed (on queues that unlock then), Close, and an index added
// mid-run. The same seed makes the same sequence.
//
// The configurations are every one our newQueueFIFO can make and the
// others the options allow: the DeltaFIFO with and without known objects
// and Replaced deltas; the RealFIFO atomic or not, unlocking while
// processing or not, with and without bookmarks, popped one by one or in
// batches; each with and without a transformer.
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

//go:build !reading1

package parity

import (
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// queueConfig is one queue configuration, for both sides.
type queueConfig struct {
	// Real picks the RealFIFO; otherwise the DeltaFIFO.
	Real bool
	// Known gives the queue the Indexer as its known objects (the
	// DeltaFIFO's choice; a RealFIFO has them exactly when not Atomic).
	Known bool
	// Replaced is the DeltaFIFO's EmitDeltaTypeReplaced.
	Replaced bool
	// Atomic, Unlock and Bookmarks are the RealFIFO's AtomicEvents,
	// UnlockWhileProcessing and EmitDeltaTypeBookmark.
	Atomic, Unlock, Bookmarks bool
	// Batch pops with PopBatch (and processDeltasInBatch), as the
	// controller does with InOrderInformersBatchProcess on.
	Batch bool
	// Transform gives the queue a transformer (queueTransform).
	Transform bool
}

// String names the configuration as a report prints it.
func (c queueConfig) String() string {
	var b strings.Builder
	flag := func(on bool, name string) {
		if on {
			b.WriteString(" " + name)
		}
	}
	if c.Real {
		b.WriteString("RealFIFO")
		flag(c.Atomic, "atomic")
		flag(c.Unlock, "unlocking")
		flag(c.Bookmarks, "bookmarks")
		flag(c.Batch, "batches")
	} else {
		b.WriteString("DeltaFIFO")
		flag(c.Known, "known-objects")
		flag(c.Replaced, "replaced-deltas")
	}
	flag(c.Transform, "transformer")
	return b.String()
}

// queueConfigs lists every valid configuration of the DeltaFIFO (real
// false) or of the RealFIFO: 8 and 20. The informer's own are among them:
// the DeltaFIFO with known objects and Replaced deltas; the RealFIFO with
// known objects, or atomic with bookmarks, unlocking or not.
func queueConfigs(real bool) []queueConfig {
	var out []queueConfig
	for _, transform := range []bool{false, true} {
		if !real {
			for _, known := range []bool{true, false} {
				for _, replaced := range []bool{true, false} {
					out = append(out, queueConfig{Known: known, Replaced: replaced, Transform: transform})
				}
			}
			continue
		}
		for _, batch := range []bool{false, true} {
			// Without AtomicEvents the RealFIFO needs known objects and
			// forbids unlocking and bookmarks (RealFIFOOptions).
			out = append(out, queueConfig{Real: true, Known: true, Batch: batch, Transform: transform})
			for _, unlock := range []bool{false, true} {
				for _, bookmarks := range []bool{true, false} {
					out = append(out, queueConfig{Real: true, Atomic: true, Unlock: unlock, Bookmarks: bookmarks,
						Batch: batch, Transform: transform})
				}
			}
		}
	}
	return out
}

// qobj is one object of a sequence; each side builds its own pod from it
// (or, Keyless, a value no key function can name).
type qobj struct {
	Namespace, Name, RV string
	// App and Tier are the labels "app" and "tier" ("" for none); a tier
	// may hold several values, comma-separated (the index byTier files it
	// under each).
	App, Tier string
	// FailTransform makes queueTransform refuse the object.
	FailTransform bool
	// Keyless objects have no metadata: every key function fails on them.
	Keyless bool
	ID      int // tells keyless objects apart
}

// String describes o as both sides describe the pod they build from it.
func (o qobj) String() string {
	if o.Keyless {
		return keylessObject{ID: o.ID}.String()
	}
	return podString(o.Namespace, o.Name, o.RV, o.labels())
}

// labels are o's labels as both sides' pods carry them (nil for none).
func (o qobj) labels() map[string]string {
	l := map[string]string{}
	if o.App != "" {
		l["app"] = o.App
	}
	if o.Tier != "" {
		l["tier"] = o.Tier
	}
	if o.FailTransform {
		l["fail"] = "transform"
	}
	if len(l) == 0 {
		return nil
	}
	return l
}

// keylessObject is an object of neither side's kind: no metadata, so no
// key function can name it.
type keylessObject struct{ ID int }

func (k keylessObject) String() string { return "keyless#" + strconv.Itoa(k.ID) }

// queueTransform is the transformer of both sides, given a pod and its
// labels: it refuses a pod labelled fail=transform, and adds a "+" to the
// label t of every other, in place (so a transform applied twice shows).
func queueTransform(pod any, labels *map[string]string) (any, error) {
	if (*labels)["fail"] == "transform" {
		return nil, errors.New(transformRefuses)
	}
	if *labels == nil {
		*labels = map[string]string{}
	}
	(*labels)["t"] += "+"
	return pod, nil
}

// labelIndex is the index function of both sides on a pod's labels: the
// values of label, comma-separated (none if it is unset).
func labelIndex(labels map[string]string, label string) []string {
	if labels[label] == "" {
		return nil
	}
	return strings.Split(labels[label], ",")
}

// podString describes a pod, both sides alike: key, resourceVersion and
// labels in order.
func podString(namespace, name, rv string, labels map[string]string) string {
	s := namespace + "/" + name + "@" + rv
	if len(labels) > 0 {
		parts := make([]string, 0, len(labels))
		for _, k := range slices.Sorted(maps.Keys(labels)) {
			parts = append(parts, k+"="+labels[k])
		}
		s += "{" + strings.Join(parts, ",") + "}"
	}
	return s
}
