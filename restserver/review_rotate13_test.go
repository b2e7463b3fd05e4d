package restserver_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_Rotate13OversizeBodyHintAsksForAnObject: a body over 1 MiB
// sent to POST /v1/watches/{id}/secret is refused (400 bad_request) with
// readBody's hint, "Send one JSON object of at most 1 MiB (10,000
// identifiers fit).", which tells the caller to send an object the route
// then refuses (it takes no body or {}), while every other malformed body
// of the route gets the rotation's own hint. Suggested fix: give the
// rotation's hint to readBody's refusal on this route.
func TestReview_Rotate13OversizeBodyHintAsksForAnObject(t *testing.T) {
	t.Parallel()
	h := newChangeHarness(t, bothTokens())
	res := h.call(t, "POST", "/v1/watches", erpToken, `{"country":"ZZ","ids":["123456"],"url":"https://93.184.216.34/hook"}`)
	if res.status != 201 {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	path := "/v1/watches/" + decode(t, res.body)["id"].(string) + "/secret"
	hint := func(body string) [2]any {
		t.Helper()
		res := h.call(t, "POST", path, erpToken, body)
		return [2]any{res.status, errorOf(t, res.body).Hint}
	}
	want := hint(`{"secret":"whsec_mine"}`) // the route's own refusal
	got := hint(`{"a":"` + strings.Repeat("x", 1<<20) + `"}`)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the refusal of a body over 1 MiB, against the route's refusal of a member (-want +got):\n%s", diff)
	}
}
