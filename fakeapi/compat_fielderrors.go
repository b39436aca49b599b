// compat_fielderrors.go (compatibility layer): field errors, and the 422
// Invalid answer that gathers them.
//
// The real server validates the whole object and answers every error it
// found in one Status: its message lists them ("Pod \"p\" is invalid:
// [spec.containers: Required value, ...]") and details.causes has one cause
// per field. Each error reads "field: Type: value: detail", as here.
// client-go counterparts: k8s.io/apimachinery/pkg/util/validation/field
// (Error, ErrorList, ErrorBody) and apierrors.NewInvalid. Tutorial: none.

package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// fieldError is one invalid field: its cause reason (FieldValueInvalid ...),
// its path and what is wrong, without the path ("Invalid value: ...").
type fieldError struct {
	reason, field, body string
}

// fieldErrors is every error one validation found.
type fieldErrors []fieldError

// renderValue prints a bad value as the real server does.
func renderValue(v any) string {
	switch t := v.(type) {
	case string:
		return strconv.Quote(t)
	case int, int64, float64, bool, json.Number:
		return fmt.Sprint(t)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

func withDetail(s, detail string) string {
	if detail == "" {
		return s
	}
	return s + ": " + detail
}

func invalid(field string, value any, detail string) fieldError {
	return fieldError{"FieldValueInvalid", field, withDetail("Invalid value: "+renderValue(value), detail)}
}

func required(field, detail string) fieldError {
	return fieldError{"FieldValueRequired", field, withDetail("Required value", detail)}
}

func forbidden(field, detail string) fieldError {
	return fieldError{"FieldValueForbidden", field, withDetail("Forbidden", detail)}
}

func duplicate(field string, value any) fieldError {
	return fieldError{"FieldValueDuplicate", field, "Duplicate value: " + renderValue(value)}
}

func tooLong(field string, max int) fieldError {
	return fieldError{"FieldValueTooLong", field, fmt.Sprintf("Too long: may not be more than %d bytes", max)}
}

// notSupported is a value outside a fixed set.
func notSupported(field string, value any, supported ...string) fieldError {
	q := make([]string, len(supported))
	for i, s := range supported {
		q[i] = strconv.Quote(s)
	}
	return fieldError{"FieldValueNotSupported", field, withDetail("Unsupported value: "+renderValue(value), "supported values: "+strings.Join(q, ", "))}
}

// notSupportedList is notSupported for a list value (dryRun).
func notSupportedList(field string, values []string, supported ...string) fieldError {
	v := make([]any, len(values))
	for i, s := range values {
		v[i] = s
	}
	return notSupported(field, v, supported...)
}

// invalid answers 422 about object name of kind (qualified by group), with
// every error: one cause each, the message listing them all.
func (errs fieldErrors) invalid(kind, group, name string) *APIError {
	var msgs []string
	seen := map[string]bool{}
	causes := make([]StatusCause, 0, len(errs))
	for _, e := range errs {
		causes = append(causes, StatusCause{Reason: e.reason, Message: e.body, Field: e.field})
		if m := e.field + ": " + e.body; !seen[m] {
			seen[m] = true
			msgs = append(msgs, m)
		}
	}
	list := msgs[0]
	if len(msgs) > 1 {
		list = "[" + strings.Join(msgs, ", ") + "]"
	}
	return &APIError{Code: http.StatusUnprocessableEntity, Reason: "Invalid",
		Message: fmt.Sprintf("%s %q is invalid: %s", qualifiedKind(kind, group), name, list),
		Name:    name, Group: group, Kind: kind, Causes: causes}
}
