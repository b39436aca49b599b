// status_errors.go belongs to the third reading, "the real wire": the error helpers a program
// writing to the server needs (404, 409, already exists, retry after), beside status.go's.
//
// client-go counterpart: k8s.io/apimachinery/pkg/api/errors.
//
// Tutorial: 004 §2.5 (409 Conflict on a stale resourceVersion).

package informer

import "net/http"

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
