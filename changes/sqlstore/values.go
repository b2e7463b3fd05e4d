package sqlstore

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/companyregistry/registry/changes"
)

// Times are stored as microseconds since 1970 UTC, PostgreSQL's own
// precision, and read back in UTC.

func micros(t time.Time) int64 { return t.UnixMicro() }

func fromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

func nullMicros(t *time.Time) sql.NullInt64 {
	if t == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: micros(*t), Valid: true}
}

func timePtr(n sql.NullInt64) *time.Time {
	if !n.Valid {
		return nil
	}
	t := fromMicros(n.Int64)
	return &t
}

func nullString(s *string) sql.NullString {
	if s == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: *s, Valid: true}
}

func emptyNull(s string) sql.NullString {
	return sql.NullString{String: s, Valid: s != ""}
}

func stringPtr(n sql.NullString) *string {
	if !n.Valid {
		return nil
	}
	s := n.String
	return &s
}

// blob is a JSON document as stored: nil stays NULL.
func blob(b []byte) any {
	if b == nil {
		return nil
	}
	return b
}

// newID returns prefix + a ULID (a 48-bit millisecond time and 80 random
// bits from the store's source, Crockford base32; see [changes.NewID]):
// unique, and sortable by the time it was made.
func (s *Store) newID(prefix string, now time.Time) (string, error) {
	id, err := changes.NewID(prefix, now, s.random)
	if err != nil {
		return "", fmt.Errorf("changes/sqlstore: make an id: %w", err)
	}
	return id, nil
}

// checkText refuses strings PostgreSQL cannot store (invalid UTF-8, NUL),
// on both databases alike, naming the field but not repeating the value.
func checkText(fields ...string) error {
	for i := 0; i+1 < len(fields); i += 2 {
		if !isText(fields[i+1]) {
			return fmt.Errorf("changes/sqlstore: %s is not valid UTF-8 text", fields[i])
		}
	}
	return nil
}

// isText reports whether every one of vs is text PostgreSQL can store
// (valid UTF-8 without a NUL). A key that is not names no stored row, since
// checkText keeps such text out: a method that looks a row up by it
// answers changes.ErrNotFound without asking the database, which on
// PostgreSQL would refuse the bytes.
func isText(vs ...string) bool {
	for _, v := range vs {
		if !utf8.ValidString(v) || strings.IndexByte(v, 0) >= 0 {
			return false
		}
	}
	return true
}

// The feed cursor: base64url of a version byte, the change's Seq (8 bytes,
// big-endian) and a CRC-32 of both, so that a garbled cursor is refused
// rather than read as another position.
const cursorVersion = 1

func encodeCursor(seq int64) string {
	var b [13]byte
	b[0] = cursorVersion
	binary.BigEndian.PutUint64(b[1:9], uint64(seq))
	binary.BigEndian.PutUint32(b[9:], crc32.ChecksumIEEE(b[:9]))
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// errCursor wraps changes.ErrInvalidCursor.
var errCursor = fmt.Errorf("%w: pass the next_cursor of an earlier answer, or none to start from the oldest change kept", changes.ErrInvalidCursor)

// errCursorAhead wraps changes.ErrInvalidCursor: a cursor past the feed's
// newest change.
var errCursorAhead = fmt.Errorf("%w: the cursor is ahead of this store's feed (a cursor of another database, or of this one before a restore); pass none to start from the oldest change kept", changes.ErrInvalidCursor)

func decodeCursor(s string) (int64, error) {
	if len(s) != 18 {
		return 0, errCursor
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(s)
	if err != nil || len(b) != 13 || b[0] != cursorVersion ||
		binary.BigEndian.Uint32(b[9:]) != crc32.ChecksumIEEE(b[:9]) {
		return 0, errCursor
	}
	seq := int64(binary.BigEndian.Uint64(b[1:9]))
	if seq < 0 {
		return 0, errCursor
	}
	return seq, nil
}

// insertRows inserts rows (each of len(cols) values) with multi-row INSERT
// statements of at most 500 rows: head is "INSERT INTO t (a, b)", tail
// what follows the VALUES ("ON CONFLICT DO NOTHING" or "").
func (s *Store) insertRows(ctx context.Context, q querier, head, tail string, cols int, rows [][]any) error {
	const maxRows = 500
	for len(rows) > 0 {
		n := min(len(rows), maxRows)
		var b strings.Builder
		b.WriteString(head)
		b.WriteString(" VALUES ")
		args := make([]any, 0, n*cols)
		one := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
		for i, r := range rows[:n] {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(one)
			args = append(args, r...)
		}
		if tail != "" {
			b.WriteString(" ")
			b.WriteString(tail)
		}
		if _, err := q.ExecContext(ctx, s.d.q(b.String()), args...); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}

// found turns a statement that touched no row into changes.ErrNotFound.
func found(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return changes.ErrNotFound
	}
	return nil
}

// placeholders returns "?, ?, …" for n values.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// wrap names the operation in an error, keeping ErrNotFound and the cursor
// errors matchable.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var expired *changes.CursorExpiredError
	if errors.Is(err, changes.ErrNotFound) || errors.Is(err, changes.ErrInvalidCursor) || errors.As(err, &expired) {
		return err
	}
	if strings.HasPrefix(err.Error(), "changes/sqlstore: ") {
		return err
	}
	return fmt.Errorf("changes/sqlstore: %s: %w", op, err)
}
