package dk

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

const (
	sourceName  = "Erhvervsstyrelsen / CVR (Det Centrale Virksomhedsregister), system-to-system access (the CVR distribution)"
	lookupBasis = "Exact CVR number lookup in the CVR distribution (Erhvervsstyrelsen)."
	// publicPage is the register's public page of a company, for
	// source_url: the distribution itself needs a credential and a POST.
	publicPage = "https://datacvr.virk.dk/enhed/virksomhed/"
	// industryScheme names the classification of the industry codes.
	industryScheme = "DB07 (Dansk Branchekode 2007, Danmarks Statistik; NACE Rev. 2 with six digits)"
)

// open reports whether a value with this period holds now: it has no end
// date, or one that is not a real date.
func (p period) open() bool { return upstream.Date(p.GyldigTil) == nil }

// since returns the value's start date, or nil.
func (p period) since() *registry.Date { return upstream.Date(p.GyldigFra) }

// current returns the entry of list in force: the open one with the latest
// start date (the last such in the register's order on a tie), or nil.
func current[T any](list []T, per func(*T) period) *T {
	var best *T
	var bestFrom string
	for i := range list {
		p := per(&list[i])
		if !p.open() {
			continue
		}
		if from := strings.TrimSpace(p.GyldigFra); best == nil || from >= bestFrom {
			best, bestFrom = &list[i], from
		}
	}
	return best
}

// clean collapses runs of white space and trims.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// currentName returns the company's name in force: the open navne entry,
// else the register's newest name, else "".
func currentName(c *company) string {
	if n := current(c.Navne, func(n *name) period { return n.Periode }); n != nil && clean(n.Navn) != "" {
		return clean(n.Navn)
	}
	if c.Metadata != nil && c.Metadata.NyesteNavn != nil {
		return clean(c.Metadata.NyesteNavn.Navn)
	}
	return ""
}

// previousNames returns the ended names, newest end date first, each once
// and never the current name.
func previousNames(names []name, currentName string) []string {
	type past struct{ name, end string }
	var ps []past
	for _, n := range names {
		if v := clean(n.Navn); v != "" && !n.Periode.open() {
			ps = append(ps, past{v, strings.TrimSpace(n.Periode.GyldigTil)})
		}
	}
	slices.SortStableFunc(ps, func(a, b past) int { return cmp.Compare(b.end, a.end) })
	out := []string{}
	for _, p := range ps {
		if p.name != currentName && !slices.Contains(out, p.name) {
			out = append(out, p.name)
		}
	}
	return out
}

// currentForm returns the legal form in force: the open virksomhedsform
// entry, else the register's newest, or nil.
func currentForm(c *company) *legalFormEntry {
	if f := current(c.Virksomhedsform, func(f *legalFormEntry) period { return f.Periode }); f != nil {
		return f
	}
	if c.Metadata != nil {
		return c.Metadata.NyesteVirksomhedsform
	}
	return nil
}

// statusResult is the outcome of the status precedence.
type statusResult struct {
	status registry.Status
	detail string
	notes  []string
	// bankruptcy and ended are the dates of a bankruptcy and of the end
	// of the company, or nil.
	bankruptcy, ended *registry.Date
}

// statusClass is what one status value of the register means.
type statusClass uint8

// The classes in order of precedence: the first that a company's values
// hold wins.
const (
	classDissolved statusClass = iota
	classBankrupt
	classCompulsory
	classLiquidation
	classReconstruction
	classActive
	classOther
)

// classify returns the class of a status value (virksomhedsstatus or
// sammensatStatus), by the values a third party measured over the live
// register (T-Andreasen/cvr-documentation, 2025-09-08).
func classify(v string) statusClass {
	switch u := strings.ToUpper(clean(v)); {
	case strings.HasPrefix(u, "OPLØST"), strings.HasPrefix(u, "TVANGSOPLØST"), u == "SLETTET", u == "OPHØRT":
		return classDissolved
	case u == "UNDER KONKURS":
		return classBankrupt
	case u == "UNDER TVANGSOPLØSNING":
		return classCompulsory
	case u == "UNDER FRIVILLIG LIKVIDATION":
		return classLiquidation
	case u == "UNDER REKONSTRUKTION":
		return classReconstruction
	case u == "NORMAL", u == "AKTIV":
		return classActive
	}
	return classOther
}

// statusOf applies the status precedence: ended (a closed lifespan, or an
// OPLØST…, TVANGSOPLØST, SLETTET or Ophørt status), bankrupt (UNDER
// KONKURS), under compulsory dissolution (UNDER TVANGSOPLØSNING), in
// voluntary liquidation (UNDER FRIVILLIG LIKVIDATION), active under
// reconstruction (UNDER REKONSTRUKTION), active (NORMAL, AKTIV, or no
// status with an open lifespan), unknown. The statuses read are the open
// virksomhedsstatus entries, else sammensatStatus.
func statusOf(c *company) statusResult {
	life := current(c.Livsforloeb, func(l *lifespan) period { return l.Periode })
	var lastEnd *registry.Date
	for _, l := range c.Livsforloeb {
		if d := upstream.Date(l.Periode.GyldigTil); d != nil && (lastEnd == nil || d.After(*lastEnd)) {
			lastEnd = d
		}
	}
	type signal struct {
		value string
		since *registry.Date
	}
	var signals []signal
	for _, s := range c.Virksomhedsstatus {
		if v := clean(s.Status); v != "" && s.Periode.open() {
			signals = append(signals, signal{v, s.Periode.since()})
		}
	}
	field := "virksomhedsstatus"
	if len(signals) == 0 && c.Metadata != nil && clean(c.Metadata.SammensatStatus) != "" {
		signals = append(signals, signal{clean(c.Metadata.SammensatStatus), nil})
		field = "sammensatStatus"
	}
	if life == nil && lastEnd != nil {
		return statusResult{status: registry.StatusDissolved, ended: lastEnd,
			detail: "Ceased on " + lastEnd.String() + " (the register's lifespan, livsforloeb, has ended)",
			notes:  []string{"The company has ceased: its lifespan in the register (livsforloeb) ended on " + lastEnd.String() + "."}}
	}
	best, bestClass := signal{}, classOther
	for _, s := range signals {
		if k := classify(s.value); k < bestClass || best.value == "" {
			best, bestClass = s, k
		}
	}
	since := ""
	if best.since != nil {
		since = " since " + best.since.String()
	}
	named := fmt.Sprintf("%s %q", field, best.value)
	switch bestClass {
	case classDissolved:
		return statusResult{status: registry.StatusDissolved, ended: best.since, detail: "Ceased (" + named + ")" + since,
			notes: []string{"The company has ceased: the register's status is " + best.value + since + "."}}
	case classBankrupt:
		return statusResult{status: registry.StatusBankrupt, bankruptcy: best.since, detail: "Bankrupt (" + named + ")" + since,
			notes: []string{"The register shows the company in bankruptcy (under konkurs)" + since + "."}}
	case classCompulsory:
		return statusResult{status: registry.StatusUnderCompulsoryLiquidation, detail: "Under compulsory dissolution (" + named + ")" + since,
			notes: []string{"The register shows the company under compulsory dissolution (tvangsopløsning) by the probate court" + since + "."}}
	case classLiquidation:
		return statusResult{status: registry.StatusUnderLiquidation, detail: "In voluntary liquidation (" + named + ")" + since,
			notes: []string{"The register shows the company in voluntary liquidation (frivillig likvidation)" + since + "."}}
	case classReconstruction:
		return statusResult{status: registry.StatusActive, detail: "Active, under reconstruction (" + named + ")" + since,
			notes: []string{"The company is under reconstruction (rekonstruktion)" + since + ": it carries on its business and keeps " +
				"its filing duties while the proceedings run, so its status is active."}}
	case classActive:
		return statusResult{status: registry.StatusActive, detail: "Active (" + named + ")"}
	}
	if best.value == "" && life != nil {
		return statusResult{status: registry.StatusActive, detail: "Active: no status value, and the register's lifespan (livsforloeb) is open"}
	}
	if best.value == "" {
		return statusResult{status: registry.StatusUnknown, detail: "Unknown: the register gives no status and no lifespan",
			notes: []string{"The register gives no status for this company, so its status is unknown."}}
	}
	return statusResult{status: registry.StatusUnknown, detail: "Unrecognised register status (" + named + ")",
		notes: []string{"The register's status " + best.value + " is not one this service maps (UNDER REASSUMERING, a dissolution being " +
			"reversed, and UDEN RETSVIRKNING, a registration without legal effect, are among them), so the status is unknown."}}
}

// mapCompany maps one Vrvirksomhed document to a report. id is the
// canonical CVR number the caller asked for. It never fails: a field it
// cannot read is null.
func mapCompany(c *company, id string) *registry.CompanyReport {
	nm := currentName(c)
	r := countrykit.NewReport(countryCode, registrySlug, id, nm)
	r.IDFormatted = countrykit.Ptr(id)
	r.IDScheme = countrykit.Ptr(idScheme)
	r.PreviousNames = previousNames(c.Navne, nm)

	personal := false
	if f := currentForm(c); f != nil && strings.TrimSpace(string(f.Virksomhedsformkode)) != "" {
		code := strings.TrimSpace(string(f.Virksomhedsformkode))
		r.LegalFormCode = countrykit.Ptr(code)
		local := clean(f.LangBeskrivelse)
		row, known := lookupForm(code)
		if known {
			r.LegalForm = countrykit.Ptr(row.English)
			if local == "" {
				local = row.Danish
			}
			r.LimitedLiability = row.LimitedLiability.Ptr()
			r.HasBoardDuty = row.BoardDuty.Ptr()
			r.HasAnnualAccountsDuty = row.AccountsDuty.Ptr()
			personal = row.PersonalData
		} else {
			r.Notes = append(r.Notes, fmt.Sprintf("The legal form code %s is not in this service's table of legal forms, so its "+
				"liability, board and filing duties are unknown and no deadlines are computed.", code))
		}
		r.LegalFormLocal = countrykit.StringOrNil(local)
	} else {
		r.Notes = append(r.Notes, "The register gave no legal form for this company, so its liability, board and filing duties are unknown.")
	}

	st := statusOf(c)
	r.Status, r.StatusDetail = st.status, countrykit.Ptr(st.detail)
	r.IsActive = st.status == registry.StatusActive
	r.BankruptcyDate = st.bankruptcy
	if st.status == registry.StatusDissolved {
		r.DeregisteredAt = st.ended
	}
	for _, l := range c.Livsforloeb {
		if d := l.Periode.since(); d != nil && (r.RegisteredAt == nil || d.Before(*r.RegisteredAt)) {
			r.RegisteredAt = d
		}
	}
	if c.Metadata != nil {
		r.FoundedAt = upstream.Date(c.Metadata.StiftelsesDato)
	}

	r.IndustryCodes = industryCodes(c)
	mapEmployees(r, c)
	mapAttributes(r, c)
	if a := current(c.Beliggenhedsadresse, func(a *address) period { return a.Periode }); a != nil {
		r.BusinessAddress = mapAddress(a)
	} else if c.Metadata != nil && c.Metadata.NyesteBeliggenhedsadresse != nil && c.Metadata.NyesteBeliggenhedsadresse.Periode.open() {
		r.BusinessAddress = mapAddress(c.Metadata.NyesteBeliggenhedsadresse)
	}
	if a := current(c.Postadresse, func(a *address) period { return a.Periode }); a != nil {
		r.PostalAddress = mapAddress(a)
	}
	r.Website = publicContact(c.Hjemmeside)
	r.Email = publicContact(c.ElektroniskPost)
	r.Phone = publicContact(c.TelefonNummer)

	r.ConfidenceBasis = countrykit.Ptr(lookupBasis)
	r.Source = countrykit.Ptr(sourceName)
	r.SourceURL = countrykit.Ptr(publicPage + id)
	r.License = countrykit.Ptr(licenseText)

	r.Notes = append(r.Notes, st.notes...)
	if personal {
		r.Notes = append(r.Notes, "This is a sole proprietorship (a person's own business): its data, name and address included, "+
			"is personal data. Handle it with care and do not store or share it beyond the purpose at hand.")
	}
	if c.Reklamebeskyttet != nil && *c.Reklamebeskyttet {
		r.Notes = append(r.Notes, "The company is protected against advertising (reklamebeskyttet): CVR's terms of use forbid using its "+
			"data for unsolicited marketing to it.")
	}
	if c.FejlRegistreret != nil && *c.FejlRegistreret {
		r.Notes = append(r.Notes, "The register marks this entry as registered in error (fejlRegistreret).")
	}
	var binavne []string
	for _, n := range c.Binavne {
		if v := clean(n.Navn); v != "" && n.Periode.open() && !slices.Contains(binavne, v) {
			binavne = append(binavne, v)
		}
	}
	if len(binavne) > 0 {
		r.Notes = append(r.Notes, "Secondary names (binavne): "+strings.Join(binavne, "; ")+".")
	}
	if cvr, p := idcheck.ParseCVR(id); p == idcheck.ProblemNone {
		r.Notes = append(r.Notes, "The register does not show whether the company is registered for VAT; if it is, its VAT number is "+
			cvr.VATNumber()+" (VIES can confirm it).")
	}
	return r
}

// industryCodes returns the main industry (rank 1) and the secondary ones
// in force, each once.
func industryCodes(c *company) []registry.IndustryCode {
	out := []registry.IndustryCode{}
	for _, list := range [][]industry{c.Hovedbranche, c.Bibranche1, c.Bibranche2, c.Bibranche3} {
		b := current(list, func(b *industry) period { return b.Periode })
		if b == nil {
			continue
		}
		code := strings.TrimSpace(string(b.Branchekode))
		if code == "" || slices.ContainsFunc(out, func(i registry.IndustryCode) bool { return i.Code == code }) {
			continue
		}
		out = append(out, registry.IndustryCode{Code: code, Description: countrykit.StringOrNil(clean(b.Branchetekst)),
			Scheme: countrykit.Ptr(industryScheme), Rank: len(out) + 1})
	}
	return out
}

// employmentFigure is one employment figure with the end of its period.
type employmentFigure struct {
	e      employment
	end    registry.Date
	series string // the period in words, for the note
}

// mapEmployees sets employees (an exact count only), employees_reported and
// a note with the figure's period and interval. The newest figure of the
// monthly, quarterly and yearly series counts.
func mapEmployees(r *registry.CompanyReport, c *company) {
	var best *employmentFigure
	consider := func(list []employment, kind string) {
		for _, e := range list {
			if !e.Aar.Set || e.Aar.Value < 1 || e.Aar.Value > 9999 {
				continue
			}
			y := int(e.Aar.Value)
			var end registry.Date
			var series string
			switch kind {
			case "month":
				if !e.Maaned.Set || e.Maaned.Value < 1 || e.Maaned.Value > 12 {
					continue
				}
				m := time.Month(e.Maaned.Value)
				end = registry.Date{Year: y, Month: m, Day: registry.Date{Year: y, Month: m, Day: 1}.DaysIn()}
				series = m.String() + " " + strconv.Itoa(y)
			case "quarter":
				if !e.Kvartal.Set || e.Kvartal.Value < 1 || e.Kvartal.Value > 4 {
					continue
				}
				m := time.Month(3 * e.Kvartal.Value)
				end = registry.Date{Year: y, Month: m, Day: registry.Date{Year: y, Month: m, Day: 1}.DaysIn()}
				series = "Q" + strconv.FormatInt(e.Kvartal.Value, 10) + " " + strconv.Itoa(y)
			default:
				end = registry.Date{Year: y, Month: time.December, Day: 31}
				series = "the year " + strconv.Itoa(y)
			}
			if (e.AntalAnsatte.Set || strings.TrimSpace(e.IntervalKodeAntalAnsatte) != "") && (best == nil || end.After(best.end)) {
				best = &employmentFigure{e: e, end: end, series: series}
			}
		}
	}
	consider(c.ErstMaanedsbeskaeft, "month")
	consider(c.Maanedsbeskaeftigelse, "month")
	consider(c.Kvartalsbeskaeftigelse, "quarter")
	consider(c.Aarsbeskaeftigelse, "year")
	if best == nil {
		r.EmployeesReported = countrykit.Ptr(false)
		return
	}
	r.EmployeesReported = countrykit.Ptr(true)
	interval := intervalText(best.e.IntervalKodeAntalAnsatte)
	if n := best.e.AntalAnsatte; n.Set && n.Value >= 0 && n.Value <= 1<<31-1 {
		r.Employees = countrykit.Ptr(int(n.Value))
		note := fmt.Sprintf("Employees: %d in %s, the newest figure in the register", n.Value, best.series)
		if interval != "" {
			note += " (interval " + interval + ")"
		}
		r.Notes = append(r.Notes, note+".")
		return
	}
	if interval != "" {
		r.Notes = append(r.Notes, "Employees: the register gives only an interval, "+interval+", for "+best.series+
			", so employees is null.")
	}
}

// intervalText turns an interval code such as ANTAL_20_49 into "20–49";
// another code is returned as it is.
func intervalText(code string) string {
	code = strings.TrimSpace(code)
	rest, ok := strings.CutPrefix(code, "ANTAL_")
	if !ok {
		return code
	}
	lo, hi, ok := strings.Cut(rest, "_")
	if _, err := strconv.Atoi(lo); err != nil || !ok {
		return code
	}
	if _, err := strconv.Atoi(hi); err != nil {
		return lo + " or more"
	}
	return lo + "–" + hi
}

// attributeValue returns the value in force of the first attribute of the
// type, or "".
func attributeValue(attrs []attribute, typ string) string {
	for _, a := range attrs {
		if a.Type != typ {
			continue
		}
		if v := current(a.Vaerdier, func(v *value) period { return v.Periode }); v != nil {
			return clean(string(v.Vaerdi))
		}
	}
	return ""
}

// The notes that carry the financial year to the deadlines operation. They
// are written by mapAttributes and read back by readFinancialYear: the
// report has no field for the financial year, and the deadlines operation
// sees only the report (possibly from the cache, as JSON).
const (
	noteFinancialYear = "Financial year (regnskabsår, REGNSKABSÅR_START/SLUT in the register): "
	noteFirstPeriod   = "First financial period (FØRSTE_REGNSKABSPERIODE_START/SLUT in the register): "
)

// mapAttributes reads the attributes: the purpose, the share capital, the
// financial year and first period, and the supervision category.
func mapAttributes(r *registry.CompanyReport, c *company) {
	r.Purpose = countrykit.StringOrNil(attributeValue(c.Attributter, "FORMÅL"))
	if v := attributeValue(c.Attributter, "KAPITAL"); v != "" {
		if x, err := strconv.ParseFloat(v, 64); err == nil && x >= 0 && x < 1e18 {
			r.ShareCapital = countrykit.Ptr(x)
			r.ShareCapitalCurrency = countrykit.StringOrNil(strings.ToUpper(attributeValue(c.Attributter, "KAPITALVALUTA")))
		}
	}
	startM, startD, okStart := parseMonthDay(attributeValue(c.Attributter, "REGNSKABSÅR_START"))
	endM, endD, okEnd := parseMonthDay(attributeValue(c.Attributter, "REGNSKABSÅR_SLUT"))
	if okStart && okEnd {
		r.Notes = append(r.Notes, fmt.Sprintf("%s--%02d-%02d to --%02d-%02d, that is from %d %s to %d %s.",
			noteFinancialYear, startM, startD, endM, endD, startD, startM, endD, endM))
	}
	fs := upstream.Date(attributeValue(c.Attributter, "FØRSTE_REGNSKABSPERIODE_START"))
	fe := upstream.Date(attributeValue(c.Attributter, "FØRSTE_REGNSKABSPERIODE_SLUT"))
	if fs != nil && fe != nil && !fe.Before(*fs) {
		r.Notes = append(r.Notes, fmt.Sprintf("%s%s to %s.", noteFirstPeriod, fs, fe))
	}
	if v := attributeValue(c.Attributter, "TILSYN_KATEGORI"); v != "" {
		r.Notes = append(r.Notes, "Supervision category (TILSYN_KATEGORI, for financial undertakings): "+v+
			". Its meaning for the annual report's deadline is not documented; the deadline is computed as usual.")
	}
}

// parseMonthDay parses an XML Schema gMonthDay such as "--12-31": a month
// and a day that exists in that month in some year (29 February does).
func parseMonthDay(s string) (time.Month, int, bool) {
	s = strings.TrimSpace(s)
	if len(s) != 7 || s[:2] != "--" || s[4] != '-' {
		return 0, 0, false
	}
	m, err1 := strconv.Atoi(s[2:4])
	d, err2 := strconv.Atoi(s[5:7])
	if err1 != nil || err2 != nil || m < 1 || m > 12 || d < 1 || d > (registry.Date{Year: 2000, Month: time.Month(m), Day: 1}).DaysIn() {
		return 0, 0, false
	}
	return time.Month(m), d, true
}

// readFinancialYear fills the financial year and first period of d from
// the notes mapAttributes wrote; it leaves d unchanged for notes without
// them (a report built by a caller), so that the calendar year is assumed.
func readFinancialYear(notes []string, d *deadlines.DenmarkDuties) {
	for _, n := range notes {
		if rest, ok := strings.CutPrefix(n, noteFinancialYear); ok {
			if f := strings.Fields(rest); len(f) >= 3 && f[1] == "to" {
				if m, day, ok := parseMonthDay(strings.TrimSuffix(f[2], ",")); ok {
					d.YearEndMonth, d.YearEndDay = m, day
				}
			}
		}
		if rest, ok := strings.CutPrefix(n, noteFirstPeriod); ok {
			if f := strings.Fields(strings.TrimSuffix(rest, ".")); len(f) == 3 && f[1] == "to" {
				s, e := upstream.Date(f[0]), upstream.Date(f[2])
				if s != nil && e != nil && !e.Before(*s) {
					d.FirstPeriodStart, d.FirstPeriodEnd = s, e
				}
			}
		}
	}
}

// publicContact returns the contact detail in force that is not secret,
// or nil.
func publicContact(list []contact) *string {
	var best *contact
	for i := range list {
		k := &list[i]
		if !k.Periode.open() || (k.Hemmelig != nil && *k.Hemmelig) || clean(k.Kontaktoplysning) == "" {
			continue
		}
		if best == nil || k.Periode.GyldigFra >= best.Periode.GyldigFra {
			best = k
		}
	}
	if best == nil {
		return nil
	}
	return countrykit.Ptr(clean(best.Kontaktoplysning))
}

// mapAddress maps one address as the Danes write it: c/o, the street and
// house number with floor and door ("Hovedgaden 6, 1. th."), the post box,
// the free text and the locality (bynavn); the post code and district.
func mapAddress(a *address) *registry.Address {
	var lines []string
	if co := clean(a.Conavn); co != "" {
		lines = append(lines, "c/o "+co)
	}
	if street := clean(a.Vejnavn); street != "" {
		number := ""
		if a.HusnummerFra.Set && a.HusnummerFra.Value > 0 {
			number = strconv.FormatInt(a.HusnummerFra.Value, 10) + clean(a.BogstavFra)
			if a.HusnummerTil.Set && a.HusnummerTil.Value > 0 {
				number += "-" + strconv.FormatInt(a.HusnummerTil.Value, 10) + clean(a.BogstavTil)
			}
		}
		line := strings.TrimSpace(street + " " + number)
		var unit []string
		if e := clean(a.Etage); e != "" {
			unit = append(unit, e+".")
		}
		if s := clean(a.Sidedoer); s != "" {
			unit = append(unit, s+".")
		}
		if len(unit) > 0 {
			line += ", " + strings.Join(unit, " ")
		}
		lines = append(lines, line)
	}
	if box := clean(a.Postboks); box != "" {
		lines = append(lines, "Postboks "+box)
	}
	if free := clean(a.Fritekst); free != "" {
		lines = append(lines, free)
	}
	if by := clean(a.Bynavn); by != "" {
		lines = append(lines, by)
	}
	out := &registry.Address{Lines: lines, City: countrykit.StringOrNil(clean(a.Postdistrikt))}
	if a.Postnummer.Set && a.Postnummer.Value > 0 && a.Postnummer.Value <= 99999 {
		out.PostalCode = countrykit.Ptr(strconv.FormatInt(a.Postnummer.Value, 10))
	}
	if k := a.Kommune; k != nil {
		out.Municipality = countrykit.StringOrNil(clean(k.KommuneNavn))
		if k.KommuneKode.Set && k.KommuneKode.Value > 0 && k.KommuneKode.Value < 1000 {
			out.MunicipalityCode = countrykit.Ptr(fmt.Sprintf("%03d", k.KommuneKode.Value))
		}
	}
	switch cc := strings.ToUpper(clean(a.Landekode)); {
	case cc == "DK":
		out.CountryCode, out.CountryName = countrykit.Ptr("DK"), countrykit.Ptr("Denmark")
	case len(cc) == 2:
		out.CountryCode = countrykit.Ptr(cc)
	case cc == "" && (out.PostalCode != nil || out.City != nil):
		out.CountryCode, out.CountryName = countrykit.Ptr("DK"), countrykit.Ptr("Denmark")
	}
	if len(lines) == 0 && out.PostalCode == nil && out.City == nil {
		return nil
	}
	return out
}
