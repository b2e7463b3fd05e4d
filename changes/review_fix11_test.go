package changes_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/idcheck"
)

// TestReview_TruncatedIDEchoesPersonalNumber: canonicalIDs decides
// whether to quote an invalid identifier by ContainsPersonalNumber of the
// whole identifier, but quotes its first 40 bytes plus "...". Eleven
// digits in a row hold no personal number by that rule (a longer number is
// not searched for ten in a row), yet the 40-byte cut can end the quote
// after the first ten, which the same rule reads as one: the invalid_id
// message and details.invalid[].id then carry a string the project's own
// rule calls a personal identity number. Suggested fix: test the quoted
// (truncated) text too, or quote nothing that the rule flags either way.
func TestReview_TruncatedIDEchoesPersonalNumber(t *testing.T) {
	id := strings.Repeat("x", 30) + "81010523821" // the cut falls after "8101052382"
	if idcheck.ContainsPersonalNumber(id) {
		t.Fatal("the input itself holds a personal number by the rule: the proof needs one that does not")
	}
	f := newFixture(t)
	_, err := f.svc.CreateWatch(context.Background(), owner,
		changes.WatchRequest{Country: "SE", IDs: []string{id}, URL: "https://hooks.example.com/x"})
	e := asError(t, err)
	if e.Code != registry.CodeInvalidID {
		t.Fatalf("code %s, want invalid_id", e.Code)
	}
	b, err := json.Marshal(e.Details["invalid"])
	if err != nil {
		t.Fatal(err)
	}
	var invalid []struct {
		ID *string `json:"id"`
	}
	if err := json.Unmarshal(b, &invalid); err != nil || len(invalid) != 1 {
		t.Fatalf("details.invalid %s: %v", b, err)
	}
	quoted := ""
	if invalid[0].ID != nil {
		quoted = *invalid[0].ID
	}
	got := map[string]bool{
		"message": idcheck.ContainsPersonalNumber(e.Message),
		"details": idcheck.ContainsPersonalNumber(quoted),
	}
	want := map[string]bool{"message": false, "details": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("a personal number by idcheck's rule in the answer (-want +got):\n%s\nmessage: %s\ndetails.invalid: %s", diff, e.Message, b)
	}
}
