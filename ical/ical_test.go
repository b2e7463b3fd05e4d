package ical_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	goical "github.com/emersion/go-ical"
	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/no"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/ical"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// norwayReport is the deadline report of a VAT-registered Norwegian AS with
// employees, whose name needs escaping (comma, semicolon, backslash,
// non-ASCII letters), seen on 2026-01-15.
func norwayReport(t testing.TB) *registry.DeadlineReport {
	t.Helper()
	rep := countrykit.NewReport("NO", "brreg", "923609016", `ÆRLIG BYGG, TRANSPORT & SØNN AS; AVD. ØST \ VEST`)
	rep.LegalFormCode = countrykit.Ptr("AS")
	rep.Status = registry.StatusActive
	rep.VATRegistered = countrykit.Ptr(true)
	rep.EmployeesReported = countrykit.Ptr(true)
	rep.FoundedAt = countrykit.Ptr(registry.NewDate(2012, 5, 3))
	nor, err := no.New()
	if err != nil {
		t.Fatal(err)
	}
	out, err := nor.Deadlines(rep, registry.NewDate(2026, 1, 15))
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Deadlines) == 0 {
		t.Fatal("the fixture company has no deadlines")
	}
	return out
}

func write(t testing.TB, rep *registry.DeadlineReport) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := ical.Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// checkLines checks the physical form: every line ends in CRLF, none is
// longer than 75 octets, and no line starts inside a UTF-8 sequence.
func checkLines(t *testing.T, b []byte) {
	t.Helper()
	if !bytes.HasSuffix(b, []byte("\r\n")) {
		t.Error("the calendar does not end with CRLF")
	}
	lines := bytes.Split(bytes.TrimSuffix(b, []byte("\r\n")), []byte("\r\n"))
	for i, l := range lines {
		if bytes.ContainsAny(l, "\r\n") {
			t.Errorf("line %d holds a bare CR or LF: %q", i+1, l)
		}
		if len(l) > 75 {
			t.Errorf("line %d is %d octets long: %q", i+1, len(l), l)
		}
		if !utf8.Valid(l) {
			t.Errorf("line %d is not valid UTF-8 on its own (a fold split a sequence): %q", i+1, l)
		}
	}
}

func TestWriteGolden(t *testing.T) {
	t.Parallel()
	b := write(t, norwayReport(t))
	checkLines(t, b)
	golden(t, "no_as_2026-01-15.ics", b)
}

// TestParsedMatchesReport parses the feed with a real iCalendar parser and
// compares each event with its deadline.
func TestParsedMatchesReport(t *testing.T) {
	t.Parallel()
	rep := norwayReport(t)
	cal, err := goical.NewDecoder(bytes.NewReader(write(t, rep))).Decode()
	if err != nil {
		t.Fatal(err)
	}
	name, err := cal.Props.Text("X-WR-CALNAME")
	if err != nil {
		t.Fatal(err)
	}
	if want := *rep.CompanyName + ": filing deadlines"; name != want {
		t.Errorf("X-WR-CALNAME %q, want %q", name, want)
	}
	if got := cal.Props.Get(goical.PropVersion).Value; got != "2.0" {
		t.Errorf("VERSION %q", got)
	}
	events := cal.Events()
	if len(events) != len(rep.Deadlines) {
		t.Fatalf("%d events, want %d", len(events), len(rep.Deadlines))
	}
	seen := map[string]bool{}
	for i, ev := range events {
		d := rep.Deadlines[i]
		uid, err := ev.Props.Text(goical.PropUID)
		if err != nil {
			t.Fatal(err)
		}
		if uid != ical.UID(rep.Country, rep.CompanyID, d) || seen[uid] {
			t.Errorf("event %d: UID %q, want the unique %q", i, uid, ical.UID(rep.Country, rep.CompanyID, d))
		}
		seen[uid] = true
		start, err := ev.DateTimeStart(nil)
		if err != nil {
			t.Fatal(err)
		}
		end, err := ev.DateTimeEnd(nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := registry.DateOf(start); got != d.DueDate {
			t.Errorf("event %d (%s): DTSTART %s, want the due date %s", i, d.Kind, got, d.DueDate)
		}
		if got := registry.DateOf(end); got != d.DueDate.AddDays(1) {
			t.Errorf("event %d: DTEND %s, want the day after %s", i, got, d.DueDate)
		}
		if v := ev.Props.Get(goical.PropDateTimeStart).ValueType(); v != goical.ValueDate {
			t.Errorf("event %d: DTSTART is a %s, want an all-day DATE", i, v)
		}
		desc, err := ev.Props.Text(goical.PropDescription)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(desc, d.AppliesBecause) || d.SourceURL == nil || !strings.Contains(desc, *d.SourceURL) {
			t.Errorf("event %d: DESCRIPTION lacks the legal basis or the source URL:\n%s", i, desc)
		}
		summary, err := ev.Props.Text(goical.PropSummary)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(summary, *rep.CompanyName) {
			t.Errorf("event %d: SUMMARY %q lacks the company name", i, summary)
		}
		stamp, err := ev.Props.DateTime(goical.PropDateTimeStamp, nil)
		if err != nil {
			t.Fatal(err)
		}
		if registry.DateOf(stamp) != rep.Today || stamp.Hour() != 0 {
			t.Errorf("event %d: DTSTAMP %s, want midnight UTC of %s", i, stamp, rep.Today)
		}
	}
}

// TestUIDStable: the same company, kind and period keep their UID when the
// feed is made again another day, and when a due date moves.
func TestUIDStable(t *testing.T) {
	t.Parallel()
	rep := norwayReport(t)
	again := norwayReport(t)
	if !bytes.Equal(write(t, rep), write(t, again)) {
		t.Error("two feeds of the same report differ")
	}
	d := rep.Deadlines[0]
	moved := d
	moved.DueDate = d.DueDate.AddDays(3)
	moved.StatutoryDate = d.StatutoryDate.AddDays(3)
	if ical.UID("NO", "923609016", d) != ical.UID("NO", "923609016", moved) {
		t.Error("the UID changed with the due date of the same period")
	}
	other := d
	other.PeriodEnd = countrykit.Ptr(d.PeriodEnd.AddDays(40))
	if ical.UID("NO", "923609016", d) == ical.UID("NO", "923609016", other) {
		t.Error("two periods share a UID")
	}
	if got := ical.UID("G B", "a-b", registry.Deadline{Kind: "x", StatutoryDate: registry.NewDate(2026, 1, 2)}); got != "G%20B-a%2Db-x-due-2026-01-02@companyregistry" {
		t.Errorf("UID %q", got)
	}
}

func TestWriteEmptyAndNameless(t *testing.T) {
	t.Parallel()
	rep := &registry.DeadlineReport{Country: "GB", Registry: "companies_house", CompanyID: "08957400",
		Today: registry.NewDate(2026, 11, 24), Notes: []string{"The company is dissolved; it has no deadlines."}}
	b := write(t, rep)
	checkLines(t, b)
	cal, err := goical.NewDecoder(bytes.NewReader(b)).Decode()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(cal.Events()); n != 0 {
		t.Errorf("%d events, want 0", n)
	}
	if name, _ := cal.Props.Text("X-WR-CALNAME"); name != "GB 08957400: filing deadlines" {
		t.Errorf("X-WR-CALNAME %q", name)
	}
}

type failWriter struct{}

var errWrite = errors.New("disk full")

func (failWriter) Write([]byte) (int, error) { return 0, errWrite }

func TestWriteErrors(t *testing.T) {
	t.Parallel()
	if err := ical.Write(&bytes.Buffer{}, nil); err == nil {
		t.Error("nil report: no error")
	}
	if err := ical.Write(failWriter{}, norwayReport(t)); !errors.Is(err, errWrite) {
		t.Errorf("failing writer: %v, want the write error", err)
	}
	rep := norwayReport(t)
	rep.Deadlines[0].DueDate = registry.Date{Year: 10000, Month: 1, Day: 1}
	if err := ical.Write(&bytes.Buffer{}, rep); err == nil {
		t.Error("year 10000: no error")
	}
}

// normalize is what a TEXT value read back must equal: invalid UTF-8 as
// U+FFFD, CRLF and lone CR as LF, other controls but tab as a space.
func normalize(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\r':
			b.WriteByte('\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				size++
			}
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r) // RuneError for a byte of invalid UTF-8
		}
		i += size
	}
	return b.String()
}

// FuzzTextRoundTrip puts any text in the company name and a deadline's
// name, writes the feed, checks its lines, parses it with a real parser
// and reads the text back.
func FuzzTextRoundTrip(f *testing.F) {
	for _, s := range []string{"", "a,b;c\\d", "line\r\nnext\rthird\n", strings.Repeat("ø", 80),
		strings.Repeat("x", 74) + "€" + strings.Repeat("𝄞", 30), "\x00\x01\x7f\t", "\xff\xfe bad", `\n literal`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rep := &registry.DeadlineReport{Country: "NO", Registry: "brreg", CompanyID: "923609016", CompanyName: &s,
			Today: registry.NewDate(2026, 1, 15),
			Deadlines: []registry.Deadline{{Kind: "tax_return", Name: s, Authority: s, AppliesBecause: s,
				StatutoryDate: registry.NewDate(2026, 5, 31), DueDate: registry.NewDate(2026, 6, 1)}}}
		b := write(t, rep)
		checkLines(t, b)
		cal, err := goical.NewDecoder(bytes.NewReader(b)).Decode()
		if err != nil {
			t.Fatalf("parse: %v\n%q", err, b)
		}
		ev := cal.Events()
		if len(ev) != 1 {
			t.Fatalf("%d events", len(ev))
		}
		want := normalize(s)
		if strings.TrimSpace(s) == "" {
			// A blank name gives the country and identifier instead.
			want = "NO 923609016"
		}
		if got, err := cal.Props.Text("X-WR-CALNAME"); err != nil || got != want+": filing deadlines" {
			t.Errorf("X-WR-CALNAME %q (%v), want %q", got, err, want+": filing deadlines")
		}
		if got, err := ev[0].Props.Text(goical.PropSummary); err != nil || got != normalize(s)+": "+want {
			t.Errorf("SUMMARY %q (%v), want %q", got, err, normalize(s)+": "+want)
		}
	})
}

// TestWriteLastWritableDay: a deadline due 9999-12-31 ends with a one-day
// DURATION, since the day after (DTEND) has no four-digit year; every other
// event keeps its DTEND (rev-fix10,
// TestReview_ICSOfDeadlineDueOn99991231WritesNineDigitDTEND).
func TestWriteLastWritableDay(t *testing.T) {
	t.Parallel()
	rep := norwayReport(t)
	rep.Deadlines = rep.Deadlines[:2]
	rep.Deadlines[0].DueDate = registry.NewDate(9999, 12, 30)
	rep.Deadlines[1].DueDate = registry.NewDate(9999, 12, 31)
	var got []string
	for _, l := range strings.Split(string(write(t, rep)), "\r\n") {
		if strings.HasPrefix(l, "DTSTART") || strings.HasPrefix(l, "DTEND") || strings.HasPrefix(l, "DURATION") {
			got = append(got, l)
		}
	}
	want := []string{"DTSTART;VALUE=DATE:99991230", "DTEND;VALUE=DATE:99991231", "DTSTART;VALUE=DATE:99991231", "DURATION:P1D"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
