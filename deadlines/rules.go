package deadlines

import (
	"fmt"
	"strings"
)

// NorwayRules returns a Markdown section describing the Norwegian deadline
// rules and their legal sources, for a country module's rules document. It
// starts with a level-two heading and ends with a newline.
func NorwayRules() string {
	var b strings.Builder
	b.WriteString(`## Deadlines (Norway)

The deadlines operation returns the next occurrence, on or after ` + "`today`" + `, of each filing obligation,
sorted by ` + "`due_date`" + ` and then ` + "`kind`" + `. The financial year is assumed to be the calendar year
(regnskapsloven § 1-7); a deviating or long first financial year changes the annual dates and is not computed.

| kind | local name | statutory date | rolls forward? | who | source |
|---|---|---|---|---|---|
| ` + "`vat_return`" + ` (bimonthly) | mva-melding | terms Jan–Feb, Mar–Apr, May–Jun, Jul–Aug, Sep–Oct, Nov–Dec are due 10 Apr, 10 Jun, **31 Aug**, 10 Oct, 10 Dec and 10 Feb (skatteforvaltningsforskriften § 8-3-10) | yes | VAT-registered units (any legal form) | ` + srcVAT + ` |
| ` + "`payroll_report`" + ` (monthly) | a-melding | the 5th of the month after the reporting month (a-opplysningsforskriften § 2-1) | yes | units that report employees | ` + srcPayroll + ` |
| ` + "`tax_return`" + ` | skattemelding / selskapsmelding | 31 May of the following year (skatteforvaltningsforskriften § 8-2-3), also for the owner of an ENK | yes | AS, ASA, SA, ANS, DA, KS, ENK; NUF, STI, FLI and BA only if liable to tax (` + "`mandatory: false`" + `) | ` + srcTaxReturn + ` |
| ` + "`shareholder_register_statement`" + ` | aksjonærregisteroppgave | 31 January of the following year (skatteforvaltningsloven § 7-7) | yes | AS, ASA | ` + srcShareholder + ` |
| ` + "`annual_accounts`" + ` | årsregnskap | 31 July of the following year: sent one month after approval and before 1 August (regnskapsloven §§ 8-2, 8-3) | **no** | AS, ASA, STI, BA, BRL, BBL, SF, SPA, GFS, PK, VPFO always; NUF, ANS, DA, KS, SA, ENK, FLI by thresholds (` + "`mandatory: false`" + `) | ` + srcAccounts + ` |
| ` + "`general_meeting`" + ` | ordinær generalforsamling / ordinært årsmøte | 30 June of the following year: within six months of the year end (aksjeloven § 5-5, allmennaksjeloven § 5-6; samvirkelova for SA) | **no** | AS, ASA; SA (årsmøte) | ` + srcMeetingAS + ` |

### Roll-forward

A statutory date of a rolling kind that falls on a Saturday, a Sunday or a public holiday moves to the next
working day (skatteforvaltningsloven § 5-5 with domstolloven § 149; a-opplysningsforskriften § 2-1 (5)). The
public holidays are those of helligdagsfredloven § 2 and lov 26. april 1947 nr. 1:

`)
	for _, h := range norwegianHolidays {
		rule := fmt.Sprintf("%d %s", h.day, h.month)
		switch {
		case h.month != 0:
		case h.offset < 0:
			rule = fmt.Sprintf("Easter Sunday − %d days", -h.offset)
		case h.offset == 0:
			rule = "the first Sunday after the first full moon on or after 21 March"
		case h.offset == 1:
			rule = "Easter Sunday + 1 day"
		default:
			rule = fmt.Sprintf("Easter Sunday + %d days", h.offset)
		}
		fmt.Fprintf(&b, "- %s (%s): %s\n", h.name, h.en, rule)
	}
	b.WriteString(`
24 and 31 December are ordinary working days. The annual accounts ("before 1 August") and the general meeting
("within six months") are fixed by law and never move; when such a date falls on a weekend, a note says so
(for example Saturday 31 July 2027).

### Next occurrence

- A period that ended before the unit was founded (` + "`founded_at`" + `, else ` + "`registered_at`" + `) is skipped.
- Accounts already filed for a year (` + "`last_annual_accounts_year`" + `) move ` + "`annual_accounts`" + ` to the following year.
- ` + "`mandatory`" + ` is true when the duty follows from the legal form or a register flag, and false when it depends on
  facts the register does not show (turnover, assets, tax liability).

### No deadlines

Sub-units (BEDR, AAFY) get none: their duties rest on the main unit named by ` + "`parent_id`" + `. Bankrupt, deleted,
dissolved and compulsorily liquidated units get none; a unit under voluntary liquidation keeps its duties until
deletion. A missing or unrecognised legal form gets none. For the other legal forms Enhetsregisteret publishes
(public bodies, estates and the like) only the duties that follow from a register flag (VAT registration,
employees) are computed. Each case is explained in ` + "`notes`" + `.

Not modelled: advance tax, the annual VAT term and other special VAT terms, deviating financial years, extensions
granted on application, and the earlier accounts date that follows from an early approval.

Sources: the general meeting of an ASA, ` + srcMeetingASA + `; the annual meeting of an SA, ` + srcMeetingSA + `;
the roll-forward rule (skatteforvaltningsloven § 5-5),
https://www.skatteetaten.no/en/rettskilder/type/handboker/skatteforvaltningshandboken/gjeldende/kapittel-5-alminnelige-saksbehandlingsregler/ID-5-5.001/ ;
domstolloven § 149, https://lovdata.no/dokument/NL/lov/1915-08-13-5/KAPITTEL_10 ; the 1 and 17 May holidays,
https://lovdata.no/dokument/NL/lov/1947-04-26-1 .
`)
	return b.String()
}
