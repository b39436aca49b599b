// errors.go: every failure the server reports, as a Kubernetes Status: the
// JSON body of every error answer and of a watch's ERROR event. The List/Watch
// path has three of its own: 400 for a bad query, 410 Expired for a version
// the history no longer reaches, 504 for one the server has not reached yet.
// The failures of gets and writes are in compat_errors.go.
//
// client-go counterpart: k8s.io/apimachinery/pkg/api/errors (StatusError,
// NewGone, NewTimeoutError, ...) and metav1.Status. Reading path: step 6.
// Tutorial: 004 §2.5 (409 Conflict) and 000 §4.3 (what 410 and 429 mean to a client).

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
	writeStatus(w, e.Code, e.status()) // compat_protoanswer.go: JSON, or protobuf if asked
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

func errBadRequest(msg string) *APIError {
	return &APIError{Code: http.StatusBadRequest, Reason: "BadRequest", Message: msg}
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
