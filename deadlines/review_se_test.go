package deadlines_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
)

// TestReview_SEYearEndFebruary29: a financial year that ends at the end of
// February. se-deadlines.md ("Financial year": "the latest
// rapporteringsperiodTom gives the year-end month and day") and the
// month-end convention the research's tables follow (ÅRL 8 kap. 6 §, ABL
// 7 kap. 10 §, SFL 3 kap. 5 § / 32 kap. 2 §; "30 June → 31 January"):
//
//   - the latest report ends 2024-02-29 (a leap year): the year ending
//     28 February 2026 has its meeting by 31 August 2026, Bolagsverket's
//     late-fee date 30 September 2026, INK2 (January–April group)
//     1 December 2026 digitally. The engine must not fall back to the
//     calendar year and claim the register gave no year end;
//   - the latest report ends 2025-02-28: the year ending in 2028 ends on
//     29 February 2028 (the last day of February), so 31 August 2028 and
//     30 September 2028, not the 28th.
func TestReview_SEYearEndFebruary29(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		day   int
		today registry.Date
		want  map[registry.DeadlineKind]string
	}{
		{"report ending 2024-02-29", 29, registry.NewDate(2026, 3, 1), map[registry.DeadlineKind]string{
			deadlines.GeneralMeeting: "2026-08-31", deadlines.AnnualAccounts: "2026-09-30", deadlines.TaxReturn: "2026-12-01",
		}},
		{"report ending 2025-02-28, year ending in leap 2028", 28, registry.NewDate(2028, 3, 1), map[registry.DeadlineKind]string{
			deadlines.GeneralMeeting: "2028-08-31", deadlines.AnnualAccounts: "2028-09-30", deadlines.TaxReturn: "2028-12-01",
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			duties := seABDuties()
			duties.YearEndMonth, duties.YearEndDay = time.February, tt.day
			duties.YearEndSource = "the annual report (Bolagsverket's list of filed annual reports)"
			out := deadlines.Sweden(seAB(), duties, tt.today)
			got := map[registry.DeadlineKind]string{}
			for _, d := range out.Deadlines {
				switch d.Kind {
				case deadlines.GeneralMeeting, deadlines.AnnualAccounts, deadlines.TaxReturn:
					got[d.Kind] = d.StatutoryDate.String()
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("statutory dates (-want +got):\n%s", diff)
			}
			if slices.ContainsFunc(out.Notes, func(n string) bool { return strings.Contains(n, "assumed to be the calendar year") }) {
				t.Errorf("the notes claim the register gave no year end although it gave one")
			}
		})
	}
}
