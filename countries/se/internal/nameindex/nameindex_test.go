package nameindex

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/countries/se/internal/bulkfile"
	"github.com/companyregistry/registry/internal/leakcheck"
	"github.com/companyregistry/registry/match"
)

func TestMain(m *testing.M) { leakcheck.Main(m) }

const header = "organisationsidentitet;organisationsnamn;organisationsform;postadress"

// build writes rows (id;names;form;address) under the header and builds
// an index of them.
func build(t *testing.T, rows ...string) *Index {
	t.Helper()
	return buildFrom(t, strings.NewReader(header+"\n"+strings.Join(rows, "\n")+"\n"), countedAt)
}

// buildFrom builds an index of the bulk file r, storing the totals of
// threshold names or more, and opens it.
func buildFrom(t testing.TB, r io.Reader, threshold int) *Index {
	t.Helper()
	rd, err := bulkfile.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "index.db")
	if _, err := buildWith(t.Context(), rd, path, map[string]string{"source": "test"}, threshold); err != nil {
		t.Fatal(err)
	}
	x, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = x.Close() })
	return x
}

type hit struct {
	ID    string
	Name  string
	Score float64
}

func search(t *testing.T, x *Index, q string, limit int) ([]hit, int) {
	t.Helper()
	res, err := x.Search(t.Context(), q, limit)
	if err != nil {
		t.Fatal(err)
	}
	var out []hit
	for _, o := range res.Orgs {
		out = append(out, hit{o.ID, o.Name, o.Confidence})
	}
	return out, res.Total
}

// TestSearchRanks: hits are ranked by the shared scorer (exact, prefix,
// every word, other), the file's order among equals; total counts every
// match; a personal-number row is not in the index at all.
func TestSearchRanks(t *testing.T) {
	t.Parallel()
	x := build(t,
		`5560160680;Volvo Lastvagnar AB;AB;`,                                     // every word? no: prefix of "volvo"
		`5561112227;AB Volvo$FORETAGSNAMN-ORGNAM;AB;`,                            // every word
		`5563334449;Volvo;AB;`,                                                   // exact
		`7164445558;Volvokompaniet AB|Volvo AB$SARSKILT_FORETAGSNAMN-ORGNAM;AB;`, // other name matches; name is "other"
		`9162223334;Bilfirma Volvo Väst HB;HB;`,                                  // every word
		`198101052382$PERSON-IDORG;Volvo Person;E;`,                              // a sole trader: never indexed
		`5560360793;Saab AB;AB;`,
	)
	got, total := search(t, x, "volvo", 10)
	want := []hit{
		{"5563334449", "Volvo", match.Exact},
		{"5560160680", "Volvo Lastvagnar AB", match.Prefix},
		{"7164445558", "Volvokompaniet AB", match.Prefix},
		{"5561112227", "AB Volvo", match.Tokens},
		{"9162223334", "Bilfirma Volvo Väst HB", match.Tokens},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("search volvo (-want +got):\n%s", diff)
	}
	if total != 5 {
		t.Errorf("total %d, want 5", total)
	}
	got, total = search(t, x, "volvo", 2)
	if diff := cmp.Diff(want[:2], got); diff != "" || total != 5 {
		t.Errorf("limit 2: total %d (-want +got):\n%s", total, diff)
	}
	// A match on another name only is scored on the current name.
	got, _ = search(t, x, "kompaniet", 5)
	if diff := cmp.Diff([]hit(nil), got); diff != "" {
		t.Errorf("kompaniet (-want +got):\n%s", diff)
	}
	got, total = search(t, x, "volvo ab", 10)
	if len(got) != 3 || got[0].ID != "5560160680" && got[0].Score != match.Tokens || total != 3 {
		t.Errorf("volvo ab: %v, total %d", got, total)
	}
	for _, q := range []string{"person", "198101052382", "8101052382"} {
		if got, total := search(t, x, q, 10); len(got) != 0 || total != 0 {
			t.Errorf("%q finds %v (total %d): a sole trader is in the index", q, got, total)
		}
	}
	for _, q := range []string{"", "  ", "'; DROP TABLE org;--", `"`, "*", "AND OR NOT", "🙂", strings.Repeat("x ", 500)} {
		if _, err := x.Search(t.Context(), q, 5); err != nil {
			t.Errorf("Search(%.20q): %v", q, err)
		}
	}
}

// TestSearchNormalForm: names are stored in Unicode normal form C and
// folded by match.Fold, as queries are, so a name the file writes with
// decomposed letters and a query typed either way find each other, whole,
// by their start and by their words (the full-text index reads the stored
// name), and the hit shows the name in NFC.
func TestSearchNormalForm(t *testing.T) {
	t.Parallel()
	x := build(t,
		"5563334449;Bostadsra\u0308ttsfo\u0308reningen Exempel;BRF;", // the file's name decomposed
		"5560160680;Öresund Åkeri AB;AB;",
	)
	brf := hit{"5563334449", "Bostadsrättsföreningen Exempel", match.Exact}
	for q, want := range map[string][]hit{
		"Bostadsrättsföreningen Exempel":     {brf},
		"bostadsra\u0308ttsfo\u0308reningen": {{brf.ID, brf.Name, match.Prefix}},
		"Exempel Bostadsrättsföreningen":     {{brf.ID, brf.Name, match.Tokens}},
		"O\u0308resund A\u030akeri AB":       {{"5560160680", "Öresund Åkeri AB", match.Exact}},
		"ÖRESUND":                            {{"5560160680", "Öresund Åkeri AB", match.Prefix}},
	} {
		got, total := search(t, x, q, 10)
		if diff := cmp.Diff(want, got); diff != "" || total != len(want) {
			t.Errorf("search %q: total %d (-want +got):\n%s", q, total, diff)
		}
	}
}

func TestLookup(t *testing.T) {
	t.Parallel()
	x := build(t, `5560160680;Acme AB|Acme Bikes$SARSKILT_FORETAGSNAMN-ORGNAM;AB;Gata 1$$ORT$12345$SE-LAND`)
	got, err := x.Lookup(t.Context(), "5560160680")
	if err != nil {
		t.Fatal(err)
	}
	want := []Org{{Row: 1, ID: "5560160680", Name: "Acme AB", Form: "AB",
		OtherNames: []bulkfile.Name{{Name: "Acme Bikes", Type: "SARSKILT_FORETAGSNAMN"}},
		Address:    bulkfile.Address{Street: "Gata 1", City: "ORT", PostalCode: "12345", Country: "SE"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if none, err := x.Lookup(t.Context(), "5560360793"); err != nil || len(none) != 0 {
		t.Errorf("unknown: %v, %v", none, err)
	}
	if x.Meta("source") != "test" || x.Meta("records") != "1" {
		t.Errorf("meta %v", x.meta)
	}
}

// TestBuildRefuses: a malformed file leaves no index file behind; an empty
// one is refused too.
func TestBuildRefuses(t *testing.T) {
	t.Parallel()
	for name, text := range map[string]string{
		"bad row": header + "\n5560160680;A;AB;x\n5560360793;B\n",
		"empty":   header + "\n",
	} {
		rd, err := bulkfile.NewReader(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "index.db")
		if _, err := Build(t.Context(), rd, path, map[string]string{}); err == nil {
			t.Errorf("%s: built", name)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s: the partial file is left: %v", name, err)
		}
	}
}
