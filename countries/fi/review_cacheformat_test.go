package fi

import (
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
)

// TestReview_CacheEntryOfThePreviousFormatIsServed: issue 29 changed what
// the Registry stores for an answer (Finnish ids without the hyphen, a hint
// on every non-empty search, GB's employees_reported and founded_at), but
// registry.CacheFormat, which "changes whenever the bytes stored for an
// answer change their meaning", stayed "1". Company entries moved to new
// keys (the key holds the normalized id, now 01120389), but search keys
// did not: a search result that the previous version wrote to a shared or
// persistent cache (testdata/review: the entry main before the issue 29
// merge, a7c1d9b^1, stored for this search) is served by the new version
// for up to the cache TTL (24 h by default), with hyphenated ids and no
// hint. CHANGELOG says "Cache entries under the old key are not read".
func TestReview_CacheEntryOfThePreviousFormatIsServed(t *testing.T) {
	t.Parallel()
	old, err := os.ReadFile("testdata/review/search-supercell-limit10_written-by-a7c1d9b-parent.bin")
	if err != nil {
		t.Fatal(err)
	}
	c, err := cache.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	// The key the previous version used (CacheFormat "1" then, and now).
	if err := c.Set(t.Context(), "companyregistry/1/FI/search/10/supercell", old, registry.DefaultCacheTTL); err != nil {
		t.Fatal(err)
	}
	// The register answers a cache miss; with the entry above it is not asked.
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/companies", httpmock.NewBytesResponder(http.StatusOK, recording(t, searchFile)).
		HeaderSet(http.Header{"Content-Type": {"application/json"}}))
	reg := newTestRegistry(t, mt, registry.WithCache(c))
	res, err := reg.Search(t.Context(), "FI", "supercell", 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if strings.ContainsAny(h.ID, "- ") {
			t.Errorf("hit %q has id %q, not the canonical letters and digits (served from the previous format's entry)", h.Name, h.ID)
		}
	}
	if res.Hint == nil {
		t.Errorf("a non-empty search result has no hint (served from the previous format's entry, cached %v)", res.Cached)
	}
}
