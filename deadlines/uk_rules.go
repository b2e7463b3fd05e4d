package deadlines

// UnitedKingdomRules returns a Markdown section describing the UK deadline
// rules and their sources, for a country module's rules document. It starts
// with a level-two heading and ends with a newline. Which company types owe
// which filing is the module's table, not this section's.
func UnitedKingdomRules() string {
	return `## Deadlines (United Kingdom)

Two kinds, both filed with Companies House: ` + "`annual_accounts`" + ` and ` + "`confirmation_statement`" + `. A kind is listed
only when the company type owes it (the table of legal forms above): ` + "`mandatory`" + ` is true when every company of
the type owes it, and false when it depends on facts the register does not show (such as the s.448 exemption
of an unlimited company).

- **The register's published date wins.** ` + "`published_deadlines`" + ` carries the dates Companies House publishes
  (the next accounts' ` + "`due_on`" + ` and the confirmation statement's ` + "`next_due`" + `) verbatim; when one is present it is
  the deadline, even when it has passed: ` + "`days_until`" + ` is then negative and a note says the filing is overdue.
- **A computed date fills a gap** (Companies Act 2006): accounts are due 9 months after the end of the accounting
  reference period for a private company and 6 months for a public one (s.442), counted by the month-end rule of
  s.443 (6 months after 30 June is 31 December); the first accounts, of a first accounting reference period (one
  beginning on incorporation) longer than 12 months, are due 21 months (18 for a public company) after
  incorporation, or 3 months after the period end if later (s.442(3)); a later period keeps 9 or 6 months.
  The confirmation statement is due 14 days after the end of each review period; the first review period is the 12
  months beginning with incorporation (s.853A).
- **An overdue filing stays overdue.** When the register names the pending period (` + "`next_accounts.period_end_on`" + `,
  ` + "`confirmation_statement.next_made_up_to`" + `) but no due date, the computed date belongs to that period even when it
  has passed (negative ` + "`days_until`" + ` and a note). Only when the register names no period is the period derived from
  the incorporation date (with the default accounting reference date, the last day of the month of
  incorporation), and then the first due date on or after ` + "`today`" + ` is given.
- **No roll-forward.** UK deadlines do not move for weekends or bank holidays, so ` + "`due_date`" + ` always equals
  ` + "`statutory_date`" + `.
- **Who gets none.** A dissolved, removed or closed company and one in liquidation get no deadlines; a UK
  establishment (a branch of an overseas company, ` + "`is_subunit`" + `) gets none of its own, and a note points to the
  overseas company (` + "`parent_id`" + `). A company in administration, receivership or a voluntary arrangement keeps its
  deadlines, with a note naming the procedure: ss. 441, 442 and 853A make no exception for them.

Sources: ` + srcUKAccounts + ` (s.442), https://www.legislation.gov.uk/ukpga/2006/46/section/443 (s.443),
https://www.legislation.gov.uk/ukpga/2006/46/part/24 (s.853A), ` + srcUKConfirmation + `.
`
}
