package restserver_test

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_Doors12UnknownFieldIsNotAPersonalNumber (doors12 item 4): a
// batch body's unknown member and a search's limit are quoted in the
// error unless they have the form of a Swedish personal identity number
// (ops.Quote, the rule change monitoring applies to an invalid id):
// personal data is never part of an error, not even the caller's own.
func TestReview_Doors12UnknownFieldIsNotAPersonalNumber(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const hidden = "(not quoted: it has the form of a personal identity number)"
	type answer struct {
		Status  int
		Message string
	}
	message := func(res response) answer { return answer{res.status, errorOf(t, res.body).Message} }
	got := map[string]answer{
		"batch, personal number": message(h.post(t, batchPath, `{"ids":["123456"],"810105-2382":1}`)),
		"batch, cut to one":      message(h.post(t, batchPath, `{"ids":["123456"],"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx81010523825":1}`)),
		"batch, a name":          message(h.post(t, batchPath, `{"ids":["123456"],"idz":1}`)),
		"limit":                  message(h.get(t, "/v1/ZZ/search?q=acme&limit="+url.QueryEscape("810105-2382"))),
		"limit out of range":     message(h.get(t, "/v1/ZZ/search?q=acme&limit=8101052382")),
		"limit, a number":        message(h.get(t, "/v1/ZZ/search?q=acme&limit=101")),
	}
	want := map[string]answer{
		"batch, personal number": {400, "The body has an unknown field " + hidden + "; only ids and today are accepted."},
		"batch, cut to one":      {400, "The body has an unknown field " + hidden + "; only ids and today are accepted."},
		"batch, a name":          {400, `The body has an unknown field "idz"; only ids and today are accepted.`},
		"limit":                  {400, fmt.Sprintf("limit must be an integer from 1 to %d; got %s.", registry.MaxSearchLimit, hidden)},
		// The range is the Registry's check (the root package), which
		// quotes an integer by the same rule.
		"limit out of range": {400, fmt.Sprintf("limit must be an integer from 1 to %d; got %s.", registry.MaxSearchLimit, hidden)},
		"limit, a number":    {400, fmt.Sprintf("limit must be an integer from 1 to %d; got 101.", registry.MaxSearchLimit)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}
