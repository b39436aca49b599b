// openapi.go: the OpenAPI v3 documents kubectl reads before it writes.
//
// With its default --validate=strict, kubectl asks whether the server
// validates fields itself: it fetches the /openapi/v3 index, then the
// document of the object's group-version, and looks for a PATCH operation
// tagged with the object's group-version-kind whose parameters include
// fieldValidation. If it finds one, it skips its own schema check and sends
// fieldValidation=Strict instead (see options.go); if /openapi/v3 and
// /openapi/v2 are both missing, it refuses to write ("failed to download
// openapi"). So this file serves the index and one document per
// group-version, generated from the catalog: every path and operation the
// fake serves, with the real server's extensions and query parameters.
// It does not serve component schemas with fields (the fake has none), and
// /openapi/v2 stays 404, since kubectl needs only v3.
// client-go counterparts: k8s.io/client-go/openapi and openapi3 (the client
// side), k8s.io/kube-openapi's handler3 (the server side), and kubectl's
// query_param_verifier_v3.go. Tutorial: 000 §2.5 (what else the API server serves).

package fakeapi

import (
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
)

// openAPIDocs holds the JSON of every group-version document, keyed by its
// path under /openapi/v3/ ("api/v1", "apis/apps/v1"), and the index that
// points at them. The catalog never changes, so they are built once.
var openAPIDocs = sync.OnceValues(func() (map[string][]byte, []byte) {
	docs := map[string][]byte{}
	index := map[string]any{}
	for _, gv := range groupVersions() {
		key := "api/" + gv[1]
		if gv[0] != "" {
			key = "apis/" + gv[0] + "/" + gv[1]
		}
		b, _ := json.Marshal(openAPIDoc(gv[0], gv[1])) // plain maps: cannot fail
		docs[key] = b
		// The hash makes the URL change when the document does, so clients
		// may cache it for good; the real server uses SHA-512 too.
		sum := sha512.Sum512(b)
		index[key] = map[string]any{"serverRelativeURL": "/openapi/v3/" + key + "?hash=" + strings.ToUpper(hex.EncodeToString(sum[:]))}
	}
	b, _ := json.Marshal(map[string]any{"paths": index})
	return docs, b
})

// serveOpenAPI answers /openapi/v3 and /openapi/v3/{group-version}; it
// reports false for any other path.
func (s *Server) serveOpenAPI(w http.ResponseWriter, r *http.Request) bool {
	path := strings.TrimSuffix(r.URL.Path, "/")
	if path != "/openapi/v3" && !strings.HasPrefix(path, "/openapi/v3/") {
		return false
	}
	docs, index := openAPIDocs()
	body := index
	if path != "/openapi/v3" {
		body = docs[strings.TrimPrefix(path, "/openapi/v3/")]
		if body == nil {
			writeError(w, errPathNotFound())
			return true
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache, private")
	_, _ = w.Write(body)
	return true
}

// openAPIDoc is the OpenAPI 3.0 document of one group-version.
func openAPIDoc(group, version string) map[string]any {
	paths := map[string]any{}
	schemas := map[string]any{}
	for _, ri := range catalog {
		if ri.Group != group || ri.Version != version {
			continue
		}
		addPaths(paths, ri)
		// A bare object: enough for a client to see the kind exists. The
		// real document describes every field; this one describes none, so
		// it carries no x-kubernetes-group-version-kind (kubectl would
		// compute apply patches from it and warn that it cannot).
		schemas[schemaName(ri)] = map[string]any{
			"type":        "object",
			"description": ri.kind + " (fields not described by fakeapi)",
		}
	}
	return map[string]any{
		"openapi":    "3.0.0",
		"info":       map[string]any{"title": "Kubernetes", "version": "1.37"},
		"paths":      paths,
		"components": map[string]any{"schemas": schemas},
	}
}

// schemaName is the real document's name for ri's schema, such as
// "io.k8s.api.core.v1.Pod" or "io.k8s.api.apps.v1.Deployment".
func schemaName(ri *resourceInfo) string {
	return "io.k8s.api." + groupOrCore(ri) + "." + ri.Version + "." + ri.kind
}

// groupOrCore is ri's group, or "core" for the core group, as the real
// document names it in schema names and tags.
func groupOrCore(ri *resourceInfo) string {
	if ri.Group == "" {
		return "core"
	}
	return ri.Group
}

// addPaths adds ri's collection and object paths (and, for a namespaced
// kind, the all-namespaces list) with the operations the fake serves.
func addPaths(paths map[string]any, ri *resourceInfo) {
	prefix := "/api/" + ri.Version
	if ri.Group != "" {
		prefix = "/apis/" + ri.apiVersion()
	}
	gv := idGroupVersion(ri)
	scope := ""
	pathParams := []any{}
	coll := prefix + "/" + ri.Resource.Resource
	if ri.namespaced {
		scope = "Namespaced"
		coll = prefix + "/namespaces/{namespace}/" + ri.Resource.Resource
		pathParams = append(pathParams, pathParam("namespace", "object name and auth scope, such as for teams and projects"))
		paths[prefix+"/"+ri.Resource.Resource] = map[string]any{
			"get":        operation(ri, "list", "list"+gv+ri.kind+"ForAllNamespaces", "list or watch objects of kind "+ri.kind, nil),
			"parameters": queryParams(listParams...),
		}
	}
	pretty := queryParams("pretty")
	paths[coll] = map[string]any{
		"get":        operation(ri, "list", "list"+gv+scope+ri.kind, "list or watch objects of kind "+ri.kind, queryParams(listParams...)),
		"post":       operation(ri, "post", "create"+gv+scope+ri.kind, "create a "+ri.kind, queryParams("dryRun", "fieldManager", "fieldValidation")),
		"parameters": append(append([]any{}, pathParams...), pretty...),
	}
	one := append([]any{pathParam("name", "name of the "+ri.kind)}, pathParams...)
	paths[coll+"/{name}"] = map[string]any{
		"get":        operation(ri, "get", "read"+gv+scope+ri.kind, "read the specified "+ri.kind, nil),
		"put":        operation(ri, "put", "replace"+gv+scope+ri.kind, "replace the specified "+ri.kind, queryParams("dryRun", "fieldManager", "fieldValidation")),
		"patch":      operation(ri, "patch", "patch"+gv+scope+ri.kind, "partially update the specified "+ri.kind, queryParams("dryRun", "fieldManager", "fieldValidation", "force")),
		"delete":     operation(ri, "delete", "delete"+gv+scope+ri.kind, "delete a "+ri.kind, queryParams("dryRun", "gracePeriodSeconds", "orphanDependents", "propagationPolicy")),
		"parameters": append(one, pretty...),
	}
}

// idGroupVersion is "CoreV1" or "AppsV1": operationIds read like the real
// ones, such as listCoreV1NamespacedPod.
func idGroupVersion(ri *resourceInfo) string {
	g := groupOrCore(ri)
	return strings.ToUpper(g[:1]) + g[1:] + strings.ToUpper(ri.Version[:1]) + ri.Version[1:]
}

// operation is one operation on a path. kubectl finds a kind's operations
// by x-kubernetes-group-version-kind; x-kubernetes-action names the verb.
func operation(ri *resourceInfo, action, id, description string, params []any) map[string]any {
	op := map[string]any{
		"tags":                []string{groupOrCore(ri) + "_" + ri.Version},
		"description":         description,
		"operationId":         id,
		"responses":           map[string]any{"200": map[string]any{"description": "OK"}},
		"x-kubernetes-action": action,
		"x-kubernetes-group-version-kind": map[string]any{
			"group": ri.Group, "version": ri.Version, "kind": ri.kind,
		},
	}
	if len(params) > 0 {
		op["parameters"] = params
	}
	ref := map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/" + schemaName(ri)}}
	switch action {
	case "post", "put":
		op["requestBody"] = map[string]any{"required": true, "content": map[string]any{"application/json": ref}}
	case "patch": // the two patch types patch.go applies
		op["requestBody"] = map[string]any{"required": true, "content": map[string]any{
			"application/merge-patch+json": ref, "application/strategic-merge-patch+json": ref,
		}}
	}
	return op
}

// listParams are the query parameters of a list or watch, in the real
// document's order.
var listParams = []string{"allowWatchBookmarks", "continue", "fieldSelector", "labelSelector", "limit",
	"resourceVersion", "resourceVersionMatch", "sendInitialEvents", "timeoutSeconds", "watch"}

// paramTypes gives the schema type of the query parameters that are not strings.
var paramTypes = map[string]string{
	"allowWatchBookmarks": "boolean", "sendInitialEvents": "boolean", "watch": "boolean",
	"force": "boolean", "orphanDependents": "boolean",
	"limit": "integer", "timeoutSeconds": "integer", "gracePeriodSeconds": "integer",
}

// queryParams describes the named query parameters.
func queryParams(names ...string) []any {
	out := make([]any, 0, len(names))
	for _, n := range names {
		typ := paramTypes[n]
		if typ == "" {
			typ = "string"
		}
		out = append(out, map[string]any{"name": n, "in": "query", "schema": map[string]any{"type": typ, "uniqueItems": true}})
	}
	return out
}

// pathParam describes a required path parameter such as {namespace}.
func pathParam(name, description string) map[string]any {
	return map[string]any{"name": name, "in": "path", "description": description, "required": true,
		"schema": map[string]any{"type": "string", "uniqueItems": true}}
}
