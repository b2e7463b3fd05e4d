package deadlines

import (
	"strings"
	"testing"
)

// TestDenmarkRulesSection checks that the Danish rules section is a
// Markdown section naming every kind, every holiday and bank closing day,
// the moving rules and the sources it cites.
func TestDenmarkRulesSection(t *testing.T) {
	t.Parallel()
	doc := DenmarkRules()
	if !strings.HasPrefix(doc, "## Deadlines (Denmark)\n") || !strings.HasSuffix(doc, "\n") {
		t.Errorf("not a Markdown section ending in a newline: %q…", doc[:40])
	}
	want := []string{
		"`annual_report`", "`general_meeting`", "`tax_return`", "`tax_prepayment`", "`tax_balance`", "`vat_return`", "`employer_withholding`",
		"the company's own financial\nyear", "REGNSKABSÅR_SLUT", "FØRSTE_REGNSKABSPERIODE_START/SLUT", "**on or the day before**", "09:00",
		"next **bank day**", "17 August", "17 January", "first 18 months", "Store bededag (General Prayer Day): Easter Sunday + 26 days, until 2023",
		dkSrcARL138, dkSrcAnnualReport, dkSrcMeeting, dkSrcTaxReturn, dkSrcTaxReturn13, dkSrcPrepayment, dkSrcBalance, dkSrcVAT,
		dkSrcWithholding, dkSrcLargeEmp, dkSrcHolidays, dkSrcBankClosed,
	}
	for _, w := range want {
		if !strings.Contains(doc, w) {
			t.Errorf("missing %q", w)
		}
	}
	for _, h := range append(danishHolidays[:], danishBankClosingDays[:]...) {
		if !strings.Contains(doc, "- "+h.name+" ("+h.en+"): ") {
			t.Errorf("day %s missing", h.name)
		}
	}
}
