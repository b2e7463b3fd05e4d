package fi

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

const (
	sourceName  = "Patentti- ja rekisterihallitus (PRH), YTJ (the Finnish Business Information System), open data API v3"
	lookupBasis = "Exact business ID lookup in YTJ (PRH open data)."
)

// The slugs of the registers in CompanyReport.Registers, named as in
// Finnish, and the register codes of registeredEntries they come from. A
// register is read by its code, never by its description.
const (
	registerTrade            = "kaupparekisteri"            // register 1, the Trade Register (PRH)
	registerTaxBasic         = "verohallinto"               // register 4, the Tax Administration's basic data
	registerPrepayment       = "ennakkoperintarekisteri"    // register 5, the prepayment register (Tax Administration)
	registerVAT              = "arvonlisaverorekisteri"     // register 6, the VAT register (Tax Administration)
	registerEmployer         = "tyonantajarekisteri"        // register 7, the employer register (Tax Administration)
	registerInsurancePremium = "vakuutusmaksuverorekisteri" // register 8, the insurance premium tax register (Tax Administration)
)

// The register codes of registeredEntries.
const (
	codeTrade            = "1"
	codeTaxBasic         = "4"
	codePrepayment       = "5"
	codeVAT              = "6"
	codeEmployer         = "7"
	codeInsurancePremium = "8"
)

// registerSlugs maps the registeredEntries register codes to their slugs.
func registerSlugs() [6]struct{ code, slug string } {
	return [...]struct{ code, slug string }{
		{codeTrade, registerTrade}, {codeTaxBasic, registerTaxBasic}, {codePrepayment, registerPrepayment},
		{codeVAT, registerVAT}, {codeEmployer, registerEmployer}, {codeInsurancePremium, registerInsurancePremium},
	}
}

// The language codes of descriptions.
const (
	langFinnish = "1"
	langEnglish = "3"
)

// publicURL is the register's public answer for a business ID: the open
// data API itself (YTJ's web pages are not part of the open data terms).
func publicURL(id string) string {
	return DefaultBaseURL + "/companies?businessId=" + url.QueryEscape(id)
}

// describe returns the description in language lang, or "".
func describe(ds []description, lang string) string {
	for _, d := range ds {
		if string(d.LanguageCode) == lang {
			return strings.TrimSpace(d.Description)
		}
	}
	return ""
}

// current reports whether an entry with this end date is in force: no end
// date, or one that is not a real date.
func current(endDate string) bool { return upstream.Date(endDate) == nil }

// mainName returns the current main name (type 1 without an end date,
// the lowest version first), or "".
func mainName(names []companyName) string {
	best, bestVersion := "", int64(1<<62)
	for _, n := range names {
		name := strings.TrimSpace(n.Name)
		if string(n.Type) != "1" || name == "" || !current(n.EndDate) {
			continue
		}
		v := int64(1 << 61)
		if n.Version.Set {
			v = n.Version.Value
		}
		if best == "" || v < bestVersion {
			best, bestVersion = name, v
		}
	}
	return best
}

// previousNames returns the main names no longer in use, newest end date
// first, each once and never the current name.
func previousNames(names []companyName, currentName string) []string {
	type past struct{ name, end string }
	var ps []past
	for _, n := range names {
		name := strings.TrimSpace(n.Name)
		if string(n.Type) == "1" && name != "" && !current(n.EndDate) {
			ps = append(ps, past{name, strings.TrimSpace(n.EndDate)})
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

// otherNames returns the current names of type t (2 parallel, 3 auxiliary),
// in the register's order, each once.
func otherNames(names []companyName, t string) []string {
	var out []string
	for _, n := range names {
		name := strings.TrimSpace(n.Name)
		if string(n.Type) == t && name != "" && current(n.EndDate) && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// currentForm returns the legal form in force: the companyForms entry
// without an end date and with the lowest version, or nil.
func currentForm(forms []coded) *coded {
	var best *coded
	for i := range forms {
		f := &forms[i]
		if strings.TrimSpace(string(f.Type)) == "" || !current(f.EndDate) {
			continue
		}
		if best == nil || (f.Version.Set && (!best.Version.Set || f.Version.Value < best.Version.Value)) {
			best = f
		}
	}
	return best
}

// statusResult is the outcome of the status precedence.
type statusResult struct {
	status registry.Status
	detail string
	notes  []string
	// bankruptcy is the date the bankruptcy was registered, or nil.
	bankruptcy *registry.Date
}

// situation returns the first current companySituations entry of type t.
func situation(c *company, t string) (*coded, bool) {
	for i := range c.CompanySituations {
		s := &c.CompanySituations[i]
		if strings.EqualFold(strings.TrimSpace(string(s.Type)), t) && current(s.EndDate) {
			return s, true
		}
	}
	return nil, false
}

// statusOf applies the status precedence: ceased (a top-level end date),
// bankrupt (KONK), in liquidation (SELTILA), under restructuring (SANE,
// which keeps the company active), registered, unknown.
func statusOf(c *company) statusResult {
	since := func(s *coded) string {
		if d := upstream.Date(s.RegistrationDate); d != nil {
			return " since " + d.String()
		}
		return ""
	}
	codes := fmt.Sprintf("tradeRegisterStatus %q, status %q", strings.TrimSpace(string(c.TradeRegisterStatus)), strings.TrimSpace(string(c.Status)))
	if d := upstream.Date(c.EndDate); d != nil {
		return statusResult{status: registry.StatusDissolved, detail: "Ceased on " + d.String() + " (endDate)",
			notes: []string{"The company has ceased: the register gives the end date " + d.String() + " (" + codes + ")."}}
	}
	if s, ok := situation(c, "KONK"); ok {
		return statusResult{status: registry.StatusBankrupt, detail: "Bankruptcy (konkurssi, KONK)" + since(s),
			bankruptcy: upstream.Date(s.RegistrationDate),
			notes:      []string{"The register shows bankruptcy proceedings (konkurssi)" + since(s) + "."}}
	}
	if s, ok := situation(c, "SELTILA"); ok {
		return statusResult{status: registry.StatusUnderLiquidation, detail: "Liquidation (selvitystila, SELTILA)" + since(s),
			notes: []string{"The register shows the company in liquidation (selvitystila)" + since(s) + "."}}
	}
	if s, ok := situation(c, "SANE"); ok {
		return statusResult{status: registry.StatusActive, detail: "Active, under restructuring proceedings (yrityssaneeraus, SANE)" + since(s),
			notes: []string{"The company is under restructuring proceedings (yrityssaneeraus)" + since(s) + ": while the proceedings run, it " +
				"carries on its business and keeps its filing duties, so its status is active."}}
	}
	tr, st := strings.TrimSpace(string(c.TradeRegisterStatus)), strings.TrimSpace(string(c.Status))
	if tr == "1" || st == "2" {
		return statusResult{status: registry.StatusActive, detail: "Registered (" + codes + "), no company situation"}
	}
	return statusResult{status: registry.StatusUnknown, detail: "Unrecognised register status (" + codes + ")",
		notes: []string{"The register's status codes (" + codes + ") are not ones this service recognises, so the status is unknown."}}
}

// mapCompany maps one company as YTJ answers it to a report. id is the
// canonical business ID the caller asked for, its eight digits (the
// report's id; id_formatted is the written form 0112038-9). It never fails:
// a field it cannot read is null.
func mapCompany(c *company, id string) *registry.CompanyReport {
	name := mainName(c.Names)
	r := countrykit.NewReport(countryCode, registrySlug, id, name)
	y, p := idcheck.ParseYTunnus(id)
	written := id
	if p == idcheck.ProblemNone {
		written = y.String()
		r.IDFormatted = countrykit.Ptr(written)
	}
	r.IDScheme = countrykit.Ptr(idScheme)
	r.PreviousNames = previousNames(c.Names, name)

	if f := currentForm(c.CompanyForms); f != nil {
		code := strings.TrimSpace(string(f.Type))
		local := describe(f.Descriptions, langFinnish)
		r.LegalFormCode = countrykit.Ptr(code)
		row, known := lookupForm(code, local)
		english := describe(f.Descriptions, langEnglish)
		if english == "" && known {
			english = row.English
		}
		if local == "" && known {
			local = row.Finnish
		}
		r.LegalForm = countrykit.StringOrNil(english)
		r.LegalFormLocal = countrykit.StringOrNil(local)
		if known {
			r.LimitedLiability = row.LimitedLiability.Ptr()
			r.HasBoardDuty = row.BoardDuty.Ptr()
			r.HasAnnualAccountsDuty = row.AccountsDuty.Ptr()
		} else {
			r.Notes = append(r.Notes, fmt.Sprintf("The legal form code %s is not in this service's table of legal forms, so its liability, board and filing duties are unknown and its own deadlines are not computed.", code))
		}
	} else {
		r.Notes = append(r.Notes, "The register gave no legal form in force for this company, so its liability, board and filing duties are unknown.")
	}

	st := statusOf(c)
	r.Status, r.StatusDetail = st.status, countrykit.Ptr(st.detail)
	r.IsActive = st.status == registry.StatusActive
	r.BankruptcyDate = st.bankruptcy
	r.DeregisteredAt = upstream.Date(c.EndDate)

	if c.BusinessID != nil {
		r.RegisteredAt = upstream.Date(c.BusinessID.RegistrationDate)
	}

	mapRegisters(r, c)

	if l := c.MainBusinessLine; l != nil && strings.TrimSpace(string(l.Type)) != "" {
		desc := describe(l.Descriptions, langEnglish)
		if desc == "" {
			desc = describe(l.Descriptions, langFinnish)
		}
		r.IndustryCodes = append(r.IndustryCodes, registry.IndustryCode{
			Code:        strings.TrimSpace(string(l.Type)),
			Description: countrykit.StringOrNil(desc),
			Scheme:      countrykit.StringOrNil(industryScheme(l.TypeCodeSet)),
			Rank:        1,
		})
	}

	for i := range c.Addresses {
		a := &c.Addresses[i]
		switch strings.TrimSpace(string(a.Type)) {
		case "1":
			if r.BusinessAddress == nil {
				r.BusinessAddress = mapAddress(a)
			}
		case "2":
			if r.PostalAddress == nil {
				r.PostalAddress = mapAddress(a)
			}
		}
	}
	if c.Website != nil {
		r.Website = countrykit.StringOrNil(strings.TrimSpace(c.Website.URL))
	}

	r.ConfidenceBasis = countrykit.Ptr(lookupBasis)
	r.Source = countrykit.Ptr(sourceName)
	r.SourceURL = countrykit.Ptr(publicURL(written))
	r.License = countrykit.Ptr(licenseText)

	r.Notes = append(r.Notes, st.notes...)
	if r.LegalFormLocal != nil && strings.Contains(strings.ToLower(*r.LegalFormLocal), "elinkeinonharjoittaja") {
		r.Notes = append(r.Notes, "This is a sole trader (yksityinen elinkeinonharjoittaja): the business is a person, so its data is personal data. "+
			"Handle it with care and do not store or share it beyond the purpose at hand.")
	}
	if ns := otherNames(c.Names, "2"); len(ns) > 0 {
		r.Notes = append(r.Notes, "Parallel names (rinnakkaistoiminimet, the name in other languages): "+strings.Join(ns, "; ")+".")
	}
	if ns := otherNames(c.Names, "3"); len(ns) > 0 {
		r.Notes = append(r.Notes, "Auxiliary names (aputoiminimet, names of lines of business): "+strings.Join(ns, "; ")+".")
	}
	if c.EUID != nil && strings.TrimSpace(c.EUID.Value) != "" {
		r.Notes = append(r.Notes, "EUID (European unique identifier of the business registers interconnection system): "+strings.TrimSpace(c.EUID.Value)+".")
	}
	return r
}

// industryScheme names the classification of a TOL code set.
func industryScheme(set string) string {
	switch s := strings.TrimSpace(set); s {
	case "TOIMI3":
		return "TOL 2008 (Statistics Finland, NACE Rev. 2; code set TOIMI3)"
	case "TOIMI4":
		return "TOL 2025 (Statistics Finland, NACE Rev. 2.1; code set TOIMI4)"
	case "":
		return "TOL (Statistics Finland)"
	default:
		return "TOL (Statistics Finland; code set " + s + ")"
	}
}

// mapRegisters fills registers, in_business_register, the VAT fields and
// the Trade Register date from registeredEntries. A register with an entry
// in force is true; one whose entries have all ended, or that the company
// has no entry in, is false: YTJ publishes these six registers in full.
// The pre-registration entry of the Trade Register (type 0, "Unregistered")
// does not count.
func mapRegisters(r *registry.CompanyReport, c *company) {
	type state struct {
		in    bool
		since *registry.Date
	}
	states := map[string]*state{}
	var vatBusiness *registry.Date
	for _, e := range c.RegisteredEntries {
		reg := strings.TrimSpace(string(e.Register))
		if !current(e.EndDate) || (reg == codeTrade && strings.TrimSpace(string(e.Type)) == "0") {
			continue
		}
		s := states[reg]
		if s == nil {
			s = &state{}
			states[reg] = s
		}
		s.in = true
		if d := upstream.Date(e.RegistrationDate); d != nil && (s.since == nil || d.Before(*s.since)) {
			s.since = d
		}
		if reg == codeVAT && strings.TrimSpace(string(e.Type)) == "80" {
			vatBusiness = upstream.Date(e.RegistrationDate)
		}
	}
	if len(c.RegisteredEntries) == 0 {
		r.Notes = append(r.Notes, "The register listed no register entries for this company, so its registers are unknown.")
		return
	}
	for _, reg := range registerSlugs() {
		r.Registers[reg.slug] = states[reg.code] != nil && states[reg.code].in
	}
	trade := states[codeTrade]
	r.InBusinessRegister = countrykit.Ptr(trade != nil)
	if trade != nil {
		r.BusinessRegisterRegisteredAt = trade.since
		if d := upstream.Date(c.RegistrationDate); d != nil {
			r.BusinessRegisterRegisteredAt = d
		}
	}
	vat := states[codeVAT]
	r.VATRegistered = countrykit.Ptr(vat != nil)
	if vat != nil {
		r.VATRegisteredAt = vat.since
		if vatBusiness != nil {
			r.VATRegisteredAt = vatBusiness
		}
		if y, p := idcheck.ParseYTunnus(r.ID); p == idcheck.ProblemNone {
			r.VATNumber = countrykit.Ptr(y.VATNumber())
		}
	}
}

// mapAddress maps one address; nil when it holds nothing.
func mapAddress(a *address) *registry.Address {
	clean := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	var lines []string
	if co := clean(a.Co); co != "" {
		lines = append(lines, "c/o "+co)
	}
	street := clean(a.Street)
	if street != "" {
		parts := []string{street}
		for _, p := range []string{clean(a.BuildingNumber), clean(a.Entrance), clean(a.ApartmentNumber) + clean(a.ApartmentIDSuffix)} {
			if p != "" {
				parts = append(parts, p)
			}
		}
		lines = append(lines, strings.Join(parts, " "))
	}
	if box := clean(a.PostOfficeBox); box != "" {
		lines = append(lines, "PL "+box)
	}
	if free := clean(a.FreeAddressLine); free != "" {
		lines = append(lines, free)
	}
	out := &registry.Address{Lines: lines, PostalCode: countrykit.StringOrNil(clean(a.PostCode))}
	var city, municipality string
	for _, po := range a.PostOffices {
		c := clean(po.City)
		if c == "" {
			continue
		}
		if city == "" || string(po.LanguageCode) == langFinnish {
			city = c
			municipality = clean(po.MunicipalityCode)
		}
	}
	out.City = countrykit.StringOrNil(city)
	out.MunicipalityCode = countrykit.StringOrNil(municipality)
	if country := clean(a.Country); country != "" {
		out.CountryName = countrykit.Ptr(country)
	} else if city != "" || out.PostalCode != nil {
		// Domestic addresses carry no country.
		out.CountryCode, out.CountryName = countrykit.Ptr("FI"), countrykit.Ptr("Finland")
	}
	if len(lines) == 0 && out.PostalCode == nil && out.City == nil && out.CountryName == nil {
		return nil
	}
	return out
}
