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
			rule = "Easter Sunday"
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
`)
	return b.String()
}

// UnitedKingdomRules returns a Markdown section describing the UK deadline
// rules and their sources, for a country module's rules document. It starts
// with a level-two heading and ends with a newline.
func UnitedKingdomRules() string {
	return `## Deadlines (United Kingdom)

Two kinds, both filed with Companies House: ` + "`annual_accounts`" + ` and ` + "`confirmation_statement`" + `.

- **The register's published date wins.** ` + "`published_deadlines`" + ` carries the dates Companies House publishes
  (the next accounts' ` + "`due_on`" + ` and the confirmation statement's ` + "`next_due`" + `) verbatim; when one is present it is
  the deadline, even when it has passed: ` + "`days_until`" + ` is then negative and a note says the filing is overdue.
- **A computed date fills a gap** (Companies Act 2006): accounts are due 9 months after the end of the accounting
  reference period for a private company and 6 months for a public one (s.442), counted by the month-end rule of
  s.443 (6 months after 30 June is 31 December); the first accounts of a period longer than 12 months are due 21
  months (18 for a public company) after incorporation, or 3 months after the period end if later (s.442(3)).
  The confirmation statement is due 14 days after the end of each review period; the first review period is the 12
  months beginning with incorporation (s.853A). A computed date is the first one on or after ` + "`today`" + `; without a
  period named by the register, the default accounting reference date (the last day of the month of
  incorporation) is assumed.
- **No roll-forward.** UK deadlines do not move for weekends or bank holidays, so ` + "`due_date`" + ` always equals
  ` + "`statutory_date`" + `.
- Companies that are not active get no deadlines, and ` + "`notes`" + ` says why.

Sources: ` + srcUKAccounts + ` (s.442), https://www.legislation.gov.uk/ukpga/2006/46/section/443 (s.443),
https://www.legislation.gov.uk/ukpga/2006/46/part/24 (s.853A), ` + srcUKConfirmation + `.
`
}
