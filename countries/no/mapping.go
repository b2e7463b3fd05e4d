package no

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

const (
	sourceName     = "Brønnøysundregistrene, Enhetsregisteret (Central Coordinating Register for Legal Entities)"
	humanUnitURL   = "https://virksomhet.brreg.no/nb/oppslag/enheter/"
	humanSubURL    = "https://virksomhet.brreg.no/nb/oppslag/underenheter/"
	industryScheme = "SN (Norwegian NACE)"
	lookupBasis    = "Exact organisation number lookup in Enhetsregisteret."
)

// The slugs of the national sub-registers in CompanyReport.Registers.
const (
	registerBusiness  = "foretaksregisteret"
	registerVAT       = "mvaregisteret"
	registerFoundatns = "stiftelsesregisteret"
	registerVoluntary = "frivillighetsregisteret"
	registerParty     = "partiregisteret"
)

// mapUnit maps one unit as Enhetsregisteret answers it to a report. id is
// the canonical organisation number the caller asked for; subunit says
// whether the answer came from /underenheter. It never fails: a field it
// cannot read is null.
func mapUnit(u *unit, id string, subunit bool) *registry.CompanyReport {
	r := countrykit.NewReport(countryCode, registrySlug, id, strings.TrimSpace(u.Navn))
	if n, p := idcheck.ParseOrgNr(id); p == idcheck.ProblemNone {
		r.IDFormatted = countrykit.Ptr(n.Formatted())
	}
	r.IDScheme = countrykit.Ptr(idScheme)
	r.PreviousNames = previousNames(u.HistoriskeNavn)
	r.IsSubunit = subunit

	code := ""
	if u.Organisasjonsform != nil {
		code = strings.TrimSpace(u.Organisasjonsform.Kode)
	}
	if code != "" {
		r.LegalFormCode = countrykit.Ptr(code)
		f, known := lookupForm(code)
		local := strings.TrimSpace(u.Organisasjonsform.Beskrivelse)
		if local == "" {
			local = f.Local
		}
		r.LegalFormLocal = countrykit.StringOrNil(local)
		if known {
			r.LegalForm = countrykit.Ptr(f.English)
			r.LimitedLiability = f.LimitedLiability.Ptr()
			r.HasBoardDuty = f.BoardDuty.Ptr()
			r.HasAnnualAccountsDuty = accountsFlag(f.duties(u.RegistrertIForetak).AnnualAccounts.Duty)
		} else {
			r.Notes = append(r.Notes, fmt.Sprintf("The legal form code %s is not in this service's table of organisation forms (it may be a retired form), so its English label and its liability, board and accounts duties are unknown.", code))
		}
	} else {
		r.Notes = append(r.Notes, "The register gave no legal form for this unit, so its liability, board and accounts duties are unknown.")
	}

	st := statusOf(u)
	r.Status, r.StatusDetail = st.status, countrykit.Ptr(st.detail)
	// The Registry and MarshalJSON derive IsActive too; it is set here so
	// that the report is whole before it reaches either (mapUnit's tests
	// read it).
	r.IsActive = st.status == registry.StatusActive

	r.RegisteredAt = date(u.RegistreringsdatoEnhetsregisteret)
	if subunit {
		r.FoundedAt = date(u.Oppstartsdato)
	} else {
		r.FoundedAt = date(u.Stiftelsesdato)
	}
	r.BusinessRegisterRegisteredAt = date(u.RegistreringsdatoForetaksregisteret)
	r.BankruptcyDate = date(u.Konkursdato)
	r.DeregisteredAt = date(u.Slettedato)

	r.VATRegistered = upstream.CloneBool(u.RegistrertIMva)
	if u.RegistrertIMva != nil && *u.RegistrertIMva {
		r.VATRegisteredAt = date(u.RegistreringsdatoMerverdiavgiftsregisteret)
		r.VATNumber = countrykit.Ptr(countryCode + id + "MVA")
	}
	r.InBusinessRegister = upstream.CloneBool(u.RegistrertIForetak)
	for _, reg := range []struct {
		slug string
		flag *bool
	}{
		{registerBusiness, u.RegistrertIForetak},
		{registerVAT, u.RegistrertIMva},
		{registerFoundatns, u.RegistrertIStift},
		{registerVoluntary, u.RegistrertIFrivill},
		{registerParty, u.RegistrertIParti},
	} {
		if reg.flag != nil {
			r.Registers[reg.slug] = *reg.flag
		}
	}

	if u.AntallAnsatte.Set && u.AntallAnsatte.Value >= 0 && u.AntallAnsatte.Value <= 1<<31-1 {
		r.Employees = countrykit.Ptr(int(u.AntallAnsatte.Value))
		r.EmployeesReported = countrykit.Ptr(true)
	} else if u.HarAntallAnsatte != nil {
		// false is the live register's "no registered employees" (it never
		// publishes antallAnsatte 0): employees stays null, never an
		// invented 0, and package deadlines treats employees_reported
		// false like a count of zero (the payroll report not mandatory).
		r.EmployeesReported = countrykit.Ptr(*u.HarAntallAnsatte)
		if *u.HarAntallAnsatte {
			r.Notes = append(r.Notes, "The register holds an employee count for this unit but does not publish counts below five, so employees is null.")
		}
	}

	for i, c := range []*codeText{u.Naeringskode1, u.Naeringskode2, u.Naeringskode3} {
		if c == nil || strings.TrimSpace(c.Kode) == "" {
			continue
		}
		r.IndustryCodes = append(r.IndustryCodes, registry.IndustryCode{
			Code:        strings.TrimSpace(c.Kode),
			Description: countrykit.StringOrNil(strings.TrimSpace(c.Beskrivelse)),
			Scheme:      countrykit.Ptr(industryScheme),
			Rank:        i + 1,
		})
	}
	if u.Sektorkode != nil {
		r.SectorCode = countrykit.StringOrNil(strings.TrimSpace(u.Sektorkode.Kode))
		r.Sector = countrykit.StringOrNil(strings.TrimSpace(u.Sektorkode.Beskrivelse))
	}
	r.Purpose = joinLines(u.VedtektsfestetForm)
	r.Activity = joinLines(u.Aktivitet)
	if k := u.Kapital; k != nil && k.Belop.Set {
		r.ShareCapital = countrykit.Ptr(k.Belop.Value)
		r.ShareCapitalCurrency = countrykit.StringOrNil(strings.ToUpper(strings.TrimSpace(k.Valuta)))
	}

	if subunit {
		r.BusinessAddress = mapAddress(u.Beliggenhetsadresse)
	} else {
		r.BusinessAddress = mapAddress(u.Forretningsadresse)
	}
	r.PostalAddress = mapAddress(u.Postadresse)
	r.Website = countrykit.StringOrNil(strings.TrimSpace(u.Hjemmeside))
	r.Email = countrykit.StringOrNil(strings.TrimSpace(u.Epostadresse))
	r.Phone = countrykit.StringOrNil(strings.TrimSpace(u.Telefon))
	if r.Phone == nil {
		r.Phone = countrykit.StringOrNil(strings.TrimSpace(u.Mobil))
	}
	r.ParentID = countrykit.StringOrNil(strings.TrimSpace(u.OverordnetEnhet))
	r.InGroup = upstream.CloneBool(u.ErIKonsern)
	r.LastAnnualAccountsYear = year(string(u.SisteAarsregnskap))

	r.ConfidenceBasis = countrykit.Ptr(lookupBasis)
	r.Source = countrykit.Ptr(sourceName)
	r.SourceURL = countrykit.Ptr(humanURL(id, subunit))
	r.License = countrykit.Ptr(licenseText)

	r.Notes = append(r.Notes, st.notes...)
	if code == "ENK" {
		r.Notes = append(r.Notes, "This is a sole proprietorship (ENK): it is registered in a person's name, so its data is personal data. Handle it with care and do not store or share it beyond the purpose at hand.")
	}
	if subunit && r.ParentID != nil {
		r.Notes = append(r.Notes, "This is a sub-unit (underenhet), not a legal person: the legal entity is its parent "+*r.ParentID+".")
	}
	return r
}

// humanURL returns the register's public web page of the unit.
func humanURL(id string, subunit bool) string {
	if subunit {
		return humanSubURL + id
	}
	return humanUnitURL + id
}

// statusResult is the outcome of the status precedence.
type statusResult struct {
	status registry.Status
	detail string
	notes  []string
}

// statusCode applies the interface's precedence to the register's flags:
// deleted, then bankrupt, then under compulsory liquidation, then under
// liquidation, then active. A sub-unit that has a closing date
// (nedleggelsesdato) but no deletion date is dissolved. It is what a search
// hit needs; [statusOf] adds the detail and notes of a report.
func statusCode(u *unit) registry.Status {
	switch {
	case strings.TrimSpace(u.Slettedato) != "" || u.ResponsKlasse == "SlettetEnhet":
		return registry.StatusDeleted
	case isSet(u.Konkurs):
		return registry.StatusBankrupt
	case isSet(u.UnderTvang):
		return registry.StatusUnderCompulsoryLiquidation
	case isSet(u.UnderAvvikling):
		return registry.StatusUnderLiquidation
	case strings.TrimSpace(u.Nedleggelsesdato) != "":
		return registry.StatusDissolved
	}
	return registry.StatusActive
}

// isSet reports whether an optional flag of the register is present and
// true.
func isSet(b *bool) bool { return b != nil && *b }

// statusOf returns the status of u (see [statusCode]) with the detail
// naming the flag it came from and a note for every flag that is set.
func statusOf(u *unit) statusResult {
	res := statusResult{status: statusCode(u)}
	if isSet(u.Konkurs) {
		msg := "The register shows the unit as bankrupt (konkurs)"
		if d := date(u.Konkursdato); d != nil {
			msg += ", with bankruptcy proceedings opened on " + d.String()
		}
		res.notes = append(res.notes, msg+". Its estate is being wound up by a trustee; do not extend credit on the strength of this entry.")
	}
	if isSet(u.UnderTvang) {
		res.notes = append(res.notes, "The register shows the unit under compulsory liquidation or dissolution (underTvangsavviklingEllerTvangsopplosning)"+compulsoryReason(u)+".")
	}
	if isSet(u.UnderAvvikling) {
		msg := "The register shows the unit under voluntary liquidation (underAvvikling)"
		if d := date(u.UnderAvviklingDato); d != nil {
			msg += " since " + d.String()
		}
		res.notes = append(res.notes, msg+".")
	}

	switch res.status {
	case registry.StatusDeleted:
		if d := date(u.Slettedato); d != nil {
			res.detail = "Deleted from Enhetsregisteret on " + d.String() + " (slettedato)."
		} else {
			res.detail = "Deleted from Enhetsregisteret (respons_klasse SlettetEnhet)."
		}
		res.notes = append(res.notes, "The unit is deleted from the register; the data shown is what the register still publishes about it.")
	case registry.StatusBankrupt:
		res.detail = "Bankrupt: the register's konkurs flag is set."
	case registry.StatusUnderCompulsoryLiquidation:
		res.detail = "Under compulsory liquidation or dissolution: the register's underTvangsavviklingEllerTvangsopplosning flag is set."
	case registry.StatusUnderLiquidation:
		res.detail = "Under voluntary liquidation: the register's underAvvikling flag is set."
	case registry.StatusDissolved:
		res.detail = "Closed: the register gives the sub-unit a closing date (nedleggelsesdato)"
		if d := date(u.Nedleggelsesdato); d != nil {
			res.detail += " of " + d.String()
		}
		res.detail += "."
	default:
		res.detail = "Active: registered, with no deletion date and none of the flags konkurs, underTvangsavviklingEllerTvangsopplosning and underAvvikling set."
	}
	return res
}

// compulsoryReason names the ground for a compulsory dissolution from the
// date field the register fills, as ", since D, for missing annual
// accounts", or "" when none is filled.
func compulsoryReason(u *unit) string {
	for _, g := range []struct{ value, why string }{
		{u.TvangsopplostPgaManglendeRegnskap, "missing annual accounts"},
		{u.TvangsopplostPgaManglendeDagligLeder, "a missing general manager"},
		{u.TvangsopplostPgaManglendeRevisor, "a missing auditor"},
		{u.TvangsopplostPgaMangelfulltStyre, "a deficient board"},
		{u.TvangsavvikletPgaManglendeSletting, "failure to apply for deletion"},
	} {
		if d := date(g.value); d != nil {
			return ", since " + d.String() + ", for " + g.why
		}
	}
	return ""
}

// previousNames returns the former names, newest first: sorted by the end
// date (then the start date) of each name, latest first, with names lacking
// dates last. A name that recurs is listed once, at its latest use.
func previousNames(h []pastName) []string {
	if len(h) == 0 {
		return []string{}
	}
	type entry struct {
		name, key string
	}
	es := make([]entry, 0, len(h))
	for i := len(h) - 1; i >= 0; i-- { // upstream is oldest first
		n := strings.TrimSpace(h[i].Navn)
		if n == "" {
			continue
		}
		key := strings.TrimSpace(h[i].TilDato)
		if key == "" {
			key = strings.TrimSpace(h[i].FraDato)
		}
		es = append(es, entry{n, key})
	}
	slices.SortStableFunc(es, func(a, b entry) int { return cmp.Compare(b.key, a.key) })
	out := make([]string, 0, len(es))
	for _, e := range es {
		if !slices.Contains(out, e.name) {
			out = append(out, e.name)
		}
	}
	return out
}

// mapAddress maps an address object; it returns nil for an absent or empty
// one. Empty and null lines are dropped.
func mapAddress(a *address) *registry.Address {
	if a == nil {
		return nil
	}
	out := &registry.Address{
		Lines:            []string{},
		PostalCode:       countrykit.StringOrNil(strings.TrimSpace(a.Postnummer)),
		City:             countrykit.StringOrNil(strings.TrimSpace(a.Poststed)),
		Municipality:     countrykit.StringOrNil(strings.TrimSpace(a.Kommune)),
		MunicipalityCode: countrykit.StringOrNil(strings.TrimSpace(a.Kommunenummer)),
		CountryCode:      countrykit.StringOrNil(strings.ToUpper(strings.TrimSpace(a.Landkode))),
		CountryName:      countrykit.StringOrNil(strings.TrimSpace(a.Land)),
	}
	for _, l := range a.Adresse {
		if l = strings.TrimSpace(l); l != "" {
			out.Lines = append(out.Lines, l)
		}
	}
	if len(out.Lines) == 0 && out.PostalCode == nil && out.City == nil && out.Municipality == nil &&
		out.MunicipalityCode == nil && out.CountryCode == nil && out.CountryName == nil {
		return nil
	}
	return out
}

// joinLines joins a text the register splits into lines with single
// spaces, or returns nil when nothing is left.
func joinLines(lines []string) *string {
	var b strings.Builder
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(l)
	}
	return countrykit.StringOrNil(b.String())
}

// date parses a register date. It accepts "YYYY-MM-DD" and a date-time that
// starts with one ("YYYY-MM-DD HH:MM:SS", "YYYY-MM-DDTHH:MM:SS"); anything
// else, including "", is nil.
func date(s string) *registry.Date {
	s = strings.TrimSpace(s)
	if len(s) > 10 && (s[10] == ' ' || s[10] == 'T') {
		s = s[:10]
	}
	return upstream.Date(s)
}

// year parses a four-digit year, or returns nil.
func year(s string) *int {
	s = strings.TrimSpace(s)
	if len(s) != 4 {
		return nil
	}
	y, err := strconv.Atoi(s)
	if err != nil || y < 1000 {
		return nil
	}
	return &y
}
