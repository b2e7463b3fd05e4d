package bulkfile

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// readAll reads every record of text, or the error that stopped it.
func readAll(t testing.TB, r io.Reader) ([]*Record, Stats, error) {
	t.Helper()
	rd, err := NewReader(r)
	if err != nil {
		return nil, Stats{}, err
	}
	var out []*Record
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out, rd.Stats(), nil
		}
		if err != nil {
			return out, rd.Stats(), err
		}
		out = append(out, rec)
	}
}

// sampleRecords is what testdata/sample_*_SYNTHETIC.txt hold, in the
// file's order, without the sole trader's row.
func sampleRecords() []*Record {
	return []*Record{
		{ID: "5560160680", Lopnr: 1, Name: "Exempel Sverige AB", Form: "AB", RegisteredAt: "2020-01-02",
			Names:       []Name{{"Exempel Sverige AB", "FORETAGSNAMN", "2020-01-02"}, {"Exempel Bikes", "SARSKILT_FORETAGSNAMN", "2021-05-05"}},
			Description: "Konsultverksamhet inom IT", Address: Address{Street: "Box 1", City: "STOCKHOLM", PostalCode: "11122", Country: "SE"}},
		{ID: "5561112227", Name: "Exempel Avvecklas AB", Form: "AB", RegisteredAt: "2001-02-03",
			Names:      []Name{{"Exempel Avvecklas AB", "FORETAGSNAMN", "2001-02-03"}, {"Exempel Winding-up", "ANNATSPRAK", "2005-01-01"}},
			Procedures: []Procedure{{"LI", "2026-04-01"}}, Description: `Transport och "logistik".`,
			Address: Address{Street: "Storgatan 1", CO: "c/o Ek", City: "GÖTEBORG", PostalCode: "41101", Country: "SE"}},
		{ID: "9162223334", Name: "Handelsbolaget Exempel", Form: "HB", RegisteredAt: "2010-10-10", DeregisteredAt: "2024-03-01", DeregReason: "KKAV",
			Names:   []Name{{"Handelsbolaget Exempel", "FORETAGSNAMN", "2010-10-10"}},
			Address: Address{Street: "Storgatan 2", City: "GÖTEBORG", PostalCode: "41101", Country: "SE"}},
		{ID: "5563334449", Name: "Exempel Konkurs AB", Form: "AB", RegisteredAt: "1999-09-09",
			Names:      []Name{{"Exempel Konkurs AB", "FORETAGSNAMN", "1999-09-09"}},
			Procedures: []Procedure{{"KK", "2025-11-01"}, {"LI", "2025-01-01"}}, Description: "Bygg\nentreprenad",
			Address: Address{Street: "Väg 3", City: "MALMÖ", PostalCode: "21120", Country: "SE"}},
		{ID: "7164445558", Name: "Bostadsrättsföreningen Exempel", Form: "BRF", RegisteredAt: "2015-01-01",
			Names: []Name{{"Bostadsrättsföreningen Exempel", "FORETAGSNAMN", "2015-01-01"}}},
	}
}

// TestReadSample: the synthetic sample, in UTF-8 and in Latin-1, as text
// and zipped, gives the same records; the sole trader's row is skipped
// and counted.
func TestReadSample(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"sample_utf8_SYNTHETIC.txt", "sample_latin1_SYNTHETIC.txt"} {
		for _, zipped := range []bool{false, true} {
			path := filepath.Join("testdata", name)
			if zipped {
				path = zipOf(t, path)
			}
			f, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			got, stats, err := readAll(t, f)
			_ = f.Close()
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if diff := cmp.Diff(sampleRecords(), got); diff != "" {
				t.Errorf("%s (zipped %t) (-want +got):\n%s", name, zipped, diff)
			}
			wantLatin1 := 0
			if strings.Contains(name, "latin1") {
				wantLatin1 = 5 // the rows with å, ä, ö or Ö, the skipped one too
			}
			if diff := cmp.Diff(Stats{Records: 5, Personal: 1, Latin1: wantLatin1}, stats); diff != "" {
				t.Errorf("%s stats (-want +got):\n%s", name, diff)
			}
		}
	}
}

// zipOf writes the file at path into a zip archive beside a README entry,
// as Bolagsverket publishes it, and returns the archive's path.
func zipOf(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "bolagsverket_bulkfil.zip")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range map[string][]byte{"readme.txt.md": []byte("x"), "bolagsverket_bulkfil.txt": b} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(content)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestResearchSample: the research's synthetic sample (both rows keyed by
// 5560000000, which fails the Luhn check) reads without error and yields
// no record: a row whose identifier is not an organisation number is
// skipped and counted.
func TestResearchSample(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/bolagsverket_bulkfil_sample_SYNTHETIC.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, stats, err := readAll(t, f)
	if err != nil || len(got) != 0 || stats.Invalid != 2 {
		t.Errorf("records %d, stats %+v, err %v; want 0 records and 2 invalid", len(got), stats, err)
	}
}

const header = "organisationsidentitet;namnskyddslopnummer;registreringsland;organisationsnamn;organisationsform;avregistreringsdatum;avregistreringsorsak;pagaendeAvvecklingsEllerOmstruktureringsforfarande;registreringsdatum;verksamhetsbeskrivning;postadress"

// TestTolerated: what the research leaves open reads.
func TestTolerated(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		text string
		want Record
	}{
		"unquoted, CRLF, BOM, other spelling": {"\ufeff" + header + "\r\n5560160680$ORGNR-IDORG;;SE-LAND;Acme AB$FORETAGSNAMN-ORGNAM$2020-01-02;AB-ORGFO;;;;2020-01-02;Saker;Gata 1$$ORT$12345$SE-LAND\r\n",
			Record{ID: "5560160680", Name: "Acme AB", Form: "AB", RegisteredAt: "2020-01-02", Description: "Saker",
				Names: []Name{{"Acme AB", "FORETAGSNAMN", "2020-01-02"}}, Address: Address{Street: "Gata 1", City: "ORT", PostalCode: "12345", Country: "SE"}}},
		"columns in another order, no final newline": {"organisationsnamn;organisationsidentitet;postadress\n\"Acme AB$FORETAGSNAMN-ORGNAM$2020-01-02\";\"556016-0680$ORGNR-IDORG\";\"SE-LAND$123 45$c/o X$ORT$Gata 1\"",
			Record{ID: "5560160680", Name: "Acme AB", Names: []Name{{"Acme AB", "FORETAGSNAMN", "2020-01-02"}},
				Address: Address{Street: "Gata 1", CO: "c/o X", City: "ORT", PostalCode: "12345", Country: "SE"}}},
		"timestamp dates, literal backslash-n": {header + "\n\"5560160680$ORGNR-IDORG\";\"\";\"\";\"Acme AB\";\"AB-ORGFO\";\"2023-05-05T00:00:00.000+00:00\";\"LIAV-AVORS\";\"\";\"2000-01-01\";\"\\n   Saker\";\"\"\n",
			Record{ID: "5560160680", Name: "Acme AB", Form: "AB", RegisteredAt: "2000-01-01", DeregisteredAt: "2023-05-05", DeregReason: "LIAV",
				Description: "Saker", Names: []Name{{"Acme AB", "", ""}}}},
	} {
		got, _, err := readAll(t, strings.NewReader(tc.text))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if diff := cmp.Diff([]*Record{&tc.want}, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

// TestRefused: a broken file is a *FormatError that names the line and
// never quotes the content.
func TestRefused(t *testing.T) {
	t.Parallel()
	row := `"5560160680$ORGNR-IDORG";"";"";"SECRETNAME AB";"AB";"";"";"";"";"";""`
	for name, tc := range map[string]struct {
		text string
		line int
	}{
		"empty":            {"", 1},
		"not the file":     {"a;b;c\n1;2;3\n", 1},
		"missing field":    {header + "\n" + row + "\n" + `"5560160680";"SECRETNAME AB"` + "\n", 3},
		"extra field":      {header + "\n" + row + `;"x"` + "\n", 2},
		"open quote":       {header + "\n" + `"5560160680;"SECRETNAME AB` + "\n", 2},
		"text after quote": {header + "\n" + `"5560160680"x;"SECRETNAME AB";"";"";"";"";"";"";"";"";""` + "\n", 2},
		"duplicate column": {"organisationsidentitet;organisationsnamn;organisationsnamn\n", 1},
		"record too long":  {header + "\n\"" + strings.Repeat("SECRETNAME", MaxRecordBytes/10+1) + "\"\n", 2},
	} {
		_, _, err := readAll(t, strings.NewReader(tc.text))
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%s: error %v, want a *FormatError", name, err)
			continue
		}
		if fe.Line != tc.line || strings.Contains(fe.Error(), "SECRETNAME") {
			t.Errorf("%s: %v, want line %d and no content", name, fe, tc.line)
		}
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.zip")
	_ = os.WriteFile(bad, []byte("PK\x03\x04 not really"), 0o600)
	if _, err := Open(bad); err == nil {
		t.Error("a broken zip opened")
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	_, _ = zw.Create("data.csv")
	_ = zw.Close()
	empty := filepath.Join(dir, "empty.zip")
	_ = os.WriteFile(empty, buf.Bytes(), 0o600)
	if _, err := Open(empty); err == nil {
		t.Error("a zip without a .txt opened")
	}
}

// FuzzReader: any bytes either read to the end or stop with an error;
// nothing panics, every record has a valid organisation number (never a
// personal identity number) and a name.
func FuzzReader(f *testing.F) {
	for _, name := range []string{"sample_utf8_SYNTHETIC.txt", "sample_latin1_SYNTHETIC.txt", "bolagsverket_bulkfil_sample_SYNTHETIC.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(header + "\n\"198101052382$ORGNR-IDORG\";;;x;;;;;;;\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		rd, err := NewReader(bytes.NewReader(b))
		if err != nil {
			return
		}
		for i := 0; ; i++ {
			rec, err := rd.Next()
			if err != nil {
				return
			}
			if len(rec.ID) != 10 || rec.ID[2] < '2' || rec.Name == "" {
				t.Fatalf("record %+v", rec)
			}
			if i > len(b) {
				t.Fatal("more records than bytes")
			}
		}
	})
}

// TestDateOrUnread: a date is kept as written; an RFC 3339 timestamp gives
// its date once it parses whole (as the API's is read); anything else that
// is not blank is kept, trimmed, with line breaks as spaces and cut to
// maxUnread bytes at a character's start, so that the caller can tell a
// deregistration with an unread date from none (rev-se10,
// TestReview_SEBulkReadsDatesTheAPIRejects).
func TestDateOrUnread(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", maxUnread-1) + "åå"
	for in, want := range map[string]string{
		"2023-05-05":                    "2023-05-05",
		" 2023-05-05 ":                  "2023-05-05",
		"2023-05-05T00:00:00.000+00:00": "2023-05-05",
		"2023-05-05T24:00:00+00:00":     "2023-05-05T24:00:00+00:00",
		"2023-05-05Tjunk":               "2023-05-05Tjunk",
		"2023-05-05 00:00:00":           "2023-05-05 00:00:00",
		"05/05\n/2023":                  "05/05 /2023",
		long:                            strings.Repeat("x", maxUnread-1),
		"":                              "",
		" \t ":                          "",
	} {
		if diff := cmp.Diff(want, dateOrUnread(in)); diff != "" {
			t.Errorf("dateOrUnread(%q) (-want +got):\n%s", in, diff)
		}
	}
	if got := Date("2023-05-05Tjunk"); got != "" {
		t.Errorf("Date(%q) = %q, want none", "2023-05-05Tjunk", got)
	}
}

// TestRecordBoundInFileBytes: a record's bound counts the bytes of the
// file, separators included, and a record with more fields than the
// header is refused with its full count, though only the header's number
// of fields is kept while it is read.
func TestRecordBoundInFileBytes(t *testing.T) {
	t.Parallel()
	row := `"5560160680$ORGNR-IDORG";"";"";"SECRETNAME AB";"AB";"";"";"";"";"";""`
	for name, tc := range map[string]struct {
		line string
		want FormatError
	}{
		"one extra field": {row + `;"x"`, FormatError{Line: 2, Msg: "12 fields, the header has 11"}},
		// MaxRecordBytes-1 separators and the line break: the bound.
		"separators to the bound": {strings.Repeat(";", MaxRecordBytes-1),
			FormatError{Line: 2, Msg: fmt.Sprintf("%d fields, the header has 11", MaxRecordBytes)}},
		"separators past the bound": {strings.Repeat(";", MaxRecordBytes),
			FormatError{Line: 2, Msg: fmt.Sprintf("a record is longer than %d bytes", MaxRecordBytes)}},
		"quotes past the bound": {strings.Repeat(`"";`, MaxRecordBytes/3+1),
			FormatError{Line: 2, Msg: fmt.Sprintf("a record is longer than %d bytes", MaxRecordBytes)}},
	} {
		_, _, err := readAll(t, strings.NewReader(header+"\n"+tc.line+"\n"))
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%s: error %v, want a *FormatError", name, err)
			continue
		}
		if diff := cmp.Diff(&tc.want, fe); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}
