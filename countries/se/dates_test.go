package se

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/se/internal/bulkfile"
	"github.com/companyregistry/registry/countrytest"
)

// TestStruckOffTimestampDates: Bolagsverket's documentation example of a
// struck-off AB gives avregistreringsdatum and the procedures' fromDatum as
// timestamps ("2023-05-05T00:00:00.000+00:00"). Read from the recording:
// the AB is dissolved on the date as written, with its reason; without the
// deregistration blocks its konkurs (KK) is the bankruptcy, from 2024-01-26;
// without that too its likvidation (LI), from 2024-05-26.
func TestStruckOffTimestampDates(t *testing.T) {
	t.Parallel()
	type view struct {
		Status                     registry.Status
		Detail                     string
		DeregisteredAt, Bankruptcy string
		Notes                      []string
	}
	const other = "Other registered names: Mopedbolaget AB (Särskilt företagsnam); Bicycle expert (Företagsnamn på främmande språk)."
	const ads = "The organisation has an advertising block (reklamspärr) in SCB's register: do not use its address for direct marketing."
	for _, c := range []struct {
		name   string
		drop   []string // blocks of the organisation removed from the recording
		procs0 int      // procedures removed from the front of the list
		want   view
	}{
		{"as recorded", nil, 0, view{registry.StatusDissolved, "Deregistered (avregistrerad) on 2023-05-05, reason Likvidation (LIAV)",
			"2023-05-05", "", []string{ads, "The organisation is deregistered (avregistrerad) since 2023-05-05.", other}}},
		{"not deregistered", []string{"avregistreradOrganisation", "avregistreringsorsak"}, 0, view{registry.StatusBankrupt,
			"Bankruptcy (konkurs, KK) since 2024-01-26", "", "2024-01-26",
			[]string{ads, "The register shows bankruptcy proceedings (konkurs) since 2024-01-26.", other}}},
		{"not deregistered, no konkurs", []string{"avregistreradOrganisation", "avregistreringsorsak"}, 1, view{registry.StatusUnderLiquidation,
			"Liquidation (likvidation, LI) since 2024-05-26", "", "",
			[]string{ads, "The register shows the organisation in liquidation (likvidation) since 2024-05-26.", other}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var doc struct {
				Organisationer []map[string]json.RawMessage `json:"organisationer"`
			}
			if err := json.Unmarshal(recording(t, "organisationer_200_aktiebolag_docs-example.json"), &doc); err != nil {
				t.Fatal(err)
			}
			o := doc.Organisationer[0]
			for _, k := range c.drop {
				delete(o, k)
			}
			const procKey, listKey = "pagandeAvvecklingsEllerOmstruktureringsforfarande", "pagandeAvvecklingsEllerOmstruktureringsforfarandeLista"
			var procs map[string]json.RawMessage
			if err := json.Unmarshal(o[procKey], &procs); err != nil {
				t.Fatal(err)
			}
			var list []json.RawMessage
			if err := json.Unmarshal(procs[listKey], &list); err != nil {
				t.Fatal(err)
			}
			procs[listKey] = mustJSON(t, list[c.procs0:])
			o[procKey] = mustJSON(t, procs)
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
			got := view{Status: rep.Status, Notes: rep.Notes}
			if rep.StatusDetail != nil {
				got.Detail = *rep.StatusDetail
			}
			if rep.DeregisteredAt != nil {
				got.DeregisteredAt = rep.DeregisteredAt.String()
			}
			if rep.BankruptcyDate != nil {
				got.Bankruptcy = rep.BankruptcyDate.String()
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestSEDate: a date of Bolagsverket's is a plain date or an RFC 3339
// timestamp, whose date is taken as written (not moved to UTC); a
// timestamp that does not parse whole, and any other form, is no date.
func TestSEDate(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"2023-05-05":                    "2023-05-05",
		" 2023-05-05 ":                  "2023-05-05",
		"2023-05-05T00:00:00.000+00:00": "2023-05-05",
		"2023-05-05T00:00:00Z":          "2023-05-05",
		"2023-05-05T23:30:00-02:00":     "2023-05-05", // 2023-05-06 in UTC: the date as written
		"2023-05-05T00:30:00.5+02:00":   "2023-05-05", // 2023-05-04 in UTC
		"2024-02-29T00:00:00+01:00":     "2024-02-29",
		"2023-02-29T00:00:00+00:00":     "", // no such day
		"2023-05-05T24:00:00+00:00":     "",
		"2023-05-05T00:00:00":           "", // no zone: not RFC 3339
		"2023-05-05 00:00:00+00:00":     "",
		"2023-05-05T00:00:00+00:00 x":   "",
		"2023-05-05Tjunk":               "",
		"2023-05-5":                     "",
		"20230505":                      "",
		"05/05/2023":                    "",
		"":                              "",
	} {
		got := ""
		if d := seDate(in); d != nil {
			got = d.String()
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("seDate(%q) (-want +got):\n%s", in, diff)
		}
	}
}

// FuzzSEDate: seDate never panics; a date it reads is the input's first
// ten characters (trimmed), which read alone give the same date, and a
// longer input is a timestamp that parses whole; the status is dissolved
// with the date when the deregistration date reads, dissolved without one
// (and a note) when it is there but does not read (a value with no digit
// but 0 is a placeholder of none: rev-last10's suspicion), and a procedure's
// "since" and bankruptcy date are that date (rev-se10,
// TestReview_SEUnreadDeregistrationDateSilent).
func FuzzSEDate(f *testing.F) {
	for _, s := range []string{"2023-05-05", "2023-05-05T00:00:00.000+00:00", "2023-05-05T23:30:00-02:00", "2023-02-29T00:00:00Z",
		"2023-05-05T24:00:00Z", "2023-05-05Tjunk", "", "9999-12-31T23:59:59.999999999+23:59", "0000-00-00", "-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := seDate(s)
		st := statusOf(s, "", "", []bulkfile.Procedure{{Code: "KK", From: s}})
		if d == nil {
			want := statusResult{status: registry.StatusBankrupt, detail: "Bankruptcy (konkurs, KK)",
				notes: []string{"The register shows bankruptcy proceedings (konkurs)."}}
			if strings.ContainsAny(s, "123456789") {
				want = statusResult{status: registry.StatusDissolved,
					detail: "Deregistered (avregistrerad), on a date in a form this service does not read",
					notes: []string{"The register reports the organisation deregistered (avregistrerad), with a date in a form " +
						"this service does not read, so deregistered_at is empty."}}
			}
			if diff := cmp.Diff(want, st, cmp.AllowUnexported(statusResult{})); diff != "" {
				t.Fatalf("no date in %q (-want +got):\n%s", s, diff)
			}
			return
		}
		trimmed := strings.TrimSpace(s)
		if got := d.String(); len(trimmed) < 10 || got != trimmed[:10] {
			t.Fatalf("seDate(%q) = %s, not its first ten characters", s, got)
		}
		if again := seDate(d.String()); again == nil || *again != *d {
			t.Fatalf("seDate(%q) = %s, which reads back as %v", s, d, again)
		}
		if len(trimmed) > 10 {
			if _, err := time.Parse(time.RFC3339Nano, trimmed); err != nil {
				t.Fatalf("seDate(%q) = %s, but it is no RFC 3339 timestamp: %v", s, d, err)
			}
		}
		if st.status != registry.StatusDissolved || !strings.Contains(st.detail, " on "+d.String()) {
			t.Fatalf("deregistered %q: status %q, detail %q", s, st.status, st.detail)
		}
		if p := statusOf("", "", "", []bulkfile.Procedure{{Code: "KK", From: s}}); p.bankruptcy == nil || *p.bankruptcy != *d ||
			p.detail != "Bankruptcy (konkurs, KK) since "+d.String() {
			t.Fatalf("konkurs from %q: bankruptcy %v, detail %q", s, p.bankruptcy, p.detail)
		}
	})
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
