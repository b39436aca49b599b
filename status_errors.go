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
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// More reasons a server gives (status.go has the ones the Reflector looks at).
const (
	StatusReasonNotFound             StatusReason = "NotFound"
	StatusReasonAlreadyExists        StatusReason = "AlreadyExists"
	StatusReasonConflict             StatusReason = "Conflict"
	StatusReasonBadRequest           StatusReason = "BadRequest"
	StatusReasonInvalid              StatusReason = "Invalid"
	StatusReasonUnauthorized         StatusReason = "Unauthorized"
	StatusReasonForbidden            StatusReason = "Forbidden"
	StatusReasonServiceUnavailable   StatusReason = "ServiceUnavailable"
	StatusReasonMethodNotAllowed     StatusReason = "MethodNotAllowed"
	StatusReasonNotAcceptable        StatusReason = "NotAcceptable"
	StatusReasonUnsupportedMediaType StatusReason = "UnsupportedMediaType"
)

// CauseTypeUnexpectedServerResponse is the cause of a failure whose body was
// not a Status: its message is what the server said instead.
const CauseTypeUnexpectedServerResponse = "UnexpectedServerResponse"

// statusForCode is the Status client-go makes of a failure whose body is
// not a Status (restclient.go's errorFromResponse): rest.Request's
// newUnstructuredResponseError calls apimachinery's
// errors.NewGenericServerResponse, which gives each code its reason and a
// message of its own, keeps what the server said as the cause, and takes
// the Retry-After header as retryAfterSeconds. A Status body is taken as
// the server wrote it, header or not (rest.Result.Error).
func statusForCode(resp *http.Response, body string) Status {
	code := resp.StatusCode
	// client-go keeps the body only when it is text (isTextResponse).
	said := "unknown"
	if ct := resp.Header.Get("Content-Type"); ct == "" || strings.HasPrefix(ct, "text/") {
		said = body
	}
	reason := StatusReasonUnknown
	message := fmt.Sprintf("the server responded with the status code %d "+
		"but did not return more information", code)
	if r, ok := reasonForCode[code]; ok {
		reason = r.reason
		message = cmp.Or(r.message, said)
	} else if code >= 500 {
		reason = StatusReasonInternalError
		message = fmt.Sprintf("an error on the server (%q) has prevented "+
			"the request from succeeding", said)
	}
	post := resp.Request != nil && resp.Request.Method == http.MethodPost
	if code == http.StatusConflict && post {
		reason = StatusReasonAlreadyExists // a create of a name that is taken
	}
	if code == http.StatusNotAcceptable && (said == "" || said == "unknown") {
		message = "the server was unable to respond with a content type that the client supports"
	}
	cause := StatusCause{Type: CauseTypeUnexpectedServerResponse, Message: said}
	details := &StatusDetails{Causes: []StatusCause{cause}}
	// client-go reads the header as whole seconds (rest's retryAfterSeconds).
	if after, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && after > 0 {
		details.RetryAfterSeconds = int32(after)
	}
	return Status{Status: "Failure", Code: int32(code), Reason: reason, Message: message,
		Details: details}
}

// codeReason is the reason and message client-go gives a code whose body
// is not a Status; an empty message keeps what the server said.
type codeReason struct {
	reason  StatusReason
	message string
}

// reasonForCode is errors.NewGenericServerResponse's table; any other code
// of 500 or more is an InternalError.
var reasonForCode = map[int]codeReason{
	http.StatusBadRequest: {StatusReasonBadRequest,
		"the server rejected our request for an unknown reason"},
	http.StatusUnauthorized: {StatusReasonUnauthorized,
		"the server has asked for the client to provide credentials"},
	// The server's words say who may not do what, or which types it
	// takes: client-go keeps them.
	http.StatusForbidden:            {StatusReasonForbidden, ""},
	http.StatusNotAcceptable:        {StatusReasonNotAcceptable, ""},
	http.StatusUnsupportedMediaType: {StatusReasonUnsupportedMediaType, ""},
	http.StatusNotFound: {StatusReasonNotFound,
		"the server could not find the requested resource"},
	http.StatusMethodNotAllowed: {StatusReasonMethodNotAllowed,
		"the server does not allow this method on the requested resource"},
	http.StatusConflict: {StatusReasonConflict,
		"the server reported a conflict"},
	http.StatusUnprocessableEntity: {StatusReasonInvalid,
		"the server rejected our request due to an error in our request"},
	http.StatusTooManyRequests: {StatusReasonTooManyRequests,
		"the server has received too many requests and has asked us to try again later"},
	http.StatusServiceUnavailable: {StatusReasonServiceUnavailable,
		"the server is currently unable to handle the request"},
	http.StatusGatewayTimeout: {StatusReasonTimeout,
		"the server was unable to return a response in the time allotted, " +
			"but may still be processing the request"},
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
