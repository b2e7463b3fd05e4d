package se

import (
	"strings"

	"github.com/companyregistry/registry/deadlines"
	"github.com/companyregistry/registry/internal/upstream"
)

// legalForm is one legal form (organisationsform) of Bolagsverket: its
// labels, the three duties of the report and the deadline duties. This
// table is the only owner of these facts; the report's duty flags and the
// deadline engine both read it. An unknown duty (null in the report, or a
// deadline not computed) means the sources do not settle it; it never
// means "no".
type legalForm struct {
	Code, Swedish, English string
	LimitedLiability       upstream.Tri
	BoardDuty              upstream.Tri
	AccountsDuty           upstream.Tri // files an annual report with Bolagsverket whatever its size
	// Deadlines are the form's duties for deadlines.Sweden; nil when none
	// are modelled.
	Deadlines *formDeadlines
	Basis     string
}

type formDeadlines struct {
	Label                                string
	GeneralMeeting, AnnualReport, TaxRet deadlines.KindDuty
	TaxForm                              string
}

const (
	yes     = upstream.Yes
	no      = upstream.No
	unknown = upstream.Unknown
)

// legalForms returns the table, in a fresh slice, in the order of
// Bolagsverket's code list.
func legalForms() []legalForm {
	always := deadlines.KindDuty{Duty: deadlines.DutyYes}
	ifTaxable := deadlines.KindDuty{Duty: deadlines.DutyConditional,
		Because: "An association or foundation files an income tax return (INK3) only when it has taxable income, which the register does not show."}
	ab := &formDeadlines{Label: "limited company (aktiebolag, AB)", GeneralMeeting: always, AnnualReport: always, TaxRet: always, TaxForm: "INK2"}
	coop := func(label string) *formDeadlines {
		return &formDeadlines{Label: label, TaxRet: always, TaxForm: "INK2",
			GeneralMeeting: deadlines.KindDuty{Duty: deadlines.DutyYes, Name: "Annual meeting of the association (adopting the annual accounts)",
				LocalName: "föreningsstämma",
				Because: "An economic association holds its annual meeting within six months of the end of the financial year (lag 2018:672 " +
					"om ekonomiska föreningar 6 kap. 9 §).",
				// The research's source for the act on economic associations
				// (FAR's commentary), not the Companies Act of the kind's default.
				SourceURL: "https://www.faronline.se/dokument/e/etiku10/"}}
	}
	return []legalForm{
		{Code: "AB", Swedish: "Aktiebolag", English: "Limited company", LimitedLiability: yes, BoardDuty: yes, AccountsDuty: yes, Deadlines: ab,
			Basis: "Aktiebolagslagen (2005:551) 1 kap. 3 § (no personal liability), 8 kap. (board), 7 kap. 10 § (meeting); ÅRL 8 kap. 3 § (filing). A public company (publ) has the same code."},
		{Code: "E", Swedish: "Enskild näringsverksamhet", English: "Sole trader", LimitedLiability: no, BoardDuty: no, AccountsDuty: no,
			Basis: "The owner is the business; identified by a personal identity number, which this service does not look up."},
		{Code: "HB", Swedish: "Handelsbolag", English: "Trading partnership", LimitedLiability: no, BoardDuty: no, AccountsDuty: unknown,
			Deadlines: &formDeadlines{Label: "trading partnership (handelsbolag, HB)", TaxRet: always, TaxForm: "INK4"},
			Basis:     "Lag (1980:1102) om handelsbolag (partners jointly and severally liable). Files an annual report only with a legal person as partner or when larger (VERIFY): not computed."},
		{Code: "KB", Swedish: "Kommanditbolag", English: "Limited partnership", LimitedLiability: no, BoardDuty: no, AccountsDuty: unknown,
			Deadlines: &formDeadlines{Label: "limited partnership (kommanditbolag, KB)", TaxRet: always, TaxForm: "INK4"},
			Basis:     "Lag (1980:1102) (the komplementär is personally liable). Annual report as for HB (VERIFY): not computed."},
		{Code: "EB", Swedish: "Enkla bolag", English: "Simple partnership", LimitedLiability: no, BoardDuty: no, AccountsDuty: no,
			Basis: "Not a legal person; no filing of its own."},
		{Code: "EK", Swedish: "Ekonomisk förening", English: "Economic association", LimitedLiability: yes, BoardDuty: yes, AccountsDuty: unknown,
			Deadlines: coop("economic association (ekonomisk förening)"),
			Basis:     "Lag (2018:672) om ekonomiska föreningar. Files an annual report with Bolagsverket only when larger or asked (VERIFY): not computed."},
		{Code: "BRF", Swedish: "Bostadsrättsförening", English: "Housing cooperative", LimitedLiability: yes, BoardDuty: yes, AccountsDuty: unknown,
			Deadlines: coop("housing cooperative (bostadsrättsförening)"),
			Basis:     "Bostadsrättslagen (1991:614) and lag (2018:672). Filing duty with Bolagsverket not settled by the sources (VERIFY): not computed."},
		{Code: "KHF", Swedish: "Kooperativ hyresrättsförening", English: "Cooperative tenancy association", LimitedLiability: yes, BoardDuty: yes, AccountsDuty: unknown,
			Deadlines: coop("cooperative tenancy association (kooperativ hyresrättsförening)"), Basis: "Lag (2002:93) and lag (2018:672); filing VERIFY."},
		{Code: "BF", Swedish: "Bostadsförening", English: "Housing association", LimitedLiability: yes, BoardDuty: yes, AccountsDuty: unknown,
			Deadlines: coop("housing association (bostadsförening)"), Basis: "Lag (2018:672); filing VERIFY."},
		{Code: "SF", Swedish: "Sambruksförening", English: "Joint farming association", LimitedLiability: yes, BoardDuty: yes, AccountsDuty: unknown,
			Deadlines: coop("joint farming association (sambruksförening)"), Basis: "Lag (2018:672); filing VERIFY."},
		{Code: "I", Swedish: "Ideell förening", English: "Non-profit association (trading)", LimitedLiability: yes, BoardDuty: yes, AccountsDuty: no,
			Deadlines: &formDeadlines{Label: "non-profit association (ideell förening)", TaxRet: ifTaxable, TaxForm: "INK3"},
			Basis:     "No statute of its own; no annual report to Bolagsverket."},
		{Code: "S", Swedish: "Stiftelse", English: "Foundation (trading)", LimitedLiability: yes, BoardDuty: yes, AccountsDuty: no,
			Deadlines: &formDeadlines{Label: "foundation (stiftelse)", TaxRet: ifTaxable, TaxForm: "INK3"},
			Basis:     "Stiftelselagen (1994:1220); annual report to the county administrative board, not Bolagsverket (ÅRL 8 kap. 1 §)."},
		{Code: "TSF", Swedish: "Trossamfund", English: "Religious community", BoardDuty: unknown, Basis: "Lag (1998:1593) om trossamfund; duties not modelled."},
		{Code: "FL", Swedish: "Filial", English: "Branch of a foreign company", LimitedLiability: unknown, BoardDuty: no, Basis: "Lag (1992:160) om utländska filialer; the parent's accounts (VERIFY): not modelled."},
		{Code: "BFL", Swedish: "Utländsk banks filial", English: "Branch of a foreign bank", BoardDuty: no, Basis: "Special rules; not modelled."},
		{Code: "BAB", Swedish: "Bankaktiebolag", English: "Bank limited company", LimitedLiability: yes, BoardDuty: yes, AccountsDuty: yes, Basis: "Special accounting acts; deadlines not computed."},
		{Code: "SB", Swedish: "Sparbank", English: "Savings bank", BoardDuty: yes, Basis: "Sparbankslagen; deadlines not computed."},
		{Code: "MB", Swedish: "Medlemsbank", English: "Member bank", BoardDuty: yes, Basis: "Special accounting acts; deadlines not computed."},
		{Code: "FAB", Swedish: "Försäkringsaktiebolag", English: "Insurance limited company", LimitedLiability: yes, BoardDuty: yes, AccountsDuty: yes, Basis: "Special accounting acts; deadlines not computed."},
		{Code: "OFB", Swedish: "Ömsesidigt försäkringsbolag", English: "Mutual insurance company", BoardDuty: yes, Basis: "Special accounting acts; deadlines not computed."},
		{Code: "FOF", Swedish: "Försäkringsförening", English: "Insurance association", BoardDuty: yes, Basis: "Special accounting acts; deadlines not computed."},
		{Code: "TPAB", Swedish: "Tjänstepensionsaktiebolag", English: "Occupational pension company", LimitedLiability: yes, BoardDuty: yes, Basis: "Special rules; deadlines not computed."},
		{Code: "OTPB", Swedish: "Ömsesidigt tjänstepensionsbolag", English: "Mutual occupational pension company", BoardDuty: yes, Basis: "Special rules; deadlines not computed."},
		{Code: "TPF", Swedish: "Tjänstepensionsförening", English: "Occupational pension association", BoardDuty: yes, Basis: "Special rules; deadlines not computed."},
		{Code: "FF", Swedish: "Försäkringsförmedlare", English: "Insurance intermediary", Basis: "Not modelled."},
		{Code: "SE", Swedish: "Europabolag", English: "European company (SE)", LimitedLiability: yes, BoardDuty: yes, AccountsDuty: yes,
			Deadlines: &formDeadlines{Label: "European company (Europabolag, SE)", GeneralMeeting: always, AnnualReport: always, TaxRet: always, TaxForm: "INK2"},
			Basis:     "Lag (2004:575) om europabolag: as an aktiebolag."},
		{Code: "SCE", Swedish: "Europakooperativ", English: "European cooperative society", LimitedLiability: yes, BoardDuty: yes, Basis: "VERIFY; not modelled."},
		{Code: "EEIG", Swedish: "Europeisk ekonomisk intressegruppering", English: "European economic interest grouping", LimitedLiability: no, Basis: "VERIFY; not modelled."},
		{Code: "EGTS", Swedish: "Europeisk gruppering för territoriellt samarbete", English: "European grouping of territorial cooperation", Basis: "VERIFY; not modelled."},
	}
}

// formsByCode indexes legalForms by code. It is built once and never
// written afterwards.
var formsByCode = func() map[string]legalForm {
	m := map[string]legalForm{}
	for _, f := range legalForms() {
		m[f.Code] = f
	}
	return m
}()

func lookupForm(code string) (legalForm, bool) {
	f, ok := formsByCode[strings.ToUpper(strings.TrimSpace(code))]
	return f, ok
}
