// Package dynamic holds DynamicClient, which reads and writes any resource
// as the generic object, *informer.Unstructured, pods included: every member
// of the object is a map entry, whatever its kind. It is what a tool that
// works on kinds it does not know (kubectl, a garbage collector, a
// controller of custom resources) uses, and what a dynamic informer lists
// and watches with.
//
// client-go counterpart: k8s.io/client-go/dynamic (DynamicClient, New,
// Resource, Namespace and the Get, Create, Update, Delete, List and Watch
// methods of its resource interface) and
// dynamicinformer.NewFilteredDynamicInformer, whose ListWatch is built
// exactly as in ExampleDynamicClient. Ours takes the root package's
// *RESTClient and its calls take no options; client-go's New takes a
// rest.Interface and NewForConfig a *rest.Config.
//
// Tutorial: 004 §3.1 (generics vs. one type for all kinds) and §2.4
// (ListWatch).
package dynamic

import (
	"context"
	"errors"
	"net/http"

	informer "github.com/learn-k8s/informer"
)

// DynamicClient reads and writes objects of any resource as
// *informer.Unstructured.
type DynamicClient struct {
	client *informer.RESTClient
}

// New returns a DynamicClient that sends its requests through c.
func New(c *informer.RESTClient) *DynamicClient { return &DynamicClient{client: c} }

// Resource returns the calls for one resource, across all namespaces (or
// for a cluster-scoped resource) until Namespace narrows it.
func (d *DynamicClient) Resource(resource informer.GroupVersionResource) ResourceInterface {
	return ResourceInterface{client: d.client, resource: resource}
}

// ResourceInterface is one resource, in one namespace or all; its calls
// return *informer.Unstructured objects. It is a small value: copy it
// freely. (client-go's is an interface of the same name.)
type ResourceInterface struct {
	client    *informer.RESTClient
	resource  informer.GroupVersionResource
	namespace string
}

// Namespace returns r restricted to namespace.
func (r ResourceInterface) Namespace(namespace string) ResourceInterface {
	r.namespace = namespace
	return r
}

// newUnstructured is the object factory of every call: *Unstructured for
// every kind, pods included.
func newUnstructured() informer.Object { return &informer.Unstructured{} }

// Get reads the named object.
func (r ResourceInterface) Get(ctx context.Context, name string) (*informer.Unstructured, error) {
	return r.send(ctx, http.MethodGet, name, nil)
}

// Create stores a new object in r's namespace and returns it as stored.
func (r ResourceInterface) Create(ctx context.Context, obj *informer.Unstructured) (*informer.Unstructured, error) {
	if obj == nil {
		return nil, errNilObject
	}
	return r.send(ctx, http.MethodPost, "", obj)
}

// Update replaces the object named by obj's metadata.name with obj (an HTTP
// PUT); a stale metadata.resourceVersion is a 409 Conflict
// (informer.IsConflict).
func (r ResourceInterface) Update(ctx context.Context, obj *informer.Unstructured) (*informer.Unstructured, error) {
	if obj == nil {
		return nil, errNilObject
	}
	return r.send(ctx, http.MethodPut, obj.GetName(), obj)
}

// Delete deletes the named object; the server's default grace period
// applies.
func (r ResourceInterface) Delete(ctx context.Context, name string) error {
	if name == "" {
		return errNoName
	}
	_, err := r.send(ctx, http.MethodDelete, name, nil)
	return err
}

// List lists the objects; each item gets the kind and apiVersion of the
// list, as client-go's dynamic client gives them.
func (r ResourceInterface) List(ctx context.Context, options informer.ListOptions) (*informer.ObjectList, error) {
	return r.client.List(ctx, r.resource, r.namespace, options, newUnstructured)
}

// Watch starts a watch whose events carry *informer.Unstructured objects.
func (r ResourceInterface) Watch(ctx context.Context, options informer.ListOptions) (informer.Watcher, error) {
	return r.client.Watch(ctx, r.resource, r.namespace, options, newUnstructured)
}

var (
	// errNilObject is the error for a nil object given to Create or Update.
	errNilObject = errors.New("dynamic client: the object is nil")
	// errNoName is the error for a Delete without a name (which would
	// address the whole collection).
	errNoName = errors.New("dynamic client: the name is empty")
)

// send makes one request to the named object ("" for the collection), with
// body (nil for none).
func (r ResourceInterface) send(ctx context.Context, method, name string, body *informer.Unstructured) (*informer.Unstructured, error) {
	var payload informer.Object
	if body != nil {
		payload = body
	}
	obj, err := r.client.Do(ctx, method, r.resource, r.namespace, name, payload, newUnstructured)
	if err != nil {
		return nil, err
	}
	return obj.(*informer.Unstructured), nil
}
