// listwatch.go holds ListerWatcher, what a Reflector needs of a server, and its query and answer.
// client-go counterpart: k8s.io/client-go/tools/cache listwatch.go; metav1.ListOptions, ListMeta.
// Tutorial: 004 §2.4 (the ListWatch abstraction: ListFunc and WatchFunc).

package informer

import (
	"context"
	"errors"
	"net/url"
	"strconv"
)

// ResourceVersionMatch says how a list reads ResourceVersion (values: reflector_watchlist.go).
type ResourceVersionMatch string

// NamespaceAll selects every namespace.
const NamespaceAll = ""

// ListOptions is the query of a list or a watch: the metav1.ListOptions fields used here.
type ListOptions struct {
	LabelSelector, FieldSelector string               // e.g. "app=web", "spec.nodeName=n1"
	ResourceVersion              string               // list: "" latest, "0" any; watch: after
	ResourceVersionMatch         ResourceVersionMatch // how a list reads ResourceVersion
	Limit                        int64                // at most this many items per page
	Continue                     string               // the previous page's token
	TimeoutSeconds               *int64               // the server ends a watch then
	AllowWatchBookmarks          bool                 // asks for BOOKMARK events
	SendInitialEvents            *bool                // a streaming list: ADDED first
}

// ListMeta is the metadata of a list.
type ListMeta struct {
	ResourceVersion    string `json:"resourceVersion,omitempty"`    // the list's version
	Continue           string `json:"continue,omitempty"`           // next page's token, or ""
	RemainingItemCount *int64 `json:"remainingItemCount,omitempty"` // an estimate of the items left
}

// ObjectList is one page (or all) of a list: client-go's PodList etc. after meta.ExtractList.
// A ListerWatcher lists, then watches, until ctx ends. ListWatch is one made of two functions.
type (
	ObjectList struct {
		TypeMeta
		ListMeta
		Items []Object
	}
	ListerWatcher interface {
		List(ctx context.Context, options ListOptions) (*ObjectList, error)
		Watch(ctx context.Context, options ListOptions) (Watcher, error)
	}
	ListFunc  func(ctx context.Context, options ListOptions) (*ObjectList, error)
	WatchFunc func(ctx context.Context, options ListOptions) (Watcher, error)
	ListWatch struct {
		ListFunc        ListFunc
		WatchFunc       WatchFunc
		DisableChunking bool // List drops options.Limit, for a source that cannot page
	}
)

// List calls ListFunc.
func (lw *ListWatch) List(ctx context.Context, options ListOptions) (*ObjectList, error) {
	if lw.ListFunc == nil {
		return nil, errors.New("ListWatch.List: the function for this call is nil")
	}
	if lw.DisableChunking {
		options.Limit = 0
	}
	return lw.ListFunc(ctx, options)
}

// Watch calls WatchFunc.
func (lw *ListWatch) Watch(ctx context.Context, options ListOptions) (Watcher, error) {
	if lw.WatchFunc == nil {
		return nil, errors.New("ListWatch.Watch: the function for this call is nil")
	}
	return lw.WatchFunc(ctx, options)
}

// Query returns o as a list's (or watch's) URL query, without zero values as client-go sends it.
func (o ListOptions) Query(watch bool) url.Values {
	q := url.Values{}
	set := func(key, value string, send bool) {
		if send {
			q.Set(key, value)
		}
	}
	set("watch", "true", watch)
	set("labelSelector", o.LabelSelector, o.LabelSelector != "")
	set("fieldSelector", o.FieldSelector, o.FieldSelector != "")
	set("resourceVersion", o.ResourceVersion, o.ResourceVersion != "")
	set("resourceVersionMatch", string(o.ResourceVersionMatch), o.ResourceVersionMatch != "")
	set("continue", o.Continue, o.Continue != "")
	set("limit", strconv.FormatInt(o.Limit, 10), o.Limit > 0)
	set("allowWatchBookmarks", "true", o.AllowWatchBookmarks)
	if o.TimeoutSeconds != nil {
		q.Set("timeoutSeconds", strconv.FormatInt(*o.TimeoutSeconds, 10))
	}
	if o.SendInitialEvents != nil {
		q.Set("sendInitialEvents", strconv.FormatBool(*o.SendInitialEvents))
	}
	return q
}
