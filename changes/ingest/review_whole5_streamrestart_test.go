package ingest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestReview_StreamRestartResetsTheAttempts (doc.go, "The retries are
// stored with the ingester's cursors ... (... the stream's are replayed
// from its stored timepoint), so a restart, or another replica taking
// over the ingesters, continues them with their attempts"; decisions.md,
// "internal_error of a watched company is tried again a few times": "the
// signal gets internalAttempts (5) fetches in all"): the stream keeps a
// pending company's attempts in memory only (pendingCompany.attempts), so
// the event replayed after a restart starts again from none. A company
// that failed three times before the restart is fetched five times more:
// eight fetches for one event, not five, and each restart (or handover)
// before the cap gives five more. No change is lost; the docs promise
// what only Norway and the poller do.
func TestReview_StreamRestartResetsTheAttempts(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA}, snapshot(report("GB", gbA, "A LTD"), nil))
	f.set("GB", gbA, failing(registry.CodeInternalError))
	p := newTestFlusher(t, st, f)
	p.handle(insolvency(500, gbA))
	for range 3 {
		p.flush(t.Context())
	}
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got != "499" {
		t.Fatalf("cursor %q before the restart, want 499", got)
	}
	// The restart: a new processor from the stored timepoint, to which
	// the stream replays the company's event.
	restarted := newTestFlusher(t, st, f)
	restarted.progress["insolvency-cases"] = &streamProgress{seen: 499, stored: 499}
	restarted.handle(insolvency(500, gbA))
	for range internalAttempts + 2 {
		restarted.flush(t.Context())
	}
	// The doc now says the replayed event gets fresh attempts: three
	// before the restart, five after, and none beyond.
	if diff := cmp.Diff(map[string]int{gbA: 3 + internalAttempts}, fetches(f, "GB", gbA)); diff != "" {
		t.Errorf("fetches of one event across a restart (-want +got):\n%s", diff)
	}
}
