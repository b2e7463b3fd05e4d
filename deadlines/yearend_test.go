package deadlines_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/deadlines"
)

// TestFebruaryYearEnd checks a financial year that ends at the end of
// February in the two countries whose register gives a year end (Norway,
// Finland and France assume the calendar year; the United Kingdom reads
// full accounting reference dates): the year end is the last day of
// February in every year, 28 February in a common year and 29 February in
// a leap year, whichever of the two the register gave, and the annual
// deadlines fall on the last day of their month.
//
//   - Denmark: "Hvis regnskabsåret slutter på den sidste dag i en måned,
//     udløber indsendelsesfristen også den sidste dag i en måned"
//     (https://www.kovsted.dk/revision-u0026-regnskab/indsendelse-af-aarsrapporten/;
//     the research: "28/29 Feb + 6 = 31 Aug"), ÅRL § 138 stk. 1 (six
//     months, https://danskelove.dk/årsregnskabsloven/138-148), and
//     skattekontrolloven § 12 stk. 2 (an income year ending 1 February to
//     31 March: 1 September, https://danskelove.dk/skattekontrolloven/12).
//   - Sweden: the month-end convention of the research's tables (30 June →
//     31 January), ABL 7 kap. 10 § (six months, https://lagen.nu/2005:551),
//     ÅRL 8 kap. 6 § (seven months, https://lagen.nu/1995:1554) and SFL 32
//     kap. 2 § (a January–April year end: 1 November, 1 December
//     digitally).
func TestFebruaryYearEnd(t *testing.T) {
	t.Parallel()
	type row struct{ Kind, PeriodStart, PeriodEnd, Statutory string }
	for _, tt := range []struct {
		name    string
		country string
		day     int
		today   registry.Date
		want    []row
	}{
		{"DK 28 February, the year ending in leap 2028", "DK", 28, registry.NewDate(2028, 3, 1), []row{
			{"annual_report", "2027-03-01", "2028-02-29", "2028-08-31"},
			{"general_meeting", "2027-03-01", "2028-02-29", "2028-08-31"},
			{"tax_return", "2027-03-01", "2028-02-29", "2028-09-01"},
		}},
		{"DK 29 February, the year ending in common 2027", "DK", 29, registry.NewDate(2027, 3, 1), []row{
			{"annual_report", "2026-03-01", "2027-02-28", "2027-08-31"},
			{"general_meeting", "2026-03-01", "2027-02-28", "2027-08-31"},
			{"tax_return", "2026-03-01", "2027-02-28", "2027-09-01"},
		}},
		{"DK 29 February, the year ending in leap 2028", "DK", 29, registry.NewDate(2028, 3, 1), []row{
			{"annual_report", "2027-03-01", "2028-02-29", "2028-08-31"},
			{"general_meeting", "2027-03-01", "2028-02-29", "2028-08-31"},
			{"tax_return", "2027-03-01", "2028-02-29", "2028-09-01"},
		}},
		{"SE 28 February, the year ending in leap 2028", "SE", 28, registry.NewDate(2028, 3, 1), []row{
			{"annual_accounts", "2027-03-01", "2028-02-29", "2028-09-30"},
			{"general_meeting", "2027-03-01", "2028-02-29", "2028-08-31"},
			{"tax_return", "2027-03-01", "2028-02-29", "2028-12-01"},
		}},
		{"SE 29 February, the year ending in common 2027", "SE", 29, registry.NewDate(2027, 3, 1), []row{
			{"annual_accounts", "2026-03-01", "2027-02-28", "2027-09-30"},
			{"general_meeting", "2026-03-01", "2027-02-28", "2027-08-31"},
			{"tax_return", "2026-03-01", "2027-02-28", "2027-12-01"},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out *registry.DeadlineReport
			if tt.country == "DK" {
				duties := dkApSDuties()
				duties.YearEndMonth, duties.YearEndDay = time.February, tt.day
				out = deadlines.Denmark(dkApS(), duties, tt.today)
			} else {
				duties := seABDuties()
				duties.YearEndMonth, duties.YearEndDay = time.February, tt.day
				out = deadlines.Sweden(seAB(), duties, tt.today)
			}
			var got []row
			for _, d := range out.Deadlines {
				switch d.Kind {
				case "annual_report", deadlines.AnnualAccounts, deadlines.GeneralMeeting, deadlines.TaxReturn:
					got = append(got, row{string(d.Kind), d.PeriodStart.String(), d.PeriodEnd.String(), d.StatutoryDate.String()})
				}
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.SortSlices(func(a, b row) bool { return a.Kind < b.Kind })); diff != "" {
				t.Errorf("deadlines (-want +got):\n%s", diff)
			}
		})
	}
}
