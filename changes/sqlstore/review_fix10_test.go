package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
)

// TestReview_RedeliveryAfterLeaseEndedLostToLateRecord: worker-a's lease
// has ended but nobody has claimed the delivery again, so worker-a still
// holds it for RecordAttempt (claimed_by = worker-a; a late record is
// accepted). A redelivery asked for in that gap answers 202 "pending, due
// now", but Redeliver sets redeliver_at only while claimed_until > now,
// so worker-a's late record (of an attempt made before the redelivery was
// asked for) overwrites it: the delivery is succeeded and never sent
// again. The contract (changes.Store.RecordAttempt) says a redelivery
// asked for while the delivery was claimed is kept, whatever the outcome.
func TestReview_RedeliveryAfterLeaseEndedLostToLateRecord(t *testing.T) {
	dialects(t, func(t *testing.T, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		ctx := context.Background()
		now := t0
		s := review10Setup(t, open, &now)
		a, err := s.ClaimDeliveries(ctx, "worker-a", t0, 10, time.Minute)
		if err != nil || len(a) != 1 {
			t.Fatalf("claims %d, %v", len(a), err)
		}
		id := a[0].Delivery.ID
		// worker-a sent at t0+10s, then stalled; its lease ended at t0+1m.
		now = t0.Add(90 * time.Second)
		asked, err := s.Redeliver(ctx, "alice", "wch_1", id)
		if err != nil || asked.Status != changes.DeliveryPending {
			t.Fatalf("Redeliver = %+v, %v", asked, err)
		}
		if err := s.RecordAttempt(ctx, id, changes.Attempt{Worker: "worker-a", At: t0.Add(10 * time.Second),
			StatusCode: 200, Succeeded: true}); err != nil {
			t.Fatal(err)
		}
		now = t0.Add(time.Hour)
		c, err := s.ClaimDeliveries(ctx, "worker-b", now, 10, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := s.Deliveries(ctx, "alice", "wch_1", 10)
		if err != nil {
			t.Fatal(err)
		}
		type state struct {
			Claims int
			Status changes.DeliveryStatus
		}
		if diff := cmp.Diff(state{1, changes.DeliveryPending}, state{len(c), ds[0].Status}); diff != "" {
			t.Errorf("the redelivery asked for after worker-a's lease ended, before its late record (-want +got):\n%s", diff)
		}
	})
}
