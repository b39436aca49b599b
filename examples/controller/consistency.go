// consistency.go holds the ConsistencyStore of kubernetes v1.37: for each
// ReplicaSet, the newest resourceVersion of each resource (pods,
// replicasets) the controller itself wrote. A sync of that ReplicaSet
// starts only once both informers' caches are at least as new as those
// writes (EnsureReady); until then it fails with a ConsistencyError and the
// key comes back after the rate limiter's wait.
//
// Expectations and this store guard against the same lag from two sides.
// Expectations count the pod events a sync still waits for, and say
// nothing about a write whose event matches nothing (a status write, an
// adoption: no creation or deletion to observe). This store compares
// versions: after a status write at version 78, a sync that reads a
// ReplicaSet cache at version 71 would compute its status from a
// ReplicaSet older than the one it wrote, and could write it back.
//
// The versions are compared as numbers, as the API allows since v1.35
// (apimachinery's resourceversion.CompareResourceVersion). A cache that
// does not report its version (the informer's LastStoreSyncResourceVersion
// is "" unless the AtomicFIFO gate is on, as in client-go) is not waited
// for.
//
// client-go counterpart: k8s.io/kubernetes v1.37.2
// pkg/controller/util/consistency (ConsistencyStore, RealConsistencyStore:
// WroteAt, EnsureReady, Clear; ConsistencyError), used by the
// ReplicaSet controller behind the StaleControllerConsistencyReplicaSet
// gate (on by default in v1.37).
//
// Tutorial: 004 §2.5 (resource versions) and §2.3 (the cache lags).

package main

import (
	"fmt"
	"strconv"
	"sync"
)

// LastSyncRVGetter is a cache that knows the version it is current to:
// informer.Store's LastStoreSyncResourceVersion.
// (kubernetes: consistency.LastSyncRVGetter.)
type LastSyncRVGetter interface {
	LastStoreSyncResourceVersion() string
}

// ConsistencyError says a cache is older than a write of the controller's.
// (kubernetes: consistency.ConsistencyError, with its message.)
type ConsistencyError struct {
	ReadRV, WroteRV string
	Resource        string // "pods" or "replicasets.apps"
}

func (e *ConsistencyError) Error() string {
	return fmt.Sprintf("read version: %s is not as new as written version: %s for group resource %s",
		e.ReadRV, e.WroteRV, e.Resource)
}

// ConsistencyStore is what the controller does with its writes'
// versions. (kubernetes: consistency.ConsistencyStore.)
type ConsistencyStore interface {
	// WroteAt records a write of resource at rv for the ReplicaSet key of uid.
	WroteAt(key, uid, resource, rv string)
	// EnsureReady is nil once the caches are as new as key's writes.
	EnsureReady(key string) error
	// Clear forgets key's writes, if they are of uid (any, for "").
	Clear(key, uid string)
}

// NoopConsistencyStore records nothing and never holds a sync back: the
// controller without this guard, as with the
// StaleControllerConsistencyReplicaSet gate off. (kubernetes:
// consistency.NoopConsistencyStore.)
type NoopConsistencyStore struct{}

func (NoopConsistencyStore) WroteAt(key, uid, resource, rv string) {}
func (NoopConsistencyStore) EnsureReady(key string) error          { return nil }
func (NoopConsistencyStore) Clear(key, uid string)                 {}

// RealConsistencyStore remembers the controller's own writes, per
// ReplicaSet. It is safe for concurrent use; EnsureReady and WroteAt for
// one ReplicaSet are called by the one worker that holds its key.
// (kubernetes: consistency.RealConsistencyStore.)
type RealConsistencyStore struct {
	stores map[string]LastSyncRVGetter // by resource: the caches to wait for

	mu     sync.Mutex              // guards writes
	writes map[string]*ownerRecord // by ReplicaSet key
}

// ownerRecord is what the controller wrote for one ReplicaSet (one uid).
type ownerRecord struct {
	uid      string
	versions map[string]uint64 // by resource: the newest version written
}

// NewConsistencyStore returns a store that waits for the caches in stores,
// by resource name.
func NewConsistencyStore(stores map[string]LastSyncRVGetter) *RealConsistencyStore {
	return &RealConsistencyStore{stores: stores, writes: map[string]*ownerRecord{}}
}

// WroteAt records that the controller wrote resource at version rv for
// the ReplicaSet key whose uid is uid. A record of an older uid (the
// ReplicaSet deleted and made again) is replaced.
// (kubernetes: (*RealConsistencyStore).WroteAt.)
func (c *RealConsistencyStore) WroteAt(key, uid, resource, rv string) {
	v, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return // not a version we can compare: never wait for it
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	rec := c.writes[key]
	if rec == nil || rec.uid != uid {
		rec = &ownerRecord{uid: uid, versions: map[string]uint64{}}
		c.writes[key] = rec
	}
	rec.versions[resource] = max(rec.versions[resource], v)
}

// EnsureReady returns nil once every cache is at least as new as every
// write recorded for key (and then forgets them), else a
// *ConsistencyError naming the first cache found behind.
// (kubernetes: (*RealConsistencyStore).EnsureReady.)
func (c *RealConsistencyStore) EnsureReady(key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	rec := c.writes[key]
	if rec == nil {
		return nil
	}
	for resource, wrote := range rec.versions {
		store := c.stores[resource]
		if store == nil {
			continue
		}
		readRV := store.LastStoreSyncResourceVersion()
		read, err := strconv.ParseUint(readRV, 10, 64)
		if err != nil {
			continue // "" (not reported) or not comparable: do not block syncing
		}
		if read < wrote {
			return &ConsistencyError{ReadRV: readRV, WroteRV: strconv.FormatUint(wrote, 10), Resource: resource}
		}
	}
	delete(c.writes, key)
	return nil
}

// Clear forgets what was written for key, if its record is of uid (any
// record when uid is ""): the ReplicaSet is gone.
// (kubernetes: (*RealConsistencyStore).Clear.)
func (c *RealConsistencyStore) Clear(key, uid string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if rec := c.writes[key]; rec != nil && (uid == "" || rec.uid == uid) {
		delete(c.writes, key)
	}
}
