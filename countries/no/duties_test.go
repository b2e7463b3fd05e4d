package no

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
)

// formReport maps an active main unit of the given legal form, as the
// register would publish it, founded long ago, without VAT registration or
// employees; inForetak is its registrertIForetaksregisteret flag ("" for
// absent).
func formReport(t *testing.T, code, inForetak string) *registry.CompanyReport {
	t.Helper()
	body := `{"organisasjonsnummer":"923609016","navn":"EKSEMPEL","organisasjonsform":{"kode":"` + code + `"},` +
		`"stiftelsesdato":"2001-03-14","registrertIMvaregisteret":false,"harRegistrertAntallAnsatte":false`
	if inForetak != "" {
		body += `,"registrertIForetaksregisteret":` + inForetak
	}
	return mapUnit(decodeUnit(t, body+"}"), equinorID, false)
}

// formDeadlines returns the module's deadlines of rep on 2026-03-01 as
// kind -> mandatory.
func formDeadlines(t *testing.T, rep *registry.CompanyReport) (map[string]bool, *registry.DeadlineReport) {
	t.Helper()
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Deadlines(rep, registry.NewDate(2026, 3, 1))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, dl := range out.Deadlines {
		got[string(dl.Kind)] = dl.Mandatory
	}
	return got, out
}

func deadlineOf(t *testing.T, out *registry.DeadlineReport, kind string) registry.Deadline {
	t.Helper()
	for _, dl := range out.Deadlines {
		if string(dl.Kind) == kind {
			return dl
		}
	}
	t.Fatalf("no %s in %+v", kind, out.Deadlines)
	return registry.Deadline{}
}

// TestFormDeadlines: which form-dependent kinds each legal form gets and
// whether each is mandatory, from the one legal-form table, with each row's
// source (research/no-deadlines.md §1 and Brønnøysund's list of who must
// file accounts).
func TestFormDeadlines(t *testing.T) {
	t.Parallel()
	const (
		acc = "annual_accounts"
		gm  = "general_meeting"
		tax = "tax_return"
		sh  = "shareholder_register_statement"
	)
	tests := []struct {
		form, inForetak, source string
		want                    map[string]bool // kind -> mandatory
	}{
		{"AS", "", "regnskapsloven § 1-2, aksjeloven § 5-5, sktfvfs § 8-2-3, skfvl § 7-7", map[string]bool{acc: true, gm: true, tax: true, sh: true}},
		{"ASA", "", "regnskapsloven § 1-2, allmennaksjeloven § 5-6, sktfvfs § 8-2-3, skfvl § 7-7", map[string]bool{acc: true, gm: true, tax: true, sh: true}},
		{"SE", "", "Regulation (EC) 2157/2001 arts. 9, 54, 61: an SE in Norway follows the ASA rules", map[string]bool{acc: true, gm: true, tax: true, sh: true}},
		{"ENK", "", "regnskapsloven § 1-2 (thresholds), sktfvfs § 8-2-3 (owner, 31 May)", map[string]bool{acc: false, tax: true}},
		{"ANS", "", "regnskapsloven § 1-2 (small-partnership exemption), skfvl § 8-9", map[string]bool{acc: false, tax: true}},
		{"DA", "", "regnskapsloven § 1-2 (small-partnership exemption), skfvl § 8-9", map[string]bool{acc: false, tax: true}},
		{"KS", "", "regnskapsloven § 1-2 (small-partnership exemption), skfvl § 8-9", map[string]bool{acc: false, tax: true}},
		{"NUF", "false", "regnskapsloven § 1-2: only if liable to tax in Norway", map[string]bool{acc: false, tax: false}},
		{"NUF", "", "regnskapsloven § 1-2: only if liable to tax in Norway", map[string]bool{acc: false, tax: false}},
		{"NUF", "true", "Brønnøysund: a NUF in Foretaksregisteret files accounts; regnskapsloven § 1-2 presumes its tax liability, so sktfvfs § 8-2-3", map[string]bool{acc: true, tax: true}},
		{"SA", "", "regnskapsloven § 1-2 (sales over NOK 2 million), samvirkelova § 41 (1), sktfvfs § 8-2-3", map[string]bool{acc: false, gm: true, tax: true}},
		{"BA", "", "Brønnøysund: duty only above the size thresholds (regnskapsloven § 1-2)", map[string]bool{acc: false, tax: false}},
		{"STI", "", "regnskapsloven § 1-2; tax only if liable", map[string]bool{acc: true, tax: false}},
		{"FLI", "", "regnskapsloven § 1-2 (thresholds); tax only if liable", map[string]bool{acc: false, tax: false}},
		{"BRL", "", "regnskapsloven § 1-2", map[string]bool{acc: true}},
		{"BBL", "", "regnskapsloven § 1-2", map[string]bool{acc: true}},
		{"SF", "", "regnskapsloven § 1-2", map[string]bool{acc: true}},
		{"SPA", "", "regnskapsloven § 1-2", map[string]bool{acc: true}},
		{"GFS", "", "regnskapsloven § 1-2", map[string]bool{acc: true}},
		{"PK", "", "regnskapsloven § 1-2", map[string]bool{acc: true}},
		{"VPFO", "", "regnskapsloven § 1-2", map[string]bool{acc: true}},
		{"KF", "", "kommuneloven ch. 14: not sent to Regnskapsregisteret", map[string]bool{}},
		{"IKS", "", "IKS-loven; excluded from regnskapsloven § 1-2", map[string]bool{}},
		{"KOMM", "", "public sector: not modelled", map[string]bool{}},
	}
	for _, tt := range tests {
		t.Run(tt.form+"/foretak="+tt.inForetak, func(t *testing.T) {
			t.Parallel()
			got, out := formDeadlines(t, formReport(t, tt.form, tt.inForetak))
			// harRegistrertAntallAnsatte false lists the payroll report,
			// not mandatory, whatever the form (review D3, see
			// TestNoRegisteredEmployeesFromRegister); the table is about the
			// form-dependent kinds.
			if m, ok := got["payroll_report"]; !ok || m {
				t.Errorf("payroll_report listed %t mandatory %t, want listed and not mandatory", ok, m)
			}
			delete(got, "payroll_report")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("kinds and mandatory per %s (-want +got):\n%s", tt.source, diff)
			}
			for _, dl := range out.Deadlines {
				if dl.AppliesBecause == "" || strings.Contains(dl.AppliesBecause, ". ") || strings.Contains(dl.AppliesBecause, "{") {
					t.Errorf("%s: applies_because is not one filled-in sentence: %q", dl.Kind, dl.AppliesBecause)
				}
			}
		})
	}
}

// TestIssue13NorwayRows: the rows the issue corrects, each with its source.
func TestIssue13NorwayRows(t *testing.T) {
	t.Parallel()
	type flags struct{ Limited, Board, Accounts *bool }
	tr, fa := countrykit.Ptr(true), countrykit.Ptr(false)
	for _, tt := range []struct {
		name, form, inForetak, source string
		want                          flags
	}{
		// Brønnøysund's list of who must file accounts: a BA only above the
		// size thresholds, so not known from the register.
		{"BA", "BA", "", "regnskapsloven § 1-2 (Brønnøysund's list)", flags{tr, tr, nil}},
		// A NUF in Foretaksregisteret is expected to file accounts.
		{"NUF in Foretaksregisteret", "NUF", "true", "Brønnøysund's list; regnskapsloven § 1-2", flags{nil, fa, tr}},
		{"NUF outside Foretaksregisteret", "NUF", "false", "regnskapsloven § 1-2: only if taxable in Norway", flags{nil, fa, nil}},
		// An SE follows the ASA rules.
		{"SE", "SE", "", "Regulation (EC) 2157/2001 art. 9; allmennaksjeloven", flags{tr, tr, tr}},
		// No null where the table knows: SA board; KF and IKS board and
		// accounts (public-law accounts, nothing sent to Regnskapsregisteret).
		{"SA", "SA", "", "samvirkelova; regnskapsloven § 1-2 (over NOK 2 million)", flags{tr, tr, nil}},
		{"KF", "KF", "", "kommuneloven chapters 9 and 14", flags{fa, tr, fa}},
		{"IKS", "IKS", "", "IKS-loven §§ 3 and 27", flags{fa, tr, fa}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := formReport(t, tt.form, tt.inForetak)
			if diff := cmp.Diff(tt.want, flags{rep.LimitedLiability, rep.HasBoardDuty, rep.HasAnnualAccountsDuty}); diff != "" {
				t.Errorf("flags per %s (-want +got):\n%s", tt.source, diff)
			}
		})
	}

	// The NUF's accounts deadline says that the foreign company's accounts
	// are sent too.
	_, out := formDeadlines(t, formReport(t, "NUF", "true"))
	if dl := deadlineOf(t, out, "annual_accounts"); !dl.Mandatory || !strings.Contains(dl.AppliesBecause, "accounts of the foreign company") {
		t.Errorf("NUF accounts: mandatory %t, applies_because %q", dl.Mandatory, dl.AppliesBecause)
	}
}

// TestSourcesCited (issue 13): the SA annual meeting cites samvirkelova
// § 41 (1); the 31 January date cites the regulation to
// skatteforvaltningsloven § 7-7, not the section alone.
func TestSourcesCited(t *testing.T) {
	t.Parallel()
	_, sa := formDeadlines(t, formReport(t, "SA", ""))
	if m := deadlineOf(t, sa, "general_meeting"); !strings.Contains(m.AppliesBecause, "samvirkelova § 41 (1)") ||
		m.Name != "Ordinary annual meeting" || deref(m.LocalName) != "ordinært årsmøte" || deref(m.SourceURL) != srcMeetingSA {
		t.Errorf("SA meeting %q %q %q %q", m.Name, deref(m.LocalName), m.AppliesBecause, deref(m.SourceURL))
	}
	for _, form := range []string{"AS", "ASA", "SE"} {
		_, out := formDeadlines(t, formReport(t, form, ""))
		if s := deadlineOf(t, out, "shareholder_register_statement"); !strings.Contains(s.AppliesBecause, "regulation to skatteforvaltningsloven § 7-7") ||
			!strings.Contains(s.AppliesBecause, "skatteforvaltningsforskriften") {
			t.Errorf("%s shareholder statement: %q", form, s.AppliesBecause)
		}
	}
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.Rules(), "the regulation to skatteforvaltningsloven § 7-7") || !strings.Contains(c.Rules(), "samvirkelova § 41 (1)") {
		t.Error("the rules document does not cite the regulation to § 7-7 and samvirkelova § 41 (1)")
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestDutyFlagsAgreeWithDeadlines is the property of issue 13: for every
// legal form in the table, with and without Foretaksregisteret, an active
// unit's report flag and its deadline list agree. A true accounts duty lists
// a mandatory annual_accounts, a false one none, a null one at most a
// non-mandatory one; and each kind is listed exactly as the row's duty says
// (yes: mandatory, conditional: not mandatory, no or unknown: absent).
func TestDutyFlagsAgreeWithDeadlines(t *testing.T) {
	t.Parallel()
	law := lawDuties()
	for _, f := range legalForms() {
		for _, inForetak := range []string{"", "true", "false"} {
			rep := formReport(t, f.Code, inForetak)
			got, out := formDeadlines(t, rep)
			if f.Code == "BEDR" || f.Code == "AAFY" {
				if len(got) != 0 {
					t.Errorf("%s: a sub-unit form got %v", f.Code, got)
				}
				continue
			}
			mandatory, listed := got["annual_accounts"]
			switch a := rep.HasAnnualAccountsDuty; {
			case a != nil && *a && !(listed && mandatory):
				t.Errorf("%s (foretak %q): has_annual_accounts_duty true but annual_accounts listed %t mandatory %t", f.Code, inForetak, listed, mandatory)
			case a != nil && !*a && listed:
				t.Errorf("%s (foretak %q): has_annual_accounts_duty false but annual_accounts is listed", f.Code, inForetak)
			case a == nil && listed && mandatory:
				t.Errorf("%s (foretak %q): has_annual_accounts_duty null but annual_accounts is mandatory", f.Code, inForetak)
			}
			d := dutiesOf(rep)
			for kind, k := range map[string]deadlines.KindDuty{
				"tax_return": d.TaxReturn, "shareholder_register_statement": d.ShareholderRegisterStatement,
				"general_meeting": d.GeneralMeeting, "annual_accounts": d.AnnualAccounts,
			} {
				m, ok := got[kind]
				if ok != k.Duty.Applies() || (ok && m != (k.Duty == deadlines.DutyYes)) {
					t.Errorf("%s (foretak %q): %s duty %s, listed %t mandatory %t", f.Code, inForetak, kind, k.Duty, ok, m)
				}
			}
			// The engine explains each form-dependent deadline with the
			// row's own label (the {form} placeholders filled in), so a
			// deadline that came from another row, or from no row, shows.
			for _, dl := range out.Deadlines {
				if isFormKind(string(dl.Kind)) && !strings.Contains(dl.AppliesBecause, d.Label) {
					t.Errorf("%s (foretak %q): %s applies_because does not name %q: %q", f.Code, inForetak, dl.Kind, d.Label, dl.AppliesBecause)
				}
			}
			// Independent of the table: what the law says of the common
			// forms, written out by hand.
			if want, ok := law[f.Code+"/"+inForetak]; ok {
				for _, kind := range []string{"annual_accounts", "general_meeting", "tax_return", "shareholder_register_statement"} {
					m, listed := got[kind]
					w, owed := want.kinds[kind]
					if listed != owed || m != w {
						t.Errorf("%s (foretak %q): %s listed %t mandatory %t, want listed %t mandatory %t (%s)", f.Code, inForetak, kind, listed, m, owed, w, want.source)
					}
				}
			}
		}
	}
	for key := range law {
		code, _, _ := strings.Cut(key, "/")
		if _, ok := lookupForm(code); !ok {
			t.Errorf("lawDuties names %s, which is not in the table", code)
		}
	}
}

// isFormKind reports whether kind depends on the legal form.
func isFormKind(kind string) bool {
	switch kind {
	case "annual_accounts", "general_meeting", "tax_return", "shareholder_register_statement":
		return true
	}
	return false
}

// lawExpectation is what the law says one form owes.
type lawExpectation struct {
	source string
	kinds  map[string]bool
}

// lawDuties is a hand-written expectation, per form and
// registrertIForetaksregisteret flag, of the form-dependent kinds an active
// unit owes (kind -> mandatory; a kind not named is not listed), from the
// law as summarised in research/no-deadlines.md §1 and research/brreg.md §7.
// It does not read the module's table.
func lawDuties() map[string]lawExpectation {
	return map[string]lawExpectation{
		"AS/": {"regnskapsloven § 1-2 nr 1, aksjeloven § 5-5, sktfvfs § 8-2-3, sktfvfs §§ 7-7-1 to 7-7-3",
			map[string]bool{"annual_accounts": true, "general_meeting": true, "tax_return": true, "shareholder_register_statement": true}},
		"ASA/": {"regnskapsloven § 1-2 nr 2, allmennaksjeloven § 5-6, sktfvfs § 8-2-3, sktfvfs §§ 7-7-1 to 7-7-3",
			map[string]bool{"annual_accounts": true, "general_meeting": true, "tax_return": true, "shareholder_register_statement": true}},
		"ENK/": {"regnskapsloven § 1-2 nr 11 (only above 20 MNOK assets or 20 årsverk), sktfvfs § 8-2-3 (the owner's return, 31 May)",
			map[string]bool{"annual_accounts": false, "tax_return": true}},
		"NUF/": {"regnskapsloven § 1-2 (only if liable to tax in Norway), sktfvfs § 8-2-3 (only if liable)",
			map[string]bool{"annual_accounts": false, "tax_return": false}},
		"NUF/true": {"Brønnøysund's list of who must file accounts: a NUF in Foretaksregisteret files; the tax liability it presumes, sktfvfs § 8-2-3",
			map[string]bool{"annual_accounts": true, "tax_return": true}},
		"SA/": {"regnskapsloven § 1-2 nr 7 (sales over NOK 2 million), samvirkelova § 41 (1), sktfvfs § 8-2-3",
			map[string]bool{"annual_accounts": false, "general_meeting": true, "tax_return": true}},
		"BA/": {"Brønnøysund: accounts only above the size thresholds (regnskapsloven § 1-2); tax only if liable",
			map[string]bool{"annual_accounts": false, "tax_return": false}},
	}
}

// TestVATRegisteredAtFromRegister (issue 13): the register's VAT
// registration date reaches the engine, which lists no VAT return for a term
// that ended before it.
func TestVATRegisteredAtFromRegister(t *testing.T) {
	t.Parallel()
	body := `{"organisasjonsnummer":"923609016","navn":"NY AS","organisasjonsform":{"kode":"AS"},"stiftelsesdato":"2001-03-14",` +
		`"registrertIMvaregisteret":true,"registreringsdatoMerverdiavgiftsregisteret":"2026-03-15"}`
	rep := mapUnit(decodeUnit(t, body), equinorID, false)
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Deadlines(rep, registry.NewDate(2026, 3, 20))
	if err != nil {
		t.Fatal(err)
	}
	if dl := deadlineOf(t, out, "vat_return"); dl.PeriodStart == nil || *dl.PeriodStart != registry.NewDate(2026, 3, 1) {
		t.Errorf("first VAT return is for the term starting %v, want 2026-03-01 (registered 2026-03-15)", dl.PeriodStart)
	}
}

// TestZeroEmployeesFromRegister (issue 13): a published antallAnsatte of 0
// is employees 0, and the payroll report is then not mandatory, with a note
// that board fees may still need one.
func TestZeroEmployeesFromRegister(t *testing.T) {
	t.Parallel()
	rep := mapUnit(decodeUnit(t, `{"organisasjonsform":{"kode":"AS"},"antallAnsatte":0,"harRegistrertAntallAnsatte":true}`), equinorID, false)
	if rep.Employees == nil || *rep.Employees != 0 {
		t.Fatalf("employees = %v, want 0", rep.Employees)
	}
	_, out := formDeadlines(t, rep)
	if dl := deadlineOf(t, out, "payroll_report"); dl.Mandatory || !strings.Contains(dl.AppliesBecause, "board fees") {
		t.Errorf("payroll report mandatory %t, applies_because %q", dl.Mandatory, dl.AppliesBecause)
	}
}

// TestNUFInForetaksregisteretTaxAgreesWithAccounts (issue 13, review D4):
// a NUF has an accounts duty only if it carries on business in Norway and
// is liable to tax there (regnskapsloven § 1-2, research/no-deadlines.md
// §1.5, brreg.md §7). In Foretaksregisteret the accounts are mandatory, so
// the tax liability they presume makes the tax return (31 May,
// skatteforvaltningsforskriften § 8-2-3) mandatory too, and its
// applies_because says so; outside it both stay conditional.
func TestNUFInForetaksregisteretTaxAgreesWithAccounts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		inForetak string
		want      deadlines.Duty
	}{{"true", deadlines.DutyYes}, {"false", deadlines.DutyConditional}, {"", deadlines.DutyConditional}} {
		d := dutiesOf(formReport(t, "NUF", tt.inForetak))
		if d.AnnualAccounts.Duty != tt.want || d.TaxReturn.Duty != tt.want {
			t.Errorf("foretak %q: accounts %s, tax %s, want both %s", tt.inForetak, d.AnnualAccounts.Duty, d.TaxReturn.Duty, tt.want)
		}
		if tt.want == deadlines.DutyYes && !strings.Contains(d.TaxReturn.Because, "tax liability in Norway is what its accounts duty presumes") {
			t.Errorf("foretak %q: tax because %q", tt.inForetak, d.TaxReturn.Because)
		}
	}
}

// TestNoRegisteredEmployeesFromRegister (issue 13, review D3): the live v2
// API says "no registered employees" with harRegistrertAntallAnsatte false
// and never publishes antallAnsatte 0 (research/brreg.md, the
// harRegistrertAntallAnsatte row and pitfall 4). employees stays null (no
// invented 0) and the deadlines are those of a count of zero: the payroll
// report (a-opplysningsforskriften § 2-1, research/no-deadlines.md §1.3)
// for November 2026, statutory 2026-12-05 (a Saturday), due Monday
// 2026-12-07, mandatory false, with the board-fee note.
func TestNoRegisteredEmployeesFromRegister(t *testing.T) {
	t.Parallel()
	rep := mapUnit(decodeUnit(t, `{"organisasjonsnummer":"923609016","navn":"EKSEMPEL AS","organisasjonsform":{"kode":"AS"},`+
		`"stiftelsesdato":"2001-11-24","registrertIMvaregisteret":false,"harRegistrertAntallAnsatte":false}`), equinorID, false)
	if rep.Employees != nil || rep.EmployeesReported == nil || *rep.EmployeesReported {
		t.Fatalf("employees = %v, employees_reported = %v, want null and false", rep.Employees, rep.EmployeesReported)
	}
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Deadlines(rep, registry.NewDate(2026, 11, 24))
	if err != nil {
		t.Fatal(err)
	}
	dl := deadlineOf(t, out, "payroll_report")
	period := ""
	if dl.PeriodLabel != nil {
		period = *dl.PeriodLabel
	}
	type got struct {
		Period               string
		Statutory, Due       registry.Date
		Mandatory, BoardFees bool
	}
	want := got{"November 2026", registry.NewDate(2026, 12, 5), registry.NewDate(2026, 12, 7), false, true}
	if diff := cmp.Diff(want, got{period, dl.StatutoryDate, dl.DueDate, dl.Mandatory,
		strings.Contains(dl.AppliesBecause, "board fees")}); diff != "" {
		t.Errorf("payroll_report (-want +got):\n%s", diff)
	}
	if !strings.Contains(strings.Join(out.Notes, " "), "no registered employees, so the monthly payroll report (a-melding) is not mandatory") {
		t.Errorf("no board-fee note in %q", out.Notes)
	}
}

// TestDeadlinesGolden compares whole deadline documents, computed from the
// module's table, with reviewed goldens (moved here from package deadlines,
// whose engine no longer knows the legal forms).
func TestDeadlinesGolden(t *testing.T) {
	t.Parallel()
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	base := func(code, id, name string, vat, employees bool) *registry.CompanyReport {
		rep := countrykit.NewReport("NO", "brreg", id, name)
		rep.LegalFormCode = countrykit.Ptr(code)
		rep.Status = registry.StatusActive
		rep.VATRegistered, rep.EmployeesReported = countrykit.Ptr(vat), countrykit.Ptr(employees)
		rep.FoundedAt = countrykit.Ptr(registry.NewDate(2001, 3, 14))
		return rep
	}
	sub := base("BEDR", "974760673", "EKSEMPEL AS AVD BERGEN", true, true)
	sub.IsSubunit, sub.ParentID = true, countrykit.Ptr("923609016")
	for _, tt := range []struct {
		name  string
		rep   *registry.CompanyReport
		today registry.Date
	}{
		{"deadlines_as_typical_2027-03-01", base("AS", "923609016", "EKSEMPEL AS", true, true), registry.NewDate(2027, 3, 1)},
		{"deadlines_enk_vat_2026-01-15", base("ENK", "912345678", "OLA NORDMANN", true, false), registry.NewDate(2026, 1, 15)},
		{"deadlines_subunit", sub, registry.NewDate(2026, 1, 15)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err := c.Deadlines(tt.rep, tt.today)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tt.name, out)
		})
	}
}
