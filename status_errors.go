// status_errors.go belongs to the third reading, "the real wire": failures as client-go reads
// them (a bare code's reason, Retry-After; the 504 of a server behind the version asked for,
// after which the Reflector relists), and the error helpers a program writing to the server
// needs (404, 409, already exists, retry after), beside status.go's.
//
// client-go counterpart: k8s.io/apimachinery/pkg/api/errors.
//
// Tutorial: 004 §2.5 (409 Conflict on a stale resourceVersion).

package informer

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// More reasons a server gives (status.go has the ones the Reflector looks at).
const (
	StatusReasonNotFound           StatusReason = "NotFound"
	StatusReasonAlreadyExists      StatusReason = "AlreadyExists"
	StatusReasonConflict           StatusReason = "Conflict"
	StatusReasonBadRequest         StatusReason = "BadRequest"
	StatusReasonInvalid            StatusReason = "Invalid"
	StatusReasonUnauthorized       StatusReason = "Unauthorized"
	StatusReasonForbidden          StatusReason = "Forbidden"
	StatusReasonServiceUnavailable StatusReason = "ServiceUnavailable"
	StatusReasonTimeout            StatusReason = "Timeout"
)

// CauseTypeResourceVersionTooLarge is the cause of a 504 for a version the server has not reached.
const CauseTypeResourceVersionTooLarge = "ResourceVersionTooLarge"

// statusErrorFromResponse is restclient.go's errorFromResponse, as client-go's:
// a body that is not a Status gets the reason its code stands for; a
// Retry-After header becomes its retryAfterSeconds unless it has one.
func statusErrorFromResponse(resp *http.Response, body []byte) error {
	var s Status
	if json.Unmarshal(body, &s) != nil || s.Kind != "Status" {
		return newGenericError(resp.StatusCode, strings.TrimSpace(string(body)))
	}
	s.Code = cmp.Or(s.Code, int32(resp.StatusCode))
	if after, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && after > 0 {
		s.Details = cmp.Or(s.Details, &StatusDetails{})
		s.Details.RetryAfterSeconds = cmp.Or(s.Details.RetryAfterSeconds, int32(after))
	}
	return &StatusError{ErrStatus: s}
}

// newGenericError builds the StatusError of a response whose body was not a Status.
func newGenericError(code int, body string) *StatusError {
	msg := "the server responded with " + strconv.Itoa(code) + " " + http.StatusText(code)
	if body != "" {
		msg += ": " + body
	}
	return &StatusError{Status{Status: "Failure", Code: int32(code), Reason: reasonForCode[code], Message: msg}}
}

// reasonForCode is the StatusReason a bare status code stands for.
var reasonForCode = map[int]StatusReason{
	http.StatusBadRequest: "BadRequest", http.StatusUnauthorized: "Unauthorized", http.StatusForbidden: "Forbidden",
	http.StatusNotFound: "NotFound", http.StatusConflict: "Conflict", http.StatusGone: "Gone",
	http.StatusTooManyRequests: "TooManyRequests", http.StatusInternalServerError: "InternalError",
	http.StatusServiceUnavailable: "ServiceUnavailable", http.StatusGatewayTimeout: "Timeout",
}

// Status returns the Status the error carries.
func (e *StatusError) Status() Status { return e.ErrStatus }

// ReasonForError returns err's reason, or StatusReasonUnknown.
func ReasonForError(err error) StatusReason {
	s, _ := statusOf(err)
	return s.Reason
}

// IsConflict reports a 409 Conflict (a write with a stale resourceVersion).
func IsConflict(err error) bool {
	return hasReasonOrCode(err, StatusReasonConflict, http.StatusConflict)
}

// IsAlreadyExists reports a create of a name that is taken.
func IsAlreadyExists(err error) bool { return hasReasonOrCode(err, StatusReasonAlreadyExists, 0) }

// IsInternalError reports a 500 InternalError.
func IsInternalError(err error) bool {
	return hasReasonOrCode(err, StatusReasonInternalError, http.StatusInternalServerError)
}

// SuggestsClientDelay returns the retryAfterSeconds the server asked for.
func SuggestsClientDelay(err error) (seconds int, ok bool) {
	s, found := statusOf(err)
	if !found || s.Details == nil || s.Details.RetryAfterSeconds <= 0 {
		return 0, false
	}
	return int(s.Details.RetryAfterSeconds), true
}

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

// isResourceVersionTooLarge is reflector.go's isTooLargeResourceVersionError:
// the 504 of a server behind the version asked for (another one served it):
// the Reflector relists at "". Older servers said so only in a message.
func isResourceVersionTooLarge(err error) bool {
	const msg = "Too large resource version"
	if HasStatusCause(err, CauseTypeResourceVersionTooLarge) {
		return true
	}
	s, ok := statusOf(err)
	return ok && IsTimeout(err) && (strings.Contains(s.Message, msg) || s.Details != nil &&
		slices.ContainsFunc(s.Details.Causes, func(c StatusCause) bool { return c.Message == msg }))
}
