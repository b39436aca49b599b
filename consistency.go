// consistency.go holds the consistency detector: it lists the resource from
// the server, at exactly the resource version the informer has reached, and
// diffs that list against the informer's cache (with diff.go). A healthy
// informer's cache equals the server's state at that version; any key that
// is missing, extra, or at another version points to a bug: a lost event, a
// handler or lister user that wrote into the cache, a broken transform.
//
// The cache applies events a moment after the Reflector receives them, so a
// difference may be a lag, not a fault. Check therefore re-compares for up
// to Settle before it reports, and starts over when the informer moves to a
// newer version meanwhile. It compares resource versions only: an object
// changed in place without a new version is the mutation detector's job
// (mutation.go).
//
// client-go counterpart: the data consistency detector of
// k8s.io/client-go/util/consistencydetector, which client-go runs after a
// streaming list when KUBE_WATCHLIST_INCONSISTENCY_DETECTOR is set; it too
// lists with resourceVersionMatch=Exact and compares. Ours runs on demand,
// or every period with Run.
//
// Tutorial: 000 ch. 5 (缓存一致性保障机制的工程落地: checking that the cache
// matches the server).

package informer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

const (
	defaultConsistencySettle = time.Second
	consistencyPollInterval  = 10 * time.Millisecond
	// consistencyAttempts bounds the restarts when the informer keeps
	// moving to newer versions while a check runs.
	consistencyAttempts = 5
)

// errCacheKeptMoving says the informer moved on during every attempt.
var errCacheKeptMoving = errors.New("consistency check: the informer kept moving to newer versions; nothing stable to compare")

// ConsistencyReport is the result of one check.
type ConsistencyReport struct {
	// ResourceVersion is the version the cache and the server were compared at.
	ResourceVersion string
	// Diff is how the server's list differs from the cache: Added keys are
	// missing from the cache, Deleted keys are in the cache but not on the
	// server, Updated keys are at another resource version.
	Diff SnapshotDiff
	// Problems describes each difference, one line per key.
	Problems []string
}

// Consistent reports whether the cache matched the server.
func (r ConsistencyReport) Consistent() bool { return r.Diff.Empty() }

// ConsistencyDetector compares an informer's cache with the server. Set the
// optional fields before the first Check or Run.
type ConsistencyDetector struct {
	// ListerWatcher lists from the server; the informer's own will do.
	ListerWatcher ListerWatcher
	// Informer is the informer whose cache is checked.
	Informer SharedInformer
	// Settle is how long a difference may last before it is reported; 1 s
	// when zero.
	Settle time.Duration
	// Clock is where time comes from; RealClock when nil.
	Clock Clock
	// OnInconsistency is told by Run about each inconsistent report; when
	// nil, Run logs it with slog.Error.
	OnInconsistency func(ConsistencyReport)
}

// NewConsistencyDetector returns a detector for informer's cache, listing
// through lw.
func NewConsistencyDetector(lw ListerWatcher, informer SharedInformer) *ConsistencyDetector {
	return &ConsistencyDetector{ListerWatcher: lw, Informer: informer}
}

// Check lists from the server at the informer's last synced resource
// version and compares the list with the cache. It returns an error when the
// informer has not synced, the list fails, or no stable version could be
// compared; a report with differences is not an error.
func (d *ConsistencyDetector) Check(ctx context.Context) (ConsistencyReport, error) {
	if !d.Informer.HasSynced() {
		return ConsistencyReport{}, errors.New("consistency check: the informer has not synced")
	}
	for range consistencyAttempts {
		rv := d.Informer.LastSyncResourceVersion()
		list, _, err := listPages(ctx, d.ListerWatcher,
			ListOptions{ResourceVersion: rv, ResourceVersionMatch: ResourceVersionMatchExact}, defaultPageSize)
		if isExpiredError(err) {
			continue // the server no longer has rv: the informer is past it too
		}
		if err != nil {
			return ConsistencyReport{}, fmt.Errorf("consistency check: listing at %s: %w", rv, err)
		}
		items := make([]any, len(list.Items))
		for i, o := range list.Items {
			items[i] = o
		}
		server, err := SnapshotFromList(items, DeletionHandlingMetaNamespaceKeyFunc)
		if err != nil {
			return ConsistencyReport{}, err
		}
		report, settled, err := d.compareUntilSettled(ctx, rv, server)
		if err != nil || settled {
			return report, err
		}
	}
	return ConsistencyReport{}, errCacheKeptMoving
}

// compareUntilSettled compares the cache with server until they match or
// Settle has passed. It reports settled=false when the informer moved past
// rv first, so the comparison means nothing.
func (d *ConsistencyDetector) compareUntilSettled(ctx context.Context, rv string, server Snapshot) (ConsistencyReport, bool, error) {
	clock := d.clock()
	settle := d.Settle
	if settle <= 0 {
		settle = defaultConsistencySettle
	}
	deadline := clock.Now().Add(settle)
	for {
		cache, err := SnapshotOf(d.Informer.GetStore(), DeletionHandlingMetaNamespaceKeyFunc)
		if err != nil {
			return ConsistencyReport{}, false, err
		}
		diff := DiffSnapshots(cache, server)
		if diff.Empty() {
			return ConsistencyReport{ResourceVersion: rv}, true, nil
		}
		if d.Informer.LastSyncResourceVersion() != rv {
			return ConsistencyReport{}, false, nil
		}
		if !clock.Now().Before(deadline) {
			return ConsistencyReport{ResourceVersion: rv, Diff: diff, Problems: describeInconsistencies(diff, cache, server)}, true, nil
		}
		t := clock.NewTimer(consistencyPollInterval)
		select {
		case <-ctx.Done():
			t.Stop()
			return ConsistencyReport{}, false, ctx.Err()
		case <-t.C():
		}
	}
}

// describeInconsistencies turns a cache → server diff into one sentence per key.
func describeInconsistencies(diff SnapshotDiff, cache, server Snapshot) []string {
	rv := func(obj any) string { v, _ := resourceVersionOf(obj); return v }
	var out []string
	for _, k := range diff.Added {
		out = append(out, fmt.Sprintf("%s: on the server (resourceVersion %s) but missing from the cache", k, rv(server[k])))
	}
	for _, k := range diff.Deleted {
		out = append(out, fmt.Sprintf("%s: in the cache (resourceVersion %s) but not on the server", k, rv(cache[k])))
	}
	for _, k := range diff.Updated {
		out = append(out, fmt.Sprintf("%s: the cache has resourceVersion %s, the server %s", k, rv(cache[k]), rv(server[k])))
	}
	return out
}

// Run checks every period until ctx ends. Inconsistent reports go to
// OnInconsistency; failed checks are logged and retried next period.
func (d *ConsistencyDetector) Run(ctx context.Context, period time.Duration) {
	runEvery(ctx, d.clock(), period, func() {
		report, err := d.Check(ctx)
		switch {
		case ctx.Err() != nil:
		case err != nil:
			slog.Warn("consistency check failed", "err", err)
		case !report.Consistent() && d.OnInconsistency != nil:
			d.OnInconsistency(report)
		case !report.Consistent():
			slog.Error("the informer's cache differs from the server",
				"resourceVersion", report.ResourceVersion, "problems", report.Problems)
		}
	})
}

func (d *ConsistencyDetector) clock() Clock {
	if d.Clock == nil {
		return RealClock{}
	}
	return d.Clock
}
