package ingest

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
)

// afterPageStore runs after once, right after the first Apply that
// records changes (a page of the feed): what another request (or replica)
// does at that moment.
type afterPageStore struct {
	*memStore
	once  sync.Once
	after func()
}

func (s *afterPageStore) Apply(ctx context.Context, b changes.Batch) ([]changes.Change, error) {
	out, err := s.memStore.Apply(ctx, b)
	if len(b.Changes) > 0 {
		s.once.Do(s.after)
	}
	return out, err
}

// TestReview_FirstSyncWatchStoredAfterFirstPageLosesChange (issue 28: "a
// baseline is taken when a company is added, so the first event is a real
// change"; readFrom's comment and doc/decisions.md: the minute of grace is
// there because "a watch being created while the first sync starts took
// its baselines before it was stored"): the grace only helps a watch that
// is stored before the first page is checked (WatchedAmong). A watch whose
// baseline was taken at 11:59:50 and which is stored just after the first
// page (the baseline fetches take up to 20 s, the page one request) loses
// the rename Brønnøysund published at 11:59:55: the item was recorded as
// an unwatched company's, the cursor moved past it, and no later sync
// reads it again. Known for later syncs (doc/decisions.md, "Not closed
// for Norway"); the first sync's grace does not close it either.
func TestReview_FirstSyncWatchStoredAfterFirstPageLosesChange(t *testing.T) {
	t.Parallel()
	mem, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter",
		json.RawMessage(`{"oppdateringsid":100,"dato":"2026-09-01T11:59:55.000Z","organisasjonsnummer":"914375916","endringstype":"Endring",
		  "endringer":[{"op":"replace","path":"/navn","value":"TOLLBUGATA 17 OSLO AS"}]}`))
	base := snapshot(report("NO", "914375916", "OPULENS NÆRING 4 AS"), nil)
	base.TakenAt = time.Date(2026, 9, 1, 11, 59, 50, 0, time.UTC)
	st := &afterPageStore{memStore: mem, after: func() { watch(t, mem, "NO", []string{"914375916"}, base) }}
	f.set("NO", "914375916", ok(report("NO", "914375916", "TOLLBUGATA 17 OSLO AS")))
	n := newTestNorway(t, st, f, srv)
	for _, at := range []time.Time{t0, t0.Add(time.Minute), t0.Add(2 * time.Minute)} {
		if err := n.Sync(t.Context(), at); err != nil {
			t.Fatal(err)
		}
	}
	if got := mem.deliveryCount(); got != 1 {
		t.Errorf("%d deliveries to the watch; want the rename published after its baseline (fetches of the company: %d; %d changes recorded, as an unwatched company's)",
			got, f.count("NO", "914375916"), len(mem.all()))
	}
}
