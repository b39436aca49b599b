// errors.go: every failure the server reports, as a Kubernetes Status.
//
// A Status is the JSON body of every error answer (and of the ERROR event of
// a watch). client-go counterpart: k8s.io/apimachinery/pkg/api/errors
// (StatusError, NewNotFound, NewConflict, ...) and metav1.Status.
// Tutorial: 000 §2.5 (what 404, 409, 410 and 429 mean to a client).

package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// APIError is a failed request: the HTTP code and the Status the server
// answers with. The direct Go methods (Create, Update, ...) return it too,
// so a test sees exactly what an HTTP client would have seen.
type APIError struct {
	Code    int    // HTTP status code, e.g. 409
	Reason  string // machine-readable reason, e.g. "Conflict"
	Message string // human-readable message, as the real server words it

	Name  string // details.name: the object concerned, if any
	Group string // details.group
	Kind  string // details.kind: the resource ("pods") or kind ("Pod")

	Causes            []StatusCause // details.causes
	RetryAfterSeconds int           // details.retryAfterSeconds and the Retry-After header
	Continue          string        // metadata.continue: a fresh token on an expired continue

	emptyDetails bool // details is sent even when empty ({}), as in the real 405
}

// StatusCause is one entry of a Status's details.causes.
type StatusCause struct {
	// Reason is machine-readable, e.g. "FieldValueRequired".
	Reason string `json:"reason,omitempty"`
	// Message is for people.
	Message string `json:"message,omitempty"`
	// Field names the offending field, e.g. "metadata.name".
	Field string `json:"field,omitempty"`
}

// Error returns the Status message, so APIError reads like any error.
func (e *APIError) Error() string { return e.Message }

// statusBody is a Status as JSON, its fields in the real server's order.
type statusBody struct {
	Kind       string         `json:"kind"`
	APIVersion string         `json:"apiVersion"`
	Metadata   map[string]any `json:"metadata"`
	Status     string         `json:"status"`
	Message    string         `json:"message,omitempty"`
	Reason     string         `json:"reason,omitempty"`
	Details    *statusDetails `json:"details,omitempty"`
	Code       int            `json:"code,omitempty"`
}

// statusDetails is a Status's details, in the real server's field order.
type statusDetails struct {
	Name              string        `json:"name,omitempty"`
	Group             string        `json:"group,omitempty"`
	Kind              string        `json:"kind,omitempty"`
	UID               string        `json:"uid,omitempty"`
	Causes            []StatusCause `json:"causes,omitempty"`
	RetryAfterSeconds int           `json:"retryAfterSeconds,omitempty"`
}

// status renders e as the Status the real server sends.
func (e *APIError) status() statusBody {
	meta := map[string]any{}
	if e.Continue != "" {
		meta["continue"] = e.Continue
	}
	st := statusBody{Kind: "Status", APIVersion: "v1", Metadata: meta, Status: "Failure",
		Message: e.Message, Reason: e.Reason, Code: e.Code}
	d := statusDetails{Name: e.Name, Group: e.Group, Kind: e.Kind, Causes: e.Causes, RetryAfterSeconds: e.RetryAfterSeconds}
	if d.Name != "" || d.Group != "" || d.Kind != "" || len(d.Causes) > 0 || d.RetryAfterSeconds > 0 || e.emptyDetails {
		st.Details = &d
	}
	return st
}

// writeError answers a request with e.
func writeError(w http.ResponseWriter, e *APIError) {
	if e.RetryAfterSeconds > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfterSeconds))
	}
	writeJSON(w, e.Code, e.status())
}

// writeJSON answers a request with v encoded as JSON.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache, private")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // "<none>", as the real server writes it
	_ = enc.Encode(v)        // a client that went away is not our error
}

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

func errBadRequest(msg string) *APIError {
	return &APIError{Code: http.StatusBadRequest, Reason: "BadRequest", Message: msg}
}

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

func errGone(msg string) *APIError {
	return &APIError{Code: http.StatusGone, Reason: "Expired", Message: msg}
}

// errTooLargeRV is the real server's answer to a read at a version it has
// not reached within its wait.
func errTooLargeRV(asked, current uint64) *APIError {
	return &APIError{Code: http.StatusGatewayTimeout, Reason: "Timeout",
		Message:           fmt.Sprintf("Timeout: Too large resource version: %d, current: %d", asked, current),
		Causes:            []StatusCause{{Reason: "ResourceVersionTooLarge", Message: "Too large resource version"}},
		RetryAfterSeconds: 1}
}

func errMethodNotAllowed() *APIError {
	return &APIError{Code: http.StatusMethodNotAllowed, Reason: "MethodNotAllowed",
		Message: "the server does not allow this method on the requested resource", emptyDetails: true}
}

// errNotAcceptable is a 406: the answer cannot take the form the client
// asked for in its Accept header (negotiate.go).
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

// errInjected is the answer FailNext makes a request give.
func errInjected(code int) *APIError {
	e := &APIError{Code: code, Reason: reasonFor(code), Message: "injected failure: " + http.StatusText(code)}
	switch code {
	case http.StatusTooManyRequests:
		e.Message = "Too many requests, please try again later."
		e.RetryAfterSeconds = 1
	case http.StatusInternalServerError:
		e.Message = "Internal error occurred: injected failure"
		e.Causes = []StatusCause{{Message: "injected failure"}}
	}
	return e
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
