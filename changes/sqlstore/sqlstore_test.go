package sqlstore_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/companyregistry/registry/changes/storetest"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/internal/pgtest"
	"github.com/google/go-cmp/cmp"
)

// pg is this test binary's PostgreSQL server, started by the first test
// that asks for a database.
var pg = pgtest.New()

func TestMain(m *testing.M) { pg.Main(m) }

// openSQLite opens a store on a new SQLite file in t's folder.
func openSQLite(t testing.TB, opts ...sqlstore.Option) (*sqlstore.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data", sqlstore.FileName)
	s, err := sqlstore.OpenSQLite(context.Background(), path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, path
}

// openPostgres opens a store on a new PostgreSQL database.
func openPostgres(t testing.TB, opts ...sqlstore.Option) (*sqlstore.Store, string) {
	t.Helper()
	url := pg.Database(t)
	s, err := sqlstore.OpenPostgres(context.Background(), url, append([]sqlstore.Option{sqlstore.WithMaxConns(8)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, url
}

// dialects runs fn once per database.
func dialects(t *testing.T, fn func(t *testing.T, open func(t testing.TB, opts ...sqlstore.Option) (*sqlstore.Store, string))) {
	t.Run("sqlite", func(t *testing.T) { fn(t, openSQLite) })
	t.Run("postgres", func(t *testing.T) { fn(t, openPostgres) })
}

func TestConformanceSQLite(t *testing.T) {
	storetest.Run(t, func(t *testing.T) changes.Store {
		s, _ := openSQLite(t)
		return s
	})
}

func TestConformancePostgres(t *testing.T) {
	storetest.Run(t, func(t *testing.T) changes.Store {
		s, _ := openPostgres(t)
		return s
	})
}

var t0 = time.Date(2026, 9, 1, 10, 0, 0, 0, time.UTC)

func nameChange(id string, at time.Time) changes.Change {
	return changes.Change{Country: "NO", CompanyID: id, Kind: changes.KindNameChanged, DetectedAt: at}
}

// The feed cursor and the ingesters' cursors survive a restart: a store
// opened again on the same database reads them as before.
func TestCursorSurvivesRestart(t *testing.T) {
	dialects(t, func(t *testing.T, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		ctx := context.Background()
		s, dsn := open(t)
		w := changes.Watch{ID: "wch_1", Owner: "alice", Country: "NO", IDs: []string{"1"}, URL: "https://h.example/", CreatedAt: t0}
		if err := s.CreateWatch(ctx, w, []byte("k"), nil); err != nil {
			t.Fatal(err)
		}
		first, err := s.Apply(ctx, changes.Batch{Changes: []changes.Change{nameChange("1", t0)}, Cursors: map[string]string{"no/enheter": "25152016"}})
		if err != nil {
			t.Fatal(err)
		}
		_, cursor, err := s.Changes(ctx, "alice", "", 10)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(dsn, "postgres") {
			dsn = "sqlite:" + dsn
		}
		again, err := sqlstore.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer again.Close()
		second, err := again.Apply(ctx, changes.Batch{Changes: []changes.Change{nameChange("1", t0.Add(time.Minute))}})
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := again.Changes(ctx, "alice", cursor, 10)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(second, got); d != "" {
			t.Errorf("after a restart, the feed from the old cursor (-want +got):\n%s", d)
		}
		if second[0].Seq <= first[0].Seq {
			t.Errorf("feed positions went back after a restart: %d then %d", first[0].Seq, second[0].Seq)
		}
		if c, _ := again.Cursor(ctx, "no/enheter"); c != "25152016" {
			t.Errorf("ingest cursor after a restart = %q", c)
		}
	})
}

// Prune never removes a change younger than the retention, whatever
// before says (the issue: keep at least 30 days).
func TestPruneKeepsRetention(t *testing.T) {
	dialects(t, func(t *testing.T, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		ctx := context.Background()
		clock := fakeclock.New(t0)
		s, _ := open(t, sqlstore.WithClock(clock.Now))
		day := 24 * time.Hour
		var recorded []changes.Change
		for _, age := range []time.Duration{40 * day, 31 * day, 29 * day, time.Hour} {
			got, err := s.Apply(ctx, changes.Batch{Changes: []changes.Change{nameChange("1", t0.Add(-age))}})
			if err != nil {
				t.Fatal(err)
			}
			recorded = append(recorded, got...)
		}
		if err := s.Prune(ctx, t0); err != nil { // asks for everything
			t.Fatal(err)
		}
		kept, err := s.CompanyChanges(ctx, "NO", "1", 10)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]changes.Change{recorded[3], recorded[2]}, kept); d != "" {
			t.Errorf("kept after Prune(now) with 30 days' retention (-want +got):\n%s", d)
		}
		clock.Advance(30*day - 2*time.Hour) // the change of t0-1h is 30 days - 1 h old
		if err := s.Prune(ctx, clock.Now()); err != nil {
			t.Fatal(err)
		}
		kept, _ = s.CompanyChanges(ctx, "NO", "1", 10)
		if d := cmp.Diff([]changes.Change{recorded[3]}, kept); d != "" {
			t.Errorf("kept 30 days later (-want +got):\n%s", d)
		}
	})
}

// A store's clock dates what it assigns: a change's DetectedAt when unset,
// a delivery's CreatedAt and due time, a redelivery.
func TestClockOption(t *testing.T) {
	dialects(t, func(t *testing.T, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		ctx := context.Background()
		clock := fakeclock.New(t0)
		s, _ := open(t, sqlstore.WithClock(clock.Now))
		w := changes.Watch{ID: "wch_1", Owner: "alice", Country: "NO", IDs: []string{"1"}, URL: "https://h.example/", CreatedAt: t0}
		if err := s.CreateWatch(ctx, w, []byte("k"), nil); err != nil {
			t.Fatal(err)
		}
		got, err := s.Apply(ctx, changes.Batch{Changes: []changes.Change{{Country: "NO", CompanyID: "1", Kind: changes.KindDeleted}}})
		if err != nil {
			t.Fatal(err)
		}
		if !got[0].DetectedAt.Equal(t0) {
			t.Errorf("DetectedAt = %v, want the store's clock %v", got[0].DetectedAt, t0)
		}
		dl, err := s.Deliveries(ctx, "alice", "wch_1", 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(dl) != 1 || !dl[0].CreatedAt.Equal(t0) || !dl[0].NextAttemptAt.Equal(t0) {
			t.Fatalf("delivery %+v: want created and due at %v", dl, t0)
		}
		if cl, _ := s.ClaimDeliveries(ctx, "w", t0.Add(-time.Microsecond), 10, time.Minute); len(cl) != 0 {
			t.Errorf("claimed before the store's clock queued it")
		}
		clock.Advance(time.Hour)
		re, err := s.Redeliver(ctx, "alice", "wch_1", dl[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		if !re.NextAttemptAt.Equal(t0.Add(time.Hour)) {
			t.Errorf("redelivery due %v, want %v", re.NextAttemptAt, t0.Add(time.Hour))
		}
	})
}

// Migrating is idempotent and can be run alone; replicas that start at
// once on one PostgreSQL database migrate one after the other.
func TestMigrate(t *testing.T) {
	ctx := context.Background()
	t.Run("sqlite", func(t *testing.T) {
		dsn := "sqlite:" + filepath.Join(t.TempDir(), "alone", "changes.db")
		for range 2 {
			if err := sqlstore.Migrate(ctx, dsn); err != nil {
				t.Fatal(err)
			}
		}
		s, err := sqlstore.Open(ctx, dsn, sqlstore.WithoutMigrate())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if v, err := s.SchemaVersion(ctx); err != nil || v != 6 {
			t.Errorf("SchemaVersion = %d, %v; want 6 (0001_init … 0006_watch_previous_secret)", v, err)
		}
	})
	t.Run("postgres concurrent", func(t *testing.T) {
		url := pg.Database(t)
		const replicas = 4
		var wg sync.WaitGroup
		errs := make(chan error, replicas)
		for range replicas {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := sqlstore.OpenPostgres(ctx, url, sqlstore.WithMaxConns(2))
				if err != nil {
					errs <- err
					return
				}
				errs <- s.Close()
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		s, err := sqlstore.OpenPostgres(ctx, url, sqlstore.WithMaxConns(2))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if v, err := s.SchemaVersion(ctx); err != nil || v != 6 {
			t.Errorf("SchemaVersion = %d, %v; want 6 (0001_init … 0006_watch_previous_secret)", v, err)
		}
	})
}

// Bad data source names give clear errors that never repeat a password.
func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	for _, dsn := range []string{"", "mysql://x", "/just/a/path", "postgres://user:s3cret@[::1", "sqlite:"} {
		_, err := sqlstore.Open(ctx, dsn)
		if err == nil {
			t.Errorf("Open(%q): no error", dsn)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Open(%q) error repeats the password: %v", dsn, err)
		}
	}
	// A server that is not there: an error naming the database, no password.
	_, err := sqlstore.OpenPostgres(ctx, "postgres://user:s3cret@127.0.0.1:1/db?connect_timeout=2&sslmode=disable")
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "postgres") {
		t.Errorf("OpenPostgres(nothing there) = %v", err)
	}
}

// On SQLite, many goroutines writing at once queue on the one writer:
// none sees SQLITE_BUSY, and a second store on the same file (another
// process, say) waits for the lock instead of failing.
func TestSQLiteConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	s, path := openSQLite(t)
	other, err := sqlstore.OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	w := changes.Watch{ID: "wch_1", Owner: "alice", Country: "NO", IDs: []string{"1"}, URL: "https://h.example/", CreatedAt: t0}
	if err := s.CreateWatch(ctx, w, []byte("k"), nil); err != nil {
		t.Fatal(err)
	}
	const goroutines, each = 16, 10
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := s
			if g%2 == 1 {
				st = other
			}
			for range each {
				if _, err := st.Apply(ctx, changes.Batch{Changes: []changes.Change{nameChange("1", t0)}}); err != nil {
					errs <- err
					return
				}
				if _, _, err := st.Changes(ctx, "alice", "", 5); err != nil {
					errs <- err
					return
				}
				if _, err := st.ClaimDeliveries(ctx, "w", t0.Add(time.Hour), 3, time.Minute); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got, err := s.CompanyChanges(ctx, "NO", "1", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != goroutines*each {
		t.Errorf("%d changes recorded, want %d", len(got), goroutines*each)
	}
}

// A garbled cursor is changes.ErrInvalidCursor, whatever its bytes.
func FuzzCursor(f *testing.F) {
	s, _ := openSQLite(f)
	for _, seed := range []string{"", "AQAAAAAAAAABxxxxxx", "garbage", "\x00\xff"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, cursor string) {
		_, next, err := s.Changes(context.Background(), "alice", cursor, 10)
		if err != nil && !errors.Is(err, changes.ErrInvalidCursor) {
			t.Fatalf("Changes(%q): %v", cursor, err)
		}
		if err == nil && next == "" {
			t.Fatalf("Changes(%q) accepted it but answered no cursor", cursor)
		}
	})
}
