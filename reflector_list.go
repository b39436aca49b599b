// reflector_list.go holds the list half of the Reflector: which resource
// version to list from, listing in pages with limit/continue, falling back
// to one full list when a continue token expires, and to a fresh consistent
// read ("") when the version itself is gone.
//
// client-go counterpart: Reflector.list and relistResourceVersion in
// k8s.io/client-go/tools/cache reflector.go, and k8s.io/client-go/tools/pager.
//
// Tutorial: 004 §4.1 (list, then watch), 000 §2.5 (an atomic full relist).

package informer

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// defaultPageSize is the page size of a list when the Reflector pages.
const defaultPageSize = 500

// list lists every object and Replaces the store's contents with them, at
// the list's resource version.
func (r *Reflector) list(ctx context.Context) error {
	options := ListOptions{ResourceVersion: r.relistResourceVersion()}
	pageSize := r.listPageSize(options.ResourceVersion)
	list, paginated, err := listPages(ctx, r.listerWatcher, options, pageSize)
	if isExpiredError(err) || isTooLargeResourceVersionError(err) {
		// The version we asked for is gone (or not reached yet): ask for a
		// fresh, consistent list instead, so the Reflector makes progress.
		r.setIsLastSyncResourceVersionUnavailable(true)
		list, paginated, err = listPages(ctx, r.listerWatcher,
			ListOptions{ResourceVersion: r.relistResourceVersion()}, pageSize)
	}
	if ctx.Err() != nil {
		return nil // stopping; not a failure
	}
	if err != nil {
		return fmt.Errorf("failed to list %s: %w", r.typeDescription, err)
	}
	if options.ResourceVersion == "0" && paginated {
		// Only the first list says something about the server: a paged answer
		// to "0" means it does not serve lists from a cache, so keep paging.
		r.mu.Lock()
		r.paginatedResult = true
		r.mu.Unlock()
	}
	r.setIsLastSyncResourceVersionUnavailable(false)
	items := make([]any, len(list.Items))
	for i, item := range list.Items {
		items[i] = item
	}
	if err := r.store.Replace(items, list.ResourceVersion); err != nil {
		return fmt.Errorf("unable to sync list result: %w", err)
	}
	r.setLastSyncResourceVersion(list.ResourceVersion)
	return nil
}

// listPageSize decides the page size: the configured one; the default when
// the server was seen to page; none when relisting from a known version,
// because only an unpaged list can be served from the server's watch cache
// instead of its database; otherwise the default.
func (r *Reflector) listPageSize(rv string) int64 {
	r.mu.RLock()
	paginated := r.paginatedResult
	r.mu.RUnlock()
	switch {
	case r.pageSize != 0:
		return r.pageSize
	case paginated:
		return defaultPageSize
	case rv != "" && rv != "0":
		return 0
	}
	return defaultPageSize
}

// listPages lists in pages of pageSize (0 = one request) and joins them. If
// a continue token expires part way, it makes one full list at the version
// first asked for. It reports whether the answer came in more than one page.
func listPages(ctx context.Context, lw ListerWatcher, options ListOptions, pageSize int64) (*ObjectList, bool, error) {
	if options.Limit == 0 {
		options.Limit = pageSize
	}
	requestedVersion, requestedMatch := options.ResourceVersion, options.ResourceVersionMatch
	var all *ObjectList
	paginated := false
	for {
		if err := ctx.Err(); err != nil {
			return nil, paginated, err
		}
		page, err := listPage(ctx, lw, options)
		if err != nil {
			if !IsResourceExpired(err) || options.Continue == "" {
				return nil, paginated, err
			}
			// The snapshot the pages came from was compacted away.
			options.Limit, options.Continue = 0, ""
			options.ResourceVersion, options.ResourceVersionMatch = requestedVersion, requestedMatch
			page, err = listPage(ctx, lw, options)
			return page, paginated, err
		}
		if page.Continue == "" && all == nil {
			return page, paginated, nil // one page was everything
		}
		if all == nil {
			all = &ObjectList{TypeMeta: page.TypeMeta}
		}
		all.Items = append(all.Items, page.Items...)
		all.ResourceVersion = page.ResourceVersion
		if page.Continue == "" {
			return all, paginated, nil
		}
		// A continue request must not name a version: the token holds it.
		options.Continue = page.Continue
		options.ResourceVersion, options.ResourceVersionMatch = "", ""
		paginated = true
	}
}

// listPage asks lw for one page. A ListerWatcher that answers neither a
// list nor an error is broken; that becomes an error, not a panic.
func listPage(ctx context.Context, lw ListerWatcher, options ListOptions) (*ObjectList, error) {
	page, err := lw.List(ctx, options)
	if err == nil && page == nil {
		err = errors.New("the ListerWatcher's List answered no list and no error")
	}
	return page, err
}

// relistResourceVersion is the version to list from: "0" the first time
// (anything the server has cached will do), then the last version seen (so
// the cache never goes back in time), or "" (a fresh consistent read) when
// the server said that version is no longer available.
func (r *Reflector) relistResourceVersion() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	switch {
	case r.isLastSyncResourceVersionUnavailable:
		return ""
	case r.lastSyncResourceVersion == "":
		return "0"
	}
	return r.lastSyncResourceVersion
}

// rewatchResourceVersion is the version a streaming list starts from: the
// last one seen, or "" (the newest, consistent) when that one is gone.
func (r *Reflector) rewatchResourceVersion() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.isLastSyncResourceVersionUnavailable {
		return ""
	}
	return r.lastSyncResourceVersion
}

func (r *Reflector) setIsLastSyncResourceVersionUnavailable(unavailable bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.isLastSyncResourceVersionUnavailable = unavailable
}

// isTooLargeResourceVersionError reports the 504 a server answers when asked
// for a version it has not reached yet (older servers said so only in the
// message).
func isTooLargeResourceVersionError(err error) bool {
	if HasStatusCause(err, CauseTypeResourceVersionTooLarge) {
		return true
	}
	s, ok := statusOf(err)
	if !ok || !IsTimeout(err) {
		return false
	}
	if s.Details != nil {
		for _, c := range s.Details.Causes {
			if c.Message == "Too large resource version" {
				return true
			}
		}
	}
	return strings.Contains(s.Message, "Too large resource version")
}
