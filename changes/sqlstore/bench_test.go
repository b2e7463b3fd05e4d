package sqlstore_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/jackc/pgx/v5"
)

// benchDialects runs fn once per database.
func benchDialects(b *testing.B, fn func(b *testing.B, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string))) {
	b.Run("sqlite", func(b *testing.B) { fn(b, openSQLite) })
	b.Run("postgres", func(b *testing.B) { fn(b, openPostgres) })
}

// dbSize returns the bytes the store's tables and indexes take: on SQLite
// the used pages of the file after a checkpoint, on PostgreSQL the total
// relation sizes after a VACUUM (which also writes the visibility and
// free-space maps a live table has).
func dbSize(b *testing.B, dsn string) int64 {
	b.Helper()
	ctx := context.Background()
	if strings.HasPrefix(dsn, "postgres") {
		c, err := pgx.Connect(ctx, dsn)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "VACUUM ANALYZE"); err != nil {
			b.Fatal(err)
		}
		var n int64
		err = c.QueryRow(ctx, `SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'`).Scan(&n)
		if err != nil {
			b.Fatal(err)
		}
		return n
	}
	db, err := sql.Open("sqlite", "file:"+dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var pages, free, size int64
	if _, err := db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		b.Fatal(err)
	}
	for q, dst := range map[string]*int64{"PRAGMA page_count": &pages, "PRAGMA freelist_count": &free, "PRAGMA page_size": &size} {
		if err := db.QueryRowContext(ctx, q).Scan(dst); err != nil {
			b.Fatal(err)
		}
	}
	return (pages - free) * size
}

func readJSON(b *testing.B, path string) json.RawMessage {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkStoreSize measures what the store keeps per watched company
// (its row in a watch), per snapshot (a Norwegian report and roles, about
// 5.9 kB of JSON) and per change (the change, one owner's feed entry and
// one delivery): 10,000 of each in 100 watches. Run it once:
//
//	go test -run '^$' -bench StoreSize -benchtime 1x ./changes/sqlstore
func BenchmarkStoreSize(b *testing.B) {
	benchDialects(b, func(b *testing.B, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		ctx := context.Background()
		report := readJSON(b, "testdata/report_923609016.json")
		roles := readJSON(b, "testdata/roles_161616168_SYNTHETIC.json")
		const watches, perWatch = 100, 100
		const n = watches * perWatch
		for range b.N {
			s, dsn := open(b)
			empty := dbSize(b, dsn)
			for w := range watches {
				ids := make([]string, perWatch)
				for i := range ids {
					ids[i] = fmt.Sprint(900000000 + w*perWatch + i)
				}
				err := s.CreateWatch(ctx, changes.Watch{ID: fmt.Sprintf("wch_%03d", w), Owner: fmt.Sprintf("owner-%d", w%10),
					Country: "NO", IDs: ids, URL: "https://hooks.example.com/registry/" + fmt.Sprint(w), CreatedAt: t0}, make([]byte, 32), nil)
				if err != nil {
					b.Fatal(err)
				}
			}
			watched := dbSize(b, dsn)
			for start := 0; start < n; start += 1000 {
				var snaps []changes.Snapshot
				for i := start; i < start+1000; i++ {
					snaps = append(snaps, changes.Snapshot{Country: "NO", CompanyID: fmt.Sprint(900000000 + i), Report: report, Roles: roles, TakenAt: t0})
				}
				if _, err := s.Apply(ctx, changes.Batch{Snapshots: snaps}); err != nil {
					b.Fatal(err)
				}
			}
			snapped := dbSize(b, dsn)
			for start := 0; start < n; start += 500 {
				var batch []changes.Change
				for i := start; i < start+500; i++ {
					id := fmt.Sprint(900000000 + i)
					batch = append(batch, changes.Change{Country: "NO", CompanyID: id, CompanyName: ptr("EQUINOR ASA"),
						Kind: changes.KindStatusChanged, Old: json.RawMessage(`"active"`), New: json.RawMessage(`"bankrupt"`),
						RegisteredAt: ptr(t0), DetectedAt: t0, SourceURL: ptr("https://data.brreg.no/enhetsregisteret/api/enheter/" + id),
						SourceEventID: fmt.Sprint(25152016 + i)})
				}
				if _, err := s.Apply(ctx, changes.Batch{Changes: batch}); err != nil {
					b.Fatal(err)
				}
			}
			changed := dbSize(b, dsn)
			b.ReportMetric(float64(watched-empty)/n, "B/watched_company")
			b.ReportMetric(float64(snapped-watched)/n, "B/snapshot")
			b.ReportMetric(float64(changed-snapped)/n, "B/change")
			b.ReportMetric(float64(empty), "B/empty")
		}
	})
}

func ptr[T any](v T) *T { return &v }

// benchWatches makes two watches (two owners) of the same 100 companies.
func benchWatches(b *testing.B, s *sqlstore.Store) []string {
	b.Helper()
	ids := make([]string, 100)
	for i := range ids {
		ids[i] = fmt.Sprint(900000000 + i)
	}
	for _, owner := range []string{"alice", "bob"} {
		err := s.CreateWatch(context.Background(), changes.Watch{ID: "wch_" + owner, Owner: owner, Country: "NO", IDs: ids,
			URL: "https://hooks.example.com/" + owner, CreatedAt: t0}, make([]byte, 32), nil)
		if err != nil {
			b.Fatal(err)
		}
	}
	return ids
}

func benchBatch(ids []string, round int) changes.Batch {
	batch := changes.Batch{Cursors: map[string]string{"no/enheter": fmt.Sprint(round)}}
	for i, id := range ids {
		batch.Changes = append(batch.Changes, changes.Change{Country: "NO", CompanyID: id, Kind: changes.KindStatusChanged,
			Old: json.RawMessage(`"active"`), New: json.RawMessage(`"bankrupt"`), DetectedAt: t0,
			SourceEventID: fmt.Sprintf("%d-%d", round, i)})
	}
	return batch
}

// BenchmarkApply applies batches of 100 changes, each to a company in two
// owners' watches (so 200 feed entries and 200 deliveries per batch).
//
//	go test -run '^$' -bench 'Apply|Claim' -benchtime 3s ./changes/sqlstore
func BenchmarkApply(b *testing.B) {
	benchDialects(b, func(b *testing.B, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		s, _ := open(b)
		ids := benchWatches(b, s)
		b.ResetTimer()
		for i := range b.N {
			if _, err := s.Apply(context.Background(), benchBatch(ids, i)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N*len(ids))/b.Elapsed().Seconds(), "changes/s")
	})
}

// BenchmarkClaim claims 50 due deliveries and records each as sent, as a
// dispatcher's loop does.
func BenchmarkClaim(b *testing.B) {
	benchDialects(b, func(b *testing.B, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		ctx := context.Background()
		s, _ := open(b)
		ids := benchWatches(b, s)
		for round := 0; round*2*len(ids) < b.N*50; round++ {
			if _, err := s.Apply(ctx, benchBatch(ids, round)); err != nil {
				b.Fatal(err)
			}
		}
		now := time.Now().Add(time.Hour)
		b.ResetTimer()
		for range b.N {
			claims, err := s.ClaimDeliveries(ctx, "w", now, 50, time.Minute)
			if err != nil {
				b.Fatal(err)
			}
			if len(claims) != 50 {
				b.Fatalf("claimed %d", len(claims))
			}
			for _, c := range claims {
				if err := s.RecordAttempt(ctx, c.Delivery.ID, changes.Attempt{At: now, StatusCode: 204, Succeeded: true}); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.N*50)/b.Elapsed().Seconds(), "deliveries/s")
	})
}

// BenchmarkClaimIdle is a dispatcher's poll when nothing is due: two
// watches whose 200 deliveries were all sent but one, pending and not due
// for an hour. An idle service polls so every 250 ms
// (dispatch.DefaultPoll), so this is what change monitoring costs a
// server that has nothing to send.
func BenchmarkClaimIdle(b *testing.B) {
	benchDialects(b, func(b *testing.B, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		ctx := context.Background()
		s, _ := open(b)
		ids := benchWatches(b, s)
		if _, err := s.Apply(ctx, benchBatch(ids, 0)); err != nil {
			b.Fatal(err)
		}
		now := time.Now().Add(time.Hour)
		claims, err := s.ClaimDeliveries(ctx, "w", now, 1000, time.Minute)
		if err != nil || len(claims) < 2 {
			b.Fatalf("claimed %d, %v", len(claims), err)
		}
		for i, c := range claims {
			a := changes.Attempt{At: now, StatusCode: 204, Succeeded: true}
			if i == 0 {
				later := now.Add(time.Hour)
				a = changes.Attempt{At: now, StatusCode: 503, RetryAt: &later}
			}
			if err := s.RecordAttempt(ctx, c.Delivery.ID, a); err != nil {
				b.Fatal(err)
			}
		}
		b.ResetTimer()
		for range b.N {
			claims, err := s.ClaimDeliveries(ctx, "w", now, 16, time.Minute)
			if err != nil || len(claims) != 0 {
				b.Fatalf("claimed %d, %v", len(claims), err)
			}
		}
	})
}

// BenchmarkWatchedIDs reads the 100,000 ids of ten watches of 10,000 (the
// limit per watch), as an ingester does before filtering a feed.
func BenchmarkWatchedIDs(b *testing.B) {
	benchDialects(b, func(b *testing.B, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		ctx := context.Background()
		s, _ := open(b)
		for w := range 10 {
			ids := make([]string, 10000)
			for i := range ids {
				ids[i] = fmt.Sprint(800000000 + w*10000 + i)
			}
			err := s.CreateWatch(ctx, changes.Watch{ID: fmt.Sprint("wch_", w), Owner: "o", Country: "NO", IDs: ids,
				URL: "https://h.example/", CreatedAt: t0}, nil, nil)
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ResetTimer()
		for range b.N {
			got, err := s.WatchedIDs(ctx, "NO")
			if err != nil {
				b.Fatal(err)
			}
			if len(got) != 100000 {
				b.Fatalf("%d ids", len(got))
			}
		}
	})
}

// BenchmarkApplyExpect is a poller's Apply of 50 companies (applyEvery):
// each company's new snapshot (a Norwegian report and roles, about
// 5.9 kB) and one change, in the watches of two owners; "expect" names
// the snapshot each was diffed against (changes.Batch.Expect), as the
// ingesters do, "unconditional" does not. The ratio is the cost of the
// check (reading, and on PostgreSQL locking, the 50 rows first).
func BenchmarkApplyExpect(b *testing.B) {
	benchDialects(b, func(b *testing.B, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		report := readJSON(b, "testdata/report_923609016.json")
		roles := readJSON(b, "testdata/roles_161616168_SYNTHETIC.json")
		for _, expect := range []bool{true, false} {
			name := "unconditional"
			if expect {
				name = "expect"
			}
			b.Run(name, func(b *testing.B) {
				ctx := context.Background()
				s, _ := open(b)
				ids := benchWatches(b, s)[:50]
				stored := make([]changes.Snapshot, len(ids))
				for i, id := range ids {
					stored[i] = changes.Snapshot{Country: "NO", CompanyID: id, Report: report, Roles: roles, TakenAt: t0}
				}
				if _, err := s.Apply(ctx, changes.Batch{Snapshots: stored}); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for round := range b.N {
					batch := changes.Batch{Cursors: map[string]string{"NO/poll": fmt.Sprint(round)}}
					for i, id := range ids {
						next := stored[i]
						next.TakenAt = t0.Add(time.Duration(round+1) * time.Second)
						batch.Changes = append(batch.Changes, changes.Change{Country: "NO", CompanyID: id, Kind: changes.KindStatusChanged,
							Old: json.RawMessage(`"active"`), New: json.RawMessage(`"bankrupt"`), DetectedAt: t0})
						batch.Snapshots = append(batch.Snapshots, next)
						if expect {
							was := stored[i]
							batch.Expect = append(batch.Expect, changes.ExpectedSnapshot{Country: "NO", CompanyID: id, Snapshot: &was})
						}
						stored[i] = next
					}
					if _, err := s.Apply(ctx, batch); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
}
