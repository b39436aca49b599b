// status.go holds Status, the error body every Kubernetes API server sends,
// StatusError, the Go error made from it, and the helpers that classify it
// (IsResourceExpired, IsGone, IsTooManyRequests, ...). The Reflector decides
// between "re-watch", "back off" and "relist" with them.
//
// client-go counterpart: k8s.io/apimachinery/pkg/apis/meta/v1 (Status,
// StatusDetails, StatusCause) and k8s.io/apimachinery/pkg/api/errors.
//
// Tutorial: 004 §2.5 (409 Conflict, resource versions) and 000 §4.3
// (410 Gone → relist).

package informer

import (
	"errors"
	"net/http"
	"strconv"
)

// StatusReason is a machine-readable reason for a failure, such as "Expired".
type StatusReason string

// The reasons this package looks at. The server may send others.
const (
	StatusReasonUnknown            StatusReason = ""
	StatusReasonNotFound           StatusReason = "NotFound"
	StatusReasonAlreadyExists      StatusReason = "AlreadyExists"
	StatusReasonConflict           StatusReason = "Conflict"
	StatusReasonGone               StatusReason = "Gone"
	StatusReasonExpired            StatusReason = "Expired"
	StatusReasonBadRequest         StatusReason = "BadRequest"
	StatusReasonInvalid            StatusReason = "Invalid"
	StatusReasonUnauthorized       StatusReason = "Unauthorized"
	StatusReasonForbidden          StatusReason = "Forbidden"
	StatusReasonTooManyRequests    StatusReason = "TooManyRequests"
	StatusReasonTimeout            StatusReason = "Timeout"
	StatusReasonInternalError      StatusReason = "InternalError"
	StatusReasonServiceUnavailable StatusReason = "ServiceUnavailable"
)

// CauseTypeResourceVersionTooLarge is the cause a server gives when asked for
// a resource version it has not reached yet (a 504 Timeout).
const CauseTypeResourceVersionTooLarge = "ResourceVersionTooLarge"

// Status is the body of an API error (and of an ERROR watch event).
type Status struct {
	TypeMeta
	// Status is "Success" or "Failure".
	Status string `json:"status,omitzero"`
	// Message is for people.
	Message string `json:"message,omitzero"`
	// Reason is for programs; empty when the server gave none.
	Reason StatusReason `json:"reason,omitzero"`
	// Details may name the object and say when to retry.
	Details *StatusDetails `json:"details,omitzero"`
	// Code is the HTTP status code.
	Code int32 `json:"code,omitzero"`

	unknownFields // metadata and anything newer, raw (lossless.go)
}

// StatusDetails says more about a failure.
type StatusDetails struct {
	// Name, Group and Kind name the object the failure is about.
	Name string `json:"name,omitzero"`
	// Group is the API group of the object, "" for the core group.
	Group string `json:"group,omitzero"`
	// Kind is the resource or kind of the object, e.g. "pods".
	Kind string `json:"kind,omitzero"`
	// Causes list what was wrong, e.g. one entry per invalid field.
	Causes []StatusCause `json:"causes,omitzero"`
	// RetryAfterSeconds is how long the server asks the client to wait.
	RetryAfterSeconds int32 `json:"retryAfterSeconds,omitzero"`

	unknownFields // the members no field above models, raw (lossless.go)
}

// StatusCause is one cause of a failure.
type StatusCause struct {
	// Type is machine-readable, e.g. "ResourceVersionTooLarge".
	Type string `json:"reason,omitzero"`
	// Message is for people.
	Message string `json:"message,omitzero"`
	// Field is the path of the field at fault, if any.
	Field string `json:"field,omitzero"`

	unknownFields // the members no field above models, raw (lossless.go)
}

// StatusError is an error the API server answered with.
type StatusError struct {
	// ErrStatus is the Status the server sent.
	ErrStatus Status
}

// Error returns the server's message.
func (e *StatusError) Error() string {
	if e.ErrStatus.Message != "" {
		return e.ErrStatus.Message
	}
	return "the server responded with the status code " + strconv.Itoa(int(e.ErrStatus.Code)) +
		" but did not return more information"
}

// Status returns the Status the error carries.
func (e *StatusError) Status() Status { return e.ErrStatus }

// FromObject turns the object of an ERROR watch event into an error. A
// Status becomes a *StatusError; anything else is reported as unexpected.
func FromObject(obj any) error {
	if s, ok := obj.(*Status); ok && s != nil {
		return &StatusError{ErrStatus: *s}
	}
	return errors.New("unexpected object in an ERROR watch event")
}

// NewNotFound returns the error a lister gives for a missing object.
func NewNotFound(resource, name string) *StatusError {
	return &StatusError{Status{
		Status:  "Failure",
		Code:    http.StatusNotFound,
		Reason:  StatusReasonNotFound,
		Details: &StatusDetails{Kind: resource, Name: name},
		Message: resource + " \"" + name + "\" not found",
	}}
}

// reasonForCode guesses the reason of a response whose body was not a Status.
var reasonForCode = map[int]StatusReason{
	http.StatusNotFound:            StatusReasonNotFound,
	http.StatusConflict:            StatusReasonConflict,
	http.StatusGone:                StatusReasonGone,
	http.StatusBadRequest:          StatusReasonBadRequest,
	http.StatusUnauthorized:        StatusReasonUnauthorized,
	http.StatusForbidden:           StatusReasonForbidden,
	http.StatusTooManyRequests:     StatusReasonTooManyRequests,
	http.StatusGatewayTimeout:      StatusReasonTimeout,
	http.StatusServiceUnavailable:  StatusReasonServiceUnavailable,
	http.StatusInternalServerError: StatusReasonInternalError,
}

// newGenericError builds a StatusError for a response whose body was not a
// Status (a proxy's HTML page, say).
func newGenericError(code int, body string) *StatusError {
	msg := "the server responded with " + strconv.Itoa(code) + " " + http.StatusText(code)
	if body != "" {
		msg += ": " + body
	}
	return &StatusError{Status{Status: "Failure", Code: int32(code), Reason: reasonForCode[code], Message: msg}}
}

// statusOf returns the Status inside err (through any wrapping).
func statusOf(err error) (Status, bool) {
	var se *StatusError
	if errors.As(err, &se) {
		return se.ErrStatus, true
	}
	return Status{}, false
}

// ReasonForError returns err's reason, or StatusReasonUnknown.
func ReasonForError(err error) StatusReason {
	s, _ := statusOf(err)
	return s.Reason
}

func hasReasonOrCode(err error, reason StatusReason, code int32) bool {
	s, ok := statusOf(err)
	if !ok {
		return false
	}
	if s.Reason != StatusReasonUnknown {
		return s.Reason == reason
	}
	return code != 0 && s.Code == code
}

// IsNotFound reports a 404 NotFound.
func IsNotFound(err error) bool {
	return hasReasonOrCode(err, StatusReasonNotFound, http.StatusNotFound)
}

// IsConflict reports a 409 Conflict (a write with a stale resourceVersion).
func IsConflict(err error) bool {
	return hasReasonOrCode(err, StatusReasonConflict, http.StatusConflict)
}

// IsAlreadyExists reports a create of a name that is taken.
func IsAlreadyExists(err error) bool { return hasReasonOrCode(err, StatusReasonAlreadyExists, 0) }

// IsResourceExpired reports a 410 with reason Expired: the resource version
// (or continue token) is older than the server's history.
func IsResourceExpired(err error) bool { return hasReasonOrCode(err, StatusReasonExpired, 0) }

// IsGone reports a 410 Gone, the reason older servers gave for the same thing.
func IsGone(err error) bool { return hasReasonOrCode(err, StatusReasonGone, http.StatusGone) }

// IsTooManyRequests reports a 429: the server asks the client to slow down.
func IsTooManyRequests(err error) bool {
	if hasReasonOrCode(err, StatusReasonTooManyRequests, http.StatusTooManyRequests) {
		return true
	}
	s, ok := statusOf(err)
	return ok && s.Code == http.StatusTooManyRequests
}

// IsTimeout reports a 504 Timeout.
func IsTimeout(err error) bool {
	return hasReasonOrCode(err, StatusReasonTimeout, http.StatusGatewayTimeout)
}

// IsInternalError reports a 500 InternalError.
func IsInternalError(err error) bool {
	return hasReasonOrCode(err, StatusReasonInternalError, http.StatusInternalServerError)
}

// HasStatusCause reports whether err's details list a cause of the given type.
func HasStatusCause(err error, causeType string) bool {
	s, ok := statusOf(err)
	if !ok || s.Details == nil {
		return false
	}
	for _, c := range s.Details.Causes {
		if c.Type == causeType {
			return true
		}
	}
	return false
}

// SuggestsClientDelay returns the retryAfterSeconds the server asked for.
func SuggestsClientDelay(err error) (seconds int, ok bool) {
	s, found := statusOf(err)
	if !found || s.Details == nil || s.Details.RetryAfterSeconds <= 0 {
		return 0, false
	}
	return int(s.Details.RetryAfterSeconds), true
}
