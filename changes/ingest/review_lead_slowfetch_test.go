package ingest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
)

// stampedFetcher is a fetch whose snapshot is stamped at the end of its
// roles call, as changes.RegistryFetcher stamps TakenAt (f.now() after
// Registry.Refresh read the report and then the roles).
type stampedFetcher struct {
	*fakeFetcher
	at time.Time
}

func (f stampedFetcher) Fetch(ctx context.Context, country, id string) (changes.Snapshot, error) {
	s, err := f.fakeFetcher.Fetch(ctx, country, id)
	s.TakenAt = f.at
	return s, err
}

// TestReview_SlowFetchStampHidesChange (readFrom's comment: the minute
// covers "a snapshot stamped after the register's time of a change it
// missed (the stamp is taken when the fetch of report and roles ends, on
// this machine's clock)"; registry.Refresh: each of its two calls "has the
// timeout, the one retry and the error mapping of Lookup", with
// WithUpstreamTimeout up to 1 m and WithBudgetWait up to 10 s): a fetch of
// report and roles can end well over a minute after the report was read,
// so a change published after the report was read and before the stamp's
// minute is missing from the snapshot and yet older than it by more than
// newWatchGrace: refresh skips its item. Here a roles item (11:59) makes
// the sync at 12:00 fetch the company: the report is read at 12:00:00,
// the roles answer (after a timed-out first try) at 12:02:00, the
// stamp. The company was renamed at 12:00:30 (enheter item, read at the
// next sync): skipped, the rename is never reported.
func TestReview_SlowFetchStampHidesChange(t *testing.T) {
	t.Parallel()
	st, ff, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "roller",
		json.RawMessage(`{"specversion":"1.0","id":"2","source":"https://data.brreg.no/enhetsregisteret/api/enheter/914375916/roller",
		  "type":"no.brreg.enhetsregisteret.rolle.oppdatert","time":"2026-09-01T11:59:00.000Z","datacontenttype":"application/json",
		  "data":{"organisasjonsnummer":"914375916"}}`))
	watch(t, st, "NO", []string{"914375916"}, snapshot(report("NO", "914375916", "OPULENS NÆRING 4 AS"), nil))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	ff.set("NO", "914375916", ok(report("NO", "914375916", "OPULENS NÆRING 4 AS")), // read at 12:00:00
		ok(report("NO", "914375916", "TOLLBUGATA 17 OSLO AS")))
	f := stampedFetcher{fakeFetcher: ff, at: t0.Add(2 * time.Minute)}
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	srv.add(t, "enheter",
		json.RawMessage(`{"oppdateringsid":100,"dato":"2026-09-01T12:00:30.000Z","organisasjonsnummer":"914375916","endringstype":"Endring",
		  "endringer":[{"op":"replace","path":"/navn","value":"TOLLBUGATA 17 OSLO AS"}]}`))
	f.at = t0.Add(5 * time.Minute)
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0.Add(5*time.Minute)); err != nil {
		t.Fatal(err)
	}
	var renamed int
	for _, c := range companyChanges(t, st, "NO", "914375916") {
		if c.Kind == changes.KindNameChanged {
			renamed++
		}
	}
	if renamed != 1 {
		t.Errorf("%d name_changed (fetches %d); want the 12:00:30 rename, missing from the snapshot whose report was read at 12:00:00, reported",
			renamed, ff.count("NO", "914375916"))
	}
}
