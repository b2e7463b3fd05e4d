package nameindex

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzSearch: any query and limit give an answer, never an error or a
// panic: words with FTS5 syntax (quotes, stars, NEAR, column filters,
// parentheses), long words that are expanded from the vocabulary, common
// words whose totals were stored, invalid UTF-8 and NUL bytes. At most
// limit organisations, a total at least that, and the same answer twice.
func FuzzSearch(f *testing.F) {
	rows := []string{
		`5560160680;Aktiebolaget Volvo;AB;Box 1$Göteborg$40508`,
		`5560360793;Volvo Personvagnar AB$Volvo Cars;AB;`,
		`5562345674;"Quote ""AB""";AB;`,
		`5567223705;Ab Ab Ab;AB;`,
		`5569999996;Byggaktiebolaget Östra*;AB;`,
		`7164099017;Bostadsrättsföreningen Aktiebolagsgatan 1;BRF;`,
	}
	x := buildFrom(f, strings.NewReader(header+"\n"+strings.Join(rows, "\n")+"\n"), 2)
	if res, err := x.Search(f.Context(), "volvo", 10); err != nil || res.Total != 2 {
		f.Fatalf("the sample index: %+v, %v", res, err)
	}
	for _, s := range []string{"volvo", "ab", "aktiebolaget", "aktiebolagsg", `"quote`, "östra*", "NEAR(a b)", "name: volvo",
		"(ab OR cd)", "-ab", "^ab", "a\x00b", "\xff\xfe", "*", `""`, "ab ab ab ab ab", "ÅÄÖ åäö"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, query string, limit int) {
		limit = limit%120 - 10 // also zero and negative
		res, err := x.Search(t.Context(), query, limit)
		if err != nil {
			t.Fatalf("%q, %d: %v", query, limit, err)
		}
		if len(res.Orgs) > max(limit, 0) || res.Total < len(res.Orgs) {
			t.Fatalf("%q, %d: %d organisations of %d", query, limit, len(res.Orgs), res.Total)
		}
		again, err := x.Search(t.Context(), query, limit)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(res, again); diff != "" {
			t.Fatalf("%q, %d: a second search differs:\n%s", query, limit, diff)
		}
	})
}
