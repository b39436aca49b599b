// status_errors.go belongs to the third reading, "the real wire": failures as client-go reads
// them (a bare code's reason, Retry-After; the 504 of a server behind the version asked for,
// after which the Reflector relists), and the error helpers a program writing to the server
// needs (404, 409, already exists, retry after), beside status.go's.
//
// client-go counterpart: k8s.io/apimachinery/pkg/api/errors.
//
// Tutorial: 004 §2.5 (409 Conflict on a stale resourceVersion).
//
// Reading 3: the real wire (a real cluster's TLS and tokens, failures as client-go reads them).

package informer

import (
	"cmp"
	"net/http"
	"strconv"
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
)

// genericMessage is the message of a failure whose body was not a Status
// (restclient.go's errorFromResponse): the code and its text, then the body.
func genericMessage(code int, body string) string {
	msg := "the server responded with " + strconv.Itoa(code) + " " + http.StatusText(code)
	if body != "" {
		msg += ": " + body
	}
	return msg
}

// retryAfterFromHeader gives s the server's Retry-After header as its
// retryAfterSeconds, unless it has one (restclient.go's errorFromResponse).
func retryAfterFromHeader(s *Status, header http.Header) {
	after, err := strconv.Atoi(header.Get("Retry-After"))
	if err != nil || after <= 0 {
		return
	}
	s.Details = cmp.Or(s.Details, &StatusDetails{})
	s.Details.RetryAfterSeconds = cmp.Or(s.Details.RetryAfterSeconds, int32(after))
}

// reasonForCode is the StatusReason a bare status code stands for.
var reasonForCode = map[int]StatusReason{
	http.StatusBadRequest:          "BadRequest",
	http.StatusUnauthorized:        "Unauthorized",
	http.StatusForbidden:           "Forbidden",
	http.StatusNotFound:            "NotFound",
	http.StatusConflict:            "Conflict",
	http.StatusGone:                "Gone",
	http.StatusTooManyRequests:     "TooManyRequests",
	http.StatusInternalServerError: "InternalError",
	http.StatusServiceUnavailable:  "ServiceUnavailable",
	http.StatusGatewayTimeout:      "Timeout",
}

// Status returns the Status the error carries (client-go's APIStatus).
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
