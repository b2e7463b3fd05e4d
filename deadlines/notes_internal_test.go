package deadlines

import "testing"

// TestNamesDateAfter9999: finish drops the notes that name a date with a
// year of five digits or more, as registry.Date writes a year after 9999,
// and keeps every other note (rev-read10: a note of a kind left out that
// names only writable dates stays).
func TestNamesDateAfter9999(t *testing.T) {
	t.Parallel()
	for n, want := range map[string]bool{
		"tax_return: 10000-06-30 falls on a Sunday":                         true,
		"… by 09:00 on Monday 10000-07-03.":                                 true,
		"quarterly here until 123456-01-31":                                 true,
		"tax_return: the return for 9998 was due on 9999-05-04":             false,
		"Deadlines with a date outside the years 0000 to 9999 are left out": false,
		"a year 10000 named without a date":                                 false,
		"10000-6-30 is not written so":                                      false,
		"10000-06-3":                                                        false,
		"":                                                                  false,
	} {
		if got := namesDateAfter9999(n); got != want {
			t.Errorf("namesDateAfter9999(%q) = %v, want %v", n, got, want)
		}
	}
}
