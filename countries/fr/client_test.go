package fr

import (
	"bytes"
	"context"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/internal/moduletest"
)

// TestLookupSpellings: a SIREN, its VAT number in any spelling (also
// without FR, as validation takes it) and its
// SIRET all reach the API with the canonical SIREN or SIRET; the SIREN and
// VAT spellings share one cache entry.
func TestLookupSpellings(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponderWithQuery(http.MethodGet, testBase+"/search", lookupQuery("552032534"),
		moduletest.JSONResponder(http.StatusOK, recording(t, danoneFile)))
	reg := newTestRegistry(t, mt)
	for _, in := range []string{"552032534", "552 032 534", "552.032.534", "FR27552032534", "fr 27 552 032 534", "FR-27-552-032-534",
		"27552032534", "27 552 032 534"} {
		rep, err := reg.Lookup(t.Context(), "FR", in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if rep.ID != "552032534" || rep.Name != "DANONE" {
			t.Errorf("%q: %s %s", in, rep.ID, rep.Name)
		}
	}
	if got := mt.GetTotalCallCount(); got != 1 {
		t.Errorf("upstream calls = %d, want 1 (one cache entry for every spelling)", got)
	}
}

// TestLookupNotTheWrongCompany (france.md §1.1, the API's phantom record):
// an empty answer, an answer about another unit, a phantom record for the
// SIREN asked (null état administratif and name) and a SIRET answered with
// the unit of another SIREN are all not_found, never a report.
func TestLookupNotTheWrongCompany(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		id   string
		body []byte
	}{
		"empty":                 {"732829320", recording(t, emptyFile)},
		"other unit":            {"880878145", recording(t, danoneFile)},
		"phantom, other SIREN":  {"732829320", recording(t, phantomFile)},
		"phantom, asked SIREN":  {"732829320", phantomAsked(t)},
		"SIRET of another unit": {"55203253400646", recording(t, siretFile)},
		"no results key":        {"552032534", []byte(`{"total_results":1}`)},
		"null results":          {"552032534", []byte(`{"results":null}`)},
		"unit without state": {"552032534", []byte(`{"results":[{"siren":"552032534","nom_complet":"DANONE",` +
			`"etat_administratif":null}]}`)},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponder(http.MethodGet, testBase+"/search", moduletest.JSONResponder(http.StatusOK, c.body))
			_, err := newTestCountry(t, mt).Lookup(t.Context(), c.id)
			if e := moduletest.AsError(t, err); e.Code != registry.CodeNotFound {
				t.Errorf("code %s, want not_found: %v", e.Code, e)
			}
		})
	}
}

// TestLookupErrors: the API's 400 is invalid_id, 404 (an unknown path: a
// wrong base URL) a final upstream_error, 500 a retryable one, 429
// rate_limited with the Retry-After seconds.
func TestLookupErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status    int
		file      string
		header    []string
		code      registry.Code
		retryable bool
		retry     int
	}{
		{400, error400File, nil, registry.CodeInvalidID, false, 0},
		{404, "error_404_unknown-path_SYNTHETIC.json", nil, registry.CodeUpstreamError, false, 0},
		{500, error500File, nil, registry.CodeUpstreamError, true, 0},
		{429, "", []string{"Retry-After", "3"}, registry.CodeRateLimited, false, 3},
		{429, "", nil, registry.CodeRateLimited, false, 60},
	}
	for _, tt := range tests {
		var body []byte
		if tt.file != "" {
			body = recording(t, tt.file)
		}
		mt := httpmock.NewMockTransport()
		mt.RegisterResponder(http.MethodGet, testBase+"/search", moduletest.JSONResponder(tt.status, body, tt.header...))
		_, err := newTestCountry(t, mt).Lookup(t.Context(), "552032534")
		e := moduletest.AsError(t, err)
		if e.Code != tt.code || e.Retryable != tt.retryable || e.UpstreamStatus != tt.status || e.RetryAfter() != tt.retry {
			t.Errorf("%d: code %s retryable %t status %d retry_after %d", tt.status, e.Code, e.Retryable, e.UpstreamStatus, e.RetryAfter())
		}
	}
}

// TestSearchRequests: the page asked is min(limit, 25) rows; a query under
// three characters is bad_request without a call (the API would refuse
// it); the API's 400 is bad_request.
func TestSearchRequests(t *testing.T) {
	t.Parallel()
	for limit, perPage := range map[int]string{1: "1", 20: "20", 25: "25", 100: "25"} {
		mt := httpmock.NewMockTransport()
		mt.RegisterResponderWithQuery(http.MethodGet, testBase+"/search", url.Values{"q": {"kikou"}, "page": {"1"}, "per_page": {perPage}},
			moduletest.JSONResponder(http.StatusOK, recording(t, kikouFile)))
		res, err := newTestCountry(t, mt).Search(t.Context(), "  kikou ", limit)
		if err != nil {
			t.Fatalf("limit %d: %v", limit, err)
		}
		if want := min(limit, 10); len(res.Hits) != want || res.Total != 91 || res.Truncated != (91 > want) {
			t.Errorf("limit %d: %d hits, total %d, truncated %t", limit, len(res.Hits), res.Total, res.Truncated)
		}
	}
	mt := httpmock.NewMockTransport()
	c := newTestCountry(t, mt)
	for _, q := range []string{"ab", " a  ", "é"} {
		_, err := c.Search(t.Context(), q, 5)
		if e := moduletest.AsError(t, err); e.Code != registry.CodeBadRequest {
			t.Errorf("%q: %s", q, e.Code)
		}
	}
	if _, err := c.Search(t.Context(), strings.Repeat("x", 201), 5); moduletest.AsError(t, err).Code != registry.CodeBadRequest {
		t.Error("a 201-character query is not bad_request")
	}
	if n := mt.GetTotalCallCount(); n != 0 {
		t.Errorf("%d calls for refused queries", n)
	}
	mt.RegisterResponder(http.MethodGet, testBase+"/search", moduletest.JSONResponder(http.StatusBadRequest, recording(t, error400File)))
	if _, err := c.Search(t.Context(), "abc", 5); moduletest.AsError(t, err).Code != registry.CodeBadRequest {
		t.Error("the API's 400 is not bad_request")
	}
}

// maskedSearchPage is the Kikou page with the masked entrepreneur and the
// phantom record added: neither can be shown.
func maskedSearchPage(t *testing.T) []byte {
	t.Helper()
	unitOf := func(b []byte) []byte {
		start := bytes.Index(b, []byte(`"results":[`)) + len(`"results":[`)
		end := bytes.LastIndex(b, []byte(`],"total_results"`))
		return b[start:end]
	}
	page := recording(t, kikouFile)
	extra := append(append(unitOf(recording(t, maskedEIFile)), ','), unitOf(recording(t, phantomFile))...)
	return bytes.Replace(page, []byte(`"results":[`), append(append([]byte(`"results":[`), extra...), ','), 1)
}

// TestSearchDropsWhatCannotBeShown: a unit whose name is withheld and a
// phantom record are left out of the hits and out of total.
func TestSearchDropsWhatCannotBeShown(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBase+"/search", moduletest.JSONResponder(http.StatusOK, maskedSearchPage(t)))
	res, err := newTestCountry(t, mt).Search(t.Context(), "kikou", 25)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.ID)
	}
	want := []string{"441232121", "910866482", "910014489", "480189679", "421782335", "104215660", "488549601", "821795283",
		"531606028", "503302861"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
	if res.Total != 89 || !res.Truncated {
		t.Errorf("total %d truncated %t, want 89 (91 less the two that cannot be shown) and true", res.Total, res.Truncated)
	}
}

// TestNonDiffusibleNeverStored (fr-deadlines.md §9): the masked
// entrepreneur's lookup, deadlines, roles and a search page holding it go
// through a Registry with a cache and a debug logger; the placeholder is
// in no answer, no cache entry and no log line.
func TestNonDiffusibleNeverStored(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponderWithQuery(http.MethodGet, testBase+"/search", lookupQuery("300025764"),
		moduletest.JSONResponder(http.StatusOK, recording(t, maskedEIFile)))
	mt.RegisterResponder(http.MethodGet, testBase+"/search", moduletest.JSONResponder(http.StatusOK, maskedSearchPage(t)))
	inner, err := cache.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	mem := &recordingCache{Cache: inner, seen: map[string][]byte{}}
	logs := &moduletest.SyncBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	reg := newTestRegistry(t, mt, registry.WithCache(mem), registry.WithLogger(logger))
	var answers []any
	for range 2 { // the second round comes from the cache
		rep, err := reg.Lookup(t.Context(), "FR", "300 025 764")
		if err != nil {
			t.Fatal(err)
		}
		if rep.Name != nameNotPublished || rep.BusinessAddress == nil || len(rep.BusinessAddress.Lines) != 0 || rep.BusinessAddress.PostalCode != nil {
			t.Errorf("masked data shown: %q %+v", rep.Name, rep.BusinessAddress)
		}
		dl, err := reg.Deadlines(t.Context(), "FR", "300025764", registry.NewDate(2026, 11, 24))
		if err != nil {
			t.Fatal(err)
		}
		roles, err := reg.Roles(t.Context(), "FR", "300025764")
		if err != nil {
			t.Fatal(err)
		}
		if len(roles.Roles) != 0 {
			t.Errorf("a withheld officer is listed: %+v", roles.Roles)
		}
		res, err := reg.Search(t.Context(), "FR", "kikou", 100)
		if err != nil {
			t.Fatal(err)
		}
		answers = append(answers, rep, dl, roles, res)
	}
	for _, a := range answers {
		if b := moduletest.Indent(t, a, false); bytes.Contains(bytes.ToUpper(b), []byte(placeholder)) {
			t.Errorf("an answer holds the placeholder: %s", b)
		}
	}
	n := 0
	for k, b := range mem.entries() {
		n++
		if bytes.Contains(bytes.ToUpper(b), []byte(placeholder)) {
			t.Errorf("cache entry %s holds the placeholder", k)
		}
	}
	if n == 0 {
		t.Error("nothing was cached: the test checks nothing")
	}
	if strings.Contains(strings.ToUpper(logs.String()), placeholder) {
		t.Errorf("the logs hold the placeholder:\n%s", logs.String())
	}
}

// recordingCache is a cache that keeps a copy of everything stored.
type recordingCache struct {
	cache.Cache
	mu   sync.Mutex
	seen map[string][]byte
}

func (c *recordingCache) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	c.mu.Lock()
	c.seen[key] = append([]byte(nil), value...)
	c.mu.Unlock()
	return c.Cache.Set(ctx, key, value, ttl)
}

func (c *recordingCache) entries() map[string][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.seen)
}

// TestVATWithoutPrefixValidationAndLookupAgree: the VAT number without its
// FR ("27552032534", as python-stdnum's fr.tva takes it) is valid for
// validation, normalised to the SIREN, and the lookup of the same string
// answers the company; the module's own Lookup takes a VAT number too
// (it looks up its SIREN), and a wrong key is invalid_id in both.
func TestVATWithoutPrefixValidationAndLookupAgree(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponderWithQuery(http.MethodGet, testBase+"/search", lookupQuery("552032534"),
		moduletest.JSONResponder(http.StatusOK, recording(t, danoneFile)))
	c := newTestCountry(t, mt)
	reg := moduletest.NewRegistry(t, c)
	for _, in := range []string{"27552032534", "27 552 032 534", "FR27552032534"} {
		v := c.Validate(in)
		if !v.Valid || v.Normalized == nil || *v.Normalized != "552032534" {
			t.Errorf("Validate(%q) = valid %t, normalized %v", in, v.Valid, v.Normalized)
		}
		if rep, err := reg.Lookup(t.Context(), "FR", in); err != nil || rep.ID != "552032534" {
			t.Errorf("Registry lookup %q: %v", in, err)
		}
		if rep, err := c.Lookup(t.Context(), in); err != nil || rep.ID != "552032534" {
			t.Errorf("module Lookup %q: %v", in, err)
		}
	}
	for _, in := range []string{"28552032534", "FR28552032534"} {
		if v := c.Validate(in); v.Valid {
			t.Errorf("Validate(%q) is valid", in)
		}
		if _, err := reg.Lookup(t.Context(), "FR", in); moduletest.AsError(t, err).Code != registry.CodeInvalidID {
			t.Errorf("Registry lookup %q: %v, want invalid_id", in, err)
		}
		if _, err := c.Lookup(t.Context(), in); moduletest.AsError(t, err).Code != registry.CodeInvalidID {
			t.Errorf("module Lookup %q: %v, want invalid_id", in, err)
		}
	}
	if _, err := c.Lookup(t.Context(), "FR34000123456"); moduletest.AsError(t, err).Code != registry.CodeInvalidID {
		t.Errorf("Monaco's VAT number: %v, want invalid_id", err)
	}
}

// TestConfidenceBasisNamesTheIdentifierAsked: the report of a SIRET lookup
// says it was found by the SIRET and describes the establishment's legal
// unit; a SIREN lookup and a VAT number (looked up by its SIREN) say SIREN.
func TestConfidenceBasisNamesTheIdentifierAsked(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponderWithQuery(http.MethodGet, testBase+"/search", lookupQuery("88087814500015"),
		moduletest.JSONResponder(http.StatusOK, recording(t, siretFile)))
	mt.RegisterResponderWithQuery(http.MethodGet, testBase+"/search", lookupQuery("552032534"),
		moduletest.JSONResponder(http.StatusOK, recording(t, danoneFile)))
	reg := newTestRegistry(t, mt)
	for in, want := range map[string]string{
		"880 878 145 00015": "Exact SIRET lookup (880 878 145 00015) in the API Recherche d'entreprises (Sirene and RNE); the report describes the establishment's legal unit, SIREN 880 878 145.",
		"552032534":         "Exact SIREN lookup in the API Recherche d'entreprises (Sirene and RNE).",
		"FR27552032534":     "Exact SIREN lookup in the API Recherche d'entreprises (Sirene and RNE).",
	} {
		rep, err := reg.Lookup(t.Context(), "FR", in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if diff := cmp.Diff(want, *rep.ConfidenceBasis); diff != "" {
			t.Errorf("%q: confidence_basis (-want +got):\n%s", in, diff)
		}
	}
}
