package registry_test

import (
	"encoding/json"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
)

func TestParseDate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want registry.Date
		ok   bool
	}{
		{"2026-01-15", registry.Date{Year: 2026, Month: time.January, Day: 15}, true},
		{"2024-02-29", registry.Date{Year: 2024, Month: time.February, Day: 29}, true},
		{"2025-02-29", registry.Date{}, false}, // not a leap year
		{"2026-04-31", registry.Date{}, false},
		{"2026-13-01", registry.Date{}, false},
		{"2026-00-10", registry.Date{}, false},
		{"2026-01-00", registry.Date{}, false},
		{"2026-1-15", registry.Date{}, false},
		{"20260115", registry.Date{}, false},
		{"2026/01/15", registry.Date{}, false},
		{"2026-01-15T00:00:00Z", registry.Date{}, false},
		{" 2026-01-15", registry.Date{}, false},
		{"+026-01-15", registry.Date{}, false},
		{"2026-01-1a", registry.Date{}, false},
		{"", registry.Date{}, false},
		{"today", registry.Date{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			got, err := registry.ParseDate(tc.in)
			if (err == nil) != tc.ok || got != tc.want {
				t.Errorf("ParseDate(%q) = %v, %v; want %v ok=%v", tc.in, got, err, tc.want, tc.ok)
			}
		})
	}
}

func TestDateArithmetic(t *testing.T) {
	t.Parallel()
	d := registry.NewDate(2026, time.December, 31)
	if got := d.AddDays(1); got != registry.NewDate(2027, 1, 1) {
		t.Errorf("AddDays(1) = %v", got)
	}
	if got := registry.NewDate(2026, 6, 1).DaysSince(registry.NewDate(2026, 1, 15)); got != 137 {
		t.Errorf("DaysSince = %d, want 137", got)
	}
	if got := registry.NewDate(2026, 1, 15).DaysSince(registry.NewDate(2026, 6, 1)); got != -137 {
		t.Errorf("negative DaysSince = %d, want -137", got)
	}
	if got := registry.NewDate(2027, 7, 31).Weekday(); got != time.Saturday {
		t.Errorf("2027-07-31 is %v, want Saturday", got)
	}
	if !registry.NewDate(2026, 1, 1).Before(registry.NewDate(2026, 1, 2)) || registry.NewDate(2026, 1, 1).After(registry.NewDate(2026, 1, 1)) {
		t.Error("Before/After wrong")
	}
	if got := registry.NewDate(2024, 2, 1).DaysIn(); got != 29 {
		t.Errorf("DaysIn Feb 2024 = %d", got)
	}
	if got := registry.DateOf(time.Date(2026, 3, 1, 23, 30, 0, 0, time.UTC)); got.String() != "2026-03-01" {
		t.Errorf("DateOf = %v", got)
	}
}

func TestDateJSON(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(struct {
		D registry.Date  `json:"d"`
		P *registry.Date `json:"p"`
	}{D: registry.NewDate(987, 3, 4)})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"d":"0987-03-04","p":null}` {
		t.Errorf("got %s", b)
	}
	var d registry.Date
	if err := json.Unmarshal([]byte(`"2026-02-30"`), &d); err == nil {
		t.Error("decoded an impossible date")
	}
}

// FuzzParseDate: ParseDate never panics, and whatever it accepts prints back
// to the same string.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2026-01-15", "2024-02-29", "2025-02-29", "0000-00-00", "9999-12-31", "", "2026-1-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := registry.ParseDate(s)
		if err != nil {
			return
		}
		if d.String() != s {
			t.Errorf("ParseDate(%q) = %v, which prints differently", s, d)
		}
		if d.AddDays(0) != d {
			t.Errorf("ParseDate(%q) = %v is not a normalised date", s, d)
		}
	})
}

// TestDateArithmeticAgainstTime: AddDays, DaysSince and Weekday agree with
// package time, day by day, over 1600–2400, and stay exact over spans longer
// than a time.Duration can hold (about 292 years).
func TestDateArithmeticAgainstTime(t *testing.T) {
	t.Parallel()
	epoch := registry.NewDate(1970, 1, 1)
	start := time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC)
	d := registry.DateOf(start)
	for tm := start; tm.Year() < 2400; tm = tm.AddDate(0, 0, 1) {
		want := registry.DateOf(tm)
		if d != want {
			t.Fatalf("AddDays walked to %v, want %v", d, want)
		}
		if d.Weekday() != tm.Weekday() {
			t.Fatalf("%v: Weekday %v, want %v", d, d.Weekday(), tm.Weekday())
		}
		if got, want := d.DaysSince(epoch), int(tm.Unix()/86400); got != want {
			t.Fatalf("%v: DaysSince(1970-01-01) = %d, want %d", d, got, want)
		}
		d = d.AddDays(1)
	}
	if got := registry.NewDate(2400, 1, 1).DaysSince(registry.NewDate(2000, 1, 1)); got != 146097 {
		t.Errorf("2000-01-01 to 2400-01-01 = %d days, want 146097", got)
	}
	if got := (registry.Date{Year: 2025, Month: time.February, Day: 30}).AddDays(0); got != registry.NewDate(2025, 3, 2) {
		t.Errorf("an out-of-range date normalises like NewDate: %v", got)
	}
}
