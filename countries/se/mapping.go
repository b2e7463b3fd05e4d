package se

import (
	"fmt"
	"slices"
	"strings"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/se/internal/bulkfile"
	"github.com/companyregistry/registry/countries/se/internal/nameindex"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

// Fel types of Bolagsverket's answer.
const (
	felFinnsEj      = "ORGANISATION_FINNS_EJ"
	felOtillganglig = "OTILLGANGLIG_UPPGIFTSKALLA"
)

// registerTaxed is the slug of SCB's verksamOrganisation in Registers:
// true when the organisation is registered for F-tax, VAT or as an
// employer with Skatteverket.
const registerTaxed = "f_skatt_moms_eller_arbetsgivare"

// str returns *p trimmed, or "".
func str(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

// seDate reads a date of Bolagsverket's: a plain date (YYYY-MM-DD), or an
// RFC 3339 timestamp, the form its OpenAPI example gives
// avregistreringsdatum and fromDatum ("2023-05-05T00:00:00.000+00:00"),
// by the rule the bulk file is read by too ([bulkfile.Date]: a
// timestamp's date as written, once the whole timestamp parses); anything
// else, or a day the calendar lacks, is nil.
func seDate(s string) *registry.Date { return upstream.Date(bulkfile.Date(s)) }

// reasonOf names a deregistration reason: its text and code, or the code.
func reasonOf(reason, reasonText string) string {
	if reason == "" {
		return reasonText
	}
	if reasonText != "" {
		return reasonText + " (" + reason + ")"
	}
	return reason
}

// statusResult is the outcome of the status precedence.
type statusResult struct {
	status     registry.Status
	detail     string
	notes      []string
	bankruptcy *registry.Date
}

// statusOf applies the precedence of the research: a deregistration date
// is dissolved (its reason named; a date in a form seDate does not read
// too, with a note); else an ongoing konkurs (KK) is
// bankrupt, likvidation (LI) under liquidation, and so is being absorbed
// (FUOL) or divided (DEOL), the nearest status to the research's
// "distress or liquidation" (VERIFY); reconstruction and the other
// procedures keep the organisation active with a note; else active.
//
// A deregistration reason without a deregistration date (a value with no
// digit but 0 is none) does not decide the status, which the research
// keys on the date; the result says so in a note naming the reason.
func statusOf(deregDate, reason, reasonText string, procs []bulkfile.Procedure) statusResult {
	st := statusByDate(deregDate, reason, reasonText, procs)
	if st.status != registry.StatusDissolved {
		if why := reasonOf(reason, reasonText); why != "" {
			st.notes = append(st.notes, "The register names a deregistration reason, "+why+", but no deregistration date; "+
				"the status follows the date and the ongoing procedures, so it is "+string(st.status)+
				". Check the organisation with Bolagsverket before relying on it.")
		}
	}
	return st
}

// statusByDate is statusOf without its note on a reason without a date.
func statusByDate(deregDate, reason, reasonText string, procs []bulkfile.Procedure) statusResult {
	if d := seDate(deregDate); d != nil {
		why := reasonOf(reason, reasonText)
		detail := "Deregistered (avregistrerad) on " + d.String()
		if why != "" {
			detail += ", reason " + why
		}
		return statusResult{status: registry.StatusDissolved, detail: detail,
			notes: []string{"The organisation is deregistered (avregistrerad) since " + d.String() + "."}}
	}
	if strings.ContainsAny(deregDate, "123456789") {
		// A deregistration date in a form seDate does not read: the
		// register says the organisation is deregistered all the same.
		// A value without a digit but 0 ("0000-00-00", "-") is taken for
		// a placeholder of none.
		detail := "Deregistered (avregistrerad), on a date in a form this service does not read"
		if why := reasonOf(reason, reasonText); why != "" {
			detail += ", reason " + why
		}
		return statusResult{status: registry.StatusDissolved, detail: detail,
			notes: []string{"The register reports the organisation deregistered (avregistrerad), with a date in a form " +
				"this service does not read, so deregistered_at is empty."}}
	}
	find := func(code string) (bulkfile.Procedure, bool) {
		i := slices.IndexFunc(procs, func(p bulkfile.Procedure) bool { return strings.EqualFold(p.Code, code) })
		if i < 0 {
			return bulkfile.Procedure{}, false
		}
		return procs[i], true
	}
	since := func(p bulkfile.Procedure) string {
		if d := seDate(p.From); d != nil {
			return " since " + d.String()
		}
		return ""
	}
	if p, ok := find("KK"); ok {
		return statusResult{status: registry.StatusBankrupt, detail: "Bankruptcy (konkurs, KK)" + since(p), bankruptcy: seDate(p.From),
			notes: []string{"The register shows bankruptcy proceedings (konkurs)" + since(p) + "."}}
	}
	if p, ok := find("LI"); ok {
		return statusResult{status: registry.StatusUnderLiquidation, detail: "Liquidation (likvidation, LI)" + since(p),
			notes: []string{"The register shows the organisation in liquidation (likvidation)" + since(p) + "."}}
	}
	// Being absorbed (FUOL) or divided (DEOL): the research counts them as
	// "distress or liquidation"; the interface has no distress status.
	for _, w := range []struct{ code, being, event string }{
		{"FUOL", "absorbed by another organisation in a merger (fusion, FUOL)", "merger"},
		{"DEOL", "divided in a division (delning, DEOL)", "division"},
	} {
		if p, ok := find(w.code); ok {
			return statusResult{status: registry.StatusUnderLiquidation,
				detail: "Being " + w.being + since(p) + "; under_liquidation as the nearest status (VERIFY)",
				notes: []string{"The register shows the organisation being " + w.being + since(p) + ": it will be dissolved " +
					"without a liquidation when the " + w.event + " is registered, and keeps its filing duties until then. Its " +
					"status is under_liquidation, the nearest the interface has to being wound up (VERIFY: no primary source " +
					"says how to classify it)."}}
		}
	}
	var notes []string
	detail := "Registered, no deregistration and no winding-up procedure"
	for _, p := range procs {
		switch strings.ToUpper(p.Code) {
		case "FR", "AC", "RES":
			detail = "Active, under reconstruction or composition (" + p.Code + ")" + since(p)
			notes = append(notes, "The register shows a reconstruction, composition or resolution procedure ("+p.Code+")"+since(p)+
				": the organisation carries on and keeps its filing duties, so its status is active.")
		case "":
		default:
			notes = append(notes, "The register shows the procedure "+p.Code+since(p)+" (the acquiring side of a merger or division, or a conversion); it does not change the status.")
		}
	}
	return statusResult{status: registry.StatusActive, detail: detail, notes: notes}
}

// applyForm fills the legal-form fields of r from code (and the
// register's own label when it gave one).
func applyForm(r *registry.CompanyReport, code, local string) {
	if code == "" {
		r.Notes = append(r.Notes, "The register gave no legal form, so its liability, board and filing duties are unknown.")
		return
	}
	r.LegalFormCode = countrykit.Ptr(code)
	f, ok := lookupForm(code)
	if !ok {
		r.LegalFormLocal = countrykit.StringOrNil(local)
		r.Notes = append(r.Notes, fmt.Sprintf("The legal form code %s is not in this service's table of legal forms, so its duties are unknown and its own deadlines are not computed.", code))
		return
	}
	if local == "" {
		local = f.Swedish
	}
	r.LegalForm, r.LegalFormLocal = countrykit.Ptr(f.English), countrykit.Ptr(local)
	r.LimitedLiability, r.HasBoardDuty, r.HasAnnualAccountsDuty = f.LimitedLiability.Ptr(), f.BoardDuty.Ptr(), f.AccountsDuty.Ptr()
	if strings.Contains(strings.ToLower(r.Name), "(publ)") {
		r.Notes = append(r.Notes, "The name ends in (publ): a public limited company, whose late fees for the annual report are doubled.")
	}
}

func address(street, co, postcode, city, country string) *registry.Address {
	clean := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	var lines []string
	if co = clean(co); co != "" {
		if !strings.HasPrefix(strings.ToLower(co), "c/o") {
			co = "c/o " + co
		}
		lines = append(lines, co)
	}
	if s := clean(street); s != "" {
		lines = append(lines, s)
	}
	a := &registry.Address{Lines: lines, PostalCode: countrykit.StringOrNil(clean(postcode)), City: countrykit.StringOrNil(clean(city))}
	switch c := clean(country); {
	case c == "" || strings.EqualFold(c, "Sverige") || strings.EqualFold(c, "SE"):
		if len(lines) > 0 || a.PostalCode != nil || a.City != nil {
			a.CountryCode, a.CountryName = countrykit.Ptr("SE"), countrykit.Ptr("Sverige")
		}
	default:
		a.CountryName = countrykit.Ptr(c)
	}
	if len(lines) == 0 && a.PostalCode == nil && a.City == nil && a.CountryName == nil {
		return nil
	}
	return a
}

// baseReport starts a report of id with the identifier fields.
func baseReport(id, name string) *registry.CompanyReport {
	r := countrykit.NewReport(countryCode, registrySlug, id, name)
	if n, p := idcheck.ParseOrganisationsnummer(id); p == idcheck.ProblemNone {
		r.IDFormatted = countrykit.Ptr(n.Formatted())
	}
	r.IDScheme = countrykit.Ptr(idScheme)
	r.License = countrykit.Ptr(licenseText)
	return r
}

// mapOrganisation maps one organisation of /organisationer to a report.
// It reads each block's fel before its values: a block whose source is
// unavailable (OTILLGANGLIG_UPPGIFTSKALLA, TIMEOUT) is left null and named
// in notes.
func mapOrganisation(o *organisation, id string) *registry.CompanyReport {
	var missing []string
	ok := func(what string, b *block) bool {
		if b == nil {
			return false
		}
		if b.Fel != nil && b.Fel.Typ != "" {
			if b.Fel.Typ != felFinnsEj {
				missing = append(missing, what)
			}
			return false
		}
		return true
	}
	name := ""
	var others []string
	if n := o.Organisationsnamn; n != nil && ok("names", &n.block) {
		for _, e := range n.Lista {
			nm := strings.Join(strings.Fields(e.Namn), " ")
			if nm == "" {
				continue
			}
			if e.Typ != nil && str(e.Typ.Kod) == "FORETAGSNAMN" && name == "" {
				name = nm
				continue
			}
			label := "name"
			if e.Typ != nil && str(e.Typ.Klartext) != "" {
				label = str(e.Typ.Klartext)
			}
			others = append(others, nm+" ("+label+")")
		}
		if name == "" && len(n.Lista) > 0 {
			name = strings.Join(strings.Fields(n.Lista[0].Namn), " ")
		}
	}
	r := baseReport(id, name)
	r.Source = countrykit.Ptr(sourceAPI)
	if f := o.Organisationsform; f != nil && ok("legal form", &f.block) {
		applyForm(r, str(f.Kod), str(f.Klartext))
	} else {
		applyForm(r, "", "")
	}
	var deregDate, reason, reasonText string
	if a := o.AvregistreradOrganisation; a != nil && ok("deregistration", &a.block) {
		deregDate = str(a.Avregistreringsdatum)
	}
	if a := o.Avregistreringsorsak; a != nil && ok("deregistration reason", &a.block) {
		reason, reasonText = str(a.Kod), str(a.Klartext)
	}
	var procs []bulkfile.Procedure
	for _, p := range []*procedures{o.Pagaende, o.Pagande} {
		if p == nil || !ok("winding-up procedures", &p.block) {
			continue
		}
		for _, e := range append(p.Lista, p.Lista2...) {
			if c := str(e.Kod); c != "" {
				procs = append(procs, bulkfile.Procedure{Code: c, From: str(e.FromDatum)})
			}
		}
	}
	st := statusOf(deregDate, reason, reasonText, procs)
	r.Status, r.StatusDetail, r.BankruptcyDate = st.status, countrykit.Ptr(st.detail), st.bankruptcy
	r.DeregisteredAt = seDate(deregDate)
	if d := o.Organisationsdatum; d != nil && ok("registration date", &d.block) {
		r.RegisteredAt = upstream.Date(str(d.Registreringsdatum))
	}
	if v := o.VerksamOrganisation; v != nil && ok("SCB's activity flag", &v.block) {
		switch str(v.Kod) {
		case "JA":
			r.Registers[registerTaxed] = true
		case "NEJ":
			r.Registers[registerTaxed] = false
		}
	}
	if j := o.JuridiskForm; j != nil && ok("SCB's legal form", &j.block) && str(j.Kod) != "" {
		r.SectorCode = countrykit.Ptr(str(j.Kod))
		r.Sector = countrykit.StringOrNil(str(j.Klartext))
	}
	if v := o.Verksamhetsbeskrivning; v != nil && ok("activity description", &v.block) {
		r.Activity = countrykit.StringOrNil(cleanDescription(str(v.Beskrivning)))
	}
	if n := o.NaringsgrenOrganisation; n != nil && ok("industry codes", &n.block) {
		for _, c := range n.SNI {
			code := str(c.Kod)
			if code == "" {
				continue // the test environment pads the list with blanks
			}
			r.IndustryCodes = append(r.IndustryCodes, registry.IndustryCode{Code: code, Description: countrykit.StringOrNil(str(c.Klartext)),
				Scheme: countrykit.Ptr("SNI 2007 (Statistics Sweden, NACE Rev. 2)"), Rank: len(r.IndustryCodes) + 1})
		}
	}
	if p := o.PostadressOrganisation; p != nil && ok("postal address", &p.block) && p.Postadress != nil {
		a := p.Postadress
		r.PostalAddress = address(str(a.Utdelningsadress), str(a.CoAdress), str(a.Postnummer), str(a.Postort), str(a.Land))
	}
	if rs := o.Reklamsparr; rs != nil && ok("advertising block", &rs.block) && str(rs.Kod) == "JA" {
		r.Notes = append(r.Notes, "The organisation has an advertising block (reklamspärr) in SCB's register: do not use its address for direct marketing.")
	}
	r.Notes = append(r.Notes, st.notes...)
	if len(others) > 0 {
		r.Notes = append(r.Notes, "Other registered names: "+strings.Join(others, "; ")+".")
	}
	if len(missing) > 0 {
		r.Notes = append(r.Notes, "A source of Bolagsverket's answer was unavailable, so these fields are missing: "+strings.Join(missing, ", ")+
			". Look the organisation up again later for a complete report.")
	}
	return r
}

// cleanDescription removes the literal "\n" and spaces some descriptions
// start with.
func cleanDescription(s string) string {
	s = strings.TrimSpace(s)
	for strings.HasPrefix(s, `\n`) {
		s = strings.TrimSpace(s[2:])
	}
	return strings.Join(strings.Fields(s), " ")
}

// mapIndexed maps an organisation of the bulk file's index to the basic
// report given without a credential.
func mapIndexed(o *nameindex.Org, fileDate string) *registry.CompanyReport {
	r := baseReport(o.ID, o.Name)
	r.Source = countrykit.Ptr(sourceBulk)
	applyForm(r, o.Form, "")
	st := statusOf(o.DeregisteredAt, o.DeregReason, "", o.Procedures)
	r.Status, r.StatusDetail, r.BankruptcyDate = st.status, countrykit.Ptr(st.detail), st.bankruptcy
	r.DeregisteredAt = seDate(o.DeregisteredAt)
	r.RegisteredAt = upstream.Date(o.RegisteredAt)
	r.Activity = countrykit.StringOrNil(cleanDescription(o.Description))
	r.PostalAddress = address(o.Address.Street, o.Address.CO, o.Address.PostalCode, o.Address.City, o.Address.Country)
	r.Notes = append(r.Notes, st.notes...)
	if len(o.OtherNames) > 0 {
		var ns []string
		for _, n := range o.OtherNames {
			ns = append(ns, n.Name)
		}
		r.Notes = append(r.Notes, "Other registered names: "+strings.Join(ns, "; ")+".")
	}
	note := "This basic report comes from Bolagsverket's bulk file"
	if fileDate != "" {
		note += " (indexed " + fileDate + ")"
	}
	r.Notes = append(r.Notes, note+": it lacks the industry codes, SCB's fields, the advertising block and the financial year. "+
		"Set "+credentialsEnv+" (a free credential of Bolagsverket's API) for the full report.")
	return r
}

// yearEndOf returns the end of the latest reported period in a
// /dokumentlista answer, or nil.
func yearEndOf(a *dokumentlistaAnswer) (end *registry.Date, registered string) {
	for _, d := range a.Dokument {
		e := upstream.Date(d.RapporteringsperiodTom)
		if e != nil && (end == nil || e.After(*end)) {
			end, registered = e, strings.TrimSpace(d.Registreringstidpunkt)
		}
	}
	return end, registered
}

// financialYear adds the latest filed annual report to r: its period as a
// published annual_accounts entry (the deadline engine reads the year end
// from it) and last_annual_accounts_year.
func financialYear(r *registry.CompanyReport, end *registry.Date, registered string) {
	if end == nil {
		return
	}
	src := "Bolagsverket /dokumentlista: the latest annual report filed, for the period ending " + end.String()
	if d := upstream.Date(registered); d != nil {
		src += ", registered " + d.String()
	}
	r.PublishedDeadlines = append(r.PublishedDeadlines, registry.PublishedDeadline{
		Kind: deadlines.AnnualAccounts, PeriodEnd: end, Source: countrykit.Ptr(src),
	})
	r.LastAnnualAccountsYear = countrykit.Ptr(end.Year)
}

// yearEndFrom reads the year end back from a report's published
// annual_accounts entry.
func yearEndFrom(r *registry.CompanyReport) (time.Month, int, string) {
	for _, p := range r.PublishedDeadlines {
		if p.Kind == deadlines.AnnualAccounts && p.PeriodEnd != nil && !p.PeriodEnd.IsZero() {
			return p.PeriodEnd.Month, p.PeriodEnd.Day, "the annual report for the period ending " + p.PeriodEnd.String() + " (Bolagsverket's list of filed annual reports)"
		}
	}
	return 0, 0, ""
}
