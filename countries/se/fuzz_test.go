package se

import (
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrytest"
	"github.com/companyregistry/registry/internal/moduletest"
)

// FuzzDecodeOrganisation feeds arbitrary answers of /organisationer and
// /dokumentlista to a lookup through the module's own client (the token
// endpoint answering as Bolagsverket's does): it never panics; it returns
// either a report or an *registry.Error, never both; a report keeps the
// interface's invariants and gives deadlines; neither names the client
// secret or the token.
func FuzzDecodeOrganisation(f *testing.F) {
	const id = "5567223705"
	docs := moduletest.ReadFiles(f, filepath.Join("testdata", "bolagsverket", "dokumentlista_*.json"))
	for i, org := range moduletest.ReadFiles(f, filepath.Join("testdata", "bolagsverket", "organisationer_*.json")) {
		f.Add(org, docs[i%len(docs)])
	}
	f.Add([]byte(`null`), []byte(`null`))
	f.Add([]byte(`{"organisationer":[{"organisationsidentitet":{"identitetsbeteckning":"5567223705"},"organisationsnamn":{"organisationsnamnLista":[{"namn":"\ud800"}]},`+
		`"avregistreradOrganisation":{"avregistreringsdatum":"2023-05-05T00:00:00.000+00:00"},"pagandeAvvecklingsEllerOmstruktureringsforfarande":`+
		`{"pagaendeAvvecklingsEllerOmstruktureringsforfarandeLista":[{"kod":"KK","fromDatum":"2025-02-30"}]}}]}`),
		[]byte(`{"dokument":[{"rapporteringsperiodTom":"2024-02-29"},{"rapporteringsperiodTom":"9999-12-31"}]}`))
	f.Add([]byte(`{"organisationer":[{"organisationsnamn":{"fel":{"typ":"ORGANISATION_FINNS_EJ"}},"organisationsform":{"kod":"AB"}}]}`), []byte(`{}`))
	f.Fuzz(func(t *testing.T, org, doc []byte) {
		rt := countrytest.NewReplay(map[string]countrytest.Answer{
			"/oauth2/token": {Body: []byte(`{"access_token":"tok-SECRET-9","token_type":"Bearer","expires_in":3600}`)},
			"/vardefulla-datamangder/v1/organisationer": {Body: org},
			"/vardefulla-datamangder/v1/dokumentlista":  {Body: doc},
		})
		c, err := New(WithBaseURL(testBase), WithTokenURL(testTokenURL), WithCredentials(testCreds), WithHTTPClient(&http.Client{Transport: rt}))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := c.Lookup(t.Context(), id)
		if err != nil {
			var e *registry.Error
			if rep != nil || !errors.As(err, &e) || !slices.Contains(registry.Codes(), e.Code) || e.Message == "" {
				t.Fatalf("Lookup = %v, %v: want no report and an *Error with a code and a message", rep, err)
			}
			if msg := e.Message + " " + e.Hint; strings.Contains(msg, "SECRET") {
				t.Fatalf("the error names a secret: %q", msg)
			}
			return
		}
		b, err := json.Marshal(rep)
		if err != nil {
			t.Fatalf("report does not encode: %v", err)
		}
		if strings.Contains(string(b), "SECRET") {
			t.Fatalf("the report names a secret: %s", b)
		}
		if rep.ID != id || rep.Name == "" || !rep.Status.Valid() || rep.Country != countryCode {
			t.Errorf("report id %q name %q status %q country %q", rep.ID, rep.Name, rep.Status, rep.Country)
		}
		if rep.Confidence != 1 || rep.PreviousNames == nil || rep.Notes == nil || rep.Registers == nil {
			t.Errorf("defaults lost: %+v", rep)
		}
		for i, ic := range rep.IndustryCodes {
			if ic.Rank != i+1 || ic.Code == "" {
				t.Errorf("industry code %+v", ic)
			}
		}
		out, err := c.Deadlines(rep, registry.NewDate(2026, 11, 24))
		if err != nil || out == nil {
			t.Fatalf("Deadlines = %v, %v", out, err)
		}
		if _, err := json.Marshal(out); err != nil {
			t.Fatalf("deadlines do not encode: %v", err)
		}
	})
}
