package deadlines

import (
	"fmt"
	"strings"
)

// NorwayRules returns a Markdown section describing the Norwegian deadline
// rules and their legal sources, for a country module's rules document. It
// starts with a level-two heading and ends with a newline. forms are the
// duty profiles of the module's legal forms: the "who" column of each kind
// that depends on the legal form lists the forms that have it, in the order
// given.
func NorwayRules(forms []NorwegianDuties) string {
	var b strings.Builder
	b.WriteString(`## Deadlines (Norway)

The deadlines operation returns the next occurrence, on or after ` + "`today`" + `, of each filing obligation,
sorted by ` + "`due_date`" + ` and then ` + "`kind`" + `. The financial year is assumed to be the calendar year
(regnskapsloven § 1-7); a deviating or long first financial year changes the annual dates and is not computed.

| kind | local name | statutory date | rolls forward? | who | source |
|---|---|---|---|---|---|
| ` + "`vat_return`" + ` (bimonthly) | mva-melding | terms Jan–Feb, Mar–Apr, May–Jun, Jul–Aug, Sep–Oct, Nov–Dec are due 10 Apr, 10 Jun, **31 Aug**, 10 Oct, 10 Dec and 10 Feb (skatteforvaltningsforskriften § 8-3-10) | yes | VAT-registered units (any legal form) | ` + srcVAT + ` |
| ` + "`payroll_report`" + ` (monthly) | a-melding | the 5th of the month after the reporting month (a-opplysningsforskriften § 2-1) | yes | units that report employees (not mandatory when the register shows none) | ` + srcPayroll + ` |
| ` + "`tax_return`" + ` | skattemelding / selskapsmelding | 31 May of the following year (skatteforvaltningsforskriften § 8-2-3), also for the owner of an ENK | yes | ` + who(forms, kindTaxReturn) + ` | ` + srcTaxReturn + ` |
| ` + "`shareholder_register_statement`" + ` | aksjonærregisteroppgave | 31 January of the following year (skatteforvaltningsforskriften §§ 7-7-1 to 7-7-3, the regulation to skatteforvaltningsloven § 7-7) | yes | ` + who(forms, kindShareholderStmt) + ` | ` + srcShareholder + ` |
| ` + "`annual_accounts`" + ` | årsregnskap | 31 July of the following year: sent one month after approval and before 1 August (regnskapsloven §§ 8-2, 8-3) | **no** | ` + who(forms, kindAnnualAccounts) + ` | ` + srcAccounts + ` |
| ` + "`general_meeting`" + ` | ordinær generalforsamling / ordinært årsmøte | 30 June of the following year: within six months of the year end (aksjeloven § 5-5, allmennaksjeloven § 5-6, samvirkelova § 41 (1)) | **no** | ` + who(forms, kindGeneralMeeting) + ` | the law of the form (see its ` + "`source_url`" + `) |

### Roll-forward

A statutory date of a rolling kind that falls on a Saturday, a Sunday or a public holiday moves to the next
working day (skatteforvaltningsloven § 5-5 with domstolloven § 149; a-opplysningsforskriften § 2-1 (5)). The
public holidays are those of helligdagsfredloven § 2 and lov 26. april 1947 nr. 1:

`)
	for _, h := range norwegianHolidays {
		fmt.Fprintf(&b, "- %s (%s): %s\n", h.name, h.en, h.describe())
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
deletion. A missing or unrecognised legal form gets none. For a legal form whose duty of a kind is not modelled
(public bodies, estates and the like) that kind is not computed; the duties that follow from a register flag
(VAT registration, employees) are. Each case is explained in ` + "`notes`" + `.

- VAT returns start with the term in which the VAT registration took effect (` + "`vat_registered_at`" + `): no
  return is listed for a term that ended before it.
- A published employee count of 0, or ` + "`employees_reported: false`" + ` (the register's "no registered employees"; it
  never publishes a count of 0), lists the payroll report with ` + "`mandatory: false`" + `: a unit without employees
  still reports for a month in which it pays board fees or other remuneration.

Not modelled: advance tax, the annual VAT term and other special VAT terms, deviating financial years, extensions
granted on application, and the earlier accounts date that follows from an early approval.

Sources: the roll-forward rule (skatteforvaltningsloven § 5-5),
https://www.skatteetaten.no/en/rettskilder/type/handboker/skatteforvaltningshandboken/gjeldende/kapittel-5-alminnelige-saksbehandlingsregler/ID-5-5.001/ ;
domstolloven § 149, https://lovdata.no/dokument/NL/lov/1915-08-13-5/KAPITTEL_10 ; the 1 and 17 May holidays,
https://lovdata.no/dokument/NL/lov/1947-04-26-1 .
`)
	return b.String()
}

// who lists, for the "who" column of the rules table, the forms whose
// duty of kind is yes, then those for which it is conditional.
func who(forms []NorwegianDuties, kind string) string {
	var always, conditional []string
	for _, f := range forms {
		for _, k := range f.kinds() {
			if k.kind != kind {
				continue
			}
			switch k.duty.Duty {
			case DutyYes:
				always = append(always, f.Code)
			case DutyConditional:
				conditional = append(conditional, f.Code)
			}
		}
	}
	var parts []string
	if len(always) > 0 {
		parts = append(parts, strings.Join(always, ", ")+" always")
	}
	if len(conditional) > 0 {
		parts = append(parts, strings.Join(conditional, ", ")+" only when facts the register does not show hold (`mandatory: false`)")
	}
	if len(parts) == 0 {
		return "no legal form"
	}
	return strings.Join(parts, "; ")
}
