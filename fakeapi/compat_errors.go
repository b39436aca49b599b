// compat_errors.go (compatibility layer): the failures of gets and
// writes, each as the real server words it (404, 409, 422, 405, 406, 415),
// and the reason the real server gives each HTTP code.
//
// client-go counterpart: k8s.io/apimachinery/pkg/api/errors (NewNotFound,
// NewAlreadyExists, NewConflict, NewInvalid, ...). Tutorial: 004 §2.5 (409
// Conflict, as the server words it).

package fakeapi

import (
	"fmt"
	"net/http"
)

func errNotFound(ri *resourceInfo, name string) *APIError {
	return &APIError{Code: http.StatusNotFound, Reason: "NotFound",
		Message: fmt.Sprintf("%s %q not found", ri.String(), name),
		Name:    name, Group: ri.Group, Kind: ri.Resource.Resource}
}

func errAlreadyExists(ri *resourceInfo, name string) *APIError {
	return &APIError{Code: http.StatusConflict, Reason: "AlreadyExists",
		Message: fmt.Sprintf("%s %q already exists", ri.String(), name),
		Name:    name, Group: ri.Group, Kind: ri.Resource.Resource}
}

// errConflict is the answer to a write whose precondition no longer holds;
// detail is the real server's wording of what changed.
func errConflict(ri *resourceInfo, name, detail string) *APIError {
	return &APIError{Code: http.StatusConflict, Reason: "Conflict",
		Message: fmt.Sprintf("Operation cannot be fulfilled on %s %q: %s", ri.String(), name, detail),
		Name:    name, Group: ri.Group, Kind: ri.Resource.Resource}
}

// errPrecondition is the real server's answer to a delete whose
// precondition does not hold; detail says which. Unlike errConflict it
// names the kind, not the resource.
func errPrecondition(ri *resourceInfo, name, detail string) *APIError {
	return &APIError{Code: http.StatusConflict, Reason: "Conflict",
		Message: fmt.Sprintf("Operation cannot be fulfilled on %s %q: %s", qualifiedKind(ri.kind, ri.Group), name, detail),
		Name:    name, Group: ri.Group, Kind: ri.kind}
}

const staleObject = "the object has been modified; please apply your changes to the latest version and try again"

// errInvalid is a 422 about one field of an object of kind kind.
func errInvalid(kind, group, name, field, reason, detail string) *APIError {
	return &APIError{Code: http.StatusUnprocessableEntity, Reason: "Invalid",
		Message: fmt.Sprintf("%s %q is invalid: %s: %s", qualifiedKind(kind, group), name, field, detail),
		Name:    name, Group: group, Kind: kind,
		Causes: []StatusCause{{Reason: reason, Message: detail, Field: field}}}
}

func qualifiedKind(kind, group string) string {
	if group == "" {
		return kind
	}
	return kind + "." + group
}

func errMethodNotAllowed() *APIError {
	return &APIError{Code: http.StatusMethodNotAllowed, Reason: "MethodNotAllowed",
		Message: "the server does not allow this method on the requested resource", emptyDetails: true}
}

// errNotAcceptable is a 406: the answer cannot take the form the client
// asked for in its Accept header (compat_negotiate.go).
func errNotAcceptable(msg string) *APIError {
	return &APIError{Code: http.StatusNotAcceptable, Reason: "NotAcceptable", Message: msg}
}

func errPathNotFound() *APIError {
	return &APIError{Code: http.StatusNotFound, Reason: "NotFound",
		Message: "the server could not find the requested resource",
		Causes:  []StatusCause{{Reason: "UnexpectedServerResponse", Message: "404 page not found"}}}
}

func errUnsupportedMedia(got string, accepted string) *APIError {
	return &APIError{Code: http.StatusUnsupportedMediaType, Reason: "UnsupportedMediaType",
		Message: fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: %s", accepted),
		Causes:  []StatusCause{{Reason: "UnsupportedMediaType", Message: got}}}
}

// reasonFor maps a code to the StatusReason the real server uses for it.
func reasonFor(code int) string {
	switch code {
	case 400:
		return "BadRequest"
	case 401:
		return "Unauthorized"
	case 403:
		return "Forbidden"
	case 404:
		return "NotFound"
	case 405:
		return "MethodNotAllowed"
	case 409:
		return "Conflict"
	case 410:
		return "Expired"
	case 413:
		return "RequestEntityTooLarge"
	case 415:
		return "UnsupportedMediaType"
	case 422:
		return "Invalid"
	case 429:
		return "TooManyRequests"
	case 500:
		return "InternalError"
	case 503:
		return "ServiceUnavailable"
	case 504:
		return "Timeout"
	}
	return "Unknown"
}
