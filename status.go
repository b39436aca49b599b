// status.go holds Status, the body an API server sends with a failure (and
// in an ERROR watch event), StatusError, the error made of it, and the
// checks with which the Reflector chooses what to do after a failure: watch
// again, back off (429), or relist (410 Expired).
//
// client-go counterpart: metav1.Status, StatusDetails, StatusCause;
// k8s.io/apimachinery/pkg/api/errors (StatusError, FromObject,
// IsResourceExpired, IsGone, IsTooManyRequests, IsTimeout, HasStatusCause,
// NewNotFound, IsNotFound; the third reading adds the rest).
//
// Tutorial: 000 §4.3 (410 Gone → relist).

package informer

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
)

// StatusReason is why a request failed, for programs: compare it with the
// constants, never parse the message.
type StatusReason string

// The reasons the Reflector looks at.
const (
	// StatusReasonUnknown: the server gave no reason; the code says it.
	StatusReasonUnknown StatusReason = ""
	// StatusReasonExpired: the resource version asked for is older than
	// the history the server keeps (410): list again.
	StatusReasonExpired StatusReason = "Expired"
	// StatusReasonGone: what servers before 1.15 said for Expired (410).
	StatusReasonGone StatusReason = "Gone"
	// StatusReasonTooManyRequests: the server asks the client to slow down (429).
	StatusReasonTooManyRequests StatusReason = "TooManyRequests"
	// StatusReasonInternalError: the server failed (500); a broken watch
	// stream is reported with it too.
	StatusReasonInternalError StatusReason = "InternalError"
	// StatusReasonTimeout: the server could not answer in time (504).
	StatusReasonTimeout StatusReason = "Timeout"
)

// CauseTypeResourceVersionTooLarge is the cause of a 504 for a resource
// version the server has not reached yet.
const CauseTypeResourceVersionTooLarge = "ResourceVersionTooLarge"

// Status is the body of an API error, and the object of an ERROR watch
// event: Status "Failure", the HTTP Code, a Message for people and a Reason
// for programs. Decide by Reason (the Is* functions below do), never by
// Message, which may change from one version to the next.
type Status struct {
	TypeMeta
	Status  string       `json:"status,omitzero"`
	Message string       `json:"message,omitzero"`
	Reason  StatusReason `json:"reason,omitzero"`
	// Details are set for some reasons only: nil is usual.
	Details *StatusDetails `json:"details,omitzero"`
	Code    int32          `json:"code,omitzero"`
	unknownFields
}

// StatusDetails names the object a failure is about, its causes, and when
// to retry.
type StatusDetails struct {
	Name  string `json:"name,omitzero"`
	Group string `json:"group,omitzero"` // "" for the core group
	// Kind is a kind or, as often, a resource ("pods").
	Kind   string        `json:"kind,omitzero"`
	Causes []StatusCause `json:"causes,omitzero"`
	// RetryAfterSeconds, with a 429 or a 5xx, is how long to wait before
	// asking again.
	RetryAfterSeconds int32 `json:"retryAfterSeconds,omitzero"`
	unknownFields
}

// StatusCause is one cause of a failure, such as one invalid field: its
// Type (JSON "reason", as the server spells it), a Message for people, and
// the path of the Field at fault, if any.
type StatusCause struct {
	Type    string `json:"reason,omitzero"`
	Message string `json:"message,omitzero"`
	Field   string `json:"field,omitzero"`
	unknownFields
}

// StatusError is the error of a request the API server refused; ErrStatus
// is the Status it sent, or one made of the HTTP code when the body was
// not a Status (a proxy's answer, say).
type StatusError struct {
	ErrStatus Status
}

// Error returns the server's message, or says the code when there is none.
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

// hasReasonOrCode checks err's reason or, if it has none, its code (when
// code is not 0), as client-go's checks do: a Status with a reason is judged
// by it alone; a bare code (a proxy's answer, say) by the code.
func hasReasonOrCode(err error, reason StatusReason, code int32) bool {
	s, ok := statusOf(err)
	if !ok || s.Reason != StatusReasonUnknown {
		return ok && s.Reason == reason
	}
	return code != 0 && s.Code == code
}

// IsResourceExpired reports a 410 Expired: the version or continue token
// asked for is older than the history the server keeps.
func IsResourceExpired(err error) bool { return hasReasonOrCode(err, StatusReasonExpired, 0) }

// IsGone reports a 410 Gone, what older servers said for the same thing.
func IsGone(err error) bool { return hasReasonOrCode(err, StatusReasonGone, http.StatusGone) }

// IsTooManyRequests reports a 429: the server asks the client to slow down.
func IsTooManyRequests(err error) bool {
	s, ok := statusOf(err)
	return ok && (s.Reason == StatusReasonTooManyRequests || s.Code == http.StatusTooManyRequests)
}

// NewNotFound returns the error a lister gives for a missing object, as the
// server would have answered.
func NewNotFound(resource, name string) *StatusError {
	return &StatusError{Status{
		Status:  "Failure",
		Code:    http.StatusNotFound,
		Reason:  "NotFound",
		Details: &StatusDetails{Kind: resource, Name: name},
		Message: resource + " \"" + name + "\" not found",
	}}
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
	if !ok || s.Details == nil {
		return false
	}
	isType := func(c StatusCause) bool { return c.Type == causeType }
	return slices.ContainsFunc(s.Details.Causes, isType)
}
