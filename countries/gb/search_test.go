package gb

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/moduletest"
)

// Every recorded search answer maps to a reviewed golden result.
func TestSearchRecordingsMatchGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file, query string
		limit       int
	}{
		{"search_companies_q-you_2019.json", "you", 100},
		{"search_companies_q-active_via-proxy_2023.json", "active", 20},
		{"search_companies_q-bbc_via-proxy_2024.json", "bbc", 10},
		{"search_companies_q-SC294759_items_per_page-1_quirk.json", "SC294759", 1},
		{"search_companies_empty_synthetic.json", "zzqx nonexistent", 10},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponder(http.MethodGet, testBase+"/search/companies", moduletest.JSONResponder(http.StatusOK, recording(t, tt.file)))
			res, err := newTestCountry(t, mt).Search(t.Context(), tt.query, tt.limit)
			if err != nil {
				t.Fatalf("Search(%q): %v", tt.query, err)
			}
			checkGolden(t, strings.TrimSuffix(tt.file, ".json")+".golden", res)
		})
	}
}

// The search sends q and items_per_page; a limit of 1 asks for 2 items,
// because Companies House answers items_per_page=1 with no items.
func TestSearchQueryParameters(t *testing.T) {
	t.Parallel()
	tests := []struct {
		limit int
		want  string
	}{
		{1, "2"},
		{10, "10"},
		{100, "100"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			var q, n string
			mt.RegisterResponder(http.MethodGet, testBase+"/search/companies", func(req *http.Request) (*http.Response, error) {
				q, n = req.URL.Query().Get("q"), req.URL.Query().Get("items_per_page")
				return moduletest.JSONResponder(http.StatusOK, recording(t, "search_companies_q-bbc_via-proxy_2024.json"))(req)
			})
			res, err := newTestCountry(t, mt).Search(t.Context(), "bbc & co", tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			if q != "bbc & co" || n != tt.want {
				t.Errorf("q=%q items_per_page=%q, want %q and %q", q, n, "bbc & co", tt.want)
			}
			if len(res.Hits) > tt.limit {
				t.Errorf("%d hits, want at most %d", len(res.Hits), tt.limit)
			}
		})
	}
}

// Zero hits is a success whose hint says that sole traders are not
// registered at Companies House; a reply without items counts as zero hits.
func TestSearchZeroHitsHintNamesSoleTraders(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"total_results":0,"items":[]}`, `{"total_results":0}`, `{}`} {
		t.Run(body, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponder(http.MethodGet, testBase+"/search/companies", moduletest.JSONResponder(http.StatusOK, []byte(body)))
			res, err := newTestCountry(t, mt).Search(t.Context(), "nobody", 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) != 0 || res.Total != 0 || res.Truncated {
				t.Errorf("hits=%d total=%d truncated=%v, want 0, 0, false", len(res.Hits), res.Total, res.Truncated)
			}
			if res.Hint == nil || !strings.Contains(*res.Hint, "Sole traders are not registered at Companies House") {
				t.Errorf("hint = %v, want it to mention sole traders", res.Hint)
			}
		})
	}
}

// Hits are sorted by confidence, best first; equal scores keep the
// upstream order.
func TestSearchSortIsStable(t *testing.T) {
	t.Parallel()
	page := &searchPage{TotalResults: 40, Items: []searchItem{
		{Title: "ACME HOLDINGS LTD", CompanyNumber: "00000001"},
		{Title: "THE ACME LTD", CompanyNumber: "00000002"},
		{Title: "ACME", CompanyNumber: "00000003"},
		{Title: "ACME TRADING LTD", CompanyNumber: "00000004"},
		{Title: "BAD NUMBER LTD", CompanyNumber: "not a number"},
	}}
	res := mapSearch("acme", 10, page)
	var got []string
	for _, h := range res.Hits {
		got = append(got, h.ID)
	}
	// The module keeps the register's order; the Registry ranks.
	want := []string{"00000001", "00000002", "00000003", "00000004"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hit order mismatch (-want +got):\n%s", diff)
	}
	if res.Total != 40 || !res.Truncated {
		t.Errorf("total=%d truncated=%v, want 40 and true", res.Total, res.Truncated)
	}
}

// A search through the Registry is retried once on a 5xx and a rate limit
// is passed on with retry_after.
func TestSearchUpstreamFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		resp      httpmock.Responder
		wantCode  registry.Code
		wantCalls int
	}{
		{"503 twice", moduletest.JSONResponder(503, nil), registry.CodeUpstreamError, 2},
		{"429", moduletest.JSONResponder(429, nil, "X-Ratelimit-Reset", strconv.FormatInt(fixedNow().Unix()+90, 10)), registry.CodeRateLimited, 1},
		{"401", moduletest.JSONResponder(401, recording(t, "error_401_invalid-authorization.json")), registry.CodeUpstreamError, 1},
		{"404 on search", moduletest.JSONResponder(404, nil), registry.CodeUpstreamError, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponder(http.MethodGet, testBase+"/search/companies", tt.resp)
			reg := newTestRegistry(t, newTestCountry(t, mt), nil)
			_, err := reg.Search(t.Context(), "GB", "tesco", 10)
			e := moduletest.AsError(t, err)
			if e.Code != tt.wantCode {
				t.Errorf("code = %s, want %s", e.Code, tt.wantCode)
			}
			if n := mt.GetTotalCallCount(); n != tt.wantCalls {
				t.Errorf("%d upstream calls, want %d", n, tt.wantCalls)
			}
			if tt.wantCode == registry.CodeRateLimited && e.RetryAfter() != 90 {
				t.Errorf("retry_after = %d, want 90", e.RetryAfter())
			}
		})
	}
}
