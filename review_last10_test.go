package registry_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_PagedSearchAtLimit100ClaimsHundredReturned: 71a7111 lets a
// module say its register's page (France: RegisterPage 25), but rank
// tests limit >= MaxSearchLimit first, so at limit 100 a French search
// with more matches answers 25 hits and the hint "More entities match
// than the 100 returned", which is false (25 were returned); limits 25 to
// 99 get the page hint. TestSearchHints asserts the false text for the
// paged fake. Suggested fix: test the RegisterPage case before the
// MaxSearchLimit one (or word the max hint without the number).
func TestReview_PagedSearchAtLimit100ClaimsHundredReturned(t *testing.T) {
	t.Parallel()
	var asked int
	names := make([]string, 25)
	for i := range names {
		names[i] = fmt.Sprintf("ACME %d", i)
	}
	f := searchFake(500, &asked, names...)
	search := f.search
	f.search = func(ctx context.Context, q string, limit int) (*registry.SearchResult, error) {
		res, err := search(ctx, q, limit)
		res.RegisterPage = 25
		return res, err
	}
	res, err := newRegistry(t, f).Search(t.Context(), "NO", "acme", registry.MaxSearchLimit)
	if err != nil {
		t.Fatal(err)
	}
	want := "More entities match than the register returns to one search: search with a more specific name. " +
		"A hit is thin and not to be acted on directly: look up its id with the lookup operation for the full report first."
	if diff := cmp.Diff(&want, res.Hint); diff != "" || len(res.Hits) != 25 {
		t.Errorf("a page of 25, limit 100: %d hits; hint (-want +got):\n%s", len(res.Hits), diff)
	}
}
