package no

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/companyregistry/registry/internal/moduletest"
	"github.com/jarcoal/httpmock"
)

// TestLookupGolden maps every unit recording (real, redacted, synthetic,
// documentation examples and v1) through Lookup and compares the report
// with its reviewed golden file. A sub-unit recording is served only under
// /underenheter, so its lookup also goes through the fallback.
func TestLookupGolden(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "brreg", "*enhet_*.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		if strings.Contains(name, "410") || strings.HasPrefix(name, "search_") {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			body, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var head struct {
				Organisasjonsnummer string `json:"organisasjonsnummer"`
			}
			if err := json.Unmarshal(body, &head); err != nil {
				t.Fatal(err)
			}
			id := head.Organisasjonsnummer
			subunit := strings.HasPrefix(name, "underenhet_")

			mt := httpmock.NewMockTransport()
			if subunit {
				mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+id, httpmock.NewBytesResponder(http.StatusNotFound, nil))
				mt.RegisterResponder(http.MethodGet, testBase+"/underenheter/"+id, moduletest.JSONResponder(http.StatusOK, body))
			} else {
				mt.RegisterResponder(http.MethodGet, testBase+"/enheter/"+id, moduletest.JSONResponder(http.StatusOK, body))
			}
			c := newTestCountry(t, mt)
			rep, err := c.Lookup(t.Context(), id)
			if err != nil {
				t.Fatalf("Lookup(%s): %v", id, err)
			}
			if rep.IsSubunit != subunit {
				t.Errorf("IsSubunit = %v, want %v", rep.IsSubunit, subunit)
			}
			wantCalls := 1
			if subunit {
				wantCalls = 2
			}
			if got := mt.GetTotalCallCount(); got != wantCalls {
				t.Errorf("upstream calls = %d, want %d", got, wantCalls)
			}
			checkGolden(t, name, rep)
		})
	}
	if n < 14 {
		t.Errorf("found %d unit recordings, want at least 14", n)
	}
}

// TestSearchGolden maps every /enheter search recording through Search and
// compares the result with its reviewed golden file.
func TestSearchGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file  string
		query string
		limit int
	}{
		{"search_enheter_navn_digitaliseringsdirektoratet_size1_2025-02", "Digitaliseringsdirektoratet*", 1},
		{"search_enheter_empty_2025-02", "foobarbaz*", 1},
		{"search_enheter_empty_navn_jibberish_2023-12", "jibberish", 20},
		{"search_enheter_docs", "Sesam", 1},
		{"search_enheter_navn_sesam_size2_page0_v1_2024-01_EDITED-ENVELOPE", "Sesam", 2},
		{"search_enheter_navn_sesam_size2_page1_v1_2024-01_EDITED-ENVELOPE", "sesam filmklubb", 2},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			mt := httpmock.NewMockTransport()
			mt.RegisterResponder(http.MethodGet, testBase+"/enheter", moduletest.JSONResponder(http.StatusOK, recording(t, tt.file+".json")))
			c := newTestCountry(t, mt)
			res, err := c.Search(t.Context(), tt.query, tt.limit)
			if err != nil {
				t.Fatalf("Search: %v", err)
			}
			checkGolden(t, tt.file, res)
		})
	}
}
