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

// TestCacheEntryOfThePreviousFormatIsNotServed: issue 29 changed what the
// Registry stores for an answer (Finnish ids without the hyphen, a hint on
// every non-empty search, GB's employees_reported and founded_at), so
// registry.CacheFormat, which changes whenever the bytes stored for an
// answer change their meaning, is "2". A search result that a build of
// format "1" wrote to a shared or persistent cache
// (testdata/cacheformat1: the entry the build before issue 29's merge
// stored for this search, under the key that search still has) is not
// read: the register is asked, and the answer has the canonical ids and a
// hint (before, format "1" stayed and the old entry was served for up to
// the cache TTL).
func TestCacheEntryOfThePreviousFormatIsNotServed(t *testing.T) {
	t.Parallel()
	old, err := os.ReadFile("testdata/cacheformat1/search-supercell-limit10.bin")
	if err != nil {
		t.Fatal(err)
	}
	c, err := cache.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	// The key of format "1".
	if err := c.Set(t.Context(), "companyregistry/1/FI/search/10/supercell", old, registry.DefaultCacheTTL); err != nil {
		t.Fatal(err)
	}
	// The register answers the cache miss.
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
	if res.Cached {
		t.Error("the answer says cached: the entry of format 1 was read")
	}
}
