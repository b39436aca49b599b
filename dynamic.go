// dynamic.go holds DynamicClient, which reads and writes any resource as the
// generic object, *Unstructured, pods included: every member of the object
// is a map entry, whatever its kind. It is what a tool that works on kinds
// it does not know (kubectl, a garbage collector, a controller of custom
// resources) uses, and what a dynamic informer lists and watches with.
//
// client-go counterpart: k8s.io/client-go/dynamic (DynamicClient, New,
// Resource, Namespace and the Get, Create, Update, Delete, List and Watch methods of
// its resource interface) and dynamicinformer.NewFilteredDynamicInformer,
// whose ListWatch is built exactly as in ExampleDynamicClient.
//
// Tutorial: 004 §3.1 (generics vs. one type for all kinds) and §2.4
// (ListWatch).

package informer

import (
	"context"
	"errors"
	"net/http"
)

// DynamicClient reads and writes objects of any resource as *Unstructured.
type DynamicClient struct {
	client *RESTClient
}

// NewDynamicClient returns a DynamicClient that sends its requests through c.
func NewDynamicClient(c *RESTClient) *DynamicClient { return &DynamicClient{client: c} }

// Resource returns the calls for one resource, across all namespaces (or
// for a cluster-scoped resource) until Namespace narrows it.
func (d *DynamicClient) Resource(resource GroupVersionResource) DynamicResource {
	return DynamicResource{client: d.client, resource: resource}
}

// DynamicResource is one resource, in one namespace or all; its calls
// return *Unstructured objects. It is a small value: copy it freely.
type DynamicResource struct {
	client    *RESTClient
	resource  GroupVersionResource
	namespace string
}

// Namespace returns r restricted to namespace.
func (r DynamicResource) Namespace(namespace string) DynamicResource {
	r.namespace = namespace
	return r
}

// newUnstructured is the object factory of every dynamic call.
func newUnstructured() Object { return &Unstructured{} }

// Get reads the named object.
func (r DynamicResource) Get(ctx context.Context, name string) (*Unstructured, error) {
	return r.send(ctx, http.MethodGet, objectPath(r.resource, r.namespace, name), nil)
}

// Create stores a new object in r's namespace and returns it as stored.
func (r DynamicResource) Create(ctx context.Context, obj *Unstructured) (*Unstructured, error) {
	if obj == nil {
		return nil, errNilObject
	}
	return r.send(ctx, http.MethodPost, resourcePath(r.resource, r.namespace), obj)
}

// Update replaces the object named by obj's metadata.name with obj (an HTTP
// PUT); a stale metadata.resourceVersion is a 409 Conflict (IsConflict).
func (r DynamicResource) Update(ctx context.Context, obj *Unstructured) (*Unstructured, error) {
	if obj == nil {
		return nil, errNilObject
	}
	return r.send(ctx, http.MethodPut, objectPath(r.resource, r.namespace, obj.GetName()), obj)
}

// Delete deletes the named object; the server's default grace period
// applies.
func (r DynamicResource) Delete(ctx context.Context, name string) error {
	_, err := r.send(ctx, http.MethodDelete, objectPath(r.resource, r.namespace, name), nil)
	return err
}

// List lists the objects; each item gets the kind and apiVersion of the
// list, as client-go's dynamic client gives them.
func (r DynamicResource) List(ctx context.Context, options ListOptions) (*ObjectList, error) {
	return r.client.list(ctx, resourcePath(r.resource, r.namespace), options, r.resource, newUnstructured)
}

// Watch starts a watch whose events carry *Unstructured objects.
func (r DynamicResource) Watch(ctx context.Context, options ListOptions) (Watcher, error) {
	return r.client.watch(ctx, resourcePath(r.resource, r.namespace), options, newUnstructured)
}

// errNilObject is the error for a nil object given to Create or Update.
var errNilObject = errors.New("dynamic client: the object is nil")

func (r DynamicResource) send(ctx context.Context, method, path string, body *Unstructured) (*Unstructured, error) {
	var payload Object
	if body != nil {
		payload = body
	}
	obj, err := r.client.send(ctx, method, path, payload, r.resource, newUnstructured)
	if err != nil {
		return nil, err
	}
	return obj.(*Unstructured), nil
}
