// Package bulkfile reads Bolagsverket's bulk file of registered
// organisations (bolagsverket_bulkfil.zip, one semicolon-separated text
// file with a header line) as a stream of records, in bounded memory.
//
// What the sources leave open is tolerated: the text may be UTF-8 or
// Latin-1 (Windows-1252), decided record by record; fields may be quoted
// ("" or \" inside a quoted field is one quote, a quoted field may span
// lines)
// or not; the columns are found by their header names (either spelling of
// the procedures column); and the parts of the postal address are told
// apart by their shape, not their order. A file whose structure is broken
// (no header, a header of more than 256 columns, a missing required column,
// a record with the wrong number of fields, an unterminated quote, a record
// over 1 MiB) is refused with a
// [*FormatError] naming the line, never its content.
//
// Rows keyed by a personal identity number (a sole trader) are skipped and
// counted, never returned; so are rows whose identifier is not a valid
// organisation number.
package bulkfile

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/companyregistry/registry/idcheck"
)

// MaxRecordBytes bounds one record (a line, or several for a quoted field
// that spans lines), in the bytes of the file: separators, quotes and line
// breaks count as much as the text they hold.
const MaxRecordBytes = 1 << 20

// MaxColumns bounds the header's columns (Bolagsverket's file has eleven):
// a header with more is refused as soon as its count passes the bound, so
// a line of separators costs no more memory than a line of text.
const MaxColumns = 256

// maxTextBytes bounds the text of a zip entry (the real file is about 233
// MB unzipped).
const maxTextBytes = 8 << 30

// Record is one organisation of the bulk file.
type Record struct {
	// ID is the canonical organisation number, ten digits.
	ID string
	// Lopnr is the namnskyddslöpnummer, 0 when the row has none.
	Lopnr int
	// Names are the organisation's names in the file's order; Name is the
	// företagsnamn (type FORETAGSNAMN), else the first.
	Names []Name
	Name  string
	// Form is Bolagsverket's legal-form code, such as "AB".
	Form string
	// RegisteredAt is a date as written (YYYY-MM-DD), or "".
	RegisteredAt string
	// DeregisteredAt is a date as written (YYYY-MM-DD), or the value as
	// the file has it when that is not a date (see [Procedure]), or "".
	DeregisteredAt string
	// DeregReason is the deregistration reason code, such as "KKAV".
	DeregReason string
	// Procedures are ongoing winding-up or restructuring procedures.
	Procedures []Procedure
	// Description is the activity description (verksamhetsbeskrivning).
	Description string
	// Address is the postal address.
	Address Address
}

// Name is one name of an organisation.
type Name struct {
	Name, Type, Date string
}

// Procedure is one ongoing procedure: a code such as "KK" (konkurs) or
// "LI" (likvidation) and the date it started: YYYY-MM-DD; or the value as
// the file has it, when it is not a date (at most maxUnread bytes, line
// breaks as spaces), for the caller to tell a date it cannot read from
// none; or "".
type Procedure struct {
	Code, From string
}

// Address is a postal address; parts the row does not give are "".
type Address struct {
	Street, CO, City, PostalCode, Country string
}

// Stats counts what a Reader has read.
type Stats struct {
	// Records are the records returned.
	Records int
	// Personal are the rows skipped because a personal identity number
	// keys them.
	Personal int
	// Invalid are the rows skipped because their identifier is not a
	// valid organisation number.
	Invalid int
	// Latin1 are the rows read as Latin-1 (Windows-1252), skipped ones
	// included.
	Latin1 int
}

// FormatError is a structural fault of the file. It names the line and the
// fault, never the content.
type FormatError struct {
	Line int
	Msg  string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("bulk file: line %d: %s", e.Line, e.Msg)
}

// tooManyColumns refuses a header of more than MaxColumns columns.
func tooManyColumns() *FormatError {
	return &FormatError{Line: 1, Msg: fmt.Sprintf("the header has more than %d columns", MaxColumns)}
}

// The header names of the columns.
const (
	colID          = "organisationsidentitet"
	colLopnr       = "namnskyddslopnummer"
	colNames       = "organisationsnamn"
	colForm        = "organisationsform"
	colDeregDate   = "avregistreringsdatum"
	colDeregReason = "avregistreringsorsak"
	colProcedures  = "pagandeavvecklingselleromstruktureringsforfarande"
	colProcedures2 = "pagaendeavvecklingselleromstruktureringsforfarande"
	colRegDate     = "registreringsdatum"
	colDescription = "verksamhetsbeskrivning"
	colAddress     = "postadress"
)

// Reader reads records from a bulk file. Build one with [NewReader].
type Reader struct {
	br     *bufio.Reader
	line   int // lines read so far
	n      int // fields per record
	cols   map[string]int
	stats  Stats
	fields [][]byte
	spans  []span // the fields of the record being read, at most n once n is known
	count  int    // the fields of the last record read, all of them
	buf    []byte
	dec    []byte
}

// span is a field of the record being read: its bytes in Reader.buf.
type span struct{ from, to int }

// NewReader reads the header of the bulk file r and returns a Reader of its
// records. A header without the identifier and name columns is a
// *FormatError.
func NewReader(r io.Reader) (*Reader, error) {
	rd := &Reader{br: bufio.NewReaderSize(r, 1<<16)}
	fields, err := rd.record()
	if errors.Is(err, io.EOF) {
		return nil, &FormatError{Line: 1, Msg: "the file is empty: no header line"}
	}
	if err != nil {
		return nil, err
	}
	if rd.count > MaxColumns {
		return nil, tooManyColumns()
	}
	rd.n = len(fields)
	rd.cols = make(map[string]int, len(fields))
	for i, f := range fields {
		name := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(string(f), "\ufeff")))
		if name == colProcedures2 {
			name = colProcedures
		}
		if _, dup := rd.cols[name]; dup && name != "" {
			return nil, &FormatError{Line: 1, Msg: fmt.Sprintf("the header names column %d twice", i+1)}
		}
		rd.cols[name] = i
	}
	for _, need := range []string{colID, colNames} {
		if _, ok := rd.cols[need]; !ok {
			return nil, &FormatError{Line: 1, Msg: "the header has no column " + need + " (is this Bolagsverket's bulk file?)"}
		}
	}
	return rd, nil
}

// Stats returns the counts so far.
func (r *Reader) Stats() Stats { return r.stats }

// Line returns the number of lines read so far.
func (r *Reader) Line() int { return r.line }

// Next returns the next record, or io.EOF after the last. Skipped rows
// (personal identity numbers, invalid identifiers) are counted in Stats and
// not returned. A structural fault is a *FormatError; after one, the
// Reader is not usable.
func (r *Reader) Next() (*Record, error) {
	for {
		start := r.line + 1
		fields, err := r.record()
		if err != nil {
			return nil, err
		}
		if r.count == 1 && len(bytes.TrimSpace(fields[0])) == 0 {
			continue // an empty line
		}
		if r.count != r.n {
			return nil, &FormatError{Line: start, Msg: fmt.Sprintf("%d fields, the header has %d", r.count, r.n)}
		}
		latin1 := false
		for _, f := range fields {
			if !utf8.Valid(f) {
				latin1 = true
				break
			}
		}
		if latin1 {
			r.stats.Latin1++
		}
		get := func(col string) string {
			i, ok := r.cols[col]
			if !ok {
				return ""
			}
			f := fields[i]
			if latin1 {
				var derr error
				r.dec, derr = charmap.Windows1252.NewDecoder().Bytes(f)
				if derr != nil {
					return ""
				}
				f = r.dec
			}
			return strings.TrimSpace(string(f))
		}
		rec, skip := parseRecord(get)
		switch skip {
		case skipPersonal:
			r.stats.Personal++
			continue
		case skipInvalid:
			r.stats.Invalid++
			continue
		}
		r.stats.Records++
		return rec, nil
	}
}

type skipReason int

const (
	keep skipReason = iota
	skipPersonal
	skipInvalid
)

// parseRecord builds a record from the fields get returns by column.
func parseRecord(get func(string) string) (*Record, skipReason) {
	idField := get(colID)
	idPart, typ, _ := strings.Cut(idField, "$")
	if strings.Contains(strings.ToUpper(typ), "PERSON") {
		return nil, skipPersonal
	}
	n, p := idcheck.ParseOrganisationsnummer(idPart)
	switch {
	case p == idcheck.ProblemPersonalNumber:
		return nil, skipPersonal
	case p != idcheck.ProblemNone:
		return nil, skipInvalid
	}
	rec := &Record{ID: n.String()}
	if l, err := strconv.Atoi(get(colLopnr)); err == nil && l > 0 {
		rec.Lopnr = l
	}
	for _, part := range strings.Split(get(colNames), "|") {
		name, rest, _ := strings.Cut(part, "$")
		name = strings.Join(strings.Fields(name), " ")
		if name == "" {
			continue
		}
		t, date, _ := strings.Cut(rest, "$")
		rec.Names = append(rec.Names, Name{Name: name, Type: code(t), Date: date})
	}
	for _, nm := range rec.Names {
		if nm.Type == "FORETAGSNAMN" {
			rec.Name = nm.Name
			break
		}
	}
	if rec.Name == "" && len(rec.Names) > 0 {
		rec.Name = rec.Names[0].Name
	}
	if rec.Name == "" {
		return nil, skipInvalid
	}
	rec.Form = code(get(colForm))
	rec.RegisteredAt = Date(get(colRegDate))
	rec.DeregisteredAt = dateOrUnread(get(colDeregDate))
	rec.DeregReason = code(get(colDeregReason))
	for _, part := range strings.Split(get(colProcedures), "|") {
		c, from, _ := strings.Cut(part, "$")
		if c = code(c); c != "" {
			rec.Procedures = append(rec.Procedures, Procedure{Code: c, From: dateOrUnread(from)})
		}
	}
	rec.Description = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(get(colDescription)), `\n`))
	rec.Address = parseAddress(get(colAddress))
	return rec, keep
}

// code returns the code of a coded value such as "AB-ORGFO" or
// "KKAV-AVORS$x": the part before any "$", without the suffix after its
// last hyphen.
func code(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "$")
	if i := strings.LastIndexByte(s, '-'); i > 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// Date returns the date of a value Bolagsverket writes as one, from its
// API or its bulk file: s (trimmed) when it has the shape YYYY-MM-DD, or
// the first ten characters of an RFC 3339 timestamp, as written, once the
// whole timestamp parses; else "". It checks the shape, not the calendar.
func Date(s string) string {
	s = strings.TrimSpace(s)
	if len(s) < 10 {
		return ""
	}
	for i, c := range []byte(s[:10]) {
		if (i == 4 || i == 7) != (c == '-') || (i != 4 && i != 7 && (c < '0' || c > '9')) {
			return ""
		}
	}
	if len(s) > 10 {
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
			return ""
		}
	}
	return s[:10]
}

// maxUnread bounds the value dateOrUnread keeps when it is not a date.
const maxUnread = 64

// dateOrUnread returns Date(s), or, when s holds something that is not a
// date, s trimmed, with line breaks as spaces and cut to maxUnread bytes
// (at a character's start), so that a deregistration the file reports
// with a date in another form is not taken for none.
func dateOrUnread(s string) string {
	if d := Date(s); d != "" {
		return d
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > maxUnread {
		n := maxUnread
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n]
	}
	return s
}

// parseAddress splits a postal address "street$co$city$postcode$country"
// by the shape of its parts, not their order: five digits (with or without
// a space after the third) are the postcode, a part ending in "-LAND" the
// country, a part starting "c/o" the c/o line; of the other parts the
// first with a digit is the street, the last without one the city, and any
// other part the c/o line.
func parseAddress(s string) Address {
	var a Address
	var rest []string
	for _, p := range strings.Split(s, "$") {
		p = strings.Join(strings.Fields(p), " ")
		switch {
		case p == "":
		case isPostcode(p) && a.PostalCode == "":
			a.PostalCode = strings.ReplaceAll(p, " ", "")
		case strings.HasSuffix(strings.ToUpper(p), "-LAND") && a.Country == "":
			a.Country = code(p)
		case len(p) >= 3 && strings.EqualFold(p[:3], "c/o") && a.CO == "":
			a.CO = p
		default:
			rest = append(rest, p)
		}
	}
	if len(rest) == 0 {
		return a
	}
	// The street is the first part with a digit ("Storgatan 1", "Box 12"),
	// the city the last part without one (post towns are written in
	// capitals, without digits); failing that, the first and last parts.
	street, city := -1, -1
	for i, p := range rest {
		if street < 0 && strings.ContainsAny(p, "0123456789") {
			street = i
		}
	}
	for i := len(rest) - 1; i >= 0; i-- {
		if i != street && !strings.ContainsAny(rest[i], "0123456789") {
			city = i
			break
		}
	}
	switch {
	case len(rest) == 1 && street < 0 && a.PostalCode != "":
		city = 0
	case len(rest) == 1:
		street, city = 0, -1
	case street < 0:
		street = 0
		if city == 0 {
			city = len(rest) - 1
		}
	}
	var mid []string
	for i, p := range rest {
		switch i {
		case street:
			a.Street = p
		case city:
			a.City = p
		default:
			mid = append(mid, p)
		}
	}
	if len(mid) > 0 {
		if a.CO != "" {
			a.Street = strings.Join(append([]string{a.Street}, mid...), ", ")
		} else {
			a.CO = strings.Join(mid, ", ")
		}
	}
	return a
}

func isPostcode(p string) bool {
	p = strings.ReplaceAll(p, " ", "")
	if len(p) != 5 {
		return false
	}
	for _, c := range []byte(p) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// record reads one record's raw fields. The returned slices are valid
// until the next call. Once the header is read (r.n is known), at most r.n
// fields are returned; r.count is the number the record has.
func (r *Reader) record() ([][]byte, error) {
	r.buf = r.buf[:0]
	r.fields = r.fields[:0]
	r.spans = r.spans[:0]
	r.count = 0
	start := r.line + 1
	inQuotes, quoted, fieldStart, any := false, false, 0, false
	// raw counts the bytes of the record read so far, whether kept in
	// r.buf or not (a separator, a quote, a line break): the bound is on
	// the file's bytes, so that a line of separators is refused as soon as
	// a line of text would be.
	raw := 0
	for {
		c, err := r.br.ReadByte()
		if err == io.EOF {
			if inQuotes {
				return nil, &FormatError{Line: start, Msg: "a quoted field is not closed before the end of the file"}
			}
			if !any {
				return nil, io.EOF
			}
			r.line++
			r.addSpan(span{fieldStart, len(r.buf)})
			break
		}
		if err != nil {
			return nil, err
		}
		any = true
		if raw >= MaxRecordBytes {
			return nil, &FormatError{Line: start, Msg: fmt.Sprintf("a record is longer than %d bytes", MaxRecordBytes)}
		}
		raw++
		if inQuotes {
			if c == '\\' {
				// A backslash-escaped quote, as some copies of the file
				// write an embedded quote.
				if next, perr := r.br.Peek(1); perr == nil && next[0] == '"' {
					_, _ = r.br.ReadByte()
					raw++
					r.buf = append(r.buf, '"')
					continue
				}
			}
			if c == '"' {
				next, perr := r.br.Peek(1)
				if perr == nil && next[0] == '"' {
					_, _ = r.br.ReadByte()
					raw++
					r.buf = append(r.buf, '"')
					continue
				}
				inQuotes = false
				continue
			}
			if c == '\n' {
				r.line++
			}
			r.buf = append(r.buf, c)
			continue
		}
		switch c {
		case '"':
			if len(r.buf) == fieldStart && !quoted {
				inQuotes, quoted = true, true
				continue
			}
			r.buf = append(r.buf, c) // a stray quote inside an unquoted field
		case ';':
			r.addSpan(span{fieldStart, len(r.buf)})
			fieldStart, quoted = len(r.buf), false
			if r.n == 0 && r.count >= MaxColumns {
				// The header, read no further: the separator that ends
				// its MaxColumns-th column starts one more.
				return nil, tooManyColumns()
			}
		case '\n':
			r.line++
			end := len(r.buf)
			if !quoted && end > fieldStart && r.buf[end-1] == '\r' {
				end--
			}
			r.addSpan(span{fieldStart, end})
			return r.spanFields(), nil
		case '\r':
			if quoted {
				continue // after a closing quote
			}
			r.buf = append(r.buf, c)
		default:
			if quoted {
				return nil, &FormatError{Line: r.line + 1, Msg: "text after the closing quote of a field"}
			}
			r.buf = append(r.buf, c)
		}
	}
	return r.spanFields(), nil
}

// addSpan counts a field of the record being read and keeps it while the
// record has no more fields than the header (all of them for the header
// itself, up to MaxColumns + 1): a record with too many is refused for its
// count, and keeping them would let a line of separators cost memory out
// of proportion to its bytes.
func (r *Reader) addSpan(s span) {
	r.count++
	limit := r.n
	if limit == 0 {
		limit = MaxColumns + 1 // the header: enough for NewReader to refuse it
	}
	if len(r.spans) < limit {
		r.spans = append(r.spans, s)
	}
}

// spanFields returns the kept fields of the record read, as slices of
// r.buf.
func (r *Reader) spanFields() [][]byte {
	for _, s := range r.spans {
		r.fields = append(r.fields, r.buf[s.from:s.to])
	}
	return r.fields
}

// Open opens a bulk file: the zip Bolagsverket publishes (its one .txt
// entry; the largest when there are several) or the extracted text. The
// caller closes the result.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	var magic [4]byte
	if _, err := io.ReadFull(f, magic[:]); err != nil || string(magic[:]) != "PK\x03\x04" {
		if _, serr := f.Seek(0, io.SeekStart); serr != nil {
			_ = f.Close()
			return nil, serr
		}
		return f, nil
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	zr, err := zip.NewReader(f, st.Size())
	if err != nil {
		_ = f.Close()
		return nil, &FormatError{Line: 0, Msg: "the file starts like a zip archive but cannot be read as one"}
	}
	var best *zip.File
	for _, zf := range zr.File {
		if strings.HasSuffix(strings.ToLower(zf.Name), ".txt") && (best == nil || zf.UncompressedSize64 > best.UncompressedSize64) {
			best = zf
		}
	}
	if best == nil {
		_ = f.Close()
		return nil, &FormatError{Line: 0, Msg: "the zip archive holds no .txt file"}
	}
	rc, err := best.Open()
	if err != nil {
		_ = f.Close()
		return nil, &FormatError{Line: 0, Msg: "the .txt file in the zip archive cannot be read"}
	}
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(rc, maxTextBytes), closers{rc, f}}, nil
}

type closers []io.Closer

func (cs closers) Close() error {
	var errs []error
	for _, c := range cs {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}
