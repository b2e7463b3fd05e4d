package deadlines_test

import (
	"strings"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
)

// TestReview_DKRolledDueDateOnBankClosingDay: the rules document says that
// whether a bank closing day (banklukkedag) moves a tax deadline is not
// settled, "in 2025–2031 no date computed here falls on one" (the research
// note checked only the statutory days: "no 1st, 10th, 17th, 20th, 25th …
// lands on … a Friday after Ascension"). A rolled date does: the 10th of
// May 2029 is Ascension Day (Easter 1 April 2029 + 39), so a small
// employer's withholding for April 2029 rolls to Friday 11 May 2029, the
// Friday after Ascension, a bank closing day (Danmarks Nationalbank,
// banklukkedage); and monthly VAT for April 2028 is due on 25 May 2028,
// Ascension Day (Easter 16 April 2028 + 39), and rolls to Friday 26 May
// 2028, also a bank closing day. If lov nr. 324/2019 ("udskydelse af
// betalingsfrist ved banklukkedage") applies, both move to Monday. Either
// the document's sentence is untrue, or the engine must say so in notes.
func TestReview_DKRolledDueDateOnBankClosingDay(t *testing.T) {
	t.Parallel()
	claim := "in 2025–2031 no date computed here\nfalls on one"
	rules := deadlines.DenmarkRules()
	claimed := strings.Contains(strings.Join(strings.Fields(rules), " "), strings.Join(strings.Fields(claim), " "))

	for _, tt := range []struct {
		name  string
		vat   deadlines.DanishVATPeriod
		today registry.Date
		kind  registry.DeadlineKind
		due   registry.Date
	}{
		{"small employer, pay April 2029", deadlines.DanishVATHalfYearly, registry.NewDate(2029, 5, 1),
			deadlines.EmployerWithholding, registry.NewDate(2029, 5, 11)},
		{"monthly VAT, April 2028", deadlines.DanishVATMonthly, registry.NewDate(2028, 5, 1),
			"vat_return", registry.NewDate(2028, 5, 26)},
	} {
		duties := dkApSDuties()
		duties.VATPeriod = tt.vat
		out := deadlines.Denmark(dkApS(), duties, tt.today)
		d, ok := findKind(out, tt.kind)
		if !ok || d.DueDate != tt.due {
			t.Fatalf("%s: %s due %v, want %s", tt.name, tt.kind, d.DueDate, tt.due)
		}
		if deadlines.DanishBankDay(d.DueDate) {
			t.Fatalf("%s: %s should be a bank closing day", tt.name, d.DueDate)
		}
		noted := false
		for _, n := range out.Notes {
			if strings.Contains(n, d.DueDate.String()) && strings.Contains(strings.ToLower(n), "bank") {
				noted = true
			}
		}
		if claimed || !noted {
			t.Errorf("%s: the %s due date %s (%s) is a bank closing day; the rules document claims none is in 2025–2031 (%v) "+
				"and no note says that the date may move to the next bank day (%v)", tt.name, tt.kind, d.DueDate, d.DueDate.Weekday(),
				claimed, noted)
		}
	}
}
