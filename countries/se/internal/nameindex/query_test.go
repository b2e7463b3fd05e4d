package nameindex

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/match"
)

// buildGenerated builds an index of the scale benchmark's generator's
// first rows rows, storing the totals of threshold names or more.
func buildGenerated(t *testing.T, rows, threshold int) *Index {
	t.Helper()
	var buf bytes.Buffer
	if err := writeScaleFile(&buf, rows, 7); err != nil {
		t.Fatal(err)
	}
	return buildFrom(t, &buf, threshold)
}

// naive is the FTS5 expression of a search without this package's
// shortcuts: every word quoted, the last one with FTS5's own prefix
// operator.
func naive(ws []string) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = quote(w)
	}
	parts[len(parts)-1] += "*"
	return strings.Join(parts, " ")
}

// TestTotalsExact: the totals of one-word searches stored at build time
// are exactly what counting FTS5's own prefix query gives, every start of
// the vocabulary's words that matches the threshold or more is stored
// (none is missed by the candidates' upper bound), none below is; and a
// search's total, stored or counted, is FTS5's own count.
func TestTotalsExact(t *testing.T) {
	t.Parallel()
	const threshold = 75
	x := buildGenerated(t, 1500, threshold)
	ctx := t.Context()
	stored := map[string]int{}
	rows, err := x.db.QueryContext(ctx, `SELECT word, n FROM common`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var w string
		var n int
		if err := rows.Scan(&w, &n); err != nil {
			t.Fatal(err)
		}
		stored[w] = n
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if _, ok := stored["ab"]; !ok || len(stored) < 10 {
		t.Fatalf("common words %v: want ab among them", stored)
	}
	if got := x.Meta("common_words"); got != fmt.Sprint(len(stored)) {
		t.Errorf("meta common_words %q, want %d", got, len(stored))
	}

	// Every start of up to three characters, and every start of a word in
	// 15 rows or more.
	starts := map[string]bool{}
	rows, err = x.db.QueryContext(ctx, `SELECT term, doc FROM vocab`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var term string
		var doc int
		if err := rows.Scan(&term, &doc); err != nil {
			t.Fatal(err)
		}
		for i, chars := 0, 1; i < len(term); chars++ {
			_, size := utf8.DecodeRuneInString(term[i:])
			i += size
			if chars <= 3 || doc >= 15 {
				starts[term[:i]] = true
			}
		}
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	for s := range starts {
		n, err := countMatches(ctx, x.db, naive([]string{s}))
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := stored[s]; ok != (n >= threshold) || ok && got != n {
			t.Errorf("%q matches %d names; stored %d, %t", s, n, got, ok)
		}
	}

	for _, q := range []string{"ab", "a", "aktiebolag", "bostadsrättsförening", "bostadsrättsföreningen", "andersson bygg",
		"fastighets ab", "stockholm", "kvarnlunda bygg", "hsb bostadsrättsförening", "zzyzx"} {
		res, err := x.Search(ctx, q, 20)
		if err != nil {
			t.Fatal(err)
		}
		want, err := countMatches(ctx, x.db, naive(match.Words(q)))
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != want {
			t.Errorf("%q: total %d, FTS5 counts %d", q, res.Total, want)
		}
	}
}

// TestPrefixExpansion: a last word longer than the prefix indexes is
// spelled out as the vocabulary's words that start with it, which match
// what FTS5's prefix operator matches; more than maxExpansion of them, or
// none, fall back to the operator.
func TestPrefixExpansion(t *testing.T) {
	t.Parallel()
	var rows []string
	for i := range maxExpansion + 6 {
		// 5560160680 plus i, each made Luhn-valid by its last digit.
		body := fmt.Sprintf("55602%04d", i)
		rows = append(rows, body+string(luhnDigit(body))+fmt.Sprintf(";Kvarnlundaby%c%c AB;AB;", 'a'+i/26, 'a'+i%26))
	}
	rows = append(rows,
		`5560360793;Bostadsrättsföreningen Ek;BRF;`,
		`5560125790;HSB Bostadsrättsförening Ek;BRF;`,
		`5299999994;Bostadsrättsförenings Vänner;I;`,
		`2120000142;Brf Bostadsrätt;BRF;`)
	x := build(t, rows...)
	ctx := t.Context()
	for _, tt := range []struct {
		word, expr string
		n          int
	}{
		{"bostadsrättsförening", `("bostadsrättsförening" OR "bostadsrättsföreningen" OR "bostadsrättsförenings")`, 3},
		{"bostadsrättsföreningen", `"bostadsrättsföreningen"`, 1},
		{"kvarnlundab", `"kvarnlundab"*`, maxExpansion + 6}, // too many words
		{"kvarnlundabyaa", `"kvarnlundabyaa"`, 1},
		{"bostadsrätt", `("bostadsrätt" OR "bostadsrättsförening" OR "bostadsrättsföreningen" OR "bostadsrättsförenings")`, 4},
		{"zzzzzzzzzzzz", `"zzzzzzzzzzzz"*`, 0}, // none
		{"bost", `"bost"*`, 4},                 // a prefix index
	} {
		expr, err := prefixExpr(ctx, x.db, tt.word)
		if err != nil {
			t.Fatal(err)
		}
		if expr != tt.expr {
			t.Errorf("%q: %s, want %s", tt.word, expr, tt.expr)
		}
		got, err := countMatches(ctx, x.db, expr)
		if err != nil {
			t.Fatal(err)
		}
		want, err := countMatches(ctx, x.db, naive([]string{tt.word}))
		if err != nil {
			t.Fatal(err)
		}
		if got != want || got != tt.n {
			t.Errorf("%q: %d matches, FTS5's prefix operator %d, want %d", tt.word, got, want, tt.n)
		}
	}
}

// TestPrefixPlans: the names that start with the query come out the same,
// in the file's order, whichever plan reads them: the fold index sorted
// (a rare start), the file's first rows then the fold index after them (a
// common start, the scan cut short or not).
func TestPrefixPlans(t *testing.T) {
	t.Parallel()
	x := buildGenerated(t, 1500, countedAt)
	rows, scanRows := x.rows, x.scanRows
	for _, q := range []string{"a", "ab", "b", "aktiebolag", "zzyzx"} {
		for _, limit := range []int{1, 30} {
			var results [][]hit
			plans := []struct{ rows, scanRows int }{
				{rows, scanRows},    // as built: by the number of matches
				{0, scanRows},       // dense for any match: scan the whole file (1,500 rows < 20,000)
				{1 << 40, scanRows}, // never dense: the fold index alone
			}
			for n := 1; n <= 40; n += 4 { // dense for any match: scan n rows, then the fold index after them
				plans = append(plans, struct{ rows, scanRows int }{0, n})
			}
			for _, plan := range plans {
				x.rows, x.scanRows = plan.rows, plan.scanRows
				got, _ := search(t, x, q, limit)
				results = append(results, got)
			}
			x.rows, x.scanRows = rows, scanRows
			for i := 1; i < len(results); i++ {
				if diff := cmp.Diff(results[0], results[i]); diff != "" {
					t.Errorf("%q, limit %d, plan %d (-as built +plan):\n%s", q, limit, i, diff)
				}
			}
		}
	}
}

// TestSearchWords: a word written twice is searched once, and the last
// word stays last (it is also matched as a start), even when it repeats an
// earlier one; no distinct word is dropped (rev-robust11: one common word
// written 85 times took a second on 400,000 names; rev-fix11: a bound on
// distinct words broke "every word").
func TestSearchWords(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want []string }{
		{nil, nil},
		{[]string{"ab"}, []string{"ab"}},
		{[]string{"ab", "ab"}, []string{"ab", "ab"}},
		{[]string{"ab", "bygg", "ab", "bygg", "ab"}, []string{"ab", "bygg", "ab"}},
		{strings.Fields(strings.Repeat("ab ", 85)), []string{"ab", "ab"}},
		{[]string{"a", "b", "c", "d", "e", "f", "g", "h"}, []string{"a", "b", "c", "d", "e", "f", "g", "h"}},
		{[]string{"a", "a", "b", "b", "c", "d", "e", "f", "g"}, []string{"a", "b", "c", "d", "e", "f", "g"}},
		{[]string{"a", "b", "c", "d", "e", "f", "a"}, []string{"a", "b", "c", "d", "e", "f", "a"}},
	} {
		if diff := cmp.Diff(tt.want, searchWords(tt.in)); diff != "" {
			t.Errorf("searchWords(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestSearchRepeatedWords: a query with a word written again matches the
// rows the query without the repetition matches (FTS5's own count of the
// whole query), and ranks them alike.
func TestSearchRepeatedWords(t *testing.T) {
	t.Parallel()
	x := buildGenerated(t, 1500, 75)
	ctx := t.Context()
	for _, q := range []string{"ab ab", "bygg ab bygg ab", strings.TrimSpace(strings.Repeat("ab ", 85)), "andersson andersson bygg"} {
		res, err := x.Search(ctx, q, 20)
		if err != nil {
			t.Fatal(err)
		}
		want, err := countMatches(ctx, x.db, naive(match.Words(q)))
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != want {
			t.Errorf("%q: total %d, FTS5 counts %d", q, res.Total, want)
		}
		if len(res.Orgs) == 0 && want > 0 {
			t.Errorf("%q: no hits of %d", q, want)
		}
	}
}

// BenchmarkSearchDistinctCommonWords times searches of the scale
// generator's file (100,000 rows, or NAMEINDEX_SCALE_ROWS) for its k most
// common words in one query, k = 1, 2, 4, 6, 10, 20: the evidence that
// distinct words need no bound in searchWords (their lists meet only where
// a name holds them all), where one word written k times cost k lists
// (BenchmarkReview_SearchRepeatedWord).
func BenchmarkSearchDistinctCommonWords(b *testing.B) {
	rows := 100_000
	if n, err := strconv.Atoi(os.Getenv(scaleRowsEnv)); err == nil && n > 0 {
		rows = n
	}
	var buf bytes.Buffer
	if err := writeScaleFile(&buf, rows, 26); err != nil {
		b.Fatal(err)
	}
	x := buildFrom(b, &buf, countedAt)
	rs, err := x.db.QueryContext(b.Context(), `SELECT term FROM vocab ORDER BY doc DESC, term LIMIT 20`)
	if err != nil {
		b.Fatal(err)
	}
	var common []string
	for rs.Next() {
		var w string
		if err := rs.Scan(&w); err != nil {
			b.Fatal(err)
		}
		common = append(common, w)
	}
	if err := rs.Close(); err != nil || len(common) < 20 {
		b.Fatalf("%d common words, %v", len(common), err)
	}
	for _, k := range []int{1, 2, 4, 6, 10, 20} {
		q := strings.Join(common[:k], " ")
		b.Run("k="+strconv.Itoa(k), func(b *testing.B) {
			for b.Loop() {
				if _, err := x.Search(b.Context(), q, 20); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
