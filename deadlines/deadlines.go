package deadlines

import (
	"slices"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// unusable adds the note of a missing report or an implausible today (and
// the engine's notes) to out and reports true when an engine has nothing to
// compute from.
func unusable(out *registry.DeadlineReport, rep *registry.CompanyReport, today registry.Date, notes ...string) bool {
	switch {
	case rep == nil:
		out.Notes = append(out.Notes, "No company report was given, so no deadlines are computed.")
	case !plausible(today):
		out.Notes = append(out.Notes, noteImplausibleToday)
	default:
		return false
	}
	out.Notes = append(out.Notes, notes...)
	return true
}

// newReport returns an empty report for rep, with the country and registry
// of rep or the given defaults, and room for the given number of kinds.
func newReport(rep *registry.CompanyReport, today registry.Date, country, reg string, kinds int) *registry.DeadlineReport {
	out := &registry.DeadlineReport{
		Country: country, Registry: reg, Today: today,
		Deadlines: make([]registry.Deadline, 0, kinds), Notes: make([]string, 0, 4),
	}
	if rep != nil {
		if rep.Country != "" {
			out.Country = rep.Country
		}
		if rep.Registry != "" {
			out.Registry = rep.Registry
		}
		out.CompanyID = rep.ID
		out.CompanyName = countrykit.StringOrNil(rep.Name)
	}
	return out
}

// finish leaves out of out the deadlines with a date that cannot be
// written YYYY-MM-DD (a year before 0 or after 9999: a today late in 9999
// has next occurrences in 10000), with a note that says so, and the notes
// that name a date after 9999 (a roll-forward of such a deadline, a
// period that ends then), whether or not a deadline was left out; it
// orders the rest by due date, then kind. It reports whether it left a
// deadline out.
func finish(out *registry.DeadlineReport) (dropped bool) {
	kept := out.Deadlines[:0]
	for _, d := range out.Deadlines {
		if writable(d.StatutoryDate) && writable(d.DueDate) &&
			(d.PeriodStart == nil || writable(*d.PeriodStart)) && (d.PeriodEnd == nil || writable(*d.PeriodEnd)) {
			kept = append(kept, d)
		}
	}
	out.Notes = slices.DeleteFunc(out.Notes, namesDateAfter9999)
	if dropped = len(kept) < len(out.Deadlines); dropped {
		clear(out.Deadlines[len(kept):])
		out.Deadlines = kept
		out.Notes = append(out.Notes, noteUnwritable)
	}
	sortDeadlines(out.Deadlines)
	return dropped
}

// namesDateAfter9999 reports whether n holds a date as registry.Date
// writes one with a year after 9999: five digits or more, then -MM-DD.
func namesDateAfter9999(n string) bool {
	digits := 0
	for i := 0; i < len(n); i++ {
		if c := n[i]; c >= '0' && c <= '9' {
			digits++
			continue
		}
		if digits >= 5 && i+6 <= len(n) && n[i] == '-' && isDigits(n[i+1:i+3]) && n[i+3] == '-' && isDigits(n[i+4:i+6]) {
			return true
		}
		digits = 0
	}
	return false
}

// isDigits reports whether s is all ASCII digits.
func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// noteUnwritable is the note of deadlines left out by finish.
const noteUnwritable = "Deadlines with a date outside the years 0000 to 9999 are left out: dates are written YYYY-MM-DD."

// writable reports whether d's year can be written YYYY-MM-DD (0 to 9999,
// as registry.ParseDate reads it).
func writable(d registry.Date) bool { return d.Year >= 0 && d.Year <= 9999 }

// sortDeadlines orders ds by due date, then kind.
func sortDeadlines(ds []registry.Deadline) {
	slices.SortFunc(ds, func(a, b registry.Deadline) int {
		if c := a.DueDate.Compare(b.DueDate); c != 0 {
			return c
		}
		return strings.Compare(string(a.Kind), string(b.Kind))
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

// plausible reports whether d's year is within ±maxYear, the range of dates
// a report can carry (they are written YYYY-MM-DD). Dates outside it are
// ignored, so that absurd input can neither overflow the arithmetic nor
// make a loop run for ever.
func plausible(d registry.Date) bool { return d.Year >= -maxYear && d.Year <= maxYear }

// usable returns d brought into range by normalize, and whether d is set
// (non-nil and non-zero) and plausible both as given and once normalized:
// 9999-13-01 is plausible as given but normalizes to 10000-01-01, which is
// not.
func usable(d *registry.Date) (registry.Date, bool) {
	if d == nil || d.IsZero() || !plausible(*d) {
		return registry.Date{}, false
	}
	n := normalize(*d)
	return n, plausible(n)
}

// noteImplausibleToday is the note for a today outside the supported years.
const noteImplausibleToday = "today is outside the years -9999 to 9999, so no deadlines are computed."
