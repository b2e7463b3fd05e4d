package ingest_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/ingest"
	"github.com/companyregistry/registry/changes/sqlstore"
)

// myIngester reads a source of your own. Its Sync stores what it found
// through ingest.Apply with the ctx the Leader gave it, so that the
// Leader's lease fences the write.
type myIngester struct {
	store  changes.Store
	synced chan<- error
}

func (m myIngester) Name() string { return "mine" }

func (m myIngester) Sync(ctx context.Context, _ time.Time) error {
	_, err := ingest.Apply(ctx, m.store, changes.Batch{Cursors: map[string]string{"mine": "page-2"}})
	select {
	case m.synced <- err:
	default:
	}
	return err
}

// An ingester of your own, run by a Leader: its writes are fenced by the
// Leader's lease like the package's own.
func ExampleApply() {
	dir, err := os.MkdirTemp("", "ingest-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	store, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(dir, sqlstore.FileName))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()

	synced := make(chan error, 1)
	leader, err := ingest.NewLeader(store, []ingest.Ingester{myIngester{store: store, synced: synced}}, ingest.WithHolder("replica-1"))
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- leader.Run(ctx) }()
	if err := <-synced; err != nil { // the first sync, under the lease
		log.Fatal(err)
	}
	stop()
	if err := <-ran; err != nil {
		log.Fatal(err)
	}
	cursor, err := store.Cursor(context.Background(), "mine")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cursor)
	// Output: page-2
}
