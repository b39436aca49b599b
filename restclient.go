// restclient.go holds ListerWatcher, what a Reflector needs of a server, with its query and
// answer; then lists and watches one resource over HTTP on net/http and encoding/json alone,
// pods decoding into *Pod; layers_wire.go adds TLS, pings and every other kind.
// client-go counterpart: tools/cache listwatch.go; metav1.ListOptions, ListMeta;
// k8s.io/client-go/rest (Config, RESTClient); tools/cache NewListWatchFromClient.
// Tutorial: 004 §2.4 (ListWatch: ListFunc and WatchFunc), §4.1 (the Reflector over HTTP).

package informer

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
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

// RESTConfig says how to reach an API server.
type RESTConfig struct {
	Host            string          // "https://127.0.0.1:6443", or "http://127.0.0.1:8001" (kubectl proxy)
	BearerToken     string          // when set, sent as "Authorization: Bearer <token>"
	TLSClientConfig TLSClientConfig // how to trust an https server
	// Health checks, as client-go's (transport.go): ping a silent HTTP/2 connection after
	// HTTP2ReadIdleTimeout; close it if no answer comes within HTTP2PingTimeout.
	HTTP2ReadIdleTimeout, HTTP2PingTimeout time.Duration
	DisableHTTP2                           bool // HTTP/1.1 only
}

// TLSClientConfig holds the TLS settings of a RESTConfig.
type TLSClientConfig struct {
	Insecure bool   // skip verifying the server's certificate: for tests only
	CAFile   string // a PEM file of the certificate authorities to trust
	CAData   []byte // PEM data, used instead of CAFile when set
}

// GroupVersionResource names a resource: {"", "v1", "pods"} or {"apps", "v1", "deployments"}.
type GroupVersionResource struct {
	Group    string // the API group, "" for the core group served under /api
	Version  string // such as "v1"
	Resource string // the plural resource name, such as "pods"
}

// RESTClient sends list and watch requests to one API server.
type RESTClient struct {
	base   *url.URL
	token  string
	client *http.Client // no Timeout: a watch lasts minutes; contexts end requests
}

// NewRESTClient checks cfg and returns a client for it.
func NewRESTClient(cfg RESTConfig) (*RESTClient, error) {
	base, err := url.Parse(strings.TrimSuffix(cfg.Host, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("rest config: host %q must be an http:// or https:// URL", cfg.Host)
	}
	transport, err := transportFor(cfg) // hook: layers_wire.go
	if err != nil {
		return nil, err
	}
	return &RESTClient{base: base, token: cfg.BearerToken, client: &http.Client{Transport: transport}}, nil
}

// NewListWatchFromClient returns a ListerWatcher for resource in namespace
// (NamespaceAll for every namespace), filtered by fieldSelector ("" for none).
func NewListWatchFromClient(c *RESTClient, resource GroupVersionResource, namespace, fieldSelector string) *ListWatch {
	return NewFilteredListWatchFromClient(c, resource, namespace, func(o *ListOptions) {
		o.FieldSelector = fieldSelector
	})
}

// NewFilteredListWatchFromClient is NewListWatchFromClient with a function that edits
// every request's options, e.g. to set a label selector.
func NewFilteredListWatchFromClient(c *RESTClient, resource GroupVersionResource, namespace string, optionsModifier func(*ListOptions)) *ListWatch {
	newObject, path := objectFactory(resource), resourcePath(resource, namespace)
	modify := func(o ListOptions) ListOptions {
		if optionsModifier != nil {
			optionsModifier(&o)
		}
		return o
	}
	return &ListWatch{
		ListFunc: func(ctx context.Context, o ListOptions) (*ObjectList, error) {
			return c.list(ctx, path, modify(o), resource, newObject)
		},
		WatchFunc: func(ctx context.Context, o ListOptions) (Watcher, error) {
			return c.watch(ctx, path, modify(o), resource, newObject)
		},
	}
}

// objectFactory picks the Go type a resource decodes into: *Pod for core pods,
// newGenericObject's for everything else.
func objectFactory(r GroupVersionResource) func() Object {
	if r.Group == "" && r.Resource == "pods" {
		return func() Object { return &Pod{} }
	}
	return newGenericObject // nil in the first reading: list and watch refuse
}

// resourcePath is /api/v1/... for the core group, /apis/GROUP/VERSION/... for the
// others; namespaced when namespace is set.
func resourcePath(r GroupVersionResource, namespace string) string {
	p := "/api/" + r.Version
	if r.Group != "" {
		p = "/apis/" + r.Group + "/" + r.Version
	}
	if namespace != "" {
		p += "/namespaces/" + url.PathEscape(namespace)
	}
	return p + "/" + r.Resource
}

// request sends a request with body (nil for none) of contentType ("" is JSON) and
// returns a 2xx response for the caller to read and close; any other answer is an
// error, a *StatusError when the server sent a Status.
func (c *RESTClient) request(ctx context.Context, method, path string, q url.Values, contentType string, body []byte) (*http.Response, error) {
	u := *c.base
	u.Path, u.RawQuery = u.Path+path, q.Encode()
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body)) // nil: no body
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", cmp.Or(contentType, "application/json"))
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		return resp, nil
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return nil, errorFromResponse(resp, raw)
}

// errorFromResponse makes a failed answer's *StatusError: its Status body, or one
// of the code; layers_wire.go sets status_errors.go's, which names every code.
var errorFromResponse = func(resp *http.Response, body []byte) error {
	var s Status
	if json.Unmarshal(body, &s) != nil || s.Kind != "Status" {
		s = Status{Status: "Failure", Message: strings.TrimSpace(string(body))}
	}
	s.Code = cmp.Or(s.Code, int32(resp.StatusCode))
	return &StatusError{ErrStatus: s}
}

func (c *RESTClient) list(ctx context.Context, path string, o ListOptions, r GroupVersionResource, newObject func() Object) (*ObjectList, error) {
	if newObject == nil {
		return nil, errNotPods(r)
	}
	resp, err := c.request(ctx, http.MethodGet, path, o.Query(false), "", nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	list, err := decodeList(newBodyDecoder(resp.Body), newObject)
	if err != nil {
		return nil, fmt.Errorf("decoding the %s list: %w", r.Resource, err)
	}
	return list, nil
}

// decodeList decodes a list body, each item into a new object. Items carry no kind: as
// in client-go, a typed object keeps none, a generic one gets the list's.
func decodeList(dec bodyDecoder, newObject func() Object) (*ObjectList, error) {
	list := &ObjectList{}
	if err := dec.DecodeList(list, newObject); err != nil {
		return nil, err
	}
	kind, apiVersion := any(strings.TrimSuffix(list.Kind, "List")), any(list.APIVersion)
	for _, obj := range list.Items {
		if g, ok := withoutTypeMeta(obj).(interface{ setTypeIfUnset(kind, apiVersion any) }); ok {
			g.setTypeIfUnset(kind, apiVersion)
		}
	}
	return list, nil
}

// withoutTypeMeta drops a typed object's kind and apiVersion, so objects from lists and
// from watches look the same (as client-go's typed decoders do).
func withoutTypeMeta(obj Object) Object {
	if p, ok := obj.(*Pod); ok {
		p.TypeMeta = TypeMeta{}
	}
	return obj
}

func (c *RESTClient) watch(ctx context.Context, path string, o ListOptions, r GroupVersionResource, newObject func() Object) (Watcher, error) {
	if newObject == nil {
		return nil, errNotPods(r)
	}
	ctx, cancel := context.WithCancel(ctx)
	resp, err := c.request(ctx, http.MethodGet, path, o.Query(true), "", nil)
	if err != nil {
		cancel()
		return nil, err
	}
	return newStreamWatcher(resp.Body, newObject, cancel), nil
}

// errNotPods refuses a resource the first reading cannot decode.
func errNotPods(r GroupVersionResource) error {
	return fmt.Errorf("%s: the first reading decodes pods only (unstructured.go decodes the rest)", r.Resource)
}

// The steps the third reading changes (layers_wire.go sets them).
var (
	// transportFor returns the HTTP transport for cfg: here net/http's default, which
	// trusts the system's authorities; transport.go adds CA files, pings and timeouts.
	transportFor = func(cfg RESTConfig) (http.RoundTripper, error) {
		if tc := cfg.TLSClientConfig; tc.Insecure || tc.CAFile != "" || tc.CAData != nil {
			return nil, errors.New("rest config: TLS settings need the third reading (transport.go)")
		}
		return http.DefaultTransport, nil
	}
	// newGenericObject makes the object of any resource but pods: nil here, an
	// *Unstructured (unstructured.go) in the third reading.
	newGenericObject func() Object
)
