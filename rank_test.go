package registry_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// searchFake returns a fake whose register answers names, in order, with
// total matches, and records the limit it was asked for.
func searchFake(total int, asked *int, names ...string) *fakeCountry {
	f := &fakeCountry{code: "NO"}
	f.search = func(_ context.Context, q string, limit int) (*registry.SearchResult, error) {
		*asked = limit
		res := &registry.SearchResult{Country: "NO", Registry: "fake", Query: q, Total: total}
		for i, n := range names {
			if i == limit {
				break
			}
			res.Hits = append(res.Hits, countrykit.NewHit("NO", "fake", fmt.Sprintf("%06d", i), n))
		}
		return res, nil
	}
	return f
}

// TestSearchRanksTheRegistersWindow (issue 13, "Search ranks the register's
// answer, not one page of it"): the exact match is the register's row 7 of
// 20; limit 1 returns it with 0.95, because the Registry asks for
// SearchWindow rows and ranks them before it trims.
func TestSearchRanksTheRegistersWindow(t *testing.T) {
	t.Parallel()
	names := make([]string, 20)
	for i := range names {
		names[i] = fmt.Sprintf("OTHER EQUINOR THING %d AS", i)
	}
	names[6] = "EQUINOR ASA"
	var asked int
	r := newRegistry(t, searchFake(57, &asked, names...))
	res, err := r.Search(t.Context(), "NO", "equinor asa", 1)
	if err != nil {
		t.Fatal(err)
	}
	if asked != registry.SearchWindow {
		t.Errorf("the register was asked for %d rows, want %d", asked, registry.SearchWindow)
	}
	if len(res.Hits) != 1 || res.Hits[0].Name != "EQUINOR ASA" || res.Hits[0].Confidence != 0.95 {
		t.Fatalf("hits = %+v, want EQUINOR ASA at 0.95", res.Hits)
	}
	if res.Total != 57 || !res.Truncated || res.Hint == nil {
		t.Errorf("total %d truncated %t hint %v; want 57, true and a hint", res.Total, res.Truncated, res.Hint)
	}
}

// TestSearchAnchorsAndStableOrder (spec "Confidence anchors for hits" and
// "SearchResult.hits: best first, equal scores keep the upstream order").
func TestSearchAnchorsAndStableOrder(t *testing.T) {
	t.Parallel()
	var asked int
	r := newRegistry(t, searchFake(5, &asked, "STATOIL FUEL", "EQUINOR ENERGY AS", "NORSK EQUINOR", "EQUINOR", "EQUINOR ASA"))
	res, err := r.Search(t.Context(), "NO", "equinor", 5)
	if err != nil {
		t.Fatal(err)
	}
	type hit struct {
		Name       string
		Confidence float64
	}
	var got []hit
	for _, h := range res.Hits {
		got = append(got, hit{h.Name, h.Confidence})
		if h.ConfidenceBasis == nil || *h.ConfidenceBasis == "" {
			t.Errorf("%s: no confidence_basis", h.Name)
		}
	}
	want := []hit{{"EQUINOR", 0.95}, {"EQUINOR ENERGY AS", 0.8}, {"EQUINOR ASA", 0.8}, {"NORSK EQUINOR", 0.6}, {"STATOIL FUEL", 0.4}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
	// Every match returned, yet a hit is thin (spec, SearchHit: "must not
	// be acted on directly"): the hint says how to get the full report.
	const thin = "A hit is thin and not to be acted on directly: look up its id with the lookup operation for the full report first."
	if res.Truncated || res.Hint == nil || *res.Hint != thin {
		t.Errorf("truncated %t hint %v; want false and %q", res.Truncated, res.Hint, thin)
	}
}

// TestSearchHints: zero hits keep the module's own advice (or get the
// generic one); a truncated answer names how to widen or narrow the search,
// and at limit 100 only how to narrow it.
func TestSearchHints(t *testing.T) {
	t.Parallel()
	var asked int
	names := make([]string, 120)
	for i := range names {
		names[i] = fmt.Sprintf("ACME %d", i)
	}
	r := newRegistry(t, searchFake(500, &asked, names...))
	for limit, want := range map[int]string{
		10: "More entities match than were returned: raise limit (at most 100) or search with a more specific name. " +
			"A hit is thin and not to be acted on directly: look up its id with the lookup operation for the full report first.",
		100: "More entities match than the 100 returned: search with a more specific name. " +
			"A hit is thin and not to be acted on directly: look up its id with the lookup operation for the full report first.",
	} {
		res, err := r.Search(t.Context(), "NO", "acme", limit)
		if err != nil {
			t.Fatal(err)
		}
		if res.Hint == nil || *res.Hint != want || len(res.Hits) != limit {
			t.Errorf("limit %d: %d hits, hint %v; want %q", limit, len(res.Hits), res.Hint, want)
		}
	}
	// The register's page is smaller than the limit (France's 25 rows, as
	// the module says in RegisterPage): raising the limit brings no more,
	// so the hint does not say to (rev-countries10,
	// TestReview_FRSearchHintSaysRaiseLimitPastThePage).
	pagedFake := searchFake(500, &asked, names[:25]...)
	search := pagedFake.search
	pagedFake.search = func(ctx context.Context, q string, limit int) (*registry.SearchResult, error) {
		res, err := search(ctx, q, limit)
		res.RegisterPage = 25
		return res, err
	}
	paged := newRegistry(t, pagedFake)
	for limit, want := range map[int]string{
		10: "More entities match than were returned: raise limit (at most 100) or search with a more specific name. " +
			"A hit is thin and not to be acted on directly: look up its id with the lookup operation for the full report first.",
		25: "More entities match than the register returns to one search: search with a more specific name. " +
			"A hit is thin and not to be acted on directly: look up its id with the lookup operation for the full report first.",
		50: "More entities match than the register returns to one search: search with a more specific name. " +
			"A hit is thin and not to be acted on directly: look up its id with the lookup operation for the full report first.",
		100: "More entities match than the register returns to one search: search with a more specific name. " +
			"A hit is thin and not to be acted on directly: look up its id with the lookup operation for the full report first.",
	} {
		res, err := paged.Search(t.Context(), "NO", "acme", limit)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(&want, res.Hint); diff != "" || len(res.Hits) != min(limit, 25) {
			t.Errorf("a page of 25, limit %d: %d hits; hint (-want +got):\n%s", limit, len(res.Hits), diff)
		}
	}
	none := newRegistry(t, searchFake(0, &asked))
	res, err := none.Search(t.Context(), "NO", "nothing", 5)
	if err != nil || len(res.Hits) != 0 || res.Hits == nil || res.Hint == nil || res.Truncated {
		t.Errorf("zero hits: %+v, %v", res, err)
	}
	own := searchFake(0, &asked)
	own.search = func(_ context.Context, q string, _ int) (*registry.SearchResult, error) {
		return &registry.SearchResult{Country: "NO", Registry: "fake", Query: q, Hint: countrykit.Ptr("The module's advice.")}, nil
	}
	res, err = newRegistry(t, own).Search(t.Context(), "NO", "nothing", 5)
	if err != nil || res.Hint == nil || *res.Hint != "The module's advice." {
		t.Errorf("module hint: %+v, %v", res, err)
	}
}

// TestSearchByIdentifierRanksItFirst: a register that also searches by
// number (France's recherche-entreprises answers a SIREN) returns the
// company whose identifier is the query; its name shares no word with the
// query, yet it is the identifier the caller typed (spec, CompanyReport:
// "1.0 for an exact identifier lookup"), so it ranks first with 1.0.
func TestSearchByIdentifierRanksItFirst(t *testing.T) {
	t.Parallel()
	var asked int
	r := newRegistry(t, searchFake(3, &asked, "FIRST AS", "SECOND AS", "GANYMEDE"))
	res, err := r.Search(t.Context(), "NO", "000 002", 5)
	if err != nil {
		t.Fatal(err)
	}
	type hit struct {
		ID         string
		Confidence float64
		Basis      string
	}
	var got []hit
	for _, h := range res.Hits {
		got = append(got, hit{h.ID, h.Confidence, *h.ConfidenceBasis})
	}
	other := "Returned by the register's name search, but the name does not contain every word of the query."
	want := []hit{
		{"000002", 1.0, "The query is this entity's identifier, ignoring spaces and punctuation."},
		{"000000", 0.4, other}, {"000001", 0.4, other},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
}
