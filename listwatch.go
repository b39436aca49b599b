// listwatch.go holds the ListerWatcher abstraction the Reflector is built
// on: ListOptions (the query of a list or a watch), ObjectList (what a list
// returns), and ListWatch, a ListerWatcher made of two functions. The HTTP
// implementation is in restclient.go; a test can plug in anything else.
//
// client-go counterpart: k8s.io/client-go/tools/cache listwatch.go, and
// metav1.ListOptions / metav1.ListMeta in k8s.io/apimachinery.
//
// Tutorial: 004 §2.4 (the ListWatch abstraction: ListFunc and WatchFunc).

package informer

import (
	"context"
	"errors"
	"net/url"
	"strconv"
)

// NamespaceAll selects every namespace.
const NamespaceAll = ""

// ResourceVersionMatch says how a list interprets ResourceVersion.
type ResourceVersionMatch string

// The two matches the API defines.
const (
	// ResourceVersionMatchNotOlderThan: any data at least as new as the version.
	ResourceVersionMatchNotOlderThan ResourceVersionMatch = "NotOlderThan"
	// ResourceVersionMatchExact: the data exactly at the version.
	ResourceVersionMatchExact ResourceVersionMatch = "Exact"
)

// ListOptions is the query of a list or a watch, with the fields of
// metav1.ListOptions this package uses. Zero values are left out of the
// request.
type ListOptions struct {
	// LabelSelector filters by labels, e.g. "app=web,tier!=db".
	LabelSelector string
	// FieldSelector filters by fields, e.g. "spec.nodeName=node-1".
	FieldSelector string
	// ResourceVersion: for a list, "" is a fresh consistent read and "0"
	// is "anything you have"; for a watch, where to start from.
	ResourceVersion string
	// ResourceVersionMatch qualifies ResourceVersion on a list.
	ResourceVersionMatch ResourceVersionMatch
	// Limit asks for a page of at most this many items.
	Limit int64
	// Continue is the token of the next page, from the previous page.
	Continue string
	// TimeoutSeconds asks the server to end a watch after this long.
	TimeoutSeconds *int64
	// AllowWatchBookmarks lets the server send BOOKMARK events.
	AllowWatchBookmarks bool
	// SendInitialEvents asks a watch to start with the current objects as
	// ADDED events, ended by a bookmark (a "streaming list").
	SendInitialEvents *bool
}

// ListMeta is the metadata of a list.
type ListMeta struct {
	// ResourceVersion is the version the list is consistent at.
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// Continue is the token for the next page; empty on the last page.
	Continue string `json:"continue,omitempty"`
	// RemainingItemCount estimates the items left after this page.
	RemainingItemCount *int64 `json:"remainingItemCount,omitempty"`
}

// ObjectList is what a List returns: one page (or all) of the objects,
// and the list's metadata. It plays the part of client-go's typed lists
// (PodList, ...) and meta.ExtractList.
type ObjectList struct {
	TypeMeta
	ListMeta
	// Items are the objects, decoded into the kind's Go type.
	Items []Object
}

// ListerWatcher is what a Reflector needs of an API server: list the objects,
// then watch for changes. Implementations must honour ctx: when it ends, an
// in-flight List returns and a Watch's stream stops.
type ListerWatcher interface {
	// List returns the objects (one page of them when options.Limit is set).
	List(ctx context.Context, options ListOptions) (*ObjectList, error)
	// Watch starts a watch; the caller must Stop it.
	Watch(ctx context.Context, options ListOptions) (Watcher, error)
}

// ListFunc lists objects. (client-go's ListWithContextFunc.)
type ListFunc func(ctx context.Context, options ListOptions) (*ObjectList, error)

// WatchFunc starts a watch. (client-go's WatchFuncWithContext.)
type WatchFunc func(ctx context.Context, options ListOptions) (Watcher, error)

// ListWatch is a ListerWatcher made of two functions, handy for tests and
// for wrapping another ListerWatcher.
type ListWatch struct {
	// ListFunc answers List.
	ListFunc ListFunc
	// WatchFunc answers Watch.
	WatchFunc WatchFunc
	// DisableChunking makes List ignore options.Limit: for servers or
	// functions that cannot page.
	DisableChunking bool
}

var _ ListerWatcher = (*ListWatch)(nil)

// errNoFunc is returned by a ListWatch whose function is missing.
var errNoFunc = errors.New("ListWatch: the function for this call is nil")

// List calls ListFunc.
func (lw *ListWatch) List(ctx context.Context, options ListOptions) (*ObjectList, error) {
	if lw.ListFunc == nil {
		return nil, errNoFunc
	}
	if lw.DisableChunking {
		options.Limit = 0
	}
	return lw.ListFunc(ctx, options)
}

// Watch calls WatchFunc.
func (lw *ListWatch) Watch(ctx context.Context, options ListOptions) (Watcher, error) {
	if lw.WatchFunc == nil {
		return nil, errNoFunc
	}
	return lw.WatchFunc(ctx, options)
}

// Query returns o as the URL query of its list request (watch false) or
// watch request (watch true). Zero values are left out, as client-go's
// parameter codec leaves out metav1.ListOptions' empty fields.
func (o ListOptions) Query(watch bool) url.Values {
	q := url.Values{}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	if watch {
		q.Set("watch", "true")
	}
	set("labelSelector", o.LabelSelector)
	set("fieldSelector", o.FieldSelector)
	set("resourceVersion", o.ResourceVersion)
	set("resourceVersionMatch", string(o.ResourceVersionMatch))
	set("continue", o.Continue)
	if o.Limit > 0 {
		q.Set("limit", strconv.FormatInt(o.Limit, 10))
	}
	if o.TimeoutSeconds != nil {
		q.Set("timeoutSeconds", strconv.FormatInt(*o.TimeoutSeconds, 10))
	}
	if o.AllowWatchBookmarks {
		q.Set("allowWatchBookmarks", "true")
	}
	if o.SendInitialEvents != nil {
		q.Set("sendInitialEvents", strconv.FormatBool(*o.SendInitialEvents))
	}
	return q
}
