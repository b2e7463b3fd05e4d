package sqlstore_test

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
)

// review10Setup opens a store whose clock is *now, with one watch of
// company "1" for alice and one change of it recorded (one delivery).
func review10Setup(t *testing.T, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string), now *time.Time) *sqlstore.Store {
	t.Helper()
	ctx := context.Background()
	s, _ := open(t, sqlstore.WithClock(func() time.Time { return *now }))
	w := changes.Watch{ID: "wch_1", Owner: "alice", Country: "NO", IDs: []string{"1"}, URL: "https://h.example/", CreatedAt: t0}
	if err := s.CreateWatch(ctx, w, []byte("k"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx, changes.Batch{Changes: []changes.Change{nameChange("1", t0)}}); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReview_RedeliveryOutlivesTheClaimItWasAskedDuring: a redelivery
// asked for while worker-a held the delivery sets redeliver_at, which only
// worker-a's RecordAttempt clears. worker-a dies; its lease ends and
// worker-b claims the delivery and sends it: that attempt IS the
// redelivery. But recording worker-b's success finds redeliver_at still
// set and makes the delivery pending again, due at once, so a third worker
// sends it yet again (and a failed attempt of worker-b is retried at once
// instead of on the schedule). One redelivery, two extra sends.
func TestReview_RedeliveryOutlivesTheClaimItWasAskedDuring(t *testing.T) {
	dialects(t, func(t *testing.T, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		ctx := context.Background()
		now := t0
		s := review10Setup(t, open, &now)
		a, err := s.ClaimDeliveries(ctx, "worker-a", t0, 10, time.Minute)
		if err != nil || len(a) != 1 {
			t.Fatalf("claims %d, %v", len(a), err)
		}
		id := a[0].Delivery.ID
		if _, err := s.Redeliver(ctx, "alice", "wch_1", id); err != nil {
			t.Fatal(err)
		}
		// worker-a dies; its lease ends; worker-b claims and delivers.
		now = t0.Add(2 * time.Minute)
		b, err := s.ClaimDeliveries(ctx, "worker-b", now, 10, time.Minute)
		if err != nil || len(b) != 1 {
			t.Fatalf("worker-b claims %d, %v", len(b), err)
		}
		if err := s.RecordAttempt(ctx, id, changes.Attempt{Worker: "worker-b", At: now, StatusCode: 200, Succeeded: true}); err != nil {
			t.Fatal(err)
		}
		now = t0.Add(time.Hour)
		c, err := s.ClaimDeliveries(ctx, "worker-c", now, 10, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := s.Deliveries(ctx, "alice", "wch_1", 10)
		if err != nil {
			t.Fatal(err)
		}
		got := struct {
			Claims int
			Status changes.DeliveryStatus
		}{len(c), ds[0].Status}
		want := got
		want.Claims, want.Status = 0, changes.DeliverySucceeded
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("after the redelivery was sent and succeeded (-want +got):\n%s", diff)
		}
	})
}

// TestReview_RedeliverToDisabledWatchAnswersDueNowButWaits: Redeliver of
// a delivery whose watch was disabled (410) answered status pending,
// next_attempt_at now, and the service woke the dispatcher; but
// ClaimDeliveries skips every delivery of a disabled watch, so nothing was
// sent until the watch was enabled. Fixed in changes.Service.Redeliver,
// which refuses it (TestDeliveriesAndRedeliver); the store keeps its
// documented rule, checked here: a delivery of a disabled watch waits, and
// is claimed once the watch is enabled.
func TestReview_RedeliverToDisabledWatchAnswersDueNowButWaits(t *testing.T) {
	dialects(t, func(t *testing.T, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		ctx := context.Background()
		now := t0
		s := review10Setup(t, open, &now)
		a, err := s.ClaimDeliveries(ctx, "worker-a", t0, 10, time.Minute)
		if err != nil || len(a) != 1 {
			t.Fatalf("claims %d, %v", len(a), err)
		}
		id := a[0].Delivery.ID
		if err := s.RecordAttempt(ctx, id, changes.Attempt{Worker: "worker-a", At: t0, StatusCode: 410,
			Error: "gone", Disable: true, Reason: "410"}); err != nil {
			t.Fatal(err)
		}
		now = t0.Add(time.Minute)
		if _, err := s.Redeliver(ctx, "alice", "wch_1", id); err != nil {
			t.Fatal(err)
		}
		now = t0.Add(time.Hour)
		waiting, err := s.ClaimDeliveries(ctx, "worker-b", now, 10, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.UpdateWatch(ctx, "alice", "wch_1", changes.WatchUpdate{Enable: true}, nil); err != nil {
			t.Fatal(err)
		}
		enabled, err := s.ClaimDeliveries(ctx, "worker-b", now, 10, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := [2]int{len(waiting), len(enabled)}, [2]int{0, 1}; got != want {
			t.Errorf("claims while disabled, then once enabled: %v, want %v", got, want)
		}
	})
}

// review10Cursor makes a feed cursor as the store encodes one (version 1,
// the seq, a CRC-32): what a client kept from before a restore of the
// database, or from another deployment's store, looks exactly so.
func review10Cursor(seq int64) string {
	var b [13]byte
	b[0] = 1
	binary.BigEndian.PutUint64(b[1:9], uint64(seq))
	binary.BigEndian.PutUint32(b[9:], crc32.ChecksumIEEE(b[:9]))
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// TestReview_FeedCursorAheadOfHeadSkipsChanges: a cursor past the feed's
// head (kept from before the database was restored from a backup, or
// moved from SQLite to PostgreSQL, or made up) is accepted: the page is
// empty and next_cursor is that same cursor, so the client keeps polling
// with it, and every change recorded until the feed's seq passes it is
// never listed. The store knows its head and could refuse it
// (ErrInvalidCursor says "not one this service gave out").
func TestReview_FeedCursorAheadOfHeadSkipsChanges(t *testing.T) {
	dialects(t, func(t *testing.T, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		ctx := context.Background()
		now := t0
		s := review10Setup(t, open, &now) // head: seq 1
		ahead := review10Cursor(1000)
		list, next, err := s.Changes(ctx, "alice", ahead, 10)
		if err == nil {
			// The client goes on from next: a new change is never listed.
			if _, err := s.Apply(ctx, changes.Batch{Changes: []changes.Change{nameChange("1", t0.Add(time.Minute))}}); err != nil {
				t.Fatal(err)
			}
			later, _, err := s.Changes(ctx, "alice", next, 10)
			if err != nil {
				t.Fatal(err)
			}
			t.Errorf("a cursor at seq 1000 on a feed whose head is 1 was accepted (%d changes, next %q == cursor: %v); "+
				"the change recorded next is not listed from it: %d changes", len(list), next, next == ahead, len(later))
		} else if !errors.Is(err, changes.ErrInvalidCursor) {
			t.Errorf("err = %v, want ErrInvalidCursor", err)
		}
	})
}
