// restclient_write.go adds the few single-object calls a read-modify-write
// needs to RESTClient: Get one object, Create one, Update (PUT) one, and
// UpdateStatus (PUT to its /status subresource) for a controller. Pods
// come back as *Pod, other kinds as *Unstructured. Do, List and Watch are
// the same requests with the Go type of the answer chosen by the caller:
// the dynamic package (dynamic/) uses them to get *Unstructured for every
// kind, pods included. Errors the server answers with come back as
// *StatusError, so IsConflict, IsNotFound and IsAlreadyExists work on them;
// a stale resourceVersion on Update is a 409 Conflict.
//
// client-go counterpart: the Get, Create, Update and UpdateStatus methods of
// the typed clients (k8s.io/client-go/kubernetes/typed/core/v1), built on
// k8s.io/client-go/rest's Request (Do, SubResource, and Into for the type
// of the answer).
//
// Tutorial: 000 §3.3 and 004 §2.5 (optimistic concurrency on writes).
//
// Reading 3: the real wire (the writes behind a read-modify-write).

package informer

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// maxObjectBytes bounds the body read for one object or one error.
const maxObjectBytes = 16 << 20

// Get reads the named object of resource from the server.
func (c *RESTClient) Get(ctx context.Context, resource GroupVersionResource, namespace, name string) (Object, error) {
	path := objectPath(resource, namespace, name)
	return c.send(ctx, http.MethodGet, path, nil, resource, objectFactory(resource))
}

// Create stores a new object; the namespace is obj's. It returns the object
// as the server stored it, with its uid and resourceVersion set.
func (c *RESTClient) Create(ctx context.Context, resource GroupVersionResource, obj Object) (Object, error) {
	path := resourcePath(resource, obj.GetNamespace())
	return c.send(ctx, http.MethodPost, path, obj, resource, objectFactory(resource))
}

// Update replaces the object with obj (an HTTP PUT). If obj carries a
// resourceVersion that is no longer the current one, the server refuses
// with a 409 Conflict (IsConflict); re-read and try again, see
// retry.RetryOnConflict. It returns the object as stored, with its new version.
func (c *RESTClient) Update(ctx context.Context, resource GroupVersionResource, obj Object) (Object, error) {
	path := objectPath(resource, obj.GetNamespace(), obj.GetName())
	return c.send(ctx, http.MethodPut, path, obj, resource, objectFactory(resource))
}

// UpdateStatus replaces the status of the object obj names with obj's (an
// HTTP PUT to the object's /status subresource, which the kinds with a
// status serve): the server keeps the stored spec whatever obj says, so a
// controller reporting what it sees cannot undo a user's change to the
// spec. A stale resourceVersion is a 409 Conflict, as with Update. It
// returns the object as stored.
func (c *RESTClient) UpdateStatus(ctx context.Context, resource GroupVersionResource, obj Object) (Object, error) {
	path := objectPath(resource, obj.GetNamespace(), obj.GetName()) + "/status"
	return c.send(ctx, http.MethodPut, path, obj, resource, objectFactory(resource))
}

// Do sends one request for resource with method (GET, POST, PUT, DELETE),
// with body (nil for none) encoded as JSON, to the named object, or to the
// collection when name is "" (a POST). The answer is decoded into the
// object newObject returns; nil picks as Get does (*Pod for pods,
// *Unstructured for other kinds). A failure the server answers with is a
// *StatusError.
func (c *RESTClient) Do(ctx context.Context, method string, resource GroupVersionResource, namespace, name string, body Object, newObject func() Object) (Object, error) {
	if newObject == nil {
		newObject = objectFactory(resource)
	}
	path := resourcePath(resource, namespace)
	if name != "" {
		path = objectPath(resource, namespace, name)
	}
	return c.send(ctx, method, path, body, resource, newObject)
}

// List lists resource in namespace (NamespaceAll for every namespace),
// decoding each item into the object newObject returns (nil: as Get
// does). Items without a kind (a list's items carry none) that decode into
// *Unstructured get the list's kind and apiVersion.
func (c *RESTClient) List(ctx context.Context, resource GroupVersionResource, namespace string, options ListOptions, newObject func() Object) (*ObjectList, error) {
	if newObject == nil {
		newObject = objectFactory(resource)
	}
	return c.list(ctx, resourcePath(resource, namespace), options, resource, newObject)
}

// Watch starts a watch of resource in namespace whose events carry objects
// made by newObject (nil: as Get does).
func (c *RESTClient) Watch(ctx context.Context, resource GroupVersionResource, namespace string, options ListOptions, newObject func() Object) (Watcher, error) {
	if newObject == nil {
		newObject = objectFactory(resource)
	}
	return c.watch(ctx, resourcePath(resource, namespace), options, resource, newObject)
}

// objectPath is the path of one named object.
func objectPath(r GroupVersionResource, namespace, name string) string {
	return resourcePath(r, namespace) + "/" + url.PathEscape(name)
}

// send makes one request with body (nil for none) encoded as JSON and
// decodes the object in the answer into newObject's type, or returns the
// Status of a failure.
func (c *RESTClient) send(ctx context.Context, method, path string, body Object, r GroupVersionResource, newObject func() Object) (Object, error) {
	var data []byte
	if body != nil {
		var err error
		if data, err = json.Marshal(body); err != nil {
			return nil, fmt.Errorf("encoding the %s: %w", r.Resource, err)
		}
	}
	resp, err := c.request(ctx, method, path, nil, "", data)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxObjectBytes))
	if err != nil {
		return nil, fmt.Errorf("reading the %s: %w", r.Resource, err)
	}
	obj, err := decodeObject(raw, newObject)
	if err != nil {
		return nil, fmt.Errorf("decoding the %s: %w", r.Resource, err)
	}
	return obj, nil
}

// decodeObject decodes one object from its bytes, as json.Unmarshal does.
func decodeObject(raw json.RawMessage, newObject func() Object) (Object, error) {
	obj := newObject()
	if err := json.Unmarshal(raw, obj); err != nil {
		return nil, err
	}
	return withoutTypeMeta(obj), nil
}
