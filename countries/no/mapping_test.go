package no

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// decodeUnit decodes a unit body or fails the test.
func decodeUnit(t *testing.T, body string) *unit {
	t.Helper()
	var u unit
	if err := json.Unmarshal([]byte(body), &u); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return &u
}

// Spec "States and transitions": deleted, then bankrupt, then
// under_compulsory_liquidation, then under_liquidation, then active — for
// every combination of the four flags.
func TestStatusPrecedence(t *testing.T) {
	t.Parallel()
	for mask := range 16 {
		deleted, konkurs, tvang, avvikling := mask&1 != 0, mask&2 != 0, mask&4 != 0, mask&8 != 0
		want := registry.StatusActive
		switch {
		case deleted:
			want = registry.StatusDeleted
		case konkurs:
			want = registry.StatusBankrupt
		case tvang:
			want = registry.StatusUnderCompulsoryLiquidation
		case avvikling:
			want = registry.StatusUnderLiquidation
		}
		name := fmt.Sprintf("deleted=%t,konkurs=%t,tvang=%t,avvikling=%t", deleted, konkurs, tvang, avvikling)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			body := fmt.Sprintf(`{"organisasjonsnummer":"923609016","navn":"X AS","konkurs":%t,"underTvangsavviklingEllerTvangsopplosning":%t,"underAvvikling":%t`,
				konkurs, tvang, avvikling)
			if deleted {
				body += `,"slettedato":"2026-01-02"`
			}
			u := decodeUnit(t, body+"}")
			rep := mapUnit(u, equinorID, false)
			if rep.Status != want {
				t.Errorf("status = %s, want %s", rep.Status, want)
			}
			// A search hit takes the status from statusCode alone.
			if got := statusCode(u); got != want {
				t.Errorf("statusCode = %s, want %s", got, want)
			}
			if rep.StatusDetail == nil || *rep.StatusDetail == "" {
				t.Error("status_detail is empty, want a sentence naming the flag")
			}
			b, err := json.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			if isActive := strings.Contains(string(b), `"is_active":true`); isActive != (want == registry.StatusActive) {
				t.Errorf("is_active on the wire = %t with status %s", isActive, want)
			}
			if rep.IsActive != (want == registry.StatusActive) {
				t.Errorf("IsActive = %t with status %s", rep.IsActive, want)
			}
		})
	}
}

// The status detail names the flag the status came from.
func TestStatusDetailNamesFlag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body, want string
	}{
		{`{"slettedato":"2024-11-26"}`, "slettedato"},
		{`{"respons_klasse":"SlettetEnhet"}`, "SlettetEnhet"},
		{`{"konkurs":true}`, "konkurs"},
		{`{"underTvangsavviklingEllerTvangsopplosning":true}`, "underTvangsavviklingEllerTvangsopplosning"},
		{`{"underAvvikling":true}`, "underAvvikling"},
		{`{"nedleggelsesdato":"2018-10-20"}`, "nedleggelsesdato"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			if got := statusOf(decodeUnit(t, tt.body)).detail; !strings.Contains(got, tt.want) {
				t.Errorf("detail = %q, want it to name %s", got, tt.want)
			}
		})
	}
}

// Spec "Rules": employees null means no figure is published; 0 only when
// zero is published. Never an invented 0.
func TestEmployees(t *testing.T) {
	t.Parallel()
	type got struct {
		Employees *int
		Reported  *bool
	}
	tests := []struct {
		name, body string
		want       got
	}{
		{"count published", `{"antallAnsatte":433,"harRegistrertAntallAnsatte":true}`, got{countrykit.Ptr(433), countrykit.Ptr(true)}},
		{"count held but hidden (0-4)", `{"harRegistrertAntallAnsatte":true}`, got{nil, countrykit.Ptr(true)}},
		{"no count held", `{"harRegistrertAntallAnsatte":false}`, got{nil, countrykit.Ptr(false)}},
		{"v1 published zero", `{"antallAnsatte":0}`, got{countrykit.Ptr(0), countrykit.Ptr(true)}},
		{"count as a string", `{"antallAnsatte":"12","harRegistrertAntallAnsatte":true}`, got{countrykit.Ptr(12), countrykit.Ptr(true)}},
		{"negative count ignored", `{"antallAnsatte":-3}`, got{nil, nil}},
		{"nothing known", `{}`, got{nil, nil}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := mapUnit(decodeUnit(t, tt.body), equinorID, false)
			if diff := cmp.Diff(tt.want, got{rep.Employees, rep.EmployeesReported}); diff != "" {
				t.Errorf("employees mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// Spec "vat_number": NO + id + MVA, present only when VAT-registered.
func TestVATNumber(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body           string
		wantRegistered *bool
		wantNumber     *string
		wantSince      *registry.Date
	}{
		{`{"registrertIMvaregisteret":true,"registreringsdatoMerverdiavgiftsregisteret":"1989-07-01"}`,
			countrykit.Ptr(true), countrykit.Ptr("NO923609016MVA"), countrykit.Ptr(registry.NewDate(1989, 7, 1))},
		{`{"registrertIMvaregisteret":false,"registreringsdatoMerverdiavgiftsregisteret":"1989-07-01"}`, countrykit.Ptr(false), nil, nil},
		{`{}`, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			t.Parallel()
			rep := mapUnit(decodeUnit(t, tt.body), equinorID, false)
			if diff := cmp.Diff(tt.wantRegistered, rep.VATRegistered); diff != "" {
				t.Errorf("vat_registered mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantNumber, rep.VATNumber); diff != "" {
				t.Errorf("vat_number mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantSince, rep.VATRegisteredAt); diff != "" {
				t.Errorf("vat_registered_at mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// Spec "previous_names": former names, newest first (historiskeNavn is
// oldest first), each name once.
func TestPreviousNames(t *testing.T) {
	t.Parallel()
	u := decodeUnit(t, `{"historiskeNavn":[
		{"navn":"A","fraDato":"1995-03-12 16:23:00","tilDato":"2001-05-11 08:32:09"},
		{"navn":"B","fraDato":"2001-05-11 08:32:09","tilDato":"2007-10-01 06:44:33"},
		{"navn":"C","fraDato":"2007-10-01 06:44:33","tilDato":"2009-11-02 07:56:24"},
		{"navn":"B","fraDato":"2009-11-02 07:56:24","tilDato":"2018-05-16 07:05:45"},
		{"navn":" ","fraDato":"2018-05-16 07:05:45"},
		{"navn":"Undated"}]}`)
	want := []string{"B", "C", "A", "Undated"}
	if diff := cmp.Diff(want, previousNames(u.HistoriskeNavn)); diff != "" {
		t.Errorf("previous names mismatch (-want +got):\n%s", diff)
	}
	if got := previousNames(nil); got == nil || len(got) != 0 {
		t.Errorf("previousNames(nil) = %#v, want an empty, non-nil slice", got)
	}
}

// Addresses: null and "" lines are dropped; an empty object is null; a
// sub-unit's business address is its beliggenhetsadresse.
func TestAddresses(t *testing.T) {
	t.Parallel()
	body := `{"forretningsadresse":{"adresse":["Tyvholmen 1",null,null,""],"postnummer":"0101","poststed":"OSLO","landkode":"no"},
		"beliggenhetsadresse":{"adresse":["Havnegata 48"],"poststed":"BRØNNØYSUND"},
		"postadresse":{"adresse":[null,""]}}`
	u := decodeUnit(t, body)

	main := mapUnit(u, equinorID, false)
	want := &registry.Address{Lines: []string{"Tyvholmen 1"}, PostalCode: countrykit.Ptr("0101"), City: countrykit.Ptr("OSLO"), CountryCode: countrykit.Ptr("NO")}
	if diff := cmp.Diff(want, main.BusinessAddress); diff != "" {
		t.Errorf("main unit business address mismatch (-want +got):\n%s", diff)
	}
	if main.PostalAddress != nil {
		t.Errorf("postal address = %+v, want nil for an address with no content", main.PostalAddress)
	}
	sub := mapUnit(u, equinorID, true)
	want = &registry.Address{Lines: []string{"Havnegata 48"}, City: countrykit.Ptr("BRØNNØYSUND")}
	if diff := cmp.Diff(want, sub.BusinessAddress); diff != "" {
		t.Errorf("sub-unit business address mismatch (-want +got):\n%s", diff)
	}
}

// Notes: bankruptcy, liquidation, an unclassified legal form, and ENK
// personal data.
func TestNotes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, want string
	}{
		{"bankruptcy", `{"organisasjonsform":{"kode":"AS"},"konkurs":true,"konkursdato":"2026-06-02"}`, "bankrupt (konkurs), with bankruptcy proceedings opened on 2026-06-02"},
		{"liquidation", `{"organisasjonsform":{"kode":"AS"},"underAvvikling":true}`, "voluntary liquidation"},
		{"compulsory", `{"organisasjonsform":{"kode":"AS"},"underTvangsavviklingEllerTvangsopplosning":true,"tvangsopplostPgaManglendeRevisorDato":"2025-01-02"}`, "since 2025-01-02, for a missing auditor"},
		{"unclassified form", `{"organisasjonsform":{"kode":"UTBG","beskrivelse":"Frivillig registrert utleiebygg"}}`, "UTBG is not in this service's table"},
		{"no form", `{}`, "gave no legal form"},
		{"ENK", `{"organisasjonsform":{"kode":"ENK"}}`, "personal data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := mapUnit(decodeUnit(t, tt.body), equinorID, false)
			if !slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, tt.want) }) {
				t.Errorf("notes = %q, want one containing %q", rep.Notes, tt.want)
			}
		})
	}
}

// The legal form table covers every organisation form code the register
// publishes (the compiled list of GET /organisasjonsformer), and its
// Norwegian labels match the register's.
func TestLegalFormTableCoversRegister(t *testing.T) {
	t.Parallel()
	var list struct {
		Organisasjonsformer []codeText `json:"organisasjonsformer"`
	}
	if err := json.Unmarshal(recording(t, "organisasjonsformer_codes_COMPILED.json"), &list); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, f := range list.Organisasjonsformer {
		want[f.Kode] = f.Beskrivelse
	}
	got := map[string]string{}
	for _, f := range legalForms() {
		got[f.Code] = f.Local
		if f.English == "" || f.Basis == "" {
			t.Errorf("%s: English label or basis missing", f.Code)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("legal form codes mismatch (-want +got):\n%s", diff)
	}
	if len(got) != 44 {
		t.Errorf("table has %d codes, want 44", len(got))
	}
	if !slices.IsSortedFunc(legalForms(), func(a, b legalForm) int { return strings.Compare(a.Code, b.Code) }) {
		t.Error("legalForms is not sorted by code")
	}
}

// The duties of the common forms; null where the law depends on facts the
// register does not publish.
func TestLegalFormDuties(t *testing.T) {
	t.Parallel()
	type duties struct{ Limited, Board, Accounts *bool }
	tr, fa := countrykit.Ptr(true), countrykit.Ptr(false)
	tests := map[string]duties{
		"AS":   {tr, tr, tr},
		"ASA":  {tr, tr, tr},
		"ENK":  {fa, fa, nil},
		"ANS":  {fa, fa, nil},
		"DA":   {fa, fa, nil},
		"SA":   {tr, tr, nil},
		"STI":  {nil, tr, tr},
		"NUF":  {nil, fa, nil},
		"BEDR": {nil, fa, fa},
		"KOMM": {nil, nil, nil},
		"KBO":  {nil, nil, nil},
	}
	for code, want := range tests {
		t.Run(code, func(t *testing.T) {
			t.Parallel()
			rep := mapUnit(decodeUnit(t, `{"organisasjonsform":{"kode":"`+code+`"}}`), equinorID, false)
			if diff := cmp.Diff(want, duties{rep.LimitedLiability, rep.HasBoardDuty, rep.HasAnnualAccountsDuty}); diff != "" {
				t.Errorf("duties mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// Reports never share pointers with the legal form table.
func TestLegalFormPointersAreFresh(t *testing.T) {
	t.Parallel()
	a := mapUnit(decodeUnit(t, `{"organisasjonsform":{"kode":"AS"}}`), equinorID, false)
	*a.LimitedLiability = false
	b := mapUnit(decodeUnit(t, `{"organisasjonsform":{"kode":"AS"}}`), equinorID, false)
	if !*b.LimitedLiability {
		t.Error("changing one report's limited_liability changed another's")
	}
}

// Lenient decoding: unknown fields are ignored and numbers sent as strings
// (or the reverse) are read.
func TestLenientDecoding(t *testing.T) {
	t.Parallel()
	u := decodeUnit(t, `{"organisasjonsnummer":"923609016","navn":"X","nyttFelt":{"a":[1,2]},
		"sisteInnsendteAarsregnskap":2024,"kapital":{"belop":"30000.50","valuta":"nok"},"konkursdato":"",
		"aktivitet":"Utleie av bygg."}`)
	rep := mapUnit(u, equinorID, false)
	type fields struct {
		Year     *int
		Capital  *float64
		Currency *string
		Bankrupt *registry.Date
		Activity *string
	}
	got := fields{rep.LastAnnualAccountsYear, rep.ShareCapital, rep.ShareCapitalCurrency, rep.BankruptcyDate, rep.Activity}
	want := fields{countrykit.Ptr(2024), countrykit.Ptr(30000.5), countrykit.Ptr("NOK"), nil, countrykit.Ptr("Utleie av bygg.")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lenient fields mismatch (-want +got):\n%s", diff)
	}
}

// Industry codes keep rank 1..3 by field, skipping absent ones.
func TestIndustryCodes(t *testing.T) {
	t.Parallel()
	rep := mapUnit(decodeUnit(t, `{"naeringskode1":{"kode":"06.100","beskrivelse":"Utvinning av råolje"},"naeringskode3":{"kode":"19.200"}}`), equinorID, false)
	want := []registry.IndustryCode{
		{Code: "06.100", Description: countrykit.Ptr("Utvinning av råolje"), Scheme: countrykit.Ptr(industryScheme), Rank: 1},
		{Code: "19.200", Scheme: countrykit.Ptr(industryScheme), Rank: 3},
	}
	if diff := cmp.Diff(want, rep.IndustryCodes); diff != "" {
		t.Errorf("industry codes mismatch (-want +got):\n%s", diff)
	}
}
