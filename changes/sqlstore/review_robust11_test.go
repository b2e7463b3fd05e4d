package sqlstore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/sqlstore"
)

// TestReview_WatchIDNotUTF8IsNotFound: the watch routes pass the path's id
// (r.PathValue, unescaped: /v1/watches/%FF is "\xff", /v1/watches/%00 is
// "\x00") to the store as it is. A watch with such an id cannot exist
// (CreateWatch refuses one), so the answer is ErrNotFound, as SQLite
// gives; PostgreSQL refuses the bytes ("invalid byte sequence for
// encoding UTF8"), and the error reaches the caller as internal_error 500
// (logged at error level) for a request any token holder can send.
// Suggested fix: checkText (or a not-found answer) for the ids the read
// paths take, as the write paths do.
func TestReview_WatchIDNotUTF8IsNotFound(t *testing.T) {
	dialects(t, func(t *testing.T, open func(t testing.TB, opts ...sqlstore.Option) (*sqlstore.Store, string)) {
		s, _ := open(t)
		ctx := context.Background()
		for _, id := range []string{"\xff", "wch_\x00"} {
			_, werr := s.Watch(ctx, "alice", id)
			derr := s.DeleteWatch(ctx, "alice", id)
			_, lerr := s.Deliveries(ctx, "alice", id, 10)
			got := map[string]bool{
				"Watch":       errors.Is(werr, changes.ErrNotFound),
				"DeleteWatch": errors.Is(derr, changes.ErrNotFound),
				"Deliveries":  errors.Is(lerr, changes.ErrNotFound),
			}
			want := map[string]bool{"Watch": true, "DeleteWatch": true, "Deliveries": true}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("id %q: ErrNotFound (-want +got):\n%s\nerrors: %v | %v | %v", id, diff, werr, derr, lerr)
			}
		}
	})
}
