// badinput_test.go: every malformed request the server can get, table-driven:
// each is answered with its exact Status code and reason, and leaves the
// server's state exactly as it was. errors_test.go, list_test.go and
// wire_test.go hold the first cases (bad JSON, wrong kind, unknown paths,
// 3 MiB bodies, stale versions...); this file adds the rest.

package fakeapi

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// dumpState renders everything a client could observe of s's data: every
// object of every kind (in list order) and the resource version.
func dumpState(s *Server) string {
	var b strings.Builder
	b.WriteString("rv=" + s.ResourceVersion() + "\n")
	for _, ri := range catalog {
		items, rv := s.List(ri.Resource, "")
		raw, _ := json.Marshal(items)
		b.WriteString(ri.String() + "@" + rv + " " + string(raw) + "\n")
	}
	return b.String()
}

// seedBadInput seeds s and returns a continue token its history no longer
// reaches.
func seedBadInput(t *testing.T, s *Server) (expiredContinue string) {
	t.Helper()
	seedObjects(t, s)
	req, _ := http.NewRequest("GET", s.URL()+"/api/v1/pods?limit=1", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var page map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&page)
	if expiredContinue, _ = meta(page)["continue"].(string); expiredContinue == "" {
		t.Fatalf("no continue token in %v", page)
	}
	if _, err := s.Create(ConfigMaps, "b", map[string]any{"metadata": map[string]any{"name": "later"}}); err != nil {
		t.Fatal(err)
	}
	s.Compact(0) // the token's version is now older than the history
	return expiredContinue
}

// token is the bearer token of the bad-input server.
const token = "s3cret"

func TestBadInput(t *testing.T) {
	s := startServer(t, Options{Token: token, VersionWait: 1})
	expired := seedBadInput(t, s)
	before := dumpState(s)
	future := continueToken{RV: 1 << 40, Start: "a/db"}.String()
	rawToken := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	big := `{"metadata":{"name":"web"},"x":"` + strings.Repeat("x", 3<<20) + `"}`
	const (
		pods  = "/api/v1/namespaces/a/pods"
		web   = pods + "/web"
		merge = "application/merge-patch+json"
		js    = "application/json"
	)
	for _, c := range []struct {
		name                  string
		method, path, ct      string
		body                  string
		auth                  string // "" = the right token, "-" = no header
		code                  int
		reason, wantInMessage string
	}{
		// Bodies that are not one JSON object, or not of the right type.
		{"two JSON values", "POST", pods, js, `{"metadata":{"name":"x"}} {}`, "", 400, "BadRequest", "not a JSON object"},
		{"null body", "POST", pods, js, `null`, "", 400, "BadRequest", "not a JSON object"},
		{"empty body", "POST", pods, js, ``, "", 400, "BadRequest", "json parse error"},
		{"a string", "POST", pods, js, `"pod"`, "", 400, "BadRequest", "json parse error"},
		{"wrong apiVersion", "POST", pods, js, `{"apiVersion":"apps/v1","kind":"Pod","metadata":{"name":"x"}}`, "", 400, "BadRequest", "API version"},
		{"kind is a number", "POST", pods, js, `{"kind":7,"metadata":{"name":"x"}}`, "", 400, "BadRequest", "cannot be handled as a Pod"},
		{"metadata is a string", "POST", pods, js, `{"metadata":"x"}`, "", 400, "BadRequest", "cannot unmarshal string into Go struct field Pod.metadata of type v1.ObjectMeta"},
		{"name is a number", "POST", pods, js, `{"metadata":{"name":5}}`, "", 400, "BadRequest", "metadata.name"},
		{"label value is a number", "POST", pods, js, `{"metadata":{"name":"x","labels":{"a":1}}}`, "", 400, "BadRequest", "metadata.labels"},
		{"annotations is a list", "POST", pods, js, `{"metadata":{"name":"x","annotations":["a"]}}`, "", 400, "BadRequest", "cannot unmarshal array into Go struct field ObjectMeta.metadata.annotations of type map[string]string"},
		{"invalid label key", "POST", pods, js, `{"metadata":{"name":"x","labels":{"bad key":"v"}}}`, "", 422, "Invalid", "metadata.labels"},
		{"invalid label value", "POST", pods, js, `{"metadata":{"name":"x","labels":{"app":"-web"}}}`, "", 422, "Invalid", "metadata.labels"},
		{"name too long", "POST", pods, js, `{"metadata":{"name":"` + strings.Repeat("a", 254) + `"}}`, "", 422, "Invalid", "metadata.name"},
		{"invalid generateName", "POST", pods, js, `{"metadata":{"generateName":"Web-"}}`, "", 422, "Invalid", "metadata.name"},
		{"text/plain body", "POST", pods, "text/plain", `{"metadata":{"name":"x"}}`, "", 415, "UnsupportedMediaType", "media types"},
		{"create an existing name", "POST", pods, js, podJSON("web", ""), "", 409, "AlreadyExists", `"web" already exists`},

		// Updates.
		{"PUT without a name", "PUT", web, js, `{"metadata":{}}`, "", 400, "BadRequest", "does not match the name on the URL"},
		{"PUT wrong kind", "PUT", web, js, `{"kind":"Service","metadata":{"name":"web"}}`, "", 400, "BadRequest", "kind"},
		{"PUT namespace differs", "PUT", web, js, `{"metadata":{"name":"web","namespace":"b"}}`, "", 400, "BadRequest", "namespace"},
		{"PUT a missing object", "PUT", pods + "/nope", js, `{"metadata":{"name":"nope"}}`, "", 404, "NotFound", `"nope" not found`},
		{"PUT a 3 MiB body", "PUT", web, js, big, "", 413, "RequestEntityTooLarge", "limit is 3145728"},

		// Patches.
		{"apply patch", "PATCH", web, "application/apply-patch+yaml", `{}`, "", 415, "UnsupportedMediaType", "Unsupported Media Type"},
		{"patch without Content-Type", "PATCH", web, "", `{}`, "", 415, "UnsupportedMediaType", "Unsupported Media Type"},
		{"patch bad JSON", "PATCH", web, merge, `{"metadata":`, "", 400, "BadRequest", "json parse error"},
		{"patch a missing object", "PATCH", pods + "/nope", merge, `{}`, "", 404, "NotFound", `"nope" not found`},
		{"patch renames", "PATCH", web, merge, `{"metadata":{"name":"other"}}`, "", 400, "BadRequest", "name on the URL"},
		{"patch drops metadata", "PATCH", web, merge, `{"metadata":null}`, "", 400, "BadRequest", "name on the URL"},
		{"patch a label to a number", "PATCH", web, merge, `{"metadata":{"labels":{"app":3}}}`, "", 400, "BadRequest", "metadata.labels"},
		{"patch the kind", "PATCH", web, merge, `{"kind":"Node"}`, "", 400, "BadRequest", "kind"},
		{"patch with a stale version", "PATCH", web, "application/strategic-merge-patch+json", `{"metadata":{"resourceVersion":"1"}}`, "", 409, "Conflict", "has been modified"},
		{"patch a 3 MiB body", "PATCH", web, merge, big, "", 413, "RequestEntityTooLarge", "limit"},

		// Deletes.
		{"DeleteOptions bad JSON", "DELETE", web, js, `{"preconditions":`, "", 400, "BadRequest", "json parse error"},
		{"delete with a wrong uid", "DELETE", web, js, `{"preconditions":{"uid":"nope"}}`, "", 409, "Conflict", "UID in the precondition"},
		{"delete with a stale version", "DELETE", web, js, `{"preconditions":{"resourceVersion":"1"}}`, "", 409, "Conflict", "ResourceVersion in the precondition"},
		{"delete a missing object", "DELETE", pods + "/nope", "", "", "", 404, "NotFound", `"nope" not found`},
		{"delete with a 3 MiB body", "DELETE", web, js, big, "", 413, "RequestEntityTooLarge", "limit"},

		// Methods and paths.
		{"PUT a collection", "PUT", pods, js, `{}`, "", 405, "MethodNotAllowed", "method"},
		{"PATCH a collection", "PATCH", pods, merge, `{}`, "", 405, "MethodNotAllowed", "method"},
		{"OPTIONS", "OPTIONS", web, "", "", "", 405, "MethodNotAllowed", "method"},
		{"subresource", "GET", web + "/exec", "", "", "", 404, "NotFound", "could not find"},
		{"unknown version", "GET", "/api/v2/pods", "", "", "", 404, "NotFound", "could not find"},
		{"kind in the wrong group", "GET", "/apis/apps/v1/pods", "", "", "", 404, "NotFound", "could not find"},
		{"namespaced object without namespace", "GET", "/api/v1/pods/web", "", "", "", 404, "NotFound", "could not find"},
		{"cluster kind in a namespace", "GET", "/api/v1/namespaces/a/nodes", "", "", "", 404, "NotFound", "could not find"},
		{"get a missing object", "GET", pods + "/nope", "", "", "", 404, "NotFound", `pods "nope" not found`},

		// Query parameters.
		{"watch=2", "GET", pods + "?watch=2", "", "", "", 400, "BadRequest", "query parameter watch"},
		{"allowWatchBookmarks=x", "GET", pods + "?watch=1&allowWatchBookmarks=x", "", "", "", 400, "BadRequest", "allowWatchBookmarks"},
		{"sendInitialEvents=x", "GET", pods + "?watch=1&sendInitialEvents=x", "", "", "", 400, "BadRequest", "sendInitialEvents"},
		{"negative resourceVersion", "GET", pods + "?resourceVersion=-1", "", "", "", 400, "BadRequest", "invalid resource version"},
		{"limit not a number", "GET", pods + "?limit=ten", "", "", "", 400, "BadRequest", "limit"},
		{"limit overflows", "GET", pods + "?limit=99999999999999999999", "", "", "", 400, "BadRequest", "limit"},
		{"negative timeoutSeconds", "GET", pods + "?watch=1&timeoutSeconds=-1", "", "", "", 400, "BadRequest", "timeoutSeconds"},
		{"unknown resourceVersionMatch", "GET", pods + "?resourceVersion=1&resourceVersionMatch=Latest", "", "", "", 422, "Invalid", "Unsupported value"},
		{"resourceVersionMatch with continue", "GET", pods + "?resourceVersion=0&resourceVersionMatch=NotOlderThan&continue=" + url.QueryEscape(expired), "", "", "", 422, "Invalid", "continue"},
		{"watch list from the future", "GET", pods + "?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=99999", "", "", "", 504, "Timeout", "Too large resource version"},
		{"list from the future", "GET", pods + "?resourceVersion=99999", "", "", "", 504, "Timeout", "Too large resource version"},

		// Continue tokens.
		{"continue not base64", "GET", pods + "?limit=1&continue=%25%25", "", "", "", 400, "BadRequest", "continue"},
		{"continue not JSON", "GET", pods + "?limit=1&continue=" + rawToken("nope"), "", "", "", 400, "BadRequest", "continue"},
		{"continue of the wrong shape", "GET", pods + "?limit=1&continue=" + rawToken(`{"rv":"x"}`), "", "", "", 400, "BadRequest", "continue"},
		{"continue with resourceVersion", "GET", pods + "?limit=1&resourceVersion=5&continue=" + url.QueryEscape(expired), "", "", "", 400, "BadRequest", "not allowed when using continue"},
		{"continue compacted", "GET", "/api/v1/pods?limit=1&continue=" + url.QueryEscape(expired), "", "", "", 410, "Expired", "continue parameter is too old"},
		{"continue from the future", "GET", pods + "?limit=1&continue=" + future, "", "", "", 504, "Timeout", "Too large resource version"},
		{"exact list compacted", "GET", pods + "?resourceVersion=2&resourceVersionMatch=Exact", "", "", "", 410, "Expired", "too old"},

		// Selectors.
		{"empty set", "GET", pods + "?labelSelector=" + url.QueryEscape("app in ()"), "", "", "", 400, "BadRequest", "can't be empty"},
		{"space in a set value", "GET", pods + "?labelSelector=" + url.QueryEscape("app in (we b)"), "", "", "", 400, "BadRequest", "invalid label value"},
		{"space in a value", "GET", pods + "?labelSelector=" + url.QueryEscape("app=we b"), "", "", "", 400, "BadRequest", "invalid label value"},
		{"key with two slashes", "GET", pods + "?labelSelector=" + url.QueryEscape("a/b/c=x"), "", "", "", 400, "BadRequest", "invalid label key"},
		{"key starting with '-'", "GET", pods + "?labelSelector=" + url.QueryEscape("-app=x"), "", "", "", 400, "BadRequest", "invalid label key"},
		{"key of 64 characters", "GET", pods + "?labelSelector=" + strings.Repeat("k", 64), "", "", "", 400, "BadRequest", "invalid label key"},
		{"value in parentheses", "GET", pods + "?labelSelector=" + url.QueryEscape("app=(x)"), "", "", "", 400, "BadRequest", "invalid label value"},
		{"unclosed set on a watch", "GET", pods + "?watch=1&labelSelector=" + url.QueryEscape("app in (x"), "", "", "", 400, "BadRequest", "expected"},
		{"field not supported for the kind", "GET", "/api/v1/namespaces/a/configmaps?fieldSelector=status.phase=Running", "", "", "", 400, "BadRequest", "is not a known field selector"},
		{"second field bad", "GET", pods + "?fieldSelector=" + url.QueryEscape("metadata.name=web,spec.foo=x"), "", "", "", 400, "BadRequest", "field label not supported"},

		// Authentication comes before everything, discovery included.
		{"wrong token", "GET", pods, "", "", "Bearer nope", 401, "Unauthorized", "Unauthorized"},
		{"basic auth", "GET", pods, "", "", "Basic dXNlcjpwdw==", 401, "Unauthorized", "Unauthorized"},
		{"no token on a write", "POST", pods, js, podJSON("x", ""), "-", 401, "Unauthorized", "Unauthorized"},
		{"no token on discovery", "GET", "/api/v1", "", "", "-", 401, "Unauthorized", "Unauthorized"},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, err := http.NewRequest(c.method, s.URL()+c.path, strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			if c.ct != "" {
				req.Header.Set("Content-Type", c.ct)
			}
			switch c.auth {
			case "":
				req.Header.Set("Authorization", "Bearer "+token)
			case "-":
			default:
				req.Header.Set("Authorization", c.auth)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var got map[string]any
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatalf("answer is not one JSON object: %v: %.200q", err, raw)
			}
			msg, _ := got["message"].(string)
			if resp.StatusCode != c.code || got["code"] != float64(c.code) || got["reason"] != c.reason ||
				got["kind"] != "Status" || got["apiVersion"] != "v1" || got["status"] != "Failure" {
				t.Errorf("answer %d %v, want a %d %s Status", resp.StatusCode, got, c.code, c.reason)
			}
			if !strings.Contains(msg, c.wantInMessage) {
				t.Errorf("message %q does not say %q", msg, c.wantInMessage)
			}
			if after := dumpState(s); after != before {
				t.Errorf("a rejected request changed the state:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}
