package sqlstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/google/go-cmp/cmp"
)

// TestReview_RecordAttemptNotTextID: changes.Store's contract (store.go,
// fix-robust11) says a method that looks a delivery up by its id answers
// ErrNotFound for any id that names none, "one that is not text (invalid
// UTF-8, a NUL) included"; RecordAttempt's own doc says an unknown
// delivery is ErrNotFound. sqlstore checks isText in Deliveries and
// Redeliver but not in RecordAttempt: on PostgreSQL the bytes reach the
// database, which refuses them, and the answer is an error that is not
// ErrNotFound (SQLite answers ErrNotFound). The conformance case
// IDsNotTextNotFound does not call RecordAttempt. Suggested fix: the same
// isText guard at the top of RecordAttempt, and the case in storetest.
func TestReview_RecordAttemptNotTextID(t *testing.T) {
	dialects(t, func(t *testing.T, open func(testing.TB, ...sqlstore.Option) (*sqlstore.Store, string)) {
		s, _ := open(t)
		got := map[string]bool{}
		want := map[string]bool{}
		for _, id := range []string{"dlv_\xff", "dlv_\x00"} {
			err := s.RecordAttempt(context.Background(), id, changes.Attempt{Succeeded: true, At: time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)})
			got[id] = errors.Is(err, changes.ErrNotFound)
			want[id] = true
			if !got[id] {
				t.Logf("RecordAttempt(%q): %v", id, err)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("RecordAttempt of a non-text id is ErrNotFound (-want +got):\n%s", diff)
		}
	})
}
