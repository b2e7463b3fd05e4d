package deadlines

import (
	"slices"
	"strings"

	registry "github.com/companyregistry/registry"
)

// newReport returns an empty report for rep, with the country and registry
// of rep or the given defaults.
func newReport(rep *registry.CompanyReport, today registry.Date, country, reg string) *registry.DeadlineReport {
	out := &registry.DeadlineReport{
		Country: country, Registry: reg, Today: today,
		Deadlines: []registry.Deadline{}, Notes: []string{},
	}
	if rep != nil {
		if rep.Country != "" {
			out.Country = rep.Country
		}
		if rep.Registry != "" {
			out.Registry = rep.Registry
		}
		out.CompanyID = rep.ID
		out.CompanyName = registry.StringOrNil(rep.Name)
	}
	return out
}

// sortDeadlines orders ds by due date, then kind.
func sortDeadlines(ds []registry.Deadline) {
	slices.SortFunc(ds, func(a, b registry.Deadline) int {
		if c := a.DueDate.Compare(b.DueDate); c != 0 {
			return c
		}
		return strings.Compare(a.Kind, b.Kind)
	})
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// firstOf returns the first non-nil, non-zero date.
func firstOf(ds ...*registry.Date) *registry.Date {
	for _, d := range ds {
		if d != nil && !d.IsZero() {
			return d
		}
	}
	return nil
}
