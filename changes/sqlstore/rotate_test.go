package sqlstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/companyregistry/registry/changes/webhook"
)

// TestMigrateRotationFromSchema5: a database of the schema before secret
// rotation (version 5), with a watch and a pending delivery, opens with
// migration 0006: the watch signs with its one secret as before (no
// previous key in WatchKeys nor in a claim), and rotates.
func TestMigrateRotationFromSchema5(t *testing.T) {
	dialects(t, func(t *testing.T, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		ctx := context.Background()
		old, dsn := open(t, sqlstore.WithoutMigrate())
		if err := sqlstore.MigrateTo(ctx, old, 5); err != nil {
			t.Fatal(err)
		}
		if v, err := old.SchemaVersion(ctx); err != nil || v != 5 {
			t.Fatalf("SchemaVersion = %d, %v; want 5", v, err)
		}
		w := changes.Watch{ID: "wch_1", Owner: "alice", Country: "NO", IDs: []string{"1"}, URL: "https://h.example/", CreatedAt: t0}
		if err := old.CreateWatch(ctx, w, []byte("old-key"), nil); err != nil {
			t.Fatal(err)
		}
		if _, err := old.Apply(ctx, changes.Batch{Changes: []changes.Change{nameChange("1", t0)}}); err != nil {
			t.Fatal(err)
		}
		if err := old.Close(); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(dsn, "postgres") {
			dsn = "sqlite:" + dsn
		}
		s, err := sqlstore.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if v, err := s.SchemaVersion(ctx); err != nil || v != 6 {
			t.Errorf("SchemaVersion after opening = %d, %v; want 6", v, err)
		}
		opts := cmpopts.EquateEmpty()
		keys, err := s.WatchKeys(ctx, "alice", "wch_1")
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(changes.WatchKeys{Current: []byte("old-key")}, keys, opts); d != "" {
			t.Errorf("WatchKeys of a watch of schema 5 (-want +got):\n%s", d)
		}
		now := time.Now().Add(time.Hour)
		cl, err := s.ClaimDeliveries(ctx, "w1", now, 10, time.Minute)
		if err != nil || len(cl) != 1 {
			t.Fatalf("ClaimDeliveries = %d, %v; want the delivery queued before the migration", len(cl), err)
		}
		got := changes.WatchKeys{Current: cl[0].Secret, Previous: cl[0].Previous}
		if d := cmp.Diff(changes.WatchKeys{Current: []byte("old-key")}, got, opts); d != "" {
			t.Errorf("a claim's keys after the migration (-want +got):\n%s", d)
		}
		until := t0.Add(24 * time.Hour)
		if err := s.RotateSecret(ctx, "alice", "wch_1", []byte("new-key"), t0, until); err != nil {
			t.Fatal(err)
		}
		keys, err = s.WatchKeys(ctx, "alice", "wch_1")
		if err != nil {
			t.Fatal(err)
		}
		want := changes.WatchKeys{Current: []byte("new-key"), Previous: []webhook.PreviousKey{{Key: []byte("old-key"), Until: until}}}
		if d := cmp.Diff(want, keys, opts); d != "" {
			t.Errorf("WatchKeys after a rotation (-want +got):\n%s", d)
		}
	})
}
