package ingest

import (
	"encoding/json"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
)

// TestReview_NorwayRetryEntriesPerCompany (doc/decisions.md: "at most one
// retry entry per company"; norway.go's retry field: "the latest item of a
// watched company"): a company whose retry fails in recheck and whose
// newer items fail in process, on the units' and the roles' feeds, has an
// entry for each in the retry list until the next recheck keeps the
// latest: three entries for one company here (one per feed and page read
// in a sync, plus recheck's).
func TestReview_NorwayRetryEntriesPerCompany(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	f.set("NO", noA, failing(registry.CodeInternalError))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	srv.add(t, "enheter", unitItem(101, noA, "2026-09-01T12:00:30.000Z"))
	srv.add(t, "roller", json.RawMessage(`{"specversion":"1.0","id":"2","source":"https://data.brreg.no/enhetsregisteret/api/enheter/`+noA+`/roller",
		"type":"no.brreg.enhetsregisteret.rolle.oppdatert","time":"2026-09-01T12:00:40.000Z","datacontenttype":"application/json",
		"data":{"organisasjonsnummer":"`+noA+`"}}`))
	if err := n.Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	n.mu.Lock()
	entries := 0
	for _, h := range n.retry {
		if h.orgnr == noA {
			entries++
		}
	}
	n.mu.Unlock()
	if entries > 1 {
		t.Errorf("%d retry entries for one company, want at most one", entries)
	}
}
