package se

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/se/internal/bulkfile"
	"github.com/companyregistry/registry/countries/se/internal/nameindex"
	"github.com/companyregistry/registry/countrytest"
)

// TestReview_SEBulkReadsDatesTheAPIRejects: fix-se10 says a deregistration
// date or a procedure's start is read "only once the whole timestamp
// parses; any other form stays no date", "from the API and from the bulk
// file alike (one statusOf)". The bulk file's parser (bulkfile.date) cuts
// any value that starts with YYYY-MM-DD to its first ten characters before
// statusOf sees it, so the same value the API path rejects as no date
// (2023-05-05T24:00:00+00:00, 2023-05-05Tjunk) makes the bulk-file report
// dissolved on 2023-05-05, or bankrupt since 2023-05-05. Fix: hand the raw
// value through and let seDate decide, or document the bulk file's rule.
func TestReview_SEBulkReadsDatesTheAPIRejects(t *testing.T) {
	t.Parallel()
	type view struct {
		Status                     registry.Status
		DeregisteredAt, Bankruptcy string
	}
	const header = "organisationsidentitet;organisationsnamn;organisationsform;avregistreringsdatum;avregistreringsorsak;pagandeAvvecklingsEllerOmstruktureringsforfarande\n"
	for _, c := range []struct{ dereg, procs string }{
		{"2023-05-05T24:00:00+00:00", ""},
		{"2023-05-05Tjunk", ""},
		{"", "|KK-AVOMFO$2023-05-05Tjunk"},
	} {
		// The API's reading of the same values. (Lead: the row's own
		// procedures, none when it has none; the proof first read every
		// row with a KK procedure and set active where the row had none,
		// which held only while an unread date counted as no
		// deregistration: it is now dissolved, with a note.)
		var procs []bulkfile.Procedure
		if c.procs != "" {
			procs = []bulkfile.Procedure{{Code: "KK", From: strings.TrimPrefix(c.procs, "|KK-AVOMFO$")}}
		}
		api := statusOf(c.dereg, "", "", procs)
		want := view{Status: api.status}
		if d := seDate(c.dereg); d != nil {
			want.DeregisteredAt = d.String()
		}
		if api.bankruptcy != nil {
			want.Bankruptcy = api.bankruptcy.String()
		}
		line := `"5560160680$ORGNR-IDORG";"Exempel AB$FORETAGSNAMN-ORGNAM$2020-01-02";"AB-ORGFO";"` + c.dereg + `";"";"` + c.procs + `"` + "\n"
		rd, err := bulkfile.NewReader(strings.NewReader(header + line))
		if err != nil {
			t.Fatal(err)
		}
		rec, err := rd.Next()
		if err != nil {
			t.Fatal(err)
		}
		rep := mapIndexed(&nameindex.Org{ID: rec.ID, Name: rec.Name, Form: rec.Form, DeregisteredAt: rec.DeregisteredAt,
			DeregReason: rec.DeregReason, Procedures: rec.Procedures}, "2026-11-20")
		got := view{Status: rep.Status}
		if rep.DeregisteredAt != nil {
			got.DeregisteredAt = rep.DeregisteredAt.String()
		}
		if rep.BankruptcyDate != nil {
			got.Bankruptcy = rep.BankruptcyDate.String()
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("bulk row with deregistration %q, procedures %q (-API reading +bulk reading):\n%s", c.dereg, c.procs, diff)
		}
	}
}

// TestReview_SEUnreadDeregistrationDateSilent: an avregistreringsdatum
// that is present but not in one of the two forms seDate reads (here ISO
// 8601 with a basic-format offset, "+0000", as Jackson's StdDateFormat
// wrote java.util.Date before 2.11, and a space for the T) is "no date": the
// struck-off AB, whose block says it is deregistered (reason LIAV), is
// answered by its procedures, bankrupt, with no deregistered_at and no note
// that a deregistration was reported and could not be read: the same wrong
// answer fix-se10 set out to remove, now silent for any other spelling.
// Fix: a non-empty date that does not read is at least a note (or status
// unknown), or read the ISO 8601 variants too.
func TestReview_SEUnreadDeregistrationDateSilent(t *testing.T) {
	t.Parallel()
	for _, dereg := range []string{"2023-05-05T00:00:00.000+0000", "2023-05-05 00:00:00"} {
		var doc struct {
			Organisationer []map[string]json.RawMessage `json:"organisationer"`
		}
		if err := json.Unmarshal(recording(t, "organisationer_200_aktiebolag_docs-example.json"), &doc); err != nil {
			t.Fatal(err)
		}
		o := doc.Organisationer[0]
		var block map[string]json.RawMessage
		if err := json.Unmarshal(o["avregistreradOrganisation"], &block); err != nil {
			t.Fatal(err)
		}
		block["avregistreringsdatum"] = mustJSON(t, dereg)
		o["avregistreradOrganisation"] = mustJSON(t, block)
		reg := newRegister(t)
		reg.orgs["5299999994"] = countrytest.Answer{Body: mustJSON(t, doc)}
		cc, err := New(WithBaseURL(testBase), WithTokenURL(testTokenURL), WithCredentials(testCreds), WithHTTPClient(&http.Client{Transport: reg}))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cc.Close() })
		rep, err := cc.Lookup(t.Context(), "5299999994")
		if err != nil {
			t.Fatal(err)
		}
		type view struct {
			Status         registry.Status
			DeregisteredAt string
		}
		got := view{Status: rep.Status}
		if rep.DeregisteredAt != nil {
			got.DeregisteredAt = rep.DeregisteredAt.String()
		}
		mentioned := false
		for _, n := range rep.Notes {
			mentioned = mentioned || strings.Contains(n, "deregist")
		}
		if diff := cmp.Diff(view{registry.StatusDissolved, "2023-05-05"}, got); diff != "" && !mentioned {
			t.Errorf("avregistreringsdatum %q: answered without the deregistration and no note says so (-want +got):\n%s", dereg, diff)
		}
	}
}
