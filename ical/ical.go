// Package ical writes a [registry.DeadlineReport] as an iCalendar feed
// (RFC 5545), so that a calendar program can subscribe to a company's filing
// deadlines: one all-day event per deadline on its due date.
//
// The output depends on the report alone, never on the clock: the same
// report gives the same bytes, and the UID of an event stays the same for the
// same company, kind and period, so that a subscribed calendar updates an
// event (a due date that moved) instead of adding a second one. The package
// does no I/O besides writing to the given [io.Writer].
package ical

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	registry "github.com/companyregistry/registry"
)

// ContentType is the media type of the feed [Write] produces.
const ContentType = "text/calendar; charset=utf-8"

// ProdID is the PRODID of the feed: the product that wrote it.
const ProdID = "-//companyregistry//filing deadlines//EN"

// UIDDomain is the right-hand side of every event's UID.
const UIDDomain = "companyregistry"

// maxLine is the longest content line RFC 5545 §3.1 allows, in octets,
// without the line break.
const maxLine = 75

// errNilReport is the error of [Write] for a nil report.
var errNilReport = errors.New("ical: nil DeadlineReport")

// Write writes rep to w as an iCalendar object: a VCALENDAR named after the
// company (X-WR-CALNAME) with one VEVENT per deadline, in the report's
// order. Each event lasts the whole due date (DTSTART;VALUE=DATE, DTEND the
// day after; DURATION:P1D for a date due 9999-12-31), its SUMMARY is the deadline's name and the company's, and its
// DESCRIPTION holds the period, the authority, why the duty applies (the
// deadline's legal basis), the statutory date when it was rolled forward,
// and the source URL, which is also the event's URL.
//
// DTSTAMP is midnight UTC of the report's today: the feed is a function of
// the report, so two calls for the same company and today give identical
// bytes. Lines end in CRLF and are folded at 75 octets, never inside a UTF-8
// sequence; text is escaped as RFC 5545 §3.3.11 says, with invalid UTF-8 and
// control characters other than a line break replaced.
//
// A report without deadlines gives a calendar without events. RFC 5545 asks
// for at least one component; calendar programs accept an empty calendar,
// and a placeholder event would put a false date in them.
//
// It returns an error for a nil report, a date outside the years 0 to 9999,
// or a failed write.
func Write(w io.Writer, rep *registry.DeadlineReport) error {
	if rep == nil {
		return errNilReport
	}
	if err := checkDate(rep.Today); err != nil {
		return err
	}
	for _, d := range rep.Deadlines {
		if err := checkDate(d.DueDate); err != nil {
			return err
		}
		if err := checkDate(d.StatutoryDate); err != nil {
			return err
		}
	}
	bw := bufio.NewWriter(w)
	e := &encoder{w: bw}
	company := companyLabel(rep)
	e.line("BEGIN", "VCALENDAR")
	e.line("VERSION", "2.0")
	e.line("PRODID", ProdID)
	e.line("CALSCALE", "GREGORIAN")
	e.line("METHOD", "PUBLISH")
	e.line("X-WR-CALNAME", escapeText(company+": filing deadlines"))
	calDesc := fmt.Sprintf("Statutory filing deadlines of %s (%s %s), computed on %s.", company, rep.Country, rep.CompanyID, rep.Today)
	for _, n := range rep.Notes {
		calDesc += "\n" + n
	}
	e.line("X-WR-CALDESC", escapeText(calDesc))
	stamp := basicDate(rep.Today) + "T000000Z"
	for _, d := range rep.Deadlines {
		e.line("BEGIN", "VEVENT")
		e.line("UID", escapeText(UID(rep.Country, rep.CompanyID, d)))
		e.line("DTSTAMP", stamp)
		e.line("DTSTART;VALUE=DATE", basicDate(d.DueDate))
		if end := d.DueDate.AddDays(1); checkDate(end) == nil {
			e.line("DTEND;VALUE=DATE", basicDate(end))
		} else {
			// Due 9999-12-31: the day after has no four-digit year, and
			// a one-day DURATION says the same (RFC 5545 §3.6.1).
			e.line("DURATION", "P1D")
		}
		e.line("SUMMARY", escapeText(d.Name+": "+company))
		e.line("DESCRIPTION", escapeText(description(d)))
		e.line("CATEGORIES", escapeText(string(d.Kind)))
		if d.SourceURL != nil && validURI(*d.SourceURL) {
			e.line("URL", *d.SourceURL)
		}
		e.line("TRANSP", "TRANSPARENT")
		e.line("END", "VEVENT")
	}
	e.line("END", "VCALENDAR")
	if e.err != nil {
		return e.err
	}
	return bw.Flush()
}

// UID returns the UID of the event of deadline d of the company country/id:
// "<country>-<id>-<kind>-<period>@companyregistry", where period is the
// deadline's period end (YYYY-MM-DD), else its period start, else its
// statutory date. It is the same for the same company, kind and period
// across calls and days, including when the due date of that period moves.
// id is the report's canonical company_id.
func UID(country, id string, d registry.Deadline) string {
	var period string
	switch {
	case d.PeriodEnd != nil:
		period = d.PeriodEnd.String()
	case d.PeriodStart != nil:
		period = "from-" + d.PeriodStart.String()
	default:
		period = "due-" + d.StatutoryDate.String()
	}
	return uidPart(country) + "-" + uidPart(id) + "-" + uidPart(string(d.Kind)) + "-" + period + "@" + UIDDomain
}

// uidPart keeps letters, digits, '.' and '_' of s and writes every other
// byte as %XX, so that parts cannot run into each other and the UID is
// plain ASCII.
func uidPart(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// companyLabel is the company's name, or its country and identifier when
// the report has no name.
func companyLabel(rep *registry.DeadlineReport) string {
	if rep.CompanyName != nil && strings.TrimSpace(*rep.CompanyName) != "" {
		return *rep.CompanyName
	}
	return rep.Country + " " + rep.CompanyID
}

// description is the DESCRIPTION text of a deadline's event, one fact per
// line.
func description(d registry.Deadline) string {
	var b strings.Builder
	name := d.Name
	if d.LocalName != nil && *d.LocalName != "" {
		name += " (" + *d.LocalName + ")"
	}
	fmt.Fprintf(&b, "%s, due %s.\n", name, d.DueDate)
	if d.PeriodLabel != nil && *d.PeriodLabel != "" {
		fmt.Fprintf(&b, "Period: %s.\n", *d.PeriodLabel)
	}
	fmt.Fprintf(&b, "Filed with: %s.\n", d.Authority)
	fmt.Fprintf(&b, "Legal basis: %s\n", d.AppliesBecause)
	if d.RolledForward {
		fmt.Fprintf(&b, "The statutory date %s is not a working day; the due date is the next one.\n", d.StatutoryDate)
	}
	if !d.Mandatory {
		b.WriteString("Applies only if the company meets the conditions above.\n")
	}
	if d.SourceURL != nil && *d.SourceURL != "" {
		fmt.Fprintf(&b, "Source: %s\n", *d.SourceURL)
	}
	rec := d.Recurrence
	if rec == "" {
		rec = registry.RecurrenceAnnual // the zero value's meaning
	}
	fmt.Fprintf(&b, "Kind: %s; recurrence: %s.", d.Kind, rec)
	return b.String()
}

// checkDate rejects a date that iCalendar's four-digit years cannot hold.
func checkDate(d registry.Date) error {
	if d.Year < 0 || d.Year > 9999 {
		return fmt.Errorf("ical: date %d-%02d-%02d is outside the years 0 to 9999", d.Year, d.Month, d.Day)
	}
	return nil
}

// basicDate writes d in the basic format YYYYMMDD of RFC 5545 §3.3.4.
func basicDate(d registry.Date) string {
	return fmt.Sprintf("%04d%02d%02d", d.Year, int(d.Month), d.Day)
}

// validURI reports whether s can be written unescaped as a URI value: an
// http or https URL of printable ASCII without spaces.
func validURI(s string) bool {
	if !strings.HasPrefix(s, "https://") && !strings.HasPrefix(s, "http://") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// escapeText escapes s as an iCalendar TEXT value (RFC 5545 §3.3.11):
// backslash, semicolon and comma get a backslash, a line break (LF, CRLF or
// a lone CR) becomes \n. Invalid UTF-8 becomes U+FFFD and every other
// control character (which TEXT cannot hold) a space.
func escapeText(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\\' || r == ';' || r == ',':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\r':
			b.WriteString(`\n`)
			if i+1 < len(s) && s[i+1] == '\n' {
				size++
			}
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// encoder writes content lines, folded, and keeps the first write error.
type encoder struct {
	w   *bufio.Writer
	err error
}

// line writes the content line name:value (value already escaped) folded
// at 75 octets, each line ended by CRLF.
func (e *encoder) line(name, value string) {
	if e.err != nil {
		return
	}
	e.err = writeFolded(e.w, name+":"+value)
}

// writeFolded writes line with CRLF endings, folded so that no physical
// line exceeds 75 octets: a continuation line starts with one space, and a
// fold never falls inside a UTF-8 sequence.
func writeFolded(w *bufio.Writer, line string) error {
	limit := maxLine
	for len(line) > limit {
		cut := limit
		for cut > limit-utf8.UTFMax && !utf8.RuneStart(line[cut]) {
			cut--
		}
		if _, err := w.WriteString(line[:cut]); err != nil {
			return err
		}
		if _, err := w.WriteString("\r\n "); err != nil {
			return err
		}
		line = line[cut:]
		limit = maxLine - 1 // the leading space counts
	}
	if _, err := w.WriteString(line); err != nil {
		return err
	}
	_, err := w.WriteString("\r\n")
	return err
}
