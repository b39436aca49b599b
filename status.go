// status.go holds Status, the error body an API server sends, StatusError, the error made of
// it, and the checks with which the Reflector chooses: re-watch, back off or relist.
// client-go counterpart: metav1.Status; k8s.io/apimachinery/pkg/api/errors (also status_errors.go).
// Tutorial: 000 §4.3 (410 Gone → relist).

package informer

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
)

// StatusReason is a machine-readable reason for a failure, such as "Expired".
type StatusReason string

// The reasons the Reflector looks at (status_errors.go has more).
const (
	StatusReasonUnknown         StatusReason = ""
	StatusReasonExpired         StatusReason = "Expired"
	StatusReasonGone            StatusReason = "Gone"
	StatusReasonTooManyRequests StatusReason = "TooManyRequests"
	StatusReasonInternalError   StatusReason = "InternalError"
	StatusReasonTimeout         StatusReason = "Timeout"
)

// CauseTypeResourceVersionTooLarge is the cause of a 504 for a resource
// version the server has not reached yet.
const CauseTypeResourceVersionTooLarge = "ResourceVersionTooLarge"

// Status is the body of an API error, and of an ERROR watch event.
type Status struct {
	TypeMeta
	Status        string         `json:"status,omitzero"`  // "Success" or "Failure"
	Message       string         `json:"message,omitzero"` // for people
	Reason        StatusReason   `json:"reason,omitzero"`  // for programs; "" if none given
	Details       *StatusDetails `json:"details,omitzero"`
	Code          int32          `json:"code,omitzero"` // the HTTP status code
	unknownFields                // metadata and anything newer, raw (lossless.go)
}

// StatusDetails names the object a failure is about, its causes and when to retry.
type StatusDetails struct {
	Name              string        `json:"name,omitzero"`
	Group             string        `json:"group,omitzero"` // "" for the core group
	Kind              string        `json:"kind,omitzero"`  // e.g. "pods"
	Causes            []StatusCause `json:"causes,omitzero"`
	RetryAfterSeconds int32         `json:"retryAfterSeconds,omitzero"`
	unknownFields
}

// StatusCause is one cause of a failure, e.g. one invalid field.
type StatusCause struct {
	Type    string `json:"reason,omitzero"` // e.g. "ResourceVersionTooLarge"
	Message string `json:"message,omitzero"`
	Field   string `json:"field,omitzero"` // the path of the field at fault, if any
	unknownFields
}

// StatusError is an error the API server answered with.
type StatusError struct{ ErrStatus Status }

// Error returns the server's message.
func (e *StatusError) Error() string {
	if e.ErrStatus.Message != "" {
		return e.ErrStatus.Message
	}
	return "the server responded with the status code " + strconv.Itoa(int(e.ErrStatus.Code)) +
		" but did not return more information"
}

// FromObject turns an ERROR watch event's object into an error: a *StatusError if it is a Status.
func FromObject(obj any) error {
	if s, ok := obj.(*Status); ok && s != nil {
		return &StatusError{ErrStatus: *s}
	}
	return errors.New("unexpected object in an ERROR watch event")
}

// statusOf returns the Status inside err, through any wrapping.
func statusOf(err error) (Status, bool) {
	var se *StatusError
	if errors.As(err, &se) {
		return se.ErrStatus, true
	}
	return Status{}, false
}

// hasReasonOrCode checks err's reason or, if it has none, its code (when code is not 0).
func hasReasonOrCode(err error, reason StatusReason, code int32) bool {
	s, ok := statusOf(err)
	if !ok || s.Reason != StatusReasonUnknown {
		return ok && s.Reason == reason
	}
	return code != 0 && s.Code == code
}

// IsResourceExpired reports a 410 Expired: the version or continue token is older than the history.
func IsResourceExpired(err error) bool { return hasReasonOrCode(err, StatusReasonExpired, 0) }

// IsGone reports a 410 Gone, what older servers said for the same thing.
func IsGone(err error) bool { return hasReasonOrCode(err, StatusReasonGone, http.StatusGone) }

// IsTooManyRequests reports a 429: the server asks the client to slow down.
func IsTooManyRequests(err error) bool {
	s, ok := statusOf(err)
	return ok && (s.Reason == StatusReasonTooManyRequests || s.Code == http.StatusTooManyRequests)
}

// NewNotFound returns the error a lister gives for a missing object.
func NewNotFound(resource, name string) *StatusError {
	return &StatusError{Status{Status: "Failure", Code: http.StatusNotFound, Reason: "NotFound",
		Details: &StatusDetails{Kind: resource, Name: name}, Message: resource + " \"" + name + "\" not found"}}
}

// IsNotFound reports a 404 NotFound.
func IsNotFound(err error) bool { return hasReasonOrCode(err, "NotFound", http.StatusNotFound) }

// IsTimeout reports a 504 Timeout.
func IsTimeout(err error) bool {
	return hasReasonOrCode(err, StatusReasonTimeout, http.StatusGatewayTimeout)
}

// HasStatusCause reports whether err's details list a cause of the given type.
func HasStatusCause(err error, causeType string) bool {
	s, ok := statusOf(err)
	return ok && s.Details != nil &&
		slices.ContainsFunc(s.Details.Causes, func(c StatusCause) bool { return c.Type == causeType })
}
