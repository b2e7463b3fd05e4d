package sqlstore

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
)

// TestReview_Read12LockWatchesDocSaysSQLiteToo: lockWatches' doc says it
// "locks the rows of the watches ids names that are still stored, FOR KEY
// SHARE on PostgreSQL ... and returns those ids", which reads as: on
// SQLite it returns the stored ids (without a row lock). It sends FOR KEY
// SHARE to SQLite too, a syntax error; only its two callers' !s.d.pg
// guards keep SQLite from it. Suggested fix: say "PostgreSQL only (the
// callers return first on SQLite)" in the doc, or return early on SQLite.
// The test also asserts the caller's slice is left as given.
func TestReview_Read12LockWatchesDocSaysSQLiteToo(t *testing.T) {
	ctx := context.Background()
	s, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "data", FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	w := changes.Watch{ID: "wch_b", Owner: "alice", Country: "NO", IDs: []string{"1"}, URL: "https://hooks.example.com/b",
		CreatedAt: time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)}
	if err := s.CreateWatch(ctx, w, []byte("secret"), nil); err != nil {
		t.Fatal(err)
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	ids := []string{"wch_b", "wch_gone", "wch_b"}
	given := slices.Clone(ids)
	kept, err := s.lockWatches(ctx, tx, ids)
	if err != nil {
		t.Fatalf("lockWatches on SQLite: %v", err)
	}
	if diff := cmp.Diff(map[string]bool{"wch_b": true}, kept); diff != "" {
		t.Errorf("kept (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(given, ids); diff != "" {
		t.Errorf("caller's ids (-want +got):\n%s", diff)
	}
}
