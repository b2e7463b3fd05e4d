package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
)

// TestReview_RedeliverDuringAttemptIsLost (issue 28: "GET
// /v1/watches/{id}/deliveries and redelivery of one"): a redelivery asked
// for while the delivery is claimed by a worker answers 202 with status
// pending, but the worker's RecordAttempt then overwrites the row
// unconditionally (status succeeded, next_attempt_at NULL), so the
// redelivery the caller was promised never happens.
func TestReview_RedeliverDuringAttemptIsLost(t *testing.T) {
	dialects(t, func(t *testing.T, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		ctx := context.Background()
		s, _ := open(t, sqlstore.WithClock(func() time.Time { return t0 }))
		w := changes.Watch{ID: "wch_1", Owner: "alice", Country: "NO", IDs: []string{"1"}, URL: "https://h.example/", CreatedAt: t0}
		if err := s.CreateWatch(ctx, w, []byte("k"), nil); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Apply(ctx, changes.Batch{Changes: []changes.Change{nameChange("1", t0)}}); err != nil {
			t.Fatal(err)
		}
		claims, err := s.ClaimDeliveries(ctx, "worker-a", t0, 10, time.Minute)
		if err != nil || len(claims) != 1 {
			t.Fatalf("claims %d, %v", len(claims), err)
		}
		id := claims[0].Delivery.ID
		// The caller asks for a redelivery while worker-a's attempt is in flight.
		d, err := s.Redeliver(ctx, "alice", "wch_1", id)
		if err != nil || d.Status != changes.DeliveryPending {
			t.Fatalf("Redeliver = %+v, %v", d, err)
		}
		// worker-a's attempt (started before the redelivery) ends.
		if err := s.RecordAttempt(ctx, id, changes.Attempt{At: t0, StatusCode: 200, Succeeded: true}); err != nil {
			t.Fatal(err)
		}
		again, err := s.ClaimDeliveries(ctx, "worker-b", t0.Add(time.Hour), 10, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if len(again) != 1 {
			ds, _ := s.Deliveries(ctx, "alice", "wch_1", 10)
			t.Errorf("the redelivery answered 202 pending is never sent: %d claims later; the delivery is %s with next_attempt_at %v",
				len(again), ds[0].Status, ds[0].NextAttemptAt)
		}
	})
}
