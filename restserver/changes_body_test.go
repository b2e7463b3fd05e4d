package restserver_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
)

// TestWatchBodyTooLarge: a body one byte past changes.MaxRequestBytes on
// each watch route that reads one is refused with 400 bad_request by that
// route's parser, with the route's own hint (the one its malformed bodies
// get), and a body of exactly the bound is read whole.
func TestWatchBodyTooLarge(t *testing.T) {
	t.Parallel()
	h := newChangeHarness(t, bothTokens())
	res := h.call(t, "POST", "/v1/watches", erpToken, `{"country":"ZZ","ids":["123456"],"url":"https://93.184.216.34/hook"}`)
	if res.status != 201 {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	watch := "/v1/watches/" + decode(t, res.body)["id"].(string)
	type refusal struct {
		Status        int
		Code, Message string
		SameHint      bool // as the route's refusal of a malformed body
	}
	refuse := func(method, path, body string) (int, string, string, string) {
		t.Helper()
		res := h.call(t, method, path, erpToken, body)
		e := errorOf(t, res.body)
		return res.status, string(e.Code), e.Message, e.Hint
	}
	over := strings.Repeat(" ", changes.MaxRequestBytes) + "{}"
	got := map[string]refusal{}
	for _, r := range []struct{ name, method, path string }{
		{"create", "POST", "/v1/watches"},
		{"update", "PATCH", watch},
		{"rotate", "POST", watch + "/secret"},
	} {
		_, _, _, hint := refuse(r.method, r.path, `[]`)
		status, code, msg, overHint := refuse(r.method, r.path, over)
		got[r.name] = refusal{status, code, msg, overHint == hint}
	}
	msg := fmt.Sprintf("The body is larger than %d bytes.", changes.MaxRequestBytes)
	want := map[string]refusal{
		"create": {400, "bad_request", msg, true},
		"update": {400, "bad_request", msg, true},
		"rotate": {400, "bad_request", msg, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("a body of MaxRequestBytes+1 bytes (-want +got):\n%s", diff)
	}
	// Exactly the bound: read whole, so the parser judges the body itself.
	exact := strings.Repeat(" ", changes.MaxRequestBytes-2) + "{}"
	if res := h.call(t, "POST", watch+"/secret", erpToken, exact); res.status != 200 {
		t.Errorf("a rotation body of exactly MaxRequestBytes bytes: %d %s", res.status, res.body)
	}
}
