package fi

import (
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

// TestGoldens runs every recording through the Registry (validation,
// lookup or search, error normalisation) and compares the document the
// REST and MCP surfaces encode with its reviewed golden file: the two
// company recordings, the search page, the not-found answer (HTTP 200 with
// no company) and the 400.
func TestGoldens(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file string
		status     int
		input      string // a lookup of input, or a search for query
		query      string
		wantQuery  url.Values
	}{
		{name: "lookup_nokia_oyj", file: nokiaFile, status: 200, input: "FI01120389", wantQuery: url.Values{"businessId": {nokiaWritten}}},
		{name: "lookup_bankrupt_KONK_SYNTHETIC", file: konkFile, status: 200, input: "0000000 0", wantQuery: url.Values{"businessId": {bankruptID}}},
		{name: "lookup_not_found_200", file: emptyFile, status: 200, input: "2077474-0", wantQuery: url.Values{"businessId": {"2077474-0"}}},
		{name: "lookup_error_400_SYNTHETIC", file: error400File, status: 400, input: "0114162-2", wantQuery: url.Values{"businessId": {"0114162-2"}}},
		{name: "search_supercell", file: searchFile, status: 200, query: "Supercell", wantQuery: url.Values{"name": {"Supercell"}}},
		{name: "search_empty", file: emptyFile, status: 200, query: "Ei Ole Olemassa", wantQuery: url.Values{"name": {"Ei Ole Olemassa"}}},
		{name: "search_error_400_SYNTHETIC", file: error400File, status: 400, query: "x", wantQuery: url.Values{"name": {"x"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponderWithQuery(http.MethodGet, testBase+"/companies", tt.wantQuery, moduletest.JSONResponder(tt.status, recording(t, tt.file)))
			reg := newTestRegistry(t, mt, registry.WithClock(fixedNow))
			var v any
			var err error
			if tt.query != "" {
				v, err = reg.Search(t.Context(), "FI", tt.query, 10)
			} else {
				v, err = reg.Lookup(t.Context(), "fi", tt.input)
			}
			if err != nil {
				v = registry.AsError(err)
			}
			if got := mt.GetTotalCallCount(); got != 1 {
				t.Errorf("upstream calls = %d, want 1", got)
			}
			checkGolden(t, tt.name+".json", v)
		})
	}
}

// TestDeadlineGoldens computes the deadlines of the two company recordings
// through the Registry on a fixed day, and checks the rules document.
func TestDeadlineGoldens(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, file, id string }{
		{"deadlines_nokia_oyj_2026-11-24", nokiaFile, nokiaID},
		{"deadlines_bankrupt_KONK_SYNTHETIC_2026-11-24", konkFile, bankruptID},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponder(http.MethodGet, testBase+"/companies", moduletest.JSONResponder(http.StatusOK, recording(t, tt.file)))
			reg := newTestRegistry(t, mt, registry.WithClock(fixedNow))
			out, err := reg.Deadlines(t.Context(), "FI", tt.id, registry.NewDate(2026, 11, 24))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tt.name+".json", out)
		})
	}
}

func TestRulesGolden(t *testing.T) {
	t.Parallel()
	c := newTestCountry(t, httpmock.NewMockTransport())
	checkGolden(t, "rules_FI.md", c.Rules())
}

// Rules is built once, in New: MCP reads it on every resource read, so a
// call must not rebuild it.
// Not parallel: testing.AllocsPerRun refuses to run in a parallel test.
func TestRulesBuiltOnce(t *testing.T) { //nolint:paralleltest // AllocsPerRun
	moduletest.RulesBuiltOnce(t, newTestCountry(t, httpmock.NewMockTransport()))
}
