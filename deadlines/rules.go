package deadlines

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
