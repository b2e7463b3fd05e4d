package sqlstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
)

// A store on an SQLite file: a watch, a change an ingester found, the
// owner's feed, and the webhook delivery a dispatcher claims and records.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "changes-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	store, err := sqlstore.OpenSQLite(ctx, filepath.Join(dir, sqlstore.FileName))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()

	// A caller watches a company for status changes.
	err = store.CreateWatch(ctx, changes.Watch{
		ID: "wch_1", Owner: "erp", Country: "NO", IDs: []string{"923609016"},
		Kinds: []changes.Kind{changes.KindStatusChanged}, URL: "https://erp.example.com/hooks/registry",
		CreatedAt: time.Now(),
	}, []byte("whsec-bytes"), nil)
	if err != nil {
		log.Fatal(err)
	}

	// The ingester records what it found, with its feed position, at once.
	_, err = store.Apply(ctx, changes.Batch{
		Changes: []changes.Change{{
			Country: "NO", CompanyID: "923609016", Kind: changes.KindStatusChanged,
			Old: json.RawMessage(`"active"`), New: json.RawMessage(`"bankrupt"`),
			SourceEventID: "25152016",
		}},
		Cursors: map[string]string{"no/enheter": "25152017"},
	})
	if err != nil {
		log.Fatal(err)
	}

	// The owner reads the feed; the next call passes next to resume.
	feed, next, err := store.Changes(ctx, "erp", "", 100)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(feed), feed[0].CompanyID, feed[0].Kind, string(feed[0].Old), "->", string(feed[0].New), next != "")

	// A dispatcher claims the delivery, sends it, and records the outcome.
	claims, err := store.ClaimDeliveries(ctx, "worker-1", time.Now(), 10, time.Minute)
	if err != nil {
		log.Fatal(err)
	}
	c := claims[0]
	fmt.Println(c.URL, c.Change.ID == feed[0].ID)
	err = store.RecordAttempt(ctx, c.Delivery.ID, changes.Attempt{At: time.Now(), StatusCode: 204, Succeeded: true})
	if err != nil {
		log.Fatal(err)
	}
	deliveries, err := store.Deliveries(ctx, "erp", "wch_1", 10)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(deliveries[0].Status, deliveries[0].Attempts)
	// Output:
	// 1 923609016 status_changed "active" -> "bankrupt" true
	// https://erp.example.com/hooks/registry true
	// succeeded 1
}

// Replicas share the ingest lease: one holds it, the others are refused
// until it ends (or the holder releases it).
func ExampleStore_AcquireLease() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "changes-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	store, err := sqlstore.OpenSQLite(ctx, filepath.Join(dir, sqlstore.FileName))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()

	now := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
	for _, try := range []struct {
		holder string
		at     time.Time
	}{{"replica-a", now}, {"replica-b", now.Add(20 * time.Second)}, {"replica-b", now.Add(30 * time.Second)}} {
		ok, err := store.AcquireLease(ctx, "ingest", try.holder, try.at, 30*time.Second)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(try.holder, try.at.Sub(now), ok)
	}
	// Output:
	// replica-a 0s true
	// replica-b 20s false
	// replica-b 30s true
}

// A batch fenced by a lease is written only while its holder holds the
// lease: once another replica took it over, the old holder's late batch
// is refused and nothing of it is stored.
func ExampleStore_Apply_fenced() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "changes-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	store, err := sqlstore.OpenSQLite(ctx, filepath.Join(dir, sqlstore.FileName))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()

	now := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
	if _, err := store.AcquireLease(ctx, "ingest", "replica-a", now, 30*time.Second); err != nil {
		log.Fatal(err)
	}
	asA := &changes.LeaseFence{Name: "ingest", Holder: "replica-a"}
	_, err = store.Apply(ctx, changes.Batch{Cursors: map[string]string{"NO/enheter": "100"}, Lease: asA})
	fmt.Println("a while it holds the lease:", err)

	// replica-a pauses; its lease runs out and replica-b takes it.
	if _, err := store.AcquireLease(ctx, "ingest", "replica-b", now.Add(30*time.Second), 30*time.Second); err != nil {
		log.Fatal(err)
	}
	_, err = store.Apply(ctx, changes.Batch{Cursors: map[string]string{"NO/enheter": "90"}, Lease: asA})
	fmt.Println("a after the takeover:", errors.Is(err, changes.ErrLeaseLost))
	cursor, err := store.Cursor(ctx, "NO/enheter")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("cursor:", cursor)
	// Output:
	// a while it holds the lease: <nil>
	// a after the takeover: true
	// cursor: 100
}
