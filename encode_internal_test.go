package registry

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// trickyText holds what json.Marshal escapes (HTML, U+2028, a quote) and
// the very bytes encodeAnswer looks for, inside a string.
const trickyText = `A<b>&c` + "\u2028" + `,"cached":false,"fetched_at":"x"`

// answerDocs are documents of each answer type that encodeAnswer must
// encode as json.Marshal does: empty, full, and with a map whose keys
// spell the member encodeAnswer turns true.
func answerDocs() map[string]func() answerDoc {
	at := time.Date(2026, 11, 26, 15, 4, 5, 0, time.FixedZone("CET", 3600))
	s := func(v string) *string { return &v }
	return map[string]func() answerDoc{
		"report/empty": func() answerDoc { return &CompanyReport{} },
		"report/full": func() answerDoc {
			return &CompanyReport{Country: "NO", Registry: "brreg", ID: "923609016", Name: trickyText,
				PreviousNames: []string{trickyText}, LegalForm: s("Allmennaksjeselskap"), Status: StatusActive,
				Registers:       map[string]bool{"a": true, "cached": false, "fetched_at": true},
				BusinessAddress: &Address{Lines: []string{trickyText}, City: s("STAVANGER")},
				IndustryCodes:   []IndustryCode{{Code: "06.100", Description: s(trickyText), Rank: 1}},
				Confidence:      1, FetchedAt: &at, Source: s(trickyText), License: s("NLOD"),
				Notes: []string{trickyText, `"cached":false,"fetched_at":`}}
		},
		"search/empty": func() answerDoc { return &SearchResult{} },
		"search/full": func() answerDoc {
			return &SearchResult{Country: "NO", Registry: "brreg", Query: trickyText, Total: 1, FetchedAt: &at,
				Hits: []SearchHit{{ID: "923609016", Name: trickyText, City: s(trickyText)}}, Hint: s(trickyText)}
		},
		"roles/empty": func() answerDoc { return &RolesReport{} },
		"roles/full": func() answerDoc {
			return &RolesReport{Country: "NO", Registry: "brreg", ID: "923609016", Name: trickyText, FetchedAt: &at,
				Roles:  []Role{{RoleCode: "LEDE", Role: trickyText, Notes: []string{trickyText}}},
				Source: s(trickyText), Notes: []string{trickyText}}
		},
	}
}

// TestEncodeAnswerIsJSONMarshal: the live and stored encodings of a fetch
// are the bytes json.Marshal gives with cached false and true (the wire
// bytes the goldens hold), though encodeAnswer encodes once and skips
// json.Marshal's second pass over the output.
func TestEncodeAnswerIsJSONMarshal(t *testing.T) {
	t.Parallel()
	for name, doc := range answerDocs() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want := func(cached bool) []byte {
				d := doc()
				d.setCached(cached)
				b, err := json.Marshal(d)
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			live, stored, err := encodeAnswer(doc(), 'x')
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want(false)), string(live)); diff != "" {
				t.Errorf("live (-json.Marshal +encodeAnswer):\n%s", diff)
			}
			if diff := cmp.Diff("x"+string(want(true)), string(stored)); diff != "" {
				t.Errorf("stored (-json.Marshal +encodeAnswer):\n%s", diff)
			}
			if !bytes.Contains(stored, []byte(cachedTrue)) {
				t.Errorf("stored has no top-level cached true: %s", stored)
			}
		})
	}
}

// FuzzEncodeAnswer: for any text in the strings and map keys of a report,
// encodeAnswer gives json.Marshal's bytes.
func FuzzEncodeAnswer(f *testing.F) {
	f.Add(trickyText, "cached", "fetched_at")
	f.Add(`,"cached":false,"fetched_at":`, `"cached":false`, "\xff")
	f.Fuzz(func(t *testing.T, text, k1, k2 string) {
		rep := func(cached bool) *CompanyReport {
			return &CompanyReport{Name: text, Registers: map[string]bool{k1: false, k2: true},
				Notes: []string{text, k1}, Source: &k2, Cached: cached}
		}
		live, stored, err := encodeAnswer(rep(true), 'r')
		if err != nil {
			t.Fatal(err)
		}
		wantLive, _ := json.Marshal(rep(false))
		wantStored, _ := json.Marshal(rep(true))
		if !bytes.Equal(live, wantLive) || !bytes.Equal(stored, append([]byte{'r'}, wantStored...)) {
			t.Errorf("encodeAnswer:\n%s\n%s\njson.Marshal:\n%s\n%s", live, stored, wantLive, wantStored)
		}
	})
}
