// compat_gc.go (compatibility layer): finalizers, and the API server's part
// in garbage collection.
//
// An object with finalizers is not deleted at once: it is stamped with a
// deletionTimestamp and stays until its finalizers are removed; the update
// that removes the last one deletes it (watchers see DELETED, not MODIFIED).
// Orphan and Foreground propagation add the "orphan" and
// "foregroundDeletion" finalizers, which the garbage collector removes once
// it has dealt with the object's dependents (compat_gc_collector.go).
// client-go counterparts: metav1.FinalizerOrphanDependents and
// FinalizerDeleteDependents; the apiserver's
// deletionFinalizersForGarbageCollection and ShouldDeleteDuringUpdate
// (k8s.io/apiserver/pkg/registry/generic/registry). Tutorial: none.

package fakeapi

import "slices"

// The finalizers the garbage collector owns.
const (
	finalizerOrphan     = "orphan"
	finalizerForeground = "foregroundDeletion"
)

// finalizers returns metadata.finalizers as strings.
func finalizers(meta map[string]any) []string {
	var out []string
	l, _ := meta["finalizers"].([]any)
	for _, f := range l {
		if s, ok := f.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// toAnyList converts strings to a JSON list.
func toAnyList(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

// gcFinalizers is the finalizer list a delete with opts leaves: the
// garbage collector's finalizers are set as the options (or, without
// options, the finalizers already there) ask. changed reports a difference.
func gcFinalizers(current []string, opts deleteOptions) (out []string, changed bool) {
	orphan := slices.Contains(current, finalizerOrphan)
	foreground := slices.Contains(current, finalizerForeground) && !orphan
	switch {
	case opts.OrphanDependents != nil:
		orphan, foreground = *opts.OrphanDependents, false
	case opts.PropagationPolicy != nil:
		orphan = *opts.PropagationPolicy == "Orphan"
		foreground = *opts.PropagationPolicy == "Foreground"
	}
	for _, f := range current {
		if f != finalizerOrphan && f != finalizerForeground {
			out = append(out, f)
		}
	}
	if orphan {
		out = append(out, finalizerOrphan)
	}
	if foreground {
		out = append(out, finalizerForeground)
	}
	a, b := slices.Clone(current), slices.Clone(out)
	slices.Sort(a)
	slices.Sort(b)
	return out, !slices.Equal(slices.Compact(a), slices.Compact(b))
}

// deletesOnUpdate reports whether writing body over old deletes the
// object: it is being deleted with no grace period left and body has no
// finalizers, as the real store decides during an update.
func deletesOnUpdate(old *object, body map[string]any) bool {
	oldMeta := metadata(old.body)
	grace, ok := toInt(oldMeta["deletionGracePeriodSeconds"])
	return ok && grace == 0 && oldMeta["deletionTimestamp"] != nil && len(finalizers(metadata(body))) == 0
}
