package fr

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/idcheck"
)

// decodeUnit decodes the first unit of a recording.
func decodeUnit(t *testing.T, file string) *unit {
	t.Helper()
	var p searchPage
	if err := json.Unmarshal(recording(t, file), &p); err != nil {
		t.Fatal(err)
	}
	return &p.Results[0]
}

func asked(t testing.TB, id string) idcheck.FrenchID {
	t.Helper()
	f, p := idcheck.ParseFrenchID(id)
	if p != idcheck.ProblemNone {
		t.Fatalf("%s: %v", id, p)
	}
	return f
}

// TestTextDecoding: the placeholder, in any case or inside a value, is
// masked and holds no value; numbers are read as text; other JSON values
// are unset.
func TestTextDecoding(t *testing.T) {
	t.Parallel()
	tests := map[string]text{
		`"[NON-DIFFUSIBLE]"`:          {Masked: true},
		`" [non-diffusible] "`:        {Masked: true},
		`"DANONE ([NON-DIFFUSIBLE])"`: {Masked: true},
		`"NON-DIFFUSIBLE"`:            {Masked: true},
		`"  DANONE "`:                 {V: "DANONE"},
		`2023`:                        {V: "2023"},
		`null`:                        {},
		`true`:                        {},
		`{"a":1}`:                     {},
	}
	for in, want := range tests {
		var got text
		if err := json.Unmarshal([]byte(in), &got); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got != want {
			t.Errorf("%s: %+v, want %+v", in, got, want)
		}
	}
}

// TestFactsRoundTrip: the register facts the mapping writes are the ones
// the deadlines read back (fr-deadlines.md §4: département for the VAT
// day, headcount band and employer for the DSN, the surname's initial for
// an entrepreneur's VAT day).
func TestFactsRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file, id string
		want     deadlines.FranceDuties
	}{
		{danoneFile, "552032534", deadlines.FranceDuties{Departement: "75", HeadcountBand: "42", Employer: deadlines.DutyYes, VATRegistered: true}},
		{naturaliaFile, "302474648", deadlines.FranceDuties{Departement: "92", HeadcountBand: "42", Employer: deadlines.DutyYes}},
		{maskedEIFile, "300025764", deadlines.FranceDuties{Departement: "35", HeadcountBand: "NN", Employer: deadlines.DutyNo}},
		{ceasedEIFile, "999000003", deadlines.FranceDuties{Departement: "93", HeadcountBand: "NN", Employer: deadlines.DutyNo, SurnameInitial: 'M'}},
	}
	for _, tt := range tests {
		rep := mapUnit(decodeUnit(t, tt.file), asked(t, tt.id))
		d := dutiesOf(rep)
		got := deadlines.FranceDuties{Departement: d.Departement, HeadcountBand: d.HeadcountBand, Employer: d.Employer,
			SurnameInitial: d.SurnameInitial, VATRegistered: d.VATRegistered}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.file, diff)
		}
	}
}

// TestEveryINSEECodeHasARow: the table has one row per code of the API's
// label table (260), each with its French label and an English name, every
// family covers at least one code, and the families do not overlap.
func TestEveryINSEECodeHasARow(t *testing.T) {
	t.Parallel()
	forms := legalForms()
	if len(forms) != 260 {
		t.Fatalf("%d rows, want 260", len(forms))
	}
	for _, f := range forms {
		if f.French == "" || f.English == "" || strings.Contains(f.French, "&nbsp;") || f.French != strings.TrimSpace(f.French) {
			t.Errorf("%s: French %q English %q", f.Code, f.French, f.English)
		}
	}
	fams := formFamilies()
	for i, fam := range fams {
		n := 0
		for _, f := range forms {
			if f.Code >= fam.From && f.Code <= fam.To {
				n++
			}
		}
		if n == 0 {
			t.Errorf("family %s–%s covers no code", fam.From, fam.To)
		}
		if i > 0 && fams[i-1].To >= fam.From {
			t.Errorf("families %s–%s and %s–%s overlap or are out of order", fams[i-1].From, fams[i-1].To, fam.From, fam.To)
		}
	}
	if f, _ := lookupForm("5499"); f.French != "Société à responsabilité limitée (sans autre indication)" || f.Abbr != "SARL" {
		t.Errorf("5499: %+v", f)
	}
	if f, _ := lookupForm("5520"); f.French != "Fonds à forme sociétale à conseil d'administration" {
		t.Errorf("5520 keeps its &nbsp;: %q", f.French)
	}
}

// TestOneOwnerOfTheDuties: for every INSEE code, the report's duty flags
// and the deadline kinds agree, because both come from the same row: a
// form that files its accounts whatever its size gets both filing dates,
// a form that does not file gets neither, a public body gets nothing.
func TestOneOwnerOfTheDuties(t *testing.T) {
	t.Parallel()
	today := registry.NewDate(2026, 3, 1)
	for _, f := range legalForms() {
		rep := mapUnit(&unit{SIREN: text{V: "552032534"}, NomComplet: text{V: "X"}, EtatAdministratif: text{V: "A"},
			NatureJuridique: text{V: f.Code}, Siege: &establishment{Departement: text{V: "69"}}, TrancheEffectifSalarie: text{V: "11"}},
			asked(t, "552032534"))
		out := deadlines.France(rep, dutiesOf(rep), today)
		kinds := map[registry.DeadlineKind]bool{}
		for _, d := range out.Deadlines {
			kinds[d.Kind] = true
		}
		files := kinds[deadlines.FrenchAccountsFiling]
		if files != kinds[deadlines.FrenchAccountsFilingElectronic] {
			t.Errorf("%s: only one of the two filing dates", f.Code)
		}
		if acc := rep.HasAnnualAccountsDuty; acc != nil && *acc != files {
			t.Errorf("%s: has_annual_accounts_duty %t but accounts_filing computed %t", f.Code, *acc, files)
		}
		if f.Public && len(out.Deadlines) != 0 {
			t.Errorf("%s: a public body gets deadlines", f.Code)
		}
		if !f.Public && !kinds[deadlines.FrenchDSN] {
			t.Errorf("%s: an employer gets no DSN", f.Code)
		}
	}
}

// TestStatus (fr-deadlines.md §10): A is active, C dissolved on
// date_fermeture, anything else unknown; insolvency is never guessed.
func TestStatus(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		etat, fermeture string
		want            registry.Status
		detail          string
	}{
		{"A", "", registry.StatusActive, "Active (état administratif A in Sirene)"},
		{"C", "2022-10-22", registry.StatusDissolved, "Ceased on 2022-10-22"},
		{"C", "", registry.StatusDissolved, "Ceased (état administratif C"},
		{"X", "", registry.StatusUnknown, "Unrecognised"},
	} {
		st, detail := statusOf(&unit{EtatAdministratif: text{V: tc.etat}, DateFermeture: text{V: tc.fermeture}})
		if st != tc.want || !strings.HasPrefix(detail, tc.detail) {
			t.Errorf("%s %s: %s %q", tc.etat, tc.fermeture, st, detail)
		}
	}
	rep := mapUnit(decodeUnit(t, redNeedlesFile), asked(t, "839517323"))
	if rep.Status != registry.StatusDissolved || rep.DeregisteredAt == nil || rep.DeregisteredAt.String() != "2021-10-11" {
		t.Errorf("RED NEEDLES: %s %v", rep.Status, rep.DeregisteredAt)
	}
	// An active unit with a liquidator: still active, with a note.
	u := decodeUnit(t, redNeedlesFile)
	u.EtatAdministratif, u.DateFermeture = text{V: "A"}, text{}
	rep = mapUnit(u, asked(t, "839517323"))
	if rep.Status != registry.StatusActive || !strings.Contains(strings.Join(rep.Notes, " "), "A liquidator (liquidateur) is registered") {
		t.Errorf("active with a liquidator: %s %q", rep.Status, rep.Notes)
	}
}

// TestVATNumbers: the DGFiP's numbers are kept only when they are valid
// and belong to the SIREN; none gives null fields and the computed number
// in a note.
func TestVATNumbers(t *testing.T) {
	t.Parallel()
	u := decodeUnit(t, danoneFile)
	u.TVA = []text{{V: "FR00552032534"}, {V: "FR44732829320"}, {V: "fr 27 552 032 534"}, {V: "FR27552032534"}}
	rep := mapUnit(u, asked(t, "552032534"))
	if rep.VATNumber == nil || *rep.VATNumber != "FR27552032534" || rep.VATRegistered == nil || !*rep.VATRegistered {
		t.Errorf("vat %v %v", rep.VATNumber, rep.VATRegistered)
	}
	u.TVA = nil
	rep = mapUnit(u, asked(t, "552032534"))
	if rep.VATNumber != nil || rep.VATRegistered != nil || !strings.Contains(strings.Join(rep.Notes, " "), "would be FR27552032534") {
		t.Errorf("no tva: %v %v %q", rep.VATNumber, rep.VATRegistered, rep.Notes)
	}
}

// TestAddresses: a CEDEX address, a foreign head office and a withheld one.
func TestAddresses(t *testing.T) {
	t.Parallel()
	cedex := mapAddress(&establishment{NumeroVoie: text{V: "9"}, IndiceRepetition: text{V: "B"}, TypeVoie: text{V: "AV"},
		LibelleVoie: text{V: "DES  CHAMPS"}, DistributionSpeciale: text{V: "BP 12"}, CodePostal: text{V: "75381"},
		LibelleCommune: text{V: "PARIS"}, Cedex: text{V: "75381"}, LibelleCedex: text{V: "PARIS CEDEX 08"}, Commune: text{V: "75108"}})
	want := &registry.Address{Lines: []string{"9 B AV DES CHAMPS", "BP 12"}, PostalCode: ptr("75381"), City: ptr("PARIS CEDEX 08"),
		Municipality: ptr("PARIS"), MunicipalityCode: ptr("75108"), CountryCode: ptr("FR"), CountryName: ptr("France")}
	if diff := cmp.Diff(want, cedex); diff != "" {
		t.Errorf("cedex (-want +got):\n%s", diff)
	}
	foreign := mapAddress(&establishment{LibelleVoie: text{V: "BAHNHOFSTRASSE 1"}, LibelleCommuneEtranger: text{V: "ZURICH"},
		CodePaysEtranger: text{V: "99140"}, LibellePaysEtranger: text{V: "SUISSE"}})
	if foreign.CountryCode != nil || *foreign.CountryName != "SUISSE" || *foreign.City != "ZURICH" {
		t.Errorf("foreign: %+v", foreign)
	}
	if a := mapAddress(&establishment{LibelleVoie: text{Masked: true}, CodePostal: text{Masked: true}}); a != nil {
		t.Errorf("withheld address: %+v", a)
	}
}

func ptr(s string) *string { return &s }

// TestOfficers: birth dates cut to the month, never a day; roles by
// qualité; a withheld person left out.
func TestOfficers(t *testing.T) {
	t.Parallel()
	u := &unit{Dirigeants: []officer{
		{TypeDirigeant: text{V: "personne physique"}, Nom: text{V: "DUPONT"}, Prenoms: text{V: "JEAN"}, DateDeNaissance: text{V: "1970-05-17"},
			Qualite: text{V: "Président de SAS"}},
		{TypeDirigeant: text{V: "personne physique"}, Nom: text{V: "DURAND"}, AnneeDeNaissance: text{V: "1980"}, Qualite: text{V: "Gérant"}},
		{TypeDirigeant: text{V: "personne physique"}, Nom: text{Masked: true}, Prenoms: text{Masked: true}},
		{TypeDirigeant: text{V: "personne morale"}, Denomination: text{V: "AUDIT SA"}, SIREN: text{V: "784824153"},
			Qualite: text{V: "Commissaire aux comptes suppléant"}},
		{TypeDirigeant: text{V: "personne physique"}, Nom: text{V: "MARTIN"}, DateDeNaissance: text{V: "1990-13"}, Qualite: text{V: "Autre"}},
	}}
	roles, withheld := mapOfficers(u)
	type r struct {
		Group      registry.RoleGroup
		Name       string
		Year, Mon  int
		ID         string
		Role, Code string
	}
	var got []r
	for _, x := range roles {
		row := r{Group: x.Group, Name: x.Holder.Name, Role: x.Role, Code: x.RoleCode}
		if x.Holder.BirthYear != nil {
			row.Year = *x.Holder.BirthYear
		}
		if x.Holder.BirthMonth != nil {
			row.Mon = *x.Holder.BirthMonth
		}
		if x.Holder.ID != nil {
			row.ID = *x.Holder.ID
		}
		got = append(got, row)
	}
	want := []r{
		{registry.RoleManagement, "JEAN DUPONT", 1970, 5, "", "President", "Président de SAS"},
		{registry.RoleManagement, "DURAND", 1980, 0, "", "Manager (gérant)", "Gérant"},
		{registry.RoleAuditor, "AUDIT SA", 0, 0, "784824153", "Alternate statutory auditor", "Commissaire aux comptes suppléant"},
		{registry.RoleOther, "MARTIN", 0, 0, "", "Other officer", "Autre"},
	}
	if diff := cmp.Diff(want, got); diff != "" || withheld != 1 {
		t.Errorf("withheld %d; (-want +got):\n%s", withheld, diff)
	}
	for q, g := range map[string]registry.RoleGroup{"Administrateur": registry.RoleBoard, "Président du conseil d'administration": registry.RoleBoard,
		"Membre du conseil de surveillance": registry.RoleBoard, "Membre du directoire": registry.RoleManagement,
		"Directeur général délégué": registry.RoleManagement, "Associé indéfiniment responsable": registry.RolePartner,
		"Gérant et associé indéfiniment responsable": registry.RoleManagement, "Administrateur provisoire": registry.RoleOther,
		"Autre, Liquidateur": registry.RoleOther, "Commissaire aux comptes titulaire": registry.RoleAuditor} {
		if got, _ := roleOf(q, false); got != g {
			t.Errorf("%q: %s, want %s", q, got, g)
		}
	}
	if got, _ := roleOf("", true); got != registry.RoleOwner {
		t.Errorf("an entrepreneur without a qualité: %s", got)
	}
	for in, want := range map[string]byte{"MARTIN": 'M', "élise": 'E', "Ødegaard": 0, "  ": 0, "'T HOOFT": 'T'} {
		if got := latinInitial(in); got != want {
			t.Errorf("latinInitial(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLatinInitialLetters: the initial of a surname that starts with a
// letter with a diacritic is its base letter (the letter the canonical
// Unicode decomposition starts with), so Ñúñez files its VAT under N (the
// I–Z half of CGI ann. IV art. 39's schedule) and Åberg under A (the A–H
// half), not under an unknown or broken initial. Letters without a
// decomposition (Ø, Æ, Œ, Ł, ß, Ð, Þ) are not guessed: 0, and the VAT day
// is not computed.
func TestLatinInitialLetters(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]byte{
		"Ñúñez": 'N', "ñ": 'N', "Åberg": 'A', "åberg": 'A', "Çelik": 'C', "Ÿvon": 'Y', "Ýr": 'Y', "Ìsola": 'I',
		"Ðorđević": 0, "Đorđević": 0, "Łukasz": 0, "Œuvrard": 0, "Ærø": 0, "ßtraße": 0, "Þór": 0,
		"Šimek": 'S', "Čapek": 'C', "Žák": 'Z', "Řezáč": 'R', "Őry": 'O', "Ąbc": 'A', "Ęx": 'E', "Ğül": 'G', "İnan": 'I',
		"Ńowak": 'N', "Ţepeş": 'T', "Ůx": 'U', "Ŵy": 'W', "Ŷz": 'Y', "Ĵa": 'J', "Ķe": 'K', "Ĺa": 'L', "Ďa": 'D', "Ĥa": 'H',
	} {
		if got := latinInitial(in); got != want {
			t.Errorf("latinInitial(%q) = %q, want %q", in, got, want)
		}
	}
	// Every result is 0 or an upper-case ASCII letter.
	for r := rune(0); r < 0x3000; r++ {
		if got := latinInitial(string(r) + "x"); got != 0 && (got < 'A' || got > 'Z') {
			t.Fatalf("latinInitial(%q) = %q", string(r), got)
		}
	}
}

// TestValidate: the spellings and what each normalises to; Monaco's VAT
// numbers and La Poste's establishments.
func TestValidate(t *testing.T) {
	t.Parallel()
	c := &Country{}
	type res struct {
		Valid              bool
		Scheme, Norm, Form string
	}
	tests := map[string]res{
		"552 032 534":       {true, "siren", "552032534", "552 032 534"},
		"FR27552032534":     {true, "siren", "552032534", "552 032 534"},
		"FRK7399859412":     {true, "siren", "399859412", "399 859 412"},
		"552 032 534 00646": {true, "siret", "55203253400646", "552 032 534 00646"},
		"35600000049837":    {true, "siret", "35600000049837", "356 000 000 49837"},
		"FR34000123456":     {false, "siren", "", ""},
		"552032535":         {false, "siren", "", ""},
		"123456789":         {false, "siren", "", ""},
	}
	for in, want := range tests {
		v := c.Validate(in)
		got := res{Valid: v.Valid, Scheme: *v.IDScheme}
		if v.Normalized != nil {
			got.Norm, got.Form = *v.Normalized, *v.Formatted
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", in, diff)
		}
		if !v.Valid && (v.Reason == nil || v.Hint == nil || !strings.Contains(*v.Hint, "search operation")) {
			t.Errorf("%q: reason %v hint %v", in, v.Reason, v.Hint)
		}
	}
}

// TestOfficersChairFirst: the chair of a board of directors or of a
// supervisory board comes first; every other officer keeps the
// register's order (the président du directoire is no board chair).
func TestOfficersChairFirst(t *testing.T) {
	t.Parallel()
	person := func(name, qualite string) officer {
		return officer{TypeDirigeant: text{V: "personne physique"}, Nom: text{V: name}, Qualite: text{V: qualite}}
	}
	for _, tt := range []struct {
		name string
		in   []officer
		want []string
	}{
		{"supervisory board", []officer{
			person("A", "Président du directoire"), person("B", "Membre du conseil de surveillance"),
			person("C", "Vice-président du conseil de surveillance"), person("D", "Président du conseil de surveillance"),
			person("E", "Membre du directoire"),
		}, []string{"D", "A", "B", "C", "E"}},
		{"board of directors", []officer{
			person("A", "Administrateur"), person("B", "Directeur Général"), person("C", "Administrateur"),
			person("D", "Président du conseil d'administration"),
		}, []string{"D", "A", "B", "C"}},
		{"no chair", []officer{person("A", "Président de SAS"), person("B", "Administrateur"), person("C", "Gérant")},
			[]string{"A", "B", "C"}},
	} {
		roles, _ := mapOfficers(&unit{Dirigeants: tt.in})
		var got []string
		for _, r := range roles {
			got = append(got, r.Holder.Name)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: order (-want +got):\n%s", tt.name, diff)
		}
	}
	var labels []string
	for _, q := range []string{"Vice-président du conseil de surveillance", "Vice-Président du conseil d'administration",
		"Président du conseil de surveillance", "Président du conseil d'administration",
		// Other spellings (rev-fix10's suspicion): no hyphen, no accent, a
		// typographic apostrophe, a no-break space.
		"Vice président du conseil de surveillance", "Vice President du conseil d’administration",
		"Président du conseil d’administration", "Président du conseil de surveillance"} {
		_, l := roleOf(q, false)
		labels = append(labels, l)
	}
	want := []string{"Vice-chair", "Vice-chair", "Chair of the supervisory board", "Chair of the board of directors",
		"Vice-chair", "Vice-chair", "Chair of the board of directors", "Chair of the supervisory board"}
	if diff := cmp.Diff(want, labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
}
