package ingest_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/ingest"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/companyregistry/registry/internal/testwait"
)

// fenceSpy records the fence of each Apply.
type fenceSpy struct {
	changes.Store
	fences chan *changes.LeaseFence
}

func (s fenceSpy) Apply(ctx context.Context, b changes.Batch) ([]changes.Change, error) {
	s.fences <- b.Lease
	return s.Store.Apply(ctx, b)
}

// ownIngester is an Ingester of the user's own: as the Ingester's doc
// says, its Sync stores what it found through ingest.Apply (it said
// "through changes.Store.Apply" when the review found this).
type ownIngester struct {
	store  changes.Store
	synced chan error
}

func (o ownIngester) Name() string { return "own" }

func (o ownIngester) Sync(ctx context.Context, now time.Time) error {
	_, err := ingest.Apply(ctx, o.store, changes.Batch{Cursors: map[string]string{"own": now.UTC().Format(time.RFC3339)}})
	o.synced <- err
	return err
}

// TestReview_FenceOwnIngesterUnfenced (rev-fence): Leader's doc: "Every
// changes.Store.Apply its ingesters make while it leads is fenced by the
// lease ... the store writes it only while this Leader is the lease's
// holder". NewLeader takes any Ingester, and the Ingester's doc tells an
// ingester to store through changes.Store.Apply; but the fence travels in
// an unexported context value that only the package's own applyBatch
// reads, and nothing exported gives an ingester of the user's the fence
// (no accessor of the lead context's fence, no exported apply helper, no
// store the Leader hands its ingesters). So the batches of an ingester
// written outside package ingest, run by a Leader, are never fenced: a
// replaced leader's late write of such an ingester lands.
func TestReview_FenceOwnIngesterUnfenced(t *testing.T) {
	st, err := sqlstore.OpenSQLite(t.Context(), filepath.Join(t.TempDir(), sqlstore.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	spy := fenceSpy{Store: st, fences: make(chan *changes.LeaseFence, 10)}
	own := ownIngester{store: spy, synced: make(chan error, 10)}
	l, err := ingest.NewLeader(st, []ingest.Ingester{own}, ingest.WithHolder("a"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx) }()
	defer func() {
		cancel()
		_ = testwait.Recv(t, done, "the Leader's return")
	}()
	if err := testwait.Recv(t, own.synced, "the sync under the Leader"); err != nil {
		t.Fatal(err)
	}
	got := testwait.Recv(t, spy.fences, "the batch's fence")
	want := &changes.LeaseFence{Name: ingest.LeaseName, Holder: "a"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the fence of a batch an ingester of the user's stored under the Leader (-want +got):\n%s", diff)
	}
}
