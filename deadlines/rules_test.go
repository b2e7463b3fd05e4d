package deadlines

import (
	"strings"
	"testing"
)

// TestRulesSections checks that the rules sections are Markdown sections
// naming every kind, the twelve holidays and the sources they cite.
func TestRulesSections(t *testing.T) {
	t.Parallel()
	no, gb := NorwayRules([]NorwegianDuties{profileAll("AS"), profileOwner("ENK")}), UnitedKingdomRules()
	for _, tt := range []struct {
		name, doc string
		want      []string
	}{
		{"Norway", no, []string{
			"## Deadlines (Norway)\n", "`vat_return`", "`payroll_report`", "`tax_return`", "`shareholder_register_statement`",
			"`annual_accounts`", "`general_meeting`", "**31 Aug**", "24 and 31 December are ordinary working days",
			"Andre påskedag (Easter Monday): Easter Sunday + 1 day\n", "Grunnlovsdag (Constitution Day): 17 May",
			"regnskapsloven § 1-7", srcVAT, srcPayroll, srcTaxReturn, srcShareholder, srcAccounts,
			"skatteforvaltningsforskriften §§ 7-7-1 to 7-7-3, the regulation to skatteforvaltningsloven § 7-7", "samvirkelova § 41 (1)",
			"| yes | AS, ENK always |", "| **no** | AS always; ENK only when facts the register does not show hold",
		}},
		{"United Kingdom", gb, []string{
			"## Deadlines (United Kingdom)\n", "`annual_accounts`", "`confirmation_statement`", "9 months", "6 months",
			"due 21 months (18 for a public company) after\n  incorporation", "a later period keeps 9 or 6 months", "14 days", "do not move for weekends or bank holidays", srcUKAccounts, srcUKConfirmation,
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if !strings.HasPrefix(tt.doc, "## ") || !strings.HasSuffix(tt.doc, "\n") {
				t.Errorf("not a Markdown section ending in a newline: %q…", tt.doc[:40])
			}
			for _, w := range tt.want {
				if !strings.Contains(tt.doc, w) {
					t.Errorf("missing %q", w)
				}
			}
		})
	}
	for _, h := range norwegianHolidays {
		if !strings.Contains(no, h.name+" ("+h.en+")") {
			t.Errorf("holiday %s missing from the Norway rules", h.name)
		}
	}
}
