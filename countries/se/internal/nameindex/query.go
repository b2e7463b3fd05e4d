package nameindex

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// How a search's words become a full-text query, and how its total is
// counted fast on 1.9 million names (BENCHMARKS.md, "Sweden: the bulk
// file's index").
//
// The last word also matches as the start of a word. FTS5 answers a prefix
// query by merging the lists of every word with that start before it
// returns the first row, which costs some 200 ms for a start of nine or
// more letters shared by 140,000 names. So the index keeps prefix indexes
// of one to prefixChars characters (a start of that length is one list),
// and a longer start is spelled out as the words of the vocabulary that
// have it ("aktiebolag" OR "aktiebolaget"), which FTS5 walks lazily; only
// a start with more than maxExpansion words falls back to the merge.
//
// Counting every match of a very common word ("ab" is in two names of
// three) walks a million rows. The total of a one-word search whose start
// matches at least countedAt names is therefore counted when the index is
// built and stored in the table common; any other total is counted when
// asked, which costs at most a few milliseconds. Both counts are exact.
const (
	prefixChars  = 8
	maxExpansion = 64
	countedAt    = 10_000
)

// ftsPrefixOption is the prefix option of the full-text table: "1 2 … 8".
func ftsPrefixOption() string {
	var b strings.Builder
	for i := 1; i <= prefixChars; i++ {
		if i > 1 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(i))
	}
	return b.String()
}

// searchWords returns the words of a search's full-text expression: the
// words of ws before the last once each, in order, then the last word (the
// one also matched as a start), even when it is one of them. A word
// written again matches the same rows, but was one more full-text list
// that every row holding the word walks: one common word written 85 times
// (256 bytes) took a second on 400,000 names (BENCHMARKS.md, "Sweden: a
// search of one word written many times"). Distinct words need no bound:
// their lists meet only where a name holds them all.
func searchWords(ws []string) []string {
	if len(ws) < 2 {
		return ws
	}
	last := ws[len(ws)-1]
	out := make([]string, 0, len(ws))
	for _, w := range ws[:len(ws)-1] {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return append(out, last)
}

// querier reads the database: the index's, or the one being built.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// quote returns w as an FTS5 string.
func quote(w string) string { return `"` + strings.ReplaceAll(w, `"`, `""`) + `"` }

// matchExpr returns the FTS5 expression that matches rows with every word
// of ws, the last one also as the start of a word when prefix is true.
func matchExpr(ctx context.Context, db querier, ws []string, prefix bool) (string, error) {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = quote(w)
	}
	if prefix && len(ws) > 0 {
		last, err := prefixExpr(ctx, db, ws[len(ws)-1])
		if err != nil {
			return "", err
		}
		parts[len(parts)-1] = last
	}
	return strings.Join(parts, " AND "), nil
}

// prefixExpr returns the FTS5 expression of the words that start with w:
// w* when the index has a prefix index of its length, else the words of
// the vocabulary that start with it, or w* when they are too many (or none:
// FTS5 then folds w itself).
func prefixExpr(ctx context.Context, db querier, w string) (string, error) {
	if utf8.RuneCountInString(w) <= prefixChars {
		return quote(w) + "*", nil
	}
	rows, err := db.QueryContext(ctx, `SELECT term FROM vocab WHERE term >= ? AND term < ? ORDER BY term LIMIT ?`,
		w, w+string(utf8.MaxRune), maxExpansion+1)
	if err != nil {
		return "", fmt.Errorf("nameindex: vocabulary: %w", err)
	}
	defer rows.Close()
	var terms []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return "", err
		}
		terms = append(terms, quote(t))
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	if len(terms) == 0 || len(terms) > maxExpansion {
		return quote(w) + "*", nil
	}
	if len(terms) == 1 {
		return terms[0], nil
	}
	return "(" + strings.Join(terms, " OR ") + ")", nil
}

// countMatches counts the rows of the expression.
func countMatches(ctx context.Context, db querier, expr string) (int, error) {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM names WHERE names MATCH ?`, expr).Scan(&n); err != nil {
		return 0, fmt.Errorf("nameindex: count: %w", err)
	}
	return n, nil
}

// total returns the number of rows a search of ws matches (the last word
// also as a start): from the table common for one word counted at build
// time, else counted now.
func total(ctx context.Context, db querier, ws []string) (int, error) {
	if len(ws) == 1 {
		var n int
		err := db.QueryRowContext(ctx, `SELECT n FROM common WHERE word = ?`, ws[0]).Scan(&n)
		if err == nil {
			return n, nil
		}
		if err != sql.ErrNoRows {
			return 0, fmt.Errorf("nameindex: common words: %w", err)
		}
	}
	expr, err := matchExpr(ctx, db, ws, true)
	if err != nil {
		return 0, err
	}
	return countMatches(ctx, db, expr)
}

// vocabularySQL copies the full-text index's vocabulary (each word and the
// number of rows that hold it) into the table vocab, and makes the table
// common, which countCommon fills.
const vocabularySQL = `
CREATE VIRTUAL TABLE temp.names_vocab USING fts5vocab(main, 'names', 'row');
CREATE TABLE vocab (term TEXT PRIMARY KEY, doc INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO vocab SELECT term, doc FROM temp.names_vocab;
DROP TABLE temp.names_vocab;
CREATE TABLE common (word TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
`

// countCommon stores in common the total of every one-word search that
// matches at least threshold rows (countedAt, but for tests). The candidates are the starts of the
// vocabulary's words whose rows add up to countedAt or more (an upper bound
// of the rows they match), found in one pass over the sorted vocabulary
// with a stack of the current word's starts; each is then counted exactly.
// It returns the number of words stored.
func countCommon(ctx context.Context, db *sql.DB, threshold int) (int, error) {
	if _, err := db.ExecContext(ctx, vocabularySQL); err != nil {
		return 0, fmt.Errorf("nameindex: vocabulary: %w", err)
	}
	cands, err := commonCandidates(ctx, db, threshold)
	if err != nil {
		return 0, err
	}
	stored := 0
	for _, w := range cands {
		expr, err := matchExpr(ctx, db, []string{w}, true)
		if err != nil {
			return 0, err
		}
		n, err := countMatches(ctx, db, expr)
		if err != nil {
			return 0, err
		}
		if n < threshold {
			continue
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO common VALUES (?, ?)`, w, n); err != nil {
			return 0, fmt.Errorf("nameindex: common words: %w", err)
		}
		stored++
	}
	return stored, nil
}

// commonCandidates returns the starts of the vocabulary's words whose rows
// add up to threshold or more.
func commonCandidates(ctx context.Context, db querier, threshold int) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT term, doc FROM vocab ORDER BY term`)
	if err != nil {
		return nil, fmt.Errorf("nameindex: vocabulary: %w", err)
	}
	defer rows.Close()
	type start struct {
		s   string
		sum int
	}
	var path []start // the starts of the previous word, one character longer each
	var out []string
	pop := func(k int) {
		for i := len(path) - 1; i >= k; i-- {
			if path[i].sum >= threshold {
				out = append(out, path[i].s)
			}
		}
		path = path[:k]
	}
	for rows.Next() {
		var term string
		var doc int
		if err := rows.Scan(&term, &doc); err != nil {
			return nil, err
		}
		k := 0
		for k < len(path) && strings.HasPrefix(term, path[k].s) {
			k++
		}
		pop(k)
		for i, chars := 0, 0; i < len(term); chars++ {
			_, size := utf8.DecodeRuneInString(term[i:])
			i += size
			if chars >= k {
				path = append(path, start{s: term[:i]})
			}
		}
		for i := range path {
			path[i].sum += doc
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	pop(0)
	return out, nil
}
