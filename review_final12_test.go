package registry_test

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// seeingCountry is a module with a QueryChecker that accepts every query
// and records what it was given.
type seeingCountry struct {
	*fakeCountry
	mu   sync.Mutex
	seen []string
}

func (c *seeingCountry) CheckQuery(q string) error {
	c.mu.Lock()
	c.seen = append(c.seen, q)
	c.mu.Unlock()
	return nil
}

// TestReview_Final12QueryCheckerSeesPersonalNumber (rev-final12): the
// QueryChecker doc says the Registry calls CheckQuery "after its own
// checks of the query (trimmed, non-empty, at most MaxQueryLength bytes,
// no personal identity number)", and that the personal number is one "the
// Registry itself refuses first, for every country". Since 9eb69b0 the
// Registry calls the module's CheckQuery before its personal-number rule,
// so any module's checker is handed the number (to keep, log or send).
// A module's checker must not see a query the Registry refuses first.
func TestReview_Final12QueryCheckerSeesPersonalNumber(t *testing.T) {
	t.Parallel()
	c := &seeingCountry{fakeCountry: &fakeCountry{code: "NO"}}
	r, err := registry.New([]registry.Country{c}, registry.WithRetryPause(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Search(t.Context(), "NO", " Anna 810105-2382 ", 5)
	if e := registry.AsError(err); e == nil || e.Code != registry.CodeBadRequest {
		t.Fatalf("search of a personal number: %v; want bad_request", err)
	}
	c.mu.Lock()
	seen := c.seen
	c.mu.Unlock()
	if diff := cmp.Diff([]string(nil), seen); diff != "" {
		t.Errorf("queries the module's CheckQuery was given (-want +got):\n%s", diff)
	}
	if n := c.searches.Load(); n != 0 {
		t.Errorf("%d searches, want none", n)
	}
}
