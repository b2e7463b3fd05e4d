package gb

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/upstream"
)

// profile is the part of the Companies House company profile resource
// (GET /company/{company_number}) that the module reads. Companies House
// omits absent data rather than sending null, adds members over time and
// changes their order, so every member is optional and unknown ones are
// ignored.
type profile struct {
	CompanyName                          string         `json:"company_name"`
	CompanyNumber                        string         `json:"company_number"`
	CompanyStatus                        string         `json:"company_status"`
	CompanyStatusDetail                  string         `json:"company_status_detail"`
	DateOfCreation                       string         `json:"date_of_creation"`
	DateOfCessation                      string         `json:"date_of_cessation"`
	Type                                 string         `json:"type"`
	Subtype                              string         `json:"subtype"`
	Jurisdiction                         string         `json:"jurisdiction"`
	RegisteredOfficeAddress              *address       `json:"registered_office_address"`
	SICCodes                             []string       `json:"sic_codes"`
	PreviousCompanyNames                 []previousName `json:"previous_company_names"`
	Accounts                             *accounts      `json:"accounts"`
	ConfirmationStatement                *confirmation  `json:"confirmation_statement"`
	HasInsolvencyHistory                 *bool          `json:"has_insolvency_history"`
	HasCharges                           *bool          `json:"has_charges"`
	HasBeenLiquidated                    bool           `json:"has_been_liquidated"`
	RegisteredOfficeIsInDispute          bool           `json:"registered_office_is_in_dispute"`
	UndeliverableRegisteredOfficeAddress bool           `json:"undeliverable_registered_office_address"`
	BranchCompanyDetails                 *struct {
		ParentCompanyNumber string `json:"parent_company_number"`
	} `json:"branch_company_details"`
	Links struct {
		Insolvency string `json:"insolvency"`
	} `json:"links"`
}

type address struct {
	CareOf       string `json:"care_of"`
	POBox        string `json:"po_box"`
	Premises     string `json:"premises"`
	AddressLine1 string `json:"address_line_1"`
	AddressLine2 string `json:"address_line_2"`
	Locality     string `json:"locality"`
	Region       string `json:"region"`
	PostalCode   string `json:"postal_code"`
	Country      string `json:"country"`
}

type previousName struct {
	Name          string `json:"name"`
	EffectiveFrom string `json:"effective_from"`
	CeasedOn      string `json:"ceased_on"`
}

type accounts struct {
	AccountingReferenceDate *struct {
		Day   flexString `json:"day"`
		Month flexString `json:"month"`
	} `json:"accounting_reference_date"`
	NextAccounts *struct {
		PeriodStartOn string `json:"period_start_on"`
		PeriodEndOn   string `json:"period_end_on"`
		DueOn         string `json:"due_on"`
		Overdue       *bool  `json:"overdue"`
	} `json:"next_accounts"`
	// NextDue, NextMadeUpTo and Overdue are deprecated duplicates of
	// next_accounts that Companies House still sends.
	NextDue      string `json:"next_due"`
	NextMadeUpTo string `json:"next_made_up_to"`
	Overdue      *bool  `json:"overdue"`
	LastAccounts *struct {
		MadeUpTo    string `json:"made_up_to"`
		PeriodEndOn string `json:"period_end_on"`
	} `json:"last_accounts"`
}

type confirmation struct {
	NextMadeUpTo string `json:"next_made_up_to"`
	NextDue      string `json:"next_due"`
	Overdue      *bool  `json:"overdue"`
}

// flexString accepts a JSON string or number: the official specification
// types accounting_reference_date.day and .month as integers, but the API
// sends strings with a leading zero ("03").
type flexString string

// UnmarshalJSON implements [json.Unmarshaler]. Any other JSON value
// (null, an object) leaves the string empty rather than failing the whole
// profile.
func (f *flexString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	*f = ""
	var s string
	var n json.Number
	switch {
	case len(b) > 0 && b[0] == '"' && json.Unmarshal(b, &s) == nil:
		*f = flexString(strings.TrimSpace(s))
	case len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')) && json.Unmarshal(b, &n) == nil:
		*f = flexString(n.String())
	}
	return nil
}

// referenceDate returns the accounting reference date as "31 March", or ""
// when day or month is missing or not a real day of that month.
func (a *accounts) referenceDate() string {
	if a == nil || a.AccountingReferenceDate == nil {
		return ""
	}
	day, err1 := strconv.Atoi(string(a.AccountingReferenceDate.Day))
	month, err2 := strconv.Atoi(string(a.AccountingReferenceDate.Month))
	if err1 != nil || err2 != nil || month < 1 || month > 12 || day < 1 {
		return ""
	}
	// 2024 is a leap year, so 29 February is accepted.
	if day > registry.NewDate(2024, time.Month(month), 1).DaysIn() {
		return ""
	}
	return strconv.Itoa(day) + " " + time.Month(month).String()
}

// Sources of the published deadlines, naming the profile members they were
// copied from.
const (
	sourceNextAccounts = "companieshouse:accounts.next_accounts"
	sourceNextDue      = "companieshouse:accounts.next_due"
	sourceConfirmation = "companieshouse:confirmation_statement"
)

// Published deadline kinds; the deadlines package uses the same slugs.
const (
	kindAnnualAccounts        = "annual_accounts"
	kindConfirmationStatement = "confirmation_statement"
)

// companyURL returns the public Companies House page of a company.
func companyURL(number string) string {
	return publicSiteURL + "/company/" + number
}

// mapProfile turns a Companies House company profile into a report on the
// company with the canonical number id. It is pure and never fails: what
// the profile lacks is null in the report.
func mapProfile(id string, p *profile) *registry.CompanyReport {
	rep := countrykit.NewReport(CountryCode, RegistrySlug, id, strings.TrimSpace(p.CompanyName))
	rep.IDScheme = countrykit.Ptr(idScheme)
	rep.PreviousNames = previousNames(p.PreviousCompanyNames)

	if code := strings.TrimSpace(p.Type); code != "" {
		rep.LegalFormCode = countrykit.Ptr(code)
		if lf, ok := legalForms[code]; ok {
			// The subtype (a community interest company, a private fund
			// limited partnership) shows in the legal form beside the type.
			label := formLabel(lf.label, strings.TrimSpace(p.Subtype))
			rep.LegalForm = countrykit.Ptr(label)
			rep.LegalFormLocal = countrykit.Ptr(label)
			rep.LimitedLiability = lf.limited.Ptr()
			rep.HasBoardDuty = lf.board.Ptr()
			rep.HasAnnualAccountsDuty = lf.accountsFlag().Ptr()
		} else {
			rep.Notes = append(rep.Notes, "Companies House gives the company type "+strconv.Quote(code)+", which this service does not know, so legal_form is null.")
		}
	}
	if label, ok := subtypeLabel(p.Subtype); ok && (rep.LegalForm == nil || !strings.HasSuffix(*rep.LegalForm, ")")) {
		rep.Notes = append(rep.Notes, "Companies House lists the subtype "+label+".")
	}
	if strings.TrimSpace(p.Subtype) == subtypeCIC {
		rep.Notes = append(rep.Notes, noteCIC34)
	}
	mapEstablishment(rep, id, p)
	rep.Registers = registers(p)

	mapStatus(rep, p.CompanyStatus, p.CompanyStatusDetail)

	rep.RegisteredAt = upstream.Date(p.DateOfCreation)
	if registeredFromAbroad(id, p) {
		// date_of_creation is the UK registration of a company incorporated
		// abroad; the profile carries no date of that incorporation
		// (foreign_company_details names the register, the law and the
		// accounts requirement, never a date), so founded_at stays null.
		if rep.RegisteredAt != nil {
			rep.Notes = append(rep.Notes, "Companies House's date_of_creation ("+rep.RegisteredAt.String()+") is the date this "+
				"company incorporated abroad registered in the UK, not its incorporation, which the register does not publish: "+
				"registered_at holds it and founded_at is null.")
		}
	} else {
		rep.FoundedAt = upstream.Date(p.DateOfCreation)
	}
	// Companies House holds no employee figure for any company: that the
	// register holds one is known to be false.
	rep.EmployeesReported = countrykit.Ptr(false)
	rep.DeregisteredAt = upstream.Date(p.DateOfCessation)
	rep.BusinessAddress = mapAddress(p.RegisteredOfficeAddress, p.Jurisdiction)
	rep.IndustryCodes = industryCodes(p.SICCodes)

	if a := p.Accounts; a != nil {
		if la := a.LastAccounts; la != nil {
			end := upstream.Date(la.PeriodEndOn)
			if end == nil {
				end = upstream.Date(la.MadeUpTo)
			}
			if end != nil {
				rep.LastAnnualAccountsYear = countrykit.Ptr(end.Year)
			}
		}
	}
	rep.PublishedDeadlines = publishedDeadlines(p)
	if ard := p.Accounts.referenceDate(); ard != "" {
		rep.Notes = append(rep.Notes, "The accounting reference date (the end of the financial year) is "+ard+".")
	}

	rep.ConfidenceBasis = countrykit.Ptr("Exact company number lookup at Companies House.")
	rep.Source = countrykit.Ptr(sourceName)
	rep.SourceURL = countrykit.Ptr(companyURL(id))
	rep.License = countrykit.Ptr(licence)

	if n := insolvencyNote(p); n != "" {
		rep.Notes = append(rep.Notes, n)
	}
	if p.RegisteredOfficeIsInDispute {
		rep.Notes = append(rep.Notes, "The registered office address is in dispute at Companies House.")
	}
	if p.UndeliverableRegisteredOfficeAddress {
		rep.Notes = append(rep.Notes, "Companies House marks the registered office address as undeliverable: post sent there has been returned.")
	}
	for _, d := range rep.PublishedDeadlines {
		if d.Overdue != nil && *d.Overdue {
			switch d.Kind {
			case kindAnnualAccounts:
				rep.Notes = append(rep.Notes, "Companies House flags the annual accounts as overdue.")
			case kindConfirmationStatement:
				rep.Notes = append(rep.Notes, "Companies House flags the confirmation statement as overdue.")
			}
		}
	}
	return rep
}

// Company types and number prefixes of companies incorporated abroad:
// overseas companies (FC, SF, NF), their UK establishments (BR) and
// registered overseas entities (OE). Their date_of_creation is the date of
// the UK registration.
var (
	typesFromAbroad    = []string{"oversea-company", "uk-establishment", "registered-overseas-entity"}
	prefixesFromAbroad = []string{"BR", "FC", "SF", "NF", "OE"}
)

// registeredFromAbroad reports whether the company with number id and
// profile p was incorporated abroad and registered in the UK.
func registeredFromAbroad(id string, p *profile) bool {
	if slices.Contains(typesFromAbroad, strings.TrimSpace(p.Type)) {
		return true
	}
	return len(id) >= 2 && slices.Contains(prefixesFromAbroad, id[:2])
}

// mapEstablishment marks a UK establishment of an overseas company (type
// uk-establishment, numbers BR…) as a sub-unit: it has no filing duties of
// its own, and parent_id is the overseas company's number when the profile
// carries a well-formed one.
func mapEstablishment(rep *registry.CompanyReport, id string, p *profile) {
	if strings.TrimSpace(p.Type) != "uk-establishment" && !strings.HasPrefix(id, "BR") {
		return
	}
	rep.IsSubunit = true
	if b := p.BranchCompanyDetails; b != nil {
		if n, prob := idcheck.ParseCompanyNumber(b.ParentCompanyNumber); prob == idcheck.ProblemNone {
			rep.ParentID = countrykit.Ptr(n.String())
		}
	}
	note := "This is a UK establishment (a branch) of an overseas company; the overseas company delivers the accounts and other documents for it, so it has no filing deadlines of its own"
	if rep.ParentID != nil {
		note += "; see the overseas company " + *rep.ParentID + " (parent_id)."
	} else {
		note += "; Companies House names no parent company number here."
	}
	rep.Notes = append(rep.Notes, note, noteEstablishmentAccounts)
}

// noteEstablishmentAccounts says why has_annual_accounts_duty is null for a
// UK establishment.
const noteEstablishmentAccounts = "has_annual_accounts_duty is null because an establishment's accounts duty follows the overseas " +
	"company's: under the Overseas Companies Regulations 2009 (SI 2009/1801) the overseas company delivers its accounting documents " +
	"to Companies House for its UK establishments, as its parent law requires them or, where it does not, as the Regulations prescribe."

// insolvencyNote returns the note on the company's insolvency record, or
// "". has_insolvency_history decides when the profile carries it, as it
// does for registers["insolvency"]; only when it is absent do the deprecated
// has_been_liquidated and a link to the insolvency resource speak, and a
// link alone is worded as a link, not as a recorded history.
func insolvencyNote(p *profile) string {
	const see = "; see the insolvency section of the company page."
	switch {
	case p.HasInsolvencyHistory != nil:
		if *p.HasInsolvencyHistory {
			return "Companies House records an insolvency history for this company" + see
		}
	case p.HasBeenLiquidated:
		return "Companies House records that this company has been liquidated" + see
	case p.Links.Insolvency != "":
		return "Companies House links to an insolvency record for this company (the profile does not say has_insolvency_history)" + see
	}
	return ""
}

// registers returns the sub-registers the profile states facts about:
// charges (the company has registered charges, has_charges) and insolvency
// (it has an insolvency history, has_insolvency_history). A link to the
// resource alone is not taken as a fact.
func registers(p *profile) map[string]bool {
	out := map[string]bool{}
	if p.HasCharges != nil {
		out["charges"] = *p.HasCharges
	}
	if p.HasInsolvencyHistory != nil {
		out["insolvency"] = *p.HasInsolvencyHistory
	}
	return out
}

// mapStatus sets Status and StatusDetail from company_status and
// company_status_detail, and adds the caveats that go with them.
func mapStatus(rep *registry.CompanyReport, status, detail string) {
	status, detail = strings.TrimSpace(status), strings.TrimSpace(detail)
	rule, known := statusRules[status]
	switch {
	case status == "":
		rep.Status = registry.StatusUnknown
		rep.StatusDetail = countrykit.Ptr("Companies House gives no company_status for this company.")
	case !known:
		rep.Status = registry.StatusUnknown
		rep.StatusDetail = countrykit.Ptr(statusDetailPrefix + strconv.Quote(status) + ", which this service does not know.")
	default:
		rep.Status = rule.status
		s := statusDetailPrefix + strconv.Quote(status) + " (" + rule.label + ")"
		if rule.procedure != "" {
			s += ", an insolvency procedure that does not end the company or its filing duties"
		}
		rep.StatusDetail = countrykit.Ptr(s + ".")
		if rule.note != "" {
			rep.Notes = append(rep.Notes, rule.note)
		}
	}
	if detail == "" {
		return
	}
	label := statusDetailLabel(detail)
	s := strings.TrimSuffix(*rep.StatusDetail, ".") + "; company_status_detail is " + strconv.Quote(detail)
	if label != "" {
		s += " (" + label + ")"
	}
	rep.StatusDetail = countrykit.Ptr(s + ".")
	switch detail {
	case "active-proposal-to-strike-off":
		rep.Notes = append(rep.Notes, "Companies House has published a proposal to strike the company off the register; it may soon be dissolved.")
	case "petition-to-restore-dissolved":
		rep.Notes = append(rep.Notes, "A petition has been made to restore the dissolved company to the register.")
	}
}

// previousNames returns the former names, newest first: ordered by the date
// the name ceased to be used, latest first; names without a usable date
// keep their upstream place after the dated ones.
func previousNames(in []previousName) []string {
	type named struct {
		name   string
		ceased *registry.Date
	}
	list := make([]named, 0, len(in))
	for _, n := range in {
		if name := strings.TrimSpace(n.Name); name != "" {
			list = append(list, named{name, upstream.Date(n.CeasedOn)})
		}
	}
	slices.SortStableFunc(list, func(a, b named) int {
		switch {
		case a.ceased == nil && b.ceased == nil:
			return 0
		case a.ceased == nil:
			return 1
		case b.ceased == nil:
			return -1
		}
		return b.ceased.Compare(*a.ceased)
	})
	out := make([]string, len(list))
	for i, n := range list {
		out[i] = n.name
	}
	return out
}

// mapAddress maps a Companies House address. The post town (locality) is
// the city and the county or region the municipality. A UK jurisdiction, or
// a UK country name, gives country code GB. It returns nil for an absent or
// empty address.
func mapAddress(a *address, jurisdiction string) *registry.Address {
	if a == nil {
		return nil
	}
	var lines []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			lines = append(lines, s)
		}
	}
	if co := strings.TrimSpace(a.CareOf); co != "" {
		add("c/o " + co)
	}
	if pb := strings.TrimSpace(a.POBox); pb != "" {
		if !strings.HasPrefix(strings.ToUpper(strings.ReplaceAll(pb, ".", "")), "PO BOX") {
			pb = "PO Box " + pb
		}
		add(pb)
	}
	// Premises ("Victoria Court", "74") and the first line ("Lairgate")
	// together make the first line when the premises is a house number.
	premises, line1 := strings.TrimSpace(a.Premises), strings.TrimSpace(a.AddressLine1)
	if premises != "" && line1 != "" && isHouseNumber(premises) {
		add(premises + " " + line1)
	} else {
		add(premises)
		add(line1)
	}
	add(a.AddressLine2)
	out := &registry.Address{
		Lines:        lines,
		PostalCode:   countrykit.StringOrNil(strings.TrimSpace(a.PostalCode)),
		City:         countrykit.StringOrNil(strings.TrimSpace(a.Locality)),
		Municipality: countrykit.StringOrNil(strings.TrimSpace(a.Region)),
		CountryName:  countrykit.StringOrNil(strings.TrimSpace(a.Country)),
	}
	if len(lines) == 0 && out.PostalCode == nil && out.City == nil && out.Municipality == nil && out.CountryName == nil {
		return nil
	}
	if ukCountryName(a.Country) || (out.CountryName == nil && ukJurisdiction(jurisdiction)) {
		out.CountryCode = countrykit.Ptr("GB")
	}
	return out
}

// isHouseNumber reports whether s looks like a house number such as "74",
// "12A" or "3-5": it starts with a digit and has no space.
func isHouseNumber(s string) bool {
	return s != "" && s[0] >= '0' && s[0] <= '9' && !strings.ContainsAny(s, " ,")
}

// ukCountryName reports whether a registered office country names the UK
// or one of its parts (the values of the specification's enum).
func ukCountryName(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "england", "wales", "scotland", "northern ireland", "united kingdom", "great britain", "england and wales", "uk":
		return true
	}
	return false
}

// ukJurisdiction reports whether a jurisdiction is within the UK, where
// the registered office of a company so registered must be.
func ukJurisdiction(s string) bool {
	switch s {
	case "england-wales", "wales", "scotland", "northern-ireland", "united-kingdom", "england":
		return true
	}
	return false
}

// industryCodes maps SIC codes in upstream order, the first as primary.
func industryCodes(codes []string) []registry.IndustryCode {
	out := make([]registry.IndustryCode, 0, len(codes))
	for _, code := range codes {
		code = strings.TrimSpace(code)
		if code == "" {
			continue
		}
		ic := registry.IndustryCode{Code: code, Rank: len(out) + 1}
		switch len(code) {
		case 5:
			ic.Scheme = countrykit.Ptr("UK SIC 2007")
		case 4:
			ic.Scheme = countrykit.Ptr("UK SIC 2003")
		default:
			ic.Scheme = countrykit.Ptr("UK SIC")
		}
		if d, ok := sicDescription(code); ok {
			ic.Description = countrykit.Ptr(d)
		}
		out = append(out, ic)
	}
	return out
}

// publishedDeadlines copies the dates Companies House publishes: the next
// accounts (next_accounts, or the deprecated next_due when next_accounts is
// absent) and the next confirmation statement.
func publishedDeadlines(p *profile) []registry.PublishedDeadline {
	out := []registry.PublishedDeadline{}
	if a := p.Accounts; a != nil {
		if na := a.NextAccounts; na != nil && (na.DueOn != "" || na.PeriodEndOn != "") {
			out = append(out, registry.PublishedDeadline{
				Kind:        kindAnnualAccounts,
				DueDate:     upstream.Date(na.DueOn),
				PeriodStart: upstream.Date(na.PeriodStartOn),
				PeriodEnd:   upstream.Date(na.PeriodEndOn),
				Overdue:     upstream.CloneBool(na.Overdue),
				Source:      countrykit.Ptr(sourceNextAccounts),
			})
		} else if a.NextDue != "" || a.NextMadeUpTo != "" {
			out = append(out, registry.PublishedDeadline{
				Kind:      kindAnnualAccounts,
				DueDate:   upstream.Date(a.NextDue),
				PeriodEnd: upstream.Date(a.NextMadeUpTo),
				Overdue:   upstream.CloneBool(a.Overdue),
				Source:    countrykit.Ptr(sourceNextDue),
			})
		}
	}
	if cs := p.ConfirmationStatement; cs != nil && (cs.NextDue != "" || cs.NextMadeUpTo != "") {
		out = append(out, registry.PublishedDeadline{
			Kind:      kindConfirmationStatement,
			DueDate:   upstream.Date(cs.NextDue),
			PeriodEnd: upstream.Date(cs.NextMadeUpTo),
			Overdue:   upstream.CloneBool(cs.Overdue),
			Source:    countrykit.Ptr(sourceConfirmation),
		})
	}
	// A published entry whose dates were all unparseable says nothing.
	return slices.DeleteFunc(out, func(d registry.PublishedDeadline) bool {
		return d.DueDate == nil && d.PeriodEnd == nil
	})
}
