package fi

import (
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/internal/upstream"
)

// legalForm describes one legal form (yritysmuoto) of YTJ: its labels, the
// three duties of the report and the deadlines that follow from the form.
// This table is the only owner of these facts; the report's duty flags and
// the deadline engine both read it. A nil or unknown duty means the answer
// depends on facts the register does not publish, or that no reliable
// source was found; it never means "no".
type legalForm struct {
	// Code is the register's numeric companyForms type.
	Code string
	// Abbr is the register's letter code of the form (the companyForm
	// search parameter).
	Abbr string
	// Finnish is the register's Finnish label. A response whose Finnish
	// label differs is not matched to this row (see lookupForm).
	Finnish string
	// English is the English label, used when a response has none.
	English string
	// LimitedLiability is true when no owner is personally liable for the
	// company's debts.
	LimitedLiability upstream.Tri
	// BoardDuty is true when the law requires a board (hallitus).
	BoardDuty upstream.Tri
	// AccountsDuty is true when the company must file its financial
	// statements with the Trade Register whatever its size.
	AccountsDuty upstream.Tri
	// Deadlines are the form-dependent duties of deadlines.Finland; nil
	// when they are not modelled for the form.
	Deadlines *formDeadlines
	// Basis says where the answers come from, for the rules document.
	Basis string
}

// formDeadlines are the form-dependent Finnish deadline duties of a form.
// A duty left at its zero value is deadlines.DutyUnknown: not modelled, so
// no deadline of the kind is computed.
type formDeadlines struct {
	Label                                          string // e.g. "private limited company (Oy)"
	GeneralMeeting, FinancialStatements, TaxReturn deadlines.KindDuty
	// PartnershipTaxReturn is a business partnership's income tax return,
	// due on 1 April.
	PartnershipTaxReturn deadlines.KindDuty
}

const (
	yes     = upstream.Yes
	no      = upstream.No
	unknown = upstream.Unknown
)

// legalForms returns the table of the legal forms this service classifies,
// sorted by code, in a fresh slice. "16" and "17" are confirmed by the
// recordings; the other numeric codes come from a third party's list and
// are trusted only when the register's own Finnish label agrees.
func legalForms() []legalForm {
	always := func(because string) deadlines.KindDuty {
		return deadlines.KindDuty{Duty: deadlines.DutyYes, Because: because}
	}
	depending := func(because string) deadlines.KindDuty {
		return deadlines.KindDuty{Duty: deadlines.DutyConditional, Because: because}
	}
	const (
		taxOy = "A limited company is a community (yhteisö) that files its income tax return within four months of the end of the last " +
			"calendar month of its accounting period: 30 April for a calendar year, the next business day when that is not one."
		fsOy = "A limited company files its financial statements with the Trade Register within two months of their adoption " +
			"(osakeyhtiölaki 8:10); PRH charges a late fee when they arrive more than eight months after the year end (31 August)."
		gmOy = "A limited company adopts its financial statements at the ordinary general meeting within six months of the end of " +
			"the financial year (osakeyhtiölaki 5:3); the date is fixed and does not move for weekends."
		taxPartnership = "A business partnership (elinkeinoyhtymä) always files an income tax return for its business income, by " +
			"1 April of the year after the tax year (the Tax Administration's dates for business partnerships), the next business " +
			"day when that is not one; the partners are taxed on their shares."
	)
	return []legalForm{
		{Code: "4", Abbr: "ASY", Finnish: "Asunto-osakeyhtiö", English: "Housing company",
			LimitedLiability: yes, BoardDuty: yes,
			Basis: "Asunto-osakeyhtiölaki (shareholders are not personally liable; a board is required). Filing duty and deadlines are not modelled."},
		{Code: "5", Abbr: "AY", Finnish: "Avoin yhtiö", English: "General partnership",
			LimitedLiability: no, BoardDuty: no,
			Deadlines: &formDeadlines{Label: "general partnership (Ay)",
				FinancialStatements: depending("A general partnership files its financial statements with the Trade Register only when it is large " +
					"(kirjanpitolaki 3:9), which the register does not show; the date is that of a limited company."),
				PartnershipTaxReturn: always(taxPartnership)},
			Basis: "Laki avoimesta yhtiöstä ja kommandiittiyhtiöstä (partners are jointly liable; no board). Filing only when large; its income tax return is due on 1 April."},
		{Code: "6", Abbr: "AYH", Finnish: "Aatteellinen yhdistys", English: "Non-profit association",
			BoardDuty: yes,
			Deadlines: &formDeadlines{Label: "non-profit association (ry)",
				TaxReturn: depending("An association files a community income tax return by the same date as a company only if it has taxable " +
					"income, which the register does not show.")},
			Basis: "Yhdistyslaki (a board is required). Tax return only with taxable income."},
		{Code: "10", Abbr: "KOY", Finnish: "Keskinäinen kiinteistöosakeyhtiö", English: "Mutual real estate company",
			LimitedLiability: yes, BoardDuty: yes,
			Basis: "A limited company under osakeyhtiölaki or asunto-osakeyhtiölaki (shareholders are not personally liable; a board is required). Deadlines are not modelled."},
		{Code: "13", Abbr: "KY", Finnish: "Kommandiittiyhtiö", English: "Limited partnership",
			LimitedLiability: no, BoardDuty: no,
			Deadlines: &formDeadlines{Label: "limited partnership (Ky)",
				FinancialStatements: depending("A limited partnership files its financial statements with the Trade Register only when it is large " +
					"(kirjanpitolaki 3:9), which the register does not show; the date is that of a limited company."),
				PartnershipTaxReturn: always(taxPartnership)},
			Basis: "Laki avoimesta yhtiöstä ja kommandiittiyhtiöstä (the general partners are personally liable; no board). Filing only when large; its income tax return is due on 1 April."},
		{Code: "14", Abbr: "OK", Finnish: "Osuuskunta", English: "Cooperative",
			LimitedLiability: yes, BoardDuty: yes, AccountsDuty: yes,
			Deadlines: &formDeadlines{Label: "cooperative (osuuskunta)",
				GeneralMeeting: deadlines.KindDuty{Duty: deadlines.DutyYes, Name: "Ordinary meeting of the cooperative (adopting the financial statements)",
					LocalName: "varsinainen osuuskunnan kokous",
					Because: "A cooperative adopts its financial statements at the ordinary meeting within six months of the end of the financial " +
						"year (osuuskuntalaki); the date is fixed and does not move for weekends."},
				FinancialStatements: always("A cooperative files its financial statements with the Trade Register; PRH charges a late fee " +
					"when they arrive more than eight months after the year end (31 August)."),
				TaxReturn: always("A cooperative is a community (yhteisö) that files its income tax return within four months of the end of the " +
					"last calendar month of its accounting period: 30 April for a calendar year, the next business day when that is not one.")},
			Basis: "Osuuskuntalaki (members are not personally liable unless the rules say so; a board is required; meeting and filing as for a limited company)."},
		{Code: "16", Abbr: "OY", Finnish: "Osakeyhtiö", English: "Limited company",
			LimitedLiability: yes, BoardDuty: yes, AccountsDuty: yes,
			Deadlines: &formDeadlines{Label: "private limited company (Oy)",
				GeneralMeeting: always(gmOy), FinancialStatements: always(fsOy), TaxReturn: always(taxOy)},
			Basis: "Osakeyhtiölaki 1:2 (shareholders are not personally liable), 6:8 (board), 5:3 (general meeting), 8:10 (filing)."},
		{Code: "17", Abbr: "OYJ", Finnish: "Julkinen osakeyhtiö", English: "Public limited company",
			LimitedLiability: yes, BoardDuty: yes, AccountsDuty: yes,
			Deadlines: &formDeadlines{Label: "public limited company (Oyj)",
				GeneralMeeting: always(gmOy), FinancialStatements: always(fsOy + " The late fee is doubled for a public company."),
				TaxReturn: always(taxOy)},
			Basis: "Osakeyhtiölaki as for an Oy; PRH doubles the late-filing fee for an Oyj."},
	}
}

// lookupForm returns the table row for a legal-form code, or false for a
// code outside the table. When the register gave a Finnish label (local)
// that differs from the row's, the row is not returned either: the numeric
// codes other than 16 and 17 come from a third party, and the register's
// own label is the authority.
func lookupForm(code, local string) (legalForm, bool) {
	f, ok := formsByCode[strings.TrimSpace(code)]
	if !ok {
		return legalForm{}, false
	}
	if l := strings.TrimSpace(local); l != "" && !strings.EqualFold(l, f.Finnish) {
		return legalForm{}, false
	}
	return f, true
}

// formsByCode indexes legalForms by code. It is built once and never
// written afterwards.
var formsByCode = func() map[string]legalForm {
	m := make(map[string]legalForm)
	for _, f := range legalForms() {
		m[f.Code] = f
	}
	return m
}()

// dutiesOf builds the profile deadlines.Finland computes from: the
// form-dependent duties of the report's legal form (none when the form is
// unknown or its duties are not modelled) and the employer register.
func dutiesOf(rep *registry.CompanyReport) *deadlines.FinlandDuties {
	if rep == nil {
		return nil
	}
	d := &deadlines.FinlandDuties{Employer: rep.Registers[registerEmployer]}
	if rep.LegalFormCode == nil {
		return d
	}
	local := ""
	if rep.LegalFormLocal != nil {
		local = *rep.LegalFormLocal
	}
	if f, ok := lookupForm(*rep.LegalFormCode, local); ok && f.Deadlines != nil {
		d.Code, d.Label = f.Code, f.Deadlines.Label
		d.GeneralMeeting = f.Deadlines.GeneralMeeting
		d.FinancialStatements = f.Deadlines.FinancialStatements
		d.TaxReturn = f.Deadlines.TaxReturn
		d.PartnershipTaxReturn = f.Deadlines.PartnershipTaxReturn
	}
	return d
}
