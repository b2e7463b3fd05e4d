// Package nameindex is the on-disk index of Bolagsverket's bulk file: one
// SQLite file (through internal/sqlitedb) with a row per organisation in
// the file's order and an FTS5 full-text index of its names, for name
// searches ranked by the shared scorer (package match) and for the basic
// report of one organisation number.
//
// An index is built once into a new file ([Build]) and then opened
// read-only ([Open]); a newer file replaces it whole.
package nameindex

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/companyregistry/registry/countries/se/internal/bulkfile"
	"github.com/companyregistry/registry/internal/sqlitedb"
	"github.com/companyregistry/registry/match"
)

// schema is the index's tables. rid is the row's place in the file (the
// register's own order), name and alt (the other names, one a line) in
// Unicode normal form C, fold the name as match.Fold makes it (for exact
// and prefix matches), and procs the procedures as "CODE date" lines.
const schema = `
CREATE TABLE org (
	rid INTEGER PRIMARY KEY,
	id TEXT NOT NULL,
	lopnr INTEGER NOT NULL,
	name TEXT NOT NULL,
	fold TEXT NOT NULL,
	alt TEXT NOT NULL,
	alt_types TEXT NOT NULL,
	form TEXT NOT NULL,
	reg_date TEXT NOT NULL,
	dereg_date TEXT NOT NULL,
	dereg_reason TEXT NOT NULL,
	procs TEXT NOT NULL,
	description TEXT NOT NULL,
	street TEXT NOT NULL, co TEXT NOT NULL, city TEXT NOT NULL, postcode TEXT NOT NULL, country TEXT NOT NULL
);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`

// indexes are built after the rows are in. The full-text index keeps no
// positions (detail none) and no sizes (columnsize 0): a search matches
// words and never ranks by BM25. Its prefix indexes are those query.go
// describes.
var indexes = `
CREATE INDEX org_id ON org(id);
CREATE INDEX org_fold ON org(fold);
CREATE VIRTUAL TABLE names USING fts5(name, alt, content='org', content_rowid='rid', detail='none', columnsize=0,
	prefix='` + ftsPrefixOption() + `', tokenize='unicode61 remove_diacritics 0');
INSERT INTO names(names) VALUES('rebuild');
`

// schemaVersion is stored in the index's meta table; [Open] refuses an
// index of another version (built by an older release), which the Store
// then builds again.
// 3: an unread deregistration date or procedure start is kept as written
// (bulkfile.dateOrUnread), a timestamp is read only when it parses whole,
// and names are stored in NFC and folded by match.Fold, so an index of
// version 2 holds other values.
const schemaVersion = "3"

// Stats describes a built index.
type Stats struct {
	bulkfile.Stats
	// Lines is the number of lines of the file.
	Lines int
}

// Build reads the bulk file rd into a new index file at path (which must
// not exist) and returns what it read. meta is stored with the index
// ([Index.Meta]). On any error the partial file is removed.
func Build(ctx context.Context, rd *bulkfile.Reader, path string, meta map[string]string) (Stats, error) {
	return buildWith(ctx, rd, path, meta, countedAt)
}

// buildWith is Build with the threshold of the stored totals (see query.go).
func buildWith(ctx context.Context, rd *bulkfile.Reader, path string, meta map[string]string, threshold int) (st Stats, err error) {
	if _, serr := os.Stat(path); serr == nil {
		return st, fmt.Errorf("nameindex: %s exists", path)
	}
	// A page cache of 16 MiB: the rows go in in order, and a larger cache
	// (64 MiB) made the build no faster but its peak memory three times
	// higher, since SQLite's sorter sizes itself by the cache
	// (BENCHMARKS.md).
	db, err := sqlitedb.Open(ctx, path, sqlitedb.Options{BulkLoad: true, CacheKiB: 16 << 10})
	if err != nil {
		return st, err
	}
	defer func() {
		if cerr := db.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("nameindex: close: %w", cerr)
		}
		if err != nil {
			_ = os.Remove(path)
		}
	}()
	if _, err = db.ExecContext(ctx, schema); err != nil {
		return st, fmt.Errorf("nameindex: schema: %w", err)
	}
	const batch = 20000
	var tx *sql.Tx
	var ins *sql.Stmt
	commit := func() error {
		if tx == nil {
			return nil
		}
		_ = ins.Close()
		err := tx.Commit()
		tx, ins = nil, nil
		return err
	}
	defer func() {
		if tx != nil {
			_ = ins.Close()
			_ = tx.Rollback()
		}
	}()
	n := 0
	for {
		rec, rerr := rd.Next()
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			return st, rerr
		}
		if tx == nil {
			if err = ctx.Err(); err != nil {
				return st, err
			}
			if tx, err = db.BeginTx(ctx, nil); err != nil {
				return st, err
			}
			if ins, err = tx.PrepareContext(ctx, `INSERT INTO org VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`); err != nil {
				return st, err
			}
		}
		n++
		// Names in Unicode normal form C, as match.Fold and match.Words
		// make of a query: the full-text index reads them as stored.
		name := norm.NFC.String(rec.Name)
		var alt, altTypes, procs []string
		for _, nm := range rec.Names {
			if nm.Name != rec.Name {
				alt, altTypes = append(alt, norm.NFC.String(nm.Name)), append(altTypes, nm.Type)
			}
		}
		for _, p := range rec.Procedures {
			procs = append(procs, p.Code+" "+p.From)
		}
		a := rec.Address
		if _, err = ins.ExecContext(ctx, n, rec.ID, rec.Lopnr, name, match.Fold(name), strings.Join(alt, "\n"), strings.Join(altTypes, "\n"),
			rec.Form, rec.RegisteredAt, rec.DeregisteredAt, rec.DeregReason, strings.Join(procs, "\n"), rec.Description,
			a.Street, a.CO, a.City, a.PostalCode, a.Country); err != nil {
			return st, fmt.Errorf("nameindex: insert: %w", err)
		}
		if n%batch == 0 {
			if err = commit(); err != nil {
				return st, err
			}
		}
	}
	if err = commit(); err != nil {
		return st, err
	}
	st = Stats{Stats: rd.Stats(), Lines: rd.Line()}
	if st.Records == 0 {
		return st, errors.New("nameindex: the bulk file holds no organisation")
	}
	if _, err = db.ExecContext(ctx, indexes); err != nil {
		return st, fmt.Errorf("nameindex: indexes: %w", err)
	}
	common, err := countCommon(ctx, db, threshold)
	if err != nil {
		return st, err
	}
	meta["common_words"] = fmt.Sprint(common)
	meta["schema"] = schemaVersion
	meta["records"] = fmt.Sprint(st.Records)
	meta["personal_skipped"] = fmt.Sprint(st.Personal)
	meta["invalid_skipped"] = fmt.Sprint(st.Invalid)
	for k, v := range meta {
		if _, err = db.ExecContext(ctx, `INSERT INTO meta VALUES (?, ?)`, k, v); err != nil {
			return st, err
		}
	}
	if _, err = db.ExecContext(ctx, `PRAGMA optimize`); err != nil {
		return st, err
	}
	return st, nil
}

// Index is an opened, read-only index; safe for concurrent use.
type Index struct {
	db   *sql.DB
	meta map[string]string
	rows int // organisations
	// scanRows is prefixScanRows (tests make it smaller).
	scanRows int
}

// Open opens the index file at path read-only. An index of another schema
// version is an error.
func Open(ctx context.Context, path string) (*Index, error) {
	db, err := sqlitedb.Open(ctx, path, sqlitedb.Options{ReadOnly: true, CacheKiB: 16 << 10})
	if err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT key, value FROM meta`)
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("nameindex: not an index: %w", err)
	}
	defer rows.Close()
	meta := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			_ = db.Close()
			return nil, err
		}
		meta[k] = v
	}
	if err := rows.Err(); err != nil {
		_ = db.Close()
		return nil, err
	}
	if v := meta["schema"]; v != schemaVersion {
		_ = db.Close()
		return nil, fmt.Errorf("nameindex: the index has schema version %q, want %s", v, schemaVersion)
	}
	records, _ := strconv.Atoi(meta["records"])
	return &Index{db: db, meta: meta, rows: records, scanRows: prefixScanRows}, nil
}

// Close closes the index.
func (x *Index) Close() error { return x.db.Close() }

// Meta returns the value stored under key when the index was built.
func (x *Index) Meta(key string) string { return x.meta[key] }

// Org is one organisation of the index.
type Org struct {
	// Row is the organisation's place in the bulk file, from 1.
	Row             int
	ID              string
	Lopnr           int
	Name            string
	OtherNames      []bulkfile.Name // without dates
	Form            string
	RegisteredAt    string
	DeregisteredAt  string
	DeregReason     string
	Procedures      []bulkfile.Procedure
	Description     string
	Address         bulkfile.Address
	Confidence      float64
	ConfidenceBasis string
}

const columns = `rid, id, lopnr, name, alt, alt_types, form, reg_date, dereg_date, dereg_reason, procs, description, street, co, city, postcode, country`

// orgColumns are the columns qualified with the table, for a join with
// the full-text index (whose columns share names with them).
var orgColumns = "org." + strings.ReplaceAll(columns, ", ", ", org.")

// byFTS selects the organisations of a full-text query in the file's
// order, streaming (FTS5 walks its matches by rowid), so that reading the
// first few costs little however many match.
var byFTS = `SELECT ` + orgColumns + ` FROM names JOIN org ON org.rid = names.rowid WHERE names MATCH ? ORDER BY names.rowid`

// The organisations whose folded name starts with a string (fold > ? AND
// fold < ? || U+10FFFF), in the file's order, come from one of two plans.
// For a start few names share, byPrefix reads the fold index alone (it
// holds the rid) and sorts the rids, then reads the first few rows. For a
// start many names share ("a", "aktiebolag") sorting every rid costs tens
// of milliseconds, so byPrefixScan first reads the file's first
// prefixScanRows rows in order (the unary + keeps the fold index out) and
// stops at the limit, which on average comes long before; byPrefix then
// takes the rest after them, if any are still wanted. The plan is chosen
// by counting the matches up to a bound (prefixDense) in the fold index.
const (
	byPrefix = `SELECT ` + columns + ` FROM org WHERE rid IN ` +
		`(SELECT rid FROM org WHERE fold > ? AND fold < ? AND rid > ? ORDER BY rid LIMIT ?) ORDER BY rid`
	byPrefixScan = `SELECT ` + columns + ` FROM org WHERE rid <= ? AND +fold > ? AND +fold < ? ORDER BY rid LIMIT ?`
	prefixCount  = `SELECT count(*) FROM (SELECT 1 FROM org WHERE fold > ? AND fold < ? LIMIT ?)`
	// prefixScanRows bounds the rows byPrefixScan reads.
	prefixScanRows = 20_000
)

// prefixDense returns the number of matches from which byPrefixScan is
// chosen: byPrefix reads and sorts every match (n of them), byPrefixScan
// reads about rows×limit/n rows to find limit of them, so the two cost
// alike at n = √(rows×limit); and the scan must be expected to find them
// within scanRows rows (n at least rows×limit/scanRows).
func (x *Index) prefixDense(limit int) int {
	return max(1, x.rows*limit/x.scanRows, int(math.Sqrt(float64(x.rows)*float64(limit))))
}

func scanOrg(rows interface{ Scan(...any) error }) (Org, error) {
	var o Org
	var alt, altTypes, procs string
	err := rows.Scan(&o.Row, &o.ID, &o.Lopnr, &o.Name, &alt, &altTypes, &o.Form, &o.RegisteredAt, &o.DeregisteredAt, &o.DeregReason,
		&procs, &o.Description, &o.Address.Street, &o.Address.CO, &o.Address.City, &o.Address.PostalCode, &o.Address.Country)
	if err != nil {
		return o, err
	}
	if alt != "" {
		names, types := strings.Split(alt, "\n"), strings.Split(altTypes, "\n")
		for i, n := range names {
			t := ""
			if i < len(types) {
				t = types[i]
			}
			o.OtherNames = append(o.OtherNames, bulkfile.Name{Name: n, Type: t})
		}
	}
	for _, line := range strings.Split(procs, "\n") {
		if c, from, ok := strings.Cut(line, " "); ok || c != "" {
			o.Procedures = append(o.Procedures, bulkfile.Procedure{Code: c, From: from})
		}
	}
	return o, nil
}

// Lookup returns the organisations with the organisation number id (more
// than one only when the file lists it twice), in the file's order.
func (x *Index) Lookup(ctx context.Context, id string) ([]Org, error) {
	rows, err := x.db.QueryContext(ctx, `SELECT `+columns+` FROM org WHERE id = ? ORDER BY lopnr, rid`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Org
	for rows.Next() {
		o, err := scanOrg(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// Result is the answer of a search.
type Result struct {
	// Orgs are at most limit organisations, best first.
	Orgs []Org
	// Total is the number of organisations the search matches.
	Total int
}

// Search finds the organisations whose current or other names contain
// every word of query, the last word also as the start of a word, and
// returns the first limit of them ranked by the shared scorer (the name
// equals the query, starts with it, contains every word, other), the
// file's order among equal scores, with the number of matches.
//
// A word written twice is searched once (see searchWords): the same rows,
// without walking the word's list once more for each repetition.
func (x *Index) Search(ctx context.Context, query string, limit int) (*Result, error) {
	ws := searchWords(match.Words(query))
	res := &Result{}
	if len(ws) == 0 || limit <= 0 {
		return res, nil
	}
	q := match.NewQuery(query)
	folded := match.Fold(strings.TrimRight(strings.TrimSpace(query), "*"))
	n, err := total(ctx, x.db, ws)
	if err != nil {
		return nil, err
	}
	res.Total = n
	tokens, err := matchExpr(ctx, x.db, ws, false)
	if err != nil {
		return nil, err
	}
	starts, err := matchExpr(ctx, x.db, ws, true)
	if err != nil {
		return nil, err
	}
	taken := map[int]bool{}
	collect := func(minScore, maxScore float64, stmt string, args ...any) error {
		if len(res.Orgs) >= limit {
			return nil
		}
		rows, err := x.db.QueryContext(ctx, stmt, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() && len(res.Orgs) < limit {
			o, err := scanOrg(rows)
			if err != nil {
				return err
			}
			if taken[o.Row] {
				continue
			}
			c, basis := q.Score(o.Name)
			if c < minScore || c > maxScore {
				continue
			}
			o.Confidence, o.ConfidenceBasis = c, basis
			taken[o.Row] = true
			res.Orgs = append(res.Orgs, o)
		}
		return rows.Err()
	}
	upper := folded + "\U0010FFFF"
	type step struct {
		min, max float64
		stmt     string
		args     []any
	}
	steps := []step{
		{match.Exact, match.Exact, `SELECT ` + columns + ` FROM org WHERE fold = ? ORDER BY rid LIMIT ?`, []any{folded, limit}},
		{match.Prefix, match.Prefix, byPrefix, []any{folded, upper, 0, limit}},
		{match.Tokens, match.Tokens, byFTS, []any{tokens}},
		{0, match.Other, byFTS, []any{starts}},
	}
	dense := x.prefixDense(limit)
	var prefixes int
	if err := x.db.QueryRowContext(ctx, prefixCount, folded, upper, dense).Scan(&prefixes); err != nil {
		return nil, fmt.Errorf("nameindex: search: %w", err)
	}
	if prefixes >= dense {
		steps[1].args[2] = x.scanRows
		steps = slices.Insert(steps, 1, step{match.Prefix, match.Prefix, byPrefixScan, []any{x.scanRows, folded, upper, limit}})
	}
	for _, s := range steps {
		if err := collect(s.min, s.max, s.stmt, s.args...); err != nil {
			return nil, fmt.Errorf("nameindex: search: %w", err)
		}
	}
	res.Total = max(res.Total, len(res.Orgs))
	return res, nil
}
