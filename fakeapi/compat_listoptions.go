// compat_listoptions.go (compatibility layer): the parts of a list's or
// watch's query that the List/Watch reading path hands over in one call: the
// label and field selectors (compat_selector.go, compat_fieldselectors.go),
// and the combinations of options the real server refuses, with its words
// (422 Invalid, one cause per field).
//
// client-go counterparts: metav1.ListOptions and its validation
// (k8s.io/apimachinery/pkg/apis/meta/internalversion/validation).
// Tutorial: none.

package fakeapi

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// parseSelectorsAndCheck reads the labelSelector and fieldSelector of q
// into o.filter (400 if either does not parse), then checks o as a whole.
func (o *listOptions) parseSelectorsAndCheck(ri *resourceInfo, q url.Values) *APIError {
	var err error
	if o.filter.labels, err = parseLabelSelector(q.Get("labelSelector")); err != nil {
		return errBadRequest(err.Error())
	}
	o.filter.ri = ri
	if o.filter.fields, err = parseFieldSelector(ri, q.Get("fieldSelector")); err != nil {
		return errBadRequest(err.Error())
	}
	return o.validate(q.Get("resourceVersion"))
}

// validate rejects the combinations the real server rejects, with its words.
func (o listOptions) validate(rv string) *APIError {
	var errs []string
	var causes []StatusCause
	forbid := func(field, why string) {
		errs = append(errs, field+": Forbidden: "+why)
		causes = append(causes, StatusCause{Reason: "FieldValueForbidden", Message: "Forbidden: " + why, Field: field})
	}
	unsupported := func(supported string) {
		detail := fmt.Sprintf("Unsupported value: %q: supported values: %s", o.rvMatch, supported)
		errs = append(errs, "resourceVersionMatch: "+detail)
		causes = append(causes, StatusCause{Reason: "FieldValueNotSupported", Message: detail, Field: "resourceVersionMatch"})
	}
	m := o.rvMatch
	if o.watch {
		if o.sendInitial != nil && m != "NotOlderThan" {
			forbid("resourceVersionMatch", "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan")
		}
		if m != "" && o.sendInitial == nil {
			forbid("resourceVersionMatch", "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided")
		}
		if m != "" && m != "NotOlderThan" {
			unsupported(`"NotOlderThan"`)
		}
	} else {
		if m != "" && rv == "" {
			forbid("resourceVersionMatch", "resourceVersionMatch is forbidden unless resourceVersion is provided")
		}
		if m != "" && m != "Exact" && m != "NotOlderThan" {
			unsupported(`"Exact", "NotOlderThan", ""`)
		}
		if m == "Exact" && rv == "0" {
			forbid("resourceVersionMatch", "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"")
		}
		if o.sendInitial != nil {
			forbid("sendInitialEvents", "sendInitialEvents is forbidden for list")
		}
	}
	if m != "" && o.cont != "" {
		forbid("resourceVersionMatch", "resourceVersionMatch is forbidden when continue is provided")
	}
	if len(errs) == 0 {
		return nil
	}
	msg := errs[0]
	if len(errs) > 1 {
		msg = "[" + strings.Join(errs, ", ") + "]"
	}
	return &APIError{Code: http.StatusUnprocessableEntity, Reason: "Invalid",
		Message: `ListOptions.meta.k8s.io "" is invalid: ` + msg,
		Group:   "meta.k8s.io", Kind: "ListOptions", Causes: causes}
}
