package fr

import (
	"bytes"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/moduletest"
)

// fixedNow is the clock of the golden tests.
func fixedNow() time.Time { return time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC) }

// lookupQuery is the query of a lookup of q.
func lookupQuery(q string) url.Values { return url.Values{"q": {q}, "page": {"1"}, "per_page": {"1"}} }

// phantomAsked is the phantom recording with its SIREN replaced by the
// Luhn-valid 732829320: the API's phantom record for a SIREN that was
// asked for (null état administratif and name), which must still be
// not_found.
func phantomAsked(t *testing.T) []byte {
	return bytes.ReplaceAll(recording(t, phantomFile), []byte(`"123456789"`), []byte(`"732829320"`))
}

// TestGoldens runs every recording through the Registry (validation,
// lookup or search, error normalisation) and compares the document the
// REST and MCP surfaces encode with its reviewed golden file.
func TestGoldens(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file string
		body       []byte
		status     int
		input      string // a lookup of input, or a search for query
		query      string
		wantQuery  url.Values
		wantCalls  int
	}{
		{name: "lookup_danone_by_vat", file: danoneFile, input: "FR27552032534", wantQuery: lookupQuery("552032534")},
		{name: "lookup_naturalia_sas", file: naturaliaFile, input: "302 474 648", wantQuery: lookupQuery("302474648")},
		{name: "lookup_ganymede_ceased", file: ganymedeFile, input: "880878145", wantQuery: lookupQuery("880878145")},
		{name: "lookup_ganymede_by_siret", file: siretFile, input: "880 878 145 00015", wantQuery: lookupQuery("88087814500015")},
		{name: "lookup_masked_EI_non-diffusible", file: maskedEIFile, input: "300025764", wantQuery: lookupQuery("300025764")},
		{name: "lookup_ceased_EI_REDACTED", file: ceasedEIFile, input: "999000003", wantQuery: lookupQuery("999000003")},
		{name: "lookup_red_needles_ceased_REDACTED", file: redNeedlesFile, input: "839517323", wantQuery: lookupQuery("839517323")},
		{name: "lookup_not_found_empty", file: emptyFile, input: "732829320", wantQuery: lookupQuery("732829320")},
		{name: "lookup_phantom_other_unit", file: phantomFile, input: "732829320", wantQuery: lookupQuery("732829320")},
		{name: "lookup_phantom_null_state", body: phantomAsked(t), input: "732829320", wantQuery: lookupQuery("732829320")},
		{name: "lookup_wrong_unit", file: danoneFile, input: "880878145", wantQuery: lookupQuery("880878145")},
		{name: "lookup_error_500_SYNTHETIC", file: error500File, status: 500, input: "552032534", wantQuery: lookupQuery("552032534"), wantCalls: 2},
		{name: "search_kikou", file: kikouFile, query: "Kikou", wantQuery: url.Values{"q": {"Kikou"}, "page": {"1"}, "per_page": {"20"}}},
		{name: "search_la_poste_capped", file: laPosteFile, query: "la poste", wantQuery: url.Values{"q": {"la poste"}, "page": {"1"}, "per_page": {"20"}}},
		{name: "search_empty", file: emptyFile, query: "zzz inexistant", wantQuery: url.Values{"q": {"zzz inexistant"}, "page": {"1"}, "per_page": {"20"}}},
		{name: "search_error_400_SYNTHETIC", file: error400File, status: 400, query: "abc", wantQuery: url.Values{"q": {"abc"}, "page": {"1"}, "per_page": {"20"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			body := tt.body
			if body == nil {
				body = recording(t, tt.file)
			}
			status := tt.status
			if status == 0 {
				status = http.StatusOK
			}
			mt := httpmock.NewMockTransport()
			mt.RegisterResponderWithQuery(http.MethodGet, testBase+"/search", tt.wantQuery, moduletest.JSONResponder(status, body))
			reg := newTestRegistry(t, mt, registry.WithClock(fixedNow))
			var v any
			var err error
			if tt.query != "" {
				v, err = reg.Search(t.Context(), "FR", tt.query, 10)
			} else {
				v, err = reg.Lookup(t.Context(), "fr", tt.input)
			}
			if err != nil {
				v = registry.AsError(err)
			}
			want := max(tt.wantCalls, 1)
			if got := mt.GetTotalCallCount(); got != want {
				t.Errorf("upstream calls = %d, want %d", got, want)
			}
			checkGolden(t, tt.name+".json", v)
		})
	}
}

// TestDeadlineGoldens computes the deadlines of the company recordings
// through the Registry on a fixed day.
func TestDeadlineGoldens(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, file, id string }{
		{"deadlines_danone_sa_2026-11-24", danoneFile, "552032534"},
		{"deadlines_naturalia_sas_2026-11-24", naturaliaFile, "302474648"},
		{"deadlines_masked_EI_2026-11-24", maskedEIFile, "300025764"},
		{"deadlines_ganymede_ceased_2026-11-24", ganymedeFile, "880878145"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponder(http.MethodGet, testBase+"/search", moduletest.JSONResponder(http.StatusOK, recording(t, tt.file)))
			reg := newTestRegistry(t, mt, registry.WithClock(fixedNow))
			out, err := reg.Deadlines(t.Context(), "FR", tt.id, registry.NewDate(2026, 11, 24))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tt.name+".json", out)
		})
	}
}

// TestRolesGoldens asks the Registry for the officers of the recordings.
func TestRolesGoldens(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, file, id string }{
		{"roles_danone_sa", danoneFile, "552032534"},
		{"roles_ganymede_liquidator", ganymedeFile, "880878145"},
		{"roles_masked_EI_non-diffusible", maskedEIFile, "300025764"},
		{"roles_ceased_EI_REDACTED", ceasedEIFile, "999000003"},
		{"roles_red_needles_REDACTED", redNeedlesFile, "839517323"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponder(http.MethodGet, testBase+"/search", moduletest.JSONResponder(http.StatusOK, recording(t, tt.file)))
			reg := newTestRegistry(t, mt, registry.WithClock(fixedNow))
			out, err := reg.Roles(t.Context(), "FR", tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if got := mt.GetTotalCallCount(); got != 2 {
				t.Errorf("upstream calls = %d, want 2 (the lookup and the roles)", got)
			}
			checkGolden(t, tt.name+".json", out)
		})
	}
}

func TestRulesGolden(t *testing.T) {
	t.Parallel()
	c := newTestCountry(t, httpmock.NewMockTransport())
	checkGolden(t, "rules_FR.md", c.Rules())
}

// Rules is built once, in New: MCP reads it on every resource read, so a
// call must not rebuild it.
// Not parallel: testing.AllocsPerRun refuses to run in a parallel test.
func TestRulesBuiltOnce(t *testing.T) { //nolint:paralleltest // AllocsPerRun
	moduletest.RulesBuiltOnce(t, newTestCountry(t, httpmock.NewMockTransport()))
}
