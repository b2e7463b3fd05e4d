package changes_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// TestReview_Final12MalformedLimitIsNotAPersonalNumber (rev-final12):
// 061b035 moved change monitoring to the doors' one rule for quoting a
// caller's value (ops.Quote, ops.Number: not at all when it has a personal
// number's form) and doc/decisions.md listed "its limit" among what still
// quoted with ops.Shown. The out-of-range limit now follows the rule; a
// malformed one (which strconv.Atoi refuses, as 810105-2382 is) still
// goes through ParseLimit's %q of ops.Shown, so the feed's and the
// deliveries' limit=810105-2382 are echoed, where the search's
// ops.ParseLimit answers "(not quoted: ...)" for the same text.
func TestReview_Final12MalformedLimitIsNotAPersonalNumber(t *testing.T) {
	t.Parallel()
	_, err := changes.ParseLimit("810105-2382", true, 20)
	e := registry.AsError(err)
	if e == nil {
		t.Fatal("ParseLimit took 810105-2382")
	}
	want := "limit must be an integer; got (not quoted: it has the form of a personal identity number)."
	if diff := cmp.Diff(want, e.Message); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
}
