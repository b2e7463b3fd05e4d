package dk

import (
	"net/http"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrytest"
	"github.com/companyregistry/registry/internal/moduletest"
)

// fixedNow is the clock of the golden tests.
func fixedNow() time.Time { return time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC) }

// allRecordings maps every company recording to the CVR numbers it
// answers: the search page answers a term query on any of its four
// companies too (the module picks the requested one).
func allRecordings() map[string]string {
	return map[string]string{
		apsID: apsFile, fondID: fondFile, enkID: enkFile, bankruptID: bankruptFile, dissolvedID: dissolvedFile,
		"35682872": searchFile, "42611433": searchFile, "34689733": searchFile, "44477378": searchFile,
	}
}

// TestGoldens runs every recording through the Registry (validation,
// lookup or search, error normalisation) and compares the document the
// REST and MCP surfaces encode with its reviewed golden file.
func TestGoldens(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, input, query string
		search             string // the recording a search gets
	}{
		{name: "lookup_aps_41774037", input: "DK41774037"},
		{name: "lookup_fond_11617034", input: "11 61 70 34"},
		{name: "lookup_as_35682872_from_search_page", input: "35682872"},
		{name: "lookup_ks_44477378_from_search_page", input: "44477378"},
		{name: "lookup_enk_SYNTHETIC", input: enkID},
		{name: "lookup_bankrupt_SYNTHETIC", input: bankruptID},
		{name: "lookup_dissolved_SYNTHETIC", input: dissolvedID},
		{name: "lookup_not_found", input: unknownID},
		{name: "search_assure", query: "Assure", search: searchFile},
		{name: "search_empty", query: "Findes Ikke", search: emptyFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := newFakeCVR(t, allRecordings(), tt.search)
			reg := newTestRegistry(t, fake, registry.WithClock(fixedNow))
			var v any
			var err error
			if tt.query != "" {
				v, err = reg.Search(t.Context(), "DK", tt.query, 10)
			} else {
				v, err = reg.Lookup(t.Context(), "dk", tt.input)
			}
			if err != nil {
				v = registry.AsError(err)
			}
			if got := len(fake.queries()); got != 1 {
				t.Errorf("upstream calls = %d, want 1", got)
			}
			checkGolden(t, tt.name+".json", v)
		})
	}
}

// TestErrorGoldens plays the failures the register is documented or
// expected to answer: a 401 (nginx's page), a partial answer, a 400 for a
// search, a 500; each is normalised to its envelope.
func TestErrorGoldens(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		answer countrytest.Answer
		search bool
	}{
		{"lookup_error_401_SYNTHETIC", countrytest.Answer{Status: http.StatusUnauthorized, Header: http.Header{"Content-Type": {"text/html"}},
			Body: recording(t, error401File)}, false},
		{"lookup_partial_timed_out_SYNTHETIC", countrytest.Answer{Body: recording(t, partialFile)}, false},
		{"search_error_400", countrytest.Answer{Status: http.StatusBadRequest, Body: []byte(`{"error":{"type":"parsing_exception"},"status":400}`)}, true},
		{"lookup_error_500", countrytest.Answer{Status: http.StatusInternalServerError, Body: []byte(`{"error":"boom","status":500}`)}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rp := countrytest.NewReplay(map[string]countrytest.Answer{"/cvr-permanent" + searchPath: tt.answer})
			reg := newTestRegistry(t, rp, registry.WithClock(fixedNow))
			var err error
			if tt.search {
				_, err = reg.Search(t.Context(), "DK", "assure", 10)
			} else {
				_, err = reg.Lookup(t.Context(), "DK", apsID)
			}
			checkGolden(t, tt.name+".json", registry.AsError(err))
		})
	}
}

// TestRolesGoldens computes the roles of the companies with participants
// through the Registry (a lookup, then the roles query).
func TestRolesGoldens(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, id string }{
		{"roles_aps_41774037", apsID},
		{"roles_fond_11617034", fondID},
		{"roles_as_35682872", "35682872"},
		{"roles_ks_44477378", "44477378"},
		{"roles_enk_SYNTHETIC", enkID},
		{"roles_bankrupt_SYNTHETIC", bankruptID},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := newFakeCVR(t, allRecordings(), "")
			reg := newTestRegistry(t, fake, registry.WithClock(fixedNow))
			out, err := reg.Roles(t.Context(), "DK", tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(fake.queries()); got != 2 {
				t.Errorf("upstream calls = %d, want 2 (lookup, roles)", got)
			}
			checkGolden(t, tt.name+".json", out)
		})
	}
}

// TestDeadlineGoldens computes the deadlines of every company recording
// through the Registry on a fixed day.
func TestDeadlineGoldens(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, id string }{
		{"deadlines_aps_41774037_2026-11-24", apsID},
		{"deadlines_fond_11617034_2026-11-24", fondID},
		{"deadlines_as_35682872_2026-11-24", "35682872"},
		{"deadlines_ks_44477378_2026-11-24", "44477378"},
		{"deadlines_enk_SYNTHETIC_2026-11-24", enkID},
		{"deadlines_bankrupt_SYNTHETIC_2026-11-24", bankruptID},
		{"deadlines_dissolved_SYNTHETIC_2026-11-24", dissolvedID},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reg := newTestRegistry(t, newFakeCVR(t, allRecordings(), ""), registry.WithClock(fixedNow))
			out, err := reg.Deadlines(t.Context(), "DK", tt.id, registry.NewDate(2026, 11, 24))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tt.name+".json", out)
		})
	}
}

func TestRulesGolden(t *testing.T) {
	t.Parallel()
	checkGolden(t, "rules_DK.md", newTestCountry(t, newFakeCVR(t, nil, "")).Rules())
}

// Rules is built once, in New: MCP reads it on every resource read, so a
// call must not rebuild it.
// Not parallel: testing.AllocsPerRun refuses to run in a parallel test.
func TestRulesBuiltOnce(t *testing.T) { //nolint:paralleltest // AllocsPerRun
	moduletest.RulesBuiltOnce(t, newTestCountry(t, newFakeCVR(t, nil, "")))
}
