// restclient.go holds ListerWatcher, what a Reflector needs of a server,
// with the query it sends (ListOptions) and the answer (ObjectList); then a
// client that lists and watches one resource over HTTP with net/http and
// encoding/json alone: pods decode into *Pod, failures into *StatusError.
// The watch stream itself is read in watch.go.
//
// client-go counterpart: tools/cache listwatch.go (ListerWatcher,
// ListWatch, NewListWatchFromClient, NewFilteredListWatchFromClient);
// metav1.ListOptions and ListMeta; k8s.io/client-go/rest (Config,
// RESTClient, Request).
//
// Tutorial: 004 §2.4 (ListWatch: ListFunc and WatchFunc), §4.1 (the
// Reflector over HTTP).

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
	"sync/atomic"
	"time"
)

// NamespaceAll selects every namespace.
const NamespaceAll = ""

// ListOptions is the query of a list or a watch: the fields of client-go's
// metav1.ListOptions that a Reflector sends.
type ListOptions struct {
	// LabelSelector ("app=web") and FieldSelector ("spec.nodeName=n1") are
	// applied by the server, to lists and watches alike.
	LabelSelector string
	FieldSelector string
	// ResourceVersion is, for a list, how fresh the answer must be: ""
	// the newest (read from etcd), "0" anything the server has cached, a
	// version "at least this new" (or exactly it, with ResourceVersionMatch).
	// For a watch, the version to start after.
	ResourceVersion      string
	ResourceVersionMatch ResourceVersionMatch
	// Limit asks for at most this many items per page (0: no paging); the
	// next page is asked for with Continue, the token of the one before.
	Limit    int64
	Continue string
	// TimeoutSeconds makes the server end a watch after that long.
	TimeoutSeconds *int64
	// AllowWatchBookmarks lets the server send BOOKMARK events; it may
	// send none.
	AllowWatchBookmarks bool
	// Reading 2: the streaming list (client-go 1.35+).
	// SendInitialEvents asks a watch to start with the current objects as
	// ADDED events, ended by a bookmark (a streaming list).
	SendInitialEvents *bool
	// End of reading 2.
}

// ResourceVersionMatch says how a list reads ListOptions.ResourceVersion.
type ResourceVersionMatch string

// The values of ResourceVersionMatch.
const (
	// ResourceVersionMatchNotOlderThan: data at least as new as the version.
	ResourceVersionMatchNotOlderThan ResourceVersionMatch = "NotOlderThan"
	// ResourceVersionMatchExact: data exactly at the version.
	ResourceVersionMatchExact ResourceVersionMatch = "Exact"
)

// ListMeta is what a list says of itself: the version it was read at and,
// when it comes in pages, where the next one starts.
type ListMeta struct {
	// ResourceVersion is the version the list was read at: a watch started
	// from it misses nothing and repeats nothing.
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// Continue is "" on the last page.
	Continue string `json:"continue,omitempty"`
	// RemainingItemCount estimates the items left after this page.
	RemainingItemCount *int64 `json:"remainingItemCount,omitempty"`
}

// ObjectList is one page (or the whole) of a list: client-go's PodList and
// the like, after meta.ExtractList has taken the items out.
type ObjectList struct {
	TypeMeta
	ListMeta
	Items []Object
}

// ListerWatcher is what a Reflector needs of a server: list the objects, then
// watch them change. Both end when ctx ends.
type ListerWatcher interface {
	// List returns the objects (one page, with options.Limit).
	List(ctx context.Context, options ListOptions) (*ObjectList, error)
	// Watch starts a watch of the changes after options.ResourceVersion,
	// in the order the server made them.
	Watch(ctx context.Context, options ListOptions) (Watcher, error)
}

// ListFunc is the function behind ListWatch.List.
type ListFunc func(ctx context.Context, options ListOptions) (*ObjectList, error)

// WatchFunc is the function behind ListWatch.Watch.
type WatchFunc func(ctx context.Context, options ListOptions) (Watcher, error)

// ListWatch is a ListerWatcher made of two functions, so that a test or a
// program can list and watch from anywhere (tutorial 004 §2.4).
type ListWatch struct {
	ListFunc  ListFunc
	WatchFunc WatchFunc
	// DisableChunking makes List drop options.Limit, for a source that
	// cannot answer in pages.
	DisableChunking bool
}

// List calls ListFunc; a nil one is an error, not a panic.
func (lw *ListWatch) List(ctx context.Context, options ListOptions) (*ObjectList, error) {
	if lw.ListFunc == nil {
		return nil, errors.New("ListWatch.List: the function for this call is nil")
	}
	if lw.DisableChunking {
		options.Limit = 0
	}
	return lw.ListFunc(ctx, options)
}

// Watch calls WatchFunc; a nil one is an error, not a panic.
func (lw *ListWatch) Watch(ctx context.Context, options ListOptions) (Watcher, error) {
	if lw.WatchFunc == nil {
		return nil, errors.New("ListWatch.Watch: the function for this call is nil")
	}
	return lw.WatchFunc(ctx, options)
}

// Query returns o as the URL query of a list (watch false) or a watch,
// leaving out what is zero, as client-go sends it.
func (o ListOptions) Query(watch bool) url.Values {
	q := url.Values{}
	if watch {
		q.Set("watch", "true")
	}
	if o.LabelSelector != "" {
		q.Set("labelSelector", o.LabelSelector)
	}
	if o.FieldSelector != "" {
		q.Set("fieldSelector", o.FieldSelector)
	}
	if o.ResourceVersion != "" {
		q.Set("resourceVersion", o.ResourceVersion)
	}
	if o.ResourceVersionMatch != "" {
		q.Set("resourceVersionMatch", string(o.ResourceVersionMatch))
	}
	if o.Continue != "" {
		q.Set("continue", o.Continue)
	}
	if o.Limit > 0 {
		q.Set("limit", strconv.FormatInt(o.Limit, 10))
	}
	if o.AllowWatchBookmarks {
		q.Set("allowWatchBookmarks", "true")
	}
	if o.TimeoutSeconds != nil {
		q.Set("timeoutSeconds", strconv.FormatInt(*o.TimeoutSeconds, 10))
	}
	// Reading 2: the streaming list.
	if o.SendInitialEvents != nil {
		q.Set("sendInitialEvents", strconv.FormatBool(*o.SendInitialEvents))
	}
	// End of reading 2.
	return q
}

// RESTConfig says how to reach an API server.
type RESTConfig struct {
	// Host is the server's URL: "https://127.0.0.1:6443", or
	// "http://127.0.0.1:8001" behind kubectl proxy.
	Host string
	// BearerToken, when set, is sent as "Authorization: Bearer <token>".
	BearerToken string
	// Reading 3: what a real cluster needs (transport.go).
	// TLSClientConfig says how to trust an https server.
	TLSClientConfig TLSClientConfig
	// HTTP2ReadIdleTimeout and HTTP2PingTimeout are client-go's health
	// check of an HTTP/2 connection: a ping after HTTP2ReadIdleTimeout
	// without a frame, the connection closed if no answer comes within
	// HTTP2PingTimeout. 0 takes client-go's defaults; negative turns it off.
	HTTP2ReadIdleTimeout time.Duration
	HTTP2PingTimeout     time.Duration
	// DisableHTTP2 keeps to HTTP/1.1.
	DisableHTTP2 bool
	// ContentType is the wire format asked for: "" (the default) asks for
	// Kubernetes protobuf first for the built-in kinds, as client-go's typed
	// clientset does, and JSON for the rest; ContentTypeJSON asks for JSON
	// everywhere, as the first reading does (restclient_content.go).
	ContentType string
	// End of reading 3.
}

// GroupVersionResource names a resource: {"", "v1", "pods"} or
// {"apps", "v1", "deployments"}. Group "" is the core group, served under
// /api; Resource is the plural, lowercase name the URL uses.
type GroupVersionResource struct {
	Group    string
	Version  string
	Resource string
}

// RESTClient sends requests to one API server. It is safe for concurrent use.
type RESTClient struct {
	base  *url.URL
	token string
	// client has no Timeout: a watch lasts minutes; contexts end requests.
	client *http.Client
	// maxRetries is how many times a request is sent again, at most
	// (defaultMaxRetries; this package's tests set 0, as client-go's
	// Request.MaxRetries(0) does).
	maxRetries int
	// Reading 3: content negotiation (restclient_content.go).
	contentType string // RESTConfig.ContentType
	// notAcceptable is set once the server refused protobuf with a 406:
	// from then on every request asks for JSON.
	notAcceptable atomic.Bool
	// End of reading 3.
}

// NewRESTClient checks cfg and returns a client for it. It sends nothing:
// a wrong token or an unreachable host shows in the first request.
func NewRESTClient(cfg RESTConfig) (*RESTClient, error) {
	base, err := url.Parse(strings.TrimSuffix(cfg.Host, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("rest config: host %q must be an http:// or https:// URL", cfg.Host)
	}
	// A nil Transport is net/http's default: no TLS settings of our own.
	c := &RESTClient{base: base, token: cfg.BearerToken, client: &http.Client{}, maxRetries: defaultMaxRetries}
	// Reading 3: client-go's transport: CA files, HTTP/2 health pings, timeouts (transport.go).
	transport, err := newTransport(cfg)
	if err != nil {
		return nil, err
	}
	c.client.Transport = transport
	switch cfg.ContentType {
	case "", ContentTypeJSON, ContentTypeProtobuf:
	default:
		return nil, fmt.Errorf("rest config: content type %q must be %q, %q or empty",
			cfg.ContentType, ContentTypeJSON, ContentTypeProtobuf)
	}
	c.contentType = cfg.ContentType
	// End of reading 3.
	return c, nil
}

// NewListWatchFromClient returns a ListerWatcher for resource in namespace
// (NamespaceAll for every namespace), filtered by fieldSelector ("" for none).
func NewListWatchFromClient(c *RESTClient, resource GroupVersionResource, namespace, fieldSelector string) *ListWatch {
	return NewFilteredListWatchFromClient(c, resource, namespace, func(o *ListOptions) {
		o.FieldSelector = fieldSelector
	})
}

// NewFilteredListWatchFromClient is NewListWatchFromClient with a function
// that edits every request's options, for example to set a label selector.
func NewFilteredListWatchFromClient(c *RESTClient, resource GroupVersionResource, namespace string,
	optionsModifier func(*ListOptions)) *ListWatch {
	newObject := objectFactory(resource)
	path := resourcePath(resource, namespace)
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

// objectFactory returns what makes the Go object a resource decodes into:
// a *Pod for core pods; nil when there is no Go type for it.
func objectFactory(r GroupVersionResource) func() Object {
	if r.Group == "" && r.Resource == "pods" {
		return func() Object { return &Pod{} }
	}
	// Reading 3: every other kind decodes into an Unstructured, which keeps every field.
	if r.Resource != "" {
		return func() Object { return &Unstructured{} }
	}
	// End of reading 3.
	return nil
}

// resourcePath is /api/v1/... for the core group, /apis/GROUP/VERSION/...
// for the others; namespaced when namespace is set.
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

// request sends one request that accepts answers of the media types in
// accept, with body (nil for none) of contentType ("" is JSON), and returns
// a 2xx response for the caller to read and close. Any other answer is an
// error: a *StatusError, from the server's Status when it sent one. It sends
// the request again when the server asks it to, or the connection broke
// before an answer came, as client-go does (restclient_retry.go;
// TestRESTClientRetriesWhenAsked, parity case TooManyRequests).
func (c *RESTClient) request(ctx context.Context, method, path string, q url.Values, accept, contentType string,
	body []byte) (*http.Response, error) {
	u := *c.base
	u.Path += path
	u.RawQuery = q.Encode()
	var resp *http.Response
	for attempt := 0; ; attempt++ {
		// A nil body reads as empty: the request then has none.
		req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", accept)
		if body != nil {
			req.Header.Set("Content-Type", cmp.Or(contentType, "application/json"))
		}
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		resp, err = c.client.Do(req)
		wait, again := retryAfter(req, resp, err)
		if !again || attempt == c.maxRetries || ctx.Err() != nil {
			if err != nil {
				return nil, err
			}
			break
		}
		discard(resp)
		if !sleep(ctx, wait) {
			return nil, ctx.Err()
		}
	}
	// Reading 3: a server with no protobuf: ask again for JSON (restclient_content.go).
	if c.notAcceptableFor(accept, resp) {
		resp.Body.Close()
		return c.request(ctx, method, path, q, ContentTypeJSON, contentType, body)
	}
	// End of reading 3.
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		return resp, nil
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return nil, errorFromResponse(resp, raw)
}

// errorFromResponse makes the *StatusError of a failed answer: the Status in
// its body, or, when the body is not one, a Status made of the code.
func errorFromResponse(resp *http.Response, body []byte) error {
	code := int32(resp.StatusCode)
	var s Status
	err := json.Unmarshal(body, &s)
	// Reading 3: a Status in protobuf, to a request that asked for it (restclient_content.go).
	if isProtobuf(resp.Header) {
		err = decodeProtobufObject(body, &s)
	}
	// End of reading 3.
	// client-go takes a body that is a failed Status as the server wrote it
	// (rest.Result.Error); anything else is only a code.
	if err != nil || s.Kind != "Status" || s.Status != "Failure" {
		s = Status{Status: "Failure", Code: code, Message: strings.TrimSpace(string(body))}
		// Reading 3: what client-go makes of a bare code (status_errors.go).
		s = statusForCode(resp, s.Message)
		// End of reading 3.
		return &StatusError{ErrStatus: s}
	}
	s.Code = cmp.Or(s.Code, code)
	return &StatusError{ErrStatus: s}
}

func (c *RESTClient) list(ctx context.Context, path string, o ListOptions, r GroupVersionResource,
	newObject func() Object) (*ObjectList, error) {
	if newObject == nil {
		return nil, errNoGoType(r)
	}
	accept := "application/json"
	// Reading 3: protobuf first for a typed kind, as client-go asks (restclient_content.go).
	accept = c.acceptFor(newObject)
	// End of reading 3.
	resp, err := c.request(ctx, http.MethodGet, path, o.Query(false), accept, "", nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	list, err := decodeList(newBodyDecoder(resp), newObject)
	if err != nil {
		return nil, fmt.Errorf("decoding the %s list: %w", r.Resource, err)
	}
	return list, nil
}

// watch starts a watch request; the stream watcher reads the answer's body
// as it arrives, and Stop cancels the request.
func (c *RESTClient) watch(ctx context.Context, path string, o ListOptions, r GroupVersionResource,
	newObject func() Object) (Watcher, error) {
	if newObject == nil {
		return nil, errNoGoType(r)
	}
	accept := "application/json"
	// Reading 3: protobuf first for a typed kind, as client-go asks (restclient_content.go).
	accept = c.acceptFor(newObject)
	// End of reading 3.
	ctx, cancel := context.WithCancel(ctx)
	resp, err := c.request(ctx, http.MethodGet, path, o.Query(true), accept, "", nil)
	if err != nil {
		cancel()
		if endsWatchNormally(err) {
			// Still broken after every retry: client-go answers a watch that
			// ended at once, which the Reflector takes as a very short watch.
			return newEmptyWatch(), nil
		}
		return nil, err
	}
	return newStreamWatcher(resp, newObject, cancel), nil
}

// errNoGoType refuses a resource that no Go type decodes: in the first
// reading, anything but pods (the third reading decodes any resource that
// has a name).
func errNoGoType(r GroupVersionResource) error {
	return fmt.Errorf("resource %q: no Go type to decode it into", r.Resource)
}
