// compat_options.go (compatibility layer): the query parameters every write
// accepts: fieldValidation and dryRun (CreateOptions, UpdateOptions,
// PatchOptions, DeleteOptions).
//
// fieldValidation says what the server should do with unknown or duplicate
// fields: Strict rejects the write (400; 422 for a patch), Warn accepts it
// with a Warning header per field, Ignore drops them silently
// (compat_fieldvalidation.go does it, from the real schema). kubectl sends Strict by
// default once the OpenAPI document (compat_openapi.go) says the server takes it.
// dryRun=All runs every check and answers as if the write happened, but
// stores nothing and sends no watch event.
// client-go counterparts: metav1.CreateOptions/UpdateOptions/PatchOptions/
// DeleteOptions and their validation in the apiserver
// (k8s.io/apimachinery/pkg/apis/meta/v1/validation).
// Tutorial: none.

package fakeapi

import (
	"fmt"
	"net/url"
)

// parseWriteOptions checks the fieldValidation and dryRun parameters of a
// write whose options are called kind ("CreateOptions", ...), and reports
// whether it is a dry run. A bad value is a 422 about the options, as the
// real server answers before it looks at the object.
//
// The level itself is applied where the body is decoded (checkFields in
// compat_fieldvalidation.go).
func parseWriteOptions(q url.Values, kind string) (dryRun bool, e *APIError) {
	bad := func(field, value, supported string) *APIError {
		detail := fmt.Sprintf("Unsupported value: %s: supported values: %s", value, supported)
		return errInvalid(kind, "meta.k8s.io", "", field, "FieldValueNotSupported", detail)
	}
	if kind != "DeleteOptions" {
		switch v := q.Get("fieldValidation"); v {
		case "", "Ignore", "Warn", "Strict":
		default:
			return false, bad("fieldValidation", fmt.Sprintf("%q", v), `"", "Ignore", "Strict", "Warn"`)
		}
	}
	for _, v := range q["dryRun"] {
		if v != "All" {
			return false, bad("dryRun", fmt.Sprintf("%q", q["dryRun"]), `"All"`)
		}
		dryRun = true
	}
	return dryRun, nil
}
