package dk

import (
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/internal/upstream"
)

// legalForm describes one legal form (virksomhedsform) of CVR: its labels,
// the three duties of the report and the deadlines that follow from the
// form. This table is the only owner of these facts; the report's duty
// flags, the deadline engine's profile and the rules document all read it.
// An unknown duty means the answer depends on facts the register does not
// publish, or that no reliable source was found; it never means "no".
type legalForm struct {
	// Code is the register's virksomhedsformkode.
	Code string
	// Abbr is the register's short description (kortBeskrivelse).
	Abbr string
	// Danish is the register's long description (langBeskrivelse), used
	// when a response has none.
	Danish string
	// English is the English label.
	English string
	// LimitedLiability is true when no owner is personally liable.
	LimitedLiability upstream.Tri
	// BoardDuty is true when the law requires a board (bestyrelse, or a
	// supervisory board).
	BoardDuty upstream.Tri
	// AccountsDuty is true when the form files an annual report with
	// Erhvervsstyrelsen whatever its circumstances (årsregnskabsloven § 3).
	AccountsDuty upstream.Tri
	// Deadlines are the duties of deadlines.Denmark; nil when no deadline
	// is computed for the form (Note says why).
	Deadlines *formDeadlines
	// Note, when not empty, is repeated in the deadline report's notes.
	Note string
	// PersonalData is true for a form that is a person's business: its
	// data is personal data.
	PersonalData bool
	// Basis says where the answers come from, for the rules document.
	Basis string
}

// formDeadlines are the duties of deadlines.Denmark of a form. A duty left
// at its zero value is deadlines.DutyUnknown: not computed.
type formDeadlines struct {
	Label                                    string // e.g. "private limited company (ApS)"
	AnnualReport, GeneralMeeting, TaxReturn  deadlines.KindDuty
	TaxPrepayment, TaxBalance, VAT, Employer deadlines.KindDuty
}

const (
	yes     = upstream.Yes
	no      = upstream.No
	unknown = upstream.Unknown
)

// legalForms returns the table of the legal forms this service classifies,
// sorted by code, in a fresh slice. The codes, short descriptions and
// labels are a third party's aggregation over the live register, which saw
// each code with its descriptions (T-Andreasen/cvr-documentation,
// 2025-09-08); the recordings confirm 40, 60, 80 and 90. A row is found by
// the code alone. The duties are those of the research note on Danish
// deadlines (årsregnskabsloven § 3, selskabsloven, skattekontrolloven §
// 12); VERIFY marks what it could not settle.
func legalForms() []legalForm {
	always := func(because string) deadlines.KindDuty {
		return deadlines.KindDuty{Duty: deadlines.DutyYes, Because: because}
	}
	depending := func(because string) deadlines.KindDuty {
		return deadlines.KindDuty{Duty: deadlines.DutyConditional, Because: because}
	}
	never := deadlines.KindDuty{Duty: deadlines.DutyNo}
	maybe := deadlines.KindDuty{Duty: deadlines.DutyConditional}
	const (
		arCapital = "A capital company files its annual report with Erhvervsstyrelsen within six months of the end of its financial year " +
			"(årsregnskabsloven §§ 3 and 138); the date does not move for weekends or holidays."
		gmCapital = "A capital company holds its ordinary general meeting early enough for the approved annual report to reach " +
			"Erhvervsstyrelsen in time (selskabsloven § 88): the latest possible date is the annual report's."
		taxLegal = "A company taxed as a legal person files its tax return within six months of the end of its income year, or by 1 " +
			"September for a year ending from 1 February to 31 March (skattekontrolloven § 12)."
		arPartners = "A partnership files an annual report with Erhvervsstyrelsen only when all its fully liable partners are capital " +
			"companies (årsregnskabsloven § 3 stk. 1 nr. 2), which the register's form does not show."
		arExempt = "The form files an annual report with Erhvervsstyrelsen unless it has filed an exemption under årsregnskabsloven § 4 " +
			"(undtagelseserklæring), which the register does not show."
		ownerNote = "The owner of a sole proprietorship files a personal tax return (by 1 July, skattekontrolloven § 11), not computed " +
			"here; the business files no annual report with Erhvervsstyrelsen."
		branchNote = "A branch files its foreign parent's annual report with Erhvervsstyrelsen within six months of the end of the " +
			"parent's financial year (Erhvervsstyrelsen: \"Samme frist gælder for filialer\"); the parent's financial year is not in the " +
			"register, and a branch gets no computed deadlines."
		notComputed = "Deadlines are not computed for this form (public, foreign, under establishment or other), as the research " +
			"note advises."
	)
	capital := func(label string) *formDeadlines {
		return &formDeadlines{Label: label, AnnualReport: always(arCapital), GeneralMeeting: always(gmCapital), TaxReturn: always(taxLegal),
			TaxPrepayment: maybe, TaxBalance: maybe, VAT: maybe, Employer: maybe}
	}
	business := func(label string) *formDeadlines {
		return &formDeadlines{Label: label, AnnualReport: never, GeneralMeeting: never, TaxReturn: never, VAT: maybe, Employer: maybe}
	}
	partnership := func(label string) *formDeadlines {
		return &formDeadlines{Label: label, AnnualReport: depending(arPartners), GeneralMeeting: never, TaxReturn: never, VAT: maybe, Employer: maybe}
	}
	limitedCoop := func(label string) *formDeadlines {
		return &formDeadlines{Label: label, AnnualReport: depending(arExempt), TaxReturn: always(taxLegal),
			TaxPrepayment: maybe, TaxBalance: maybe, VAT: maybe, Employer: maybe}
	}
	branch := func(code, abbr, danish, english string) legalForm {
		return legalForm{Code: code, Abbr: abbr, Danish: danish, English: english, AccountsDuty: yes, Note: branchNote,
			Basis: "Erhvervsstyrelsen, \"Frister, udsættelse og afgifter\" (the branch files its parent's annual report). A branch is not a " +
				"legal person of its own: no deadlines are computed (the interface's rule for branches)."}
	}
	other := func(code, abbr, danish, english string) legalForm {
		return legalForm{Code: code, Abbr: abbr, Danish: danish, English: english, Note: notComputed,
			Basis: "Public, foreign or other form: no duties are modelled. The labels are this service's (the research gives only the short " +
				"description); a report shows the register's own description."}
	}
	return []legalForm{
		{Code: "10", Abbr: "ENK", Danish: "Enkeltmandsvirksomhed", English: "Sole proprietorship", LimitedLiability: no, BoardDuty: no,
			AccountsDuty: no, PersonalData: true, Deadlines: business("sole proprietorship (enkeltmandsvirksomhed)"), Note: ownerNote,
			Basis: "The owner is personally liable; no board; no annual report to Erhvervsstyrelsen; the owner's personal tax return (SKL § 11)."},
		{Code: "15", Abbr: "PMV", Danish: "Personligt ejet Mindre Virksomhed", English: "Personally owned small business", LimitedLiability: no,
			BoardDuty: no, AccountsDuty: no, PersonalData: true, Deadlines: business("personally owned small business (PMV)"), Note: ownerNote,
			Basis: "As a sole proprietorship."},
		{Code: "20", Abbr: "DØD", Danish: "Dødsbo", English: "Estate of a deceased person", BoardDuty: no, AccountsDuty: no, PersonalData: true,
			Note:  "An estate is taxed under the estate rules; no deadlines are computed.",
			Basis: "An estate (dødsbo): no board, no annual report; the estate rules of taxation are not modelled."},
		{Code: "30", Abbr: "I/S", Danish: "Interessentskab", English: "General partnership", LimitedLiability: no, BoardDuty: no,
			Deadlines: partnership("general partnership (I/S)"),
			Basis:     "Partners jointly and severally liable; no board; annual report only if all partners are capital companies (ÅRL § 3 stk. 1 nr. 2); tax-transparent."},
		{Code: "40", Abbr: "K/S", Danish: "Kommanditselskab", English: "Limited partnership", LimitedLiability: no, BoardDuty: no,
			Deadlines: partnership("limited partnership (K/S)"),
			Basis:     "The general partner is personally liable; no board; annual report only if all general partners are capital companies; tax-transparent."},
		{Code: "45", Abbr: "MSS", Danish: "Medarbejderinvesteringsselskab", English: "Employee investment company", LimitedLiability: yes,
			AccountsDuty: yes,
			Deadlines:    &formDeadlines{Label: "employee investment company (MSS)", AnnualReport: always(arCapital), VAT: maybe, Employer: maybe},
			Basis:        "Limited liability; annual report (ÅRL § 3 stk. 1 nr. 6); board and tax return not settled (VERIFY)."},
		{Code: "50", Abbr: "PAR", Danish: "Partrederi", English: "Shipping partnership", LimitedLiability: no, BoardDuty: no,
			Deadlines: partnership("shipping partnership (partrederi)"),
			Basis:     "As a general partnership."},
		{Code: "60", Abbr: "A/S", Danish: "Aktieselskab", English: "Public limited company", LimitedLiability: yes, BoardDuty: yes,
			AccountsDuty: yes, Deadlines: capital("public limited company (A/S)"),
			Basis: "Selskabsloven (limited liability; a board or supervisory board, § 111, VERIFY); annual report (ÅRL §§ 3, 138); tax return (SKL § 12)."},
		{Code: "70", Abbr: "KAS", Danish: "Kommanditaktieselskab/Partnerselskab", English: "Partnership limited by shares (P/S)",
			LimitedLiability: no, BoardDuty: yes, AccountsDuty: yes,
			Deadlines: &formDeadlines{Label: "partnership limited by shares (P/S)", AnnualReport: always(arCapital), GeneralMeeting: always(gmCapital),
				VAT: maybe, Employer: maybe},
			Basis: "The general partner is personally liable; board as an A/S (VERIFY); annual report; tax-transparent (VERIFY), so no tax return is computed."},
		{Code: "80", Abbr: "APS", Danish: "Anpartsselskab", English: "Private limited company", LimitedLiability: yes, BoardDuty: no,
			AccountsDuty: yes, Deadlines: capital("private limited company (ApS)"),
			Basis: "Selskabsloven (limited liability; a management board is required, a board is optional); annual report (ÅRL §§ 3, 138); tax return (SKL § 12)."},
		{Code: "81", Abbr: "IVS", Danish: "Iværksætterselskab", English: "Entrepreneurial company (IVS, abolished in 2019)", LimitedLiability: yes,
			BoardDuty: no, AccountsDuty: yes, Deadlines: capital("entrepreneurial company (IVS)"),
			Basis: "As a private limited company; the form was abolished in 2019 and the remaining ones had to convert."},
		{Code: "90", Abbr: "FON", Danish: "Fonde og andre selvejende institutioner", English: "Foundation or other self-governing institution",
			BoardDuty: yes, AccountsDuty: no,
			Deadlines: &formDeadlines{Label: "foundation (fond)", AnnualReport: never, GeneralMeeting: never,
				TaxReturn: depending("A foundation files a tax return only when it is taxable, which the register does not show (skattekontrolloven § 12)."),
				VAT:       maybe, Employer: maybe},
			Basis: "A board; not a commercial foundation, so no annual report to Erhvervsstyrelsen; a tax return only if taxable."},
		{Code: "95", Abbr: "TRU", Danish: "Trust", English: "Trust", AccountsDuty: no,
			Note: "Deadlines are not computed for a trust: its tax duties are not settled by the research (VERIFY).", Basis: "Not modelled (VERIFY)."},
		{Code: "100", Abbr: "EFO", Danish: "Erhvervsdrivende fond", English: "Commercial foundation", BoardDuty: yes, AccountsDuty: yes,
			Deadlines: &formDeadlines{Label: "commercial foundation (erhvervsdrivende fond)",
				AnnualReport: always("A commercial foundation files its annual report with Erhvervsstyrelsen within six months of the end of its " +
					"financial year (årsregnskabsloven § 3 stk. 1 nr. 3 and § 138); the date does not move for weekends or holidays."),
				GeneralMeeting: never, TaxReturn: always(taxLegal), TaxPrepayment: maybe, TaxBalance: maybe, VAT: maybe, Employer: maybe},
			Basis: "Lov om erhvervsdrivende fonde (a board); annual report (ÅRL § 3 stk. 1 nr. 3); tax return."},
		{Code: "110", Abbr: "FOR", Danish: "Forening", English: "Association", BoardDuty: yes, AccountsDuty: no,
			Deadlines: &formDeadlines{Label: "association (forening)", AnnualReport: never, GeneralMeeting: never,
				TaxReturn: depending("An association files a tax return only when it is taxable, which the register does not show (skattekontrolloven § 12)."),
				VAT:       maybe, Employer: maybe},
			Basis: "A board under its statutes; no annual report to Erhvervsstyrelsen; a tax return only if taxable."},
		{Code: "115", Abbr: "FFO", Danish: "Frivillig forening", English: "Voluntary association", AccountsDuty: no,
			Deadlines: &formDeadlines{Label: "voluntary association (frivillig forening)", AnnualReport: never, GeneralMeeting: never,
				TaxReturn: never, VAT: maybe, Employer: maybe},
			Basis: "No annual report to Erhvervsstyrelsen and no tax return."},
		{Code: "130", Abbr: "ANS", Danish: "Andelsselskab (-forening)", English: "Cooperative society", AccountsDuty: no,
			Deadlines: &formDeadlines{Label: "cooperative society (andelsselskab)", AnnualReport: never, VAT: maybe, Employer: maybe},
			Basis:     "No annual report to Erhvervsstyrelsen; liability, board and tax return not settled (VERIFY)."},
		{Code: "140", Abbr: "ABA", Danish: "Andelsselskab med begrænset ansvar", English: "Cooperative society with limited liability (a.m.b.a.)",
			LimitedLiability: yes, BoardDuty: yes, Deadlines: limitedCoop("cooperative society with limited liability (a.m.b.a.)"),
			Basis: "Lov om visse erhvervsdrivende virksomheder (limited liability, a board); annual report unless exempt (ÅRL § 4); tax return (cooperative taxation, VERIFY)."},
		{Code: "150", Abbr: "FBA", Danish: "Forening eller selskab med begrænset ansvar", English: "Association or company with limited liability",
			LimitedLiability: yes, BoardDuty: yes, Deadlines: limitedCoop("association or company with limited liability"),
			Basis: "Limited liability; board (VERIFY); annual report unless exempt (ÅRL § 4); tax return (VERIFY)."},
		{Code: "151", Abbr: "SMA", Danish: "Selskab med begrænset ansvar", English: "Company with limited liability (s.m.b.a.)",
			LimitedLiability: yes, BoardDuty: yes, Deadlines: limitedCoop("company with limited liability (s.m.b.a.)"),
			Basis: "Limited liability; board (VERIFY); annual report unless exempt (ÅRL § 4); tax return (VERIFY)."},
		{Code: "152", Abbr: "FMA", Danish: "Forening med begrænset ansvar", English: "Association with limited liability (f.m.b.a.)",
			LimitedLiability: yes, BoardDuty: yes, Deadlines: limitedCoop("association with limited liability (f.m.b.a.)"),
			Basis: "Limited liability; board (VERIFY); annual report unless exempt (ÅRL § 4); tax return (VERIFY)."},
		{Code: "160", Abbr: "EØF", Danish: "Europæisk Økonomisk Firmagruppe", English: "European Economic Interest Grouping", LimitedLiability: no,
			Deadlines: &formDeadlines{Label: "European Economic Interest Grouping (EØFG)", GeneralMeeting: never, TaxReturn: never, VAT: maybe, Employer: maybe},
			Basis:     "Members are liable without limit; tax-transparent; annual report not settled (VERIFY)."},
		branch("170", "FAS", "Filial af udenlandsk aktieselskab", "Branch of a foreign public limited company"),
		branch("180", "FAP", "Filial af udenlandsk anpartsselskab", "Branch of a foreign private limited company"),
		branch("190", "FBA", "Filial af udenlandsk virksomhed med begrænset ansvar", "Branch of a foreign company with limited liability"),
		{Code: "195", Abbr: "SCE", Danish: "SCE-selskab", English: "European Cooperative Society (SCE)", LimitedLiability: yes, BoardDuty: yes,
			AccountsDuty: yes,
			Deadlines: &formDeadlines{Label: "European Cooperative Society (SCE)", AnnualReport: always(arCapital), TaxReturn: always(taxLegal),
				TaxPrepayment: maybe, TaxBalance: maybe, VAT: maybe, Employer: maybe},
			Basis: "Limited liability; a board; annual report (ÅRL § 3 stk. 1 nr. 5); tax return."},
		other("210", "UDL", "Anden udenlandsk virksomhed", "Other foreign undertaking"),
		other("230", "STA", "Statslig administrativ enhed", "State administrative unit"),
		other("250", "KOM", "Kommune", "Municipality"),
		other("270", "EUO", "Enhed under oprettelse i Erhvervsstyrelsen", "Undertaking being registered"),
		other("280", "ØVR", "Øvrige virksomhedsformer", "Other legal form"),
		{Code: "290", Abbr: "E/S", Danish: "SE-selskab", English: "European company (SE)", LimitedLiability: yes, BoardDuty: yes, AccountsDuty: yes,
			Deadlines: capital("European company (SE)"),
			Basis:     "As a public limited company (the SE regulation and selskabsloven)."},
		branch("291", "FES", "Filial af SE-selskab", "Branch of a European company (SE)"),
		other("990", "UOP", "Uoplyst virksomhedsform", "Legal form not stated"),
	}
}

// lookupForm returns the table row for a legal-form code, or false for a
// code outside the table.
func lookupForm(code string) (legalForm, bool) {
	f, ok := formsByCode[strings.TrimSpace(code)]
	return f, ok
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

// dutiesOf builds the profile deadlines.Denmark computes from: the duties
// of the report's legal form (none when the form is unknown or its duties
// are not modelled) and the financial year the report's notes carry (see
// financialYearNote).
func dutiesOf(rep *registry.CompanyReport) *deadlines.DenmarkDuties {
	if rep == nil {
		return nil
	}
	d := &deadlines.DenmarkDuties{}
	readFinancialYear(rep.Notes, d)
	if rep.LegalFormCode == nil {
		return d
	}
	f, ok := lookupForm(*rep.LegalFormCode)
	if !ok {
		return d
	}
	d.Code, d.Note = f.Code, f.Note
	if f.Deadlines != nil {
		fd := f.Deadlines
		d.Label = fd.Label
		d.AnnualReport, d.GeneralMeeting, d.TaxReturn = fd.AnnualReport, fd.GeneralMeeting, fd.TaxReturn
		d.TaxPrepayment, d.TaxBalance, d.VAT, d.Employer = fd.TaxPrepayment, fd.TaxBalance, fd.VAT, fd.Employer
	}
	return d
}
