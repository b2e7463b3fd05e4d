package deadlines

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
)

// TestSwedenAlternativeSchedules reproduces every row of the research
// note's table of alternative VAT schedules (monthly at most SEK 40
// million: SFL 26 kap. 26 §, the 17th in January and August; above SEK 40
// million: 26 kap. 30 §, the 26th, 27 December for November), which the
// engine does not list but the rules document states.
func TestSwedenAlternativeSchedules(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/sweden_worked_2026-2027.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	text = text[strings.Index(text, "Alternative VAT schedules"):]
	cell := regexp.MustCompile(`^\s*(\d{4}-\d{2}-\d{2}) \(\w{3}[^)]*\)(?: → (\d{4}-\d{2}-\d{2}))?\s*$`)
	rows := 0
	for _, line := range strings.Split(text, "\n") {
		cols := strings.Split(line, "|")
		if len(cols) != 5 || !regexp.MustCompile(`^\s*\d{4}-\d{2}\s*$`).MatchString(cols[1]) {
			continue
		}
		month, err := time.Parse("2006-01", strings.TrimSpace(cols[1]))
		if err != nil {
			t.Fatal(err)
		}
		for i, sched := range []func(int, time.Month) registry.Date{seMonthlyVAT, seMonthlyLarge} {
			m := cell.FindStringSubmatch(cols[2+i])
			if m == nil {
				if strings.TrimSpace(cols[2+i]) != "—" {
					t.Fatalf("cell %q", cols[2+i])
				}
				continue
			}
			rows++
			stat := sched(month.Year(), month.Month())
			due := rollForwardSweden(stat)
			wantDue := m[1]
			if m[2] != "" {
				wantDue = m[2]
			}
			if stat.String() != m[1] || due.String() != wantDue {
				t.Errorf("%s schedule %d: %s → %s, want %s → %s", cols[1], i, stat, due, m[1], wantDue)
			}
		}
	}
	if rows != 48 {
		t.Errorf("%d cells checked, want 48", rows)
	}
}

// TestSwedishDateRulesPublished: the rules reproduce the published tables
// the research note checked them against: arbetsgivardeklaration 2022 by
// day of month "17 14 14 12 12 13 12 17 12 12 14 12" (fortnox.se), and
// monthly VAT November 2022 to December 2023 (lnkonsult.se).
func TestSwedishDateRulesPublished(t *testing.T) {
	t.Parallel()
	var agd []int
	for m := time.December; m <= time.December+11; m++ { // pay months Dec 2021 .. Nov 2022
		agd = append(agd, rollForwardSweden(seEmployer(2021, m)).Day)
	}
	if got, want := agd, []int{17, 14, 14, 12, 12, 13, 12, 17, 12, 12, 14, 12}; !slices.Equal(got, want) {
		t.Errorf("AGD 2022 days %v, want %v", got, want)
	}
	var vat []string
	for m := time.November; m <= time.November+13; m++ { // Nov 2022 .. Dec 2023
		d := rollForwardSweden(seMonthlyVAT(2022, m))
		vat = append(vat, d.Time().Format("2/1"))
	}
	want := []string{"17/1", "13/2", "13/3", "12/4", "12/5", "12/6", "12/7", "17/8", "12/9", "12/10", "13/11", "12/12", "17/1", "12/2"}
	if strings.Join(vat, " ") != strings.Join(want, " ") {
		t.Errorf("monthly VAT %v, want %v", vat, want)
	}
}
