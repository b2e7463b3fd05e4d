package memstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/internal/memstore"
)

// TestReview_MemRedeliveryAfterLeaseEndedLostToLateRecord: as
// changes/sqlstore's TestReview_RedeliveryAfterLeaseEndedLostToLateRecord:
// a redelivery asked for after worker-a's lease ended, while worker-a
// still holds the delivery for RecordAttempt, is not remembered (only a
// lease still running is), so worker-a's late record overwrites it.
func TestReview_MemRedeliveryAfterLeaseEndedLostToLateRecord(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 9, 1, 10, 0, 0, 0, time.UTC)
	now := t0
	s := memstore.New(func() time.Time { return now })
	w := changes.Watch{ID: "wch_1", Owner: "alice", Country: "NO", IDs: []string{"1"}, URL: "https://h.example/", CreatedAt: t0}
	if err := s.CreateWatch(ctx, w, []byte("k"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx, changes.Batch{Changes: []changes.Change{{Country: "NO", CompanyID: "1",
		Kind: changes.KindNameChanged, DetectedAt: t0}}}); err != nil {
		t.Fatal(err)
	}
	a, err := s.ClaimDeliveries(ctx, "worker-a", t0, 10, time.Minute)
	if err != nil || len(a) != 1 {
		t.Fatalf("claims %d, %v", len(a), err)
	}
	id := a[0].Delivery.ID
	now = t0.Add(90 * time.Second)
	if _, err := s.Redeliver(ctx, "alice", "wch_1", id); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordAttempt(ctx, id, changes.Attempt{Worker: "worker-a", At: t0.Add(10 * time.Second),
		StatusCode: 200, Succeeded: true}); err != nil {
		t.Fatal(err)
	}
	c, err := s.ClaimDeliveries(ctx, "worker-b", t0.Add(time.Hour), 10, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := s.Delivery(id)
	type state struct {
		Claims int
		Status changes.DeliveryStatus
	}
	if diff := cmp.Diff(state{1, changes.DeliveryPending}, state{len(c), d.Status}); diff != "" {
		t.Errorf("the redelivery asked for after worker-a's lease ended, before its late record (-want +got):\n%s", diff)
	}
}
