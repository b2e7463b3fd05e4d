package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// TestReview_AdoptedRetryOfACompanyFetchedSince (e851644,
// norway_retry.go adoptForeign: "a company's later-published item wins
// over the one in the list"): the adopted entry is weighed only against
// this replica's retry list, not against what it has handled. The new
// leader n fetched A for roller event 2 (11:59:50), which found the
// rename item enheter/100 (11:59:40) announces; the old leader's late
// Apply then stored NO/enheter=101 and A's retry of enheter/100 (its own
// fetch failed). adoptForeign added that stale retry, and the next
// recheck fetched A for enheter/100 and found the rename published at
// 12:01:30 (item enheter/101, read after it): it was recorded under
// enheter/100 and 11:59:40, before it happened, and item 101 found
// nothing.
//
// Closed by the fence (doc/decisions.md, "The ingesters' Apply is fenced
// by the lease"): the old leader's late Apply carries its lease, which
// the new leader holds now, so the store refuses it and stores neither
// the cursor nor the retry. n reads item 100 itself (nothing new: its
// fetch for roller event 2 found that rename) and records item 101's
// rename under enheter/101 and 12:01:30.
func TestReview_AdoptedRetryOfACompanyFetchedSince(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	srv.add(t, "roller", json.RawMessage(`{"specversion":"1.0","id":"2","source":"https://data.brreg.no/enhetsregisteret/api/enheter/`+noA+`/roller",
		"type":"no.brreg.enhetsregisteret.rolle.oppdatert","time":"2026-09-01T11:59:50.000Z","datacontenttype":"application/json",
		"data":{"organisasjonsnummer":"`+noA+`"}}`))
	// The register: renamed "A NY AS" before 11:59:50 (item 100), "A
	// NYESTE AS" at 12:01:30 (item 101).
	f.set("NO", noA, ok(report("NO", noA, "A NY AS")), ok(report("NO", noA, "A NY AS")), ok(report("NO", noA, "A NYESTE AS")))
	// n leads: it holds the lease and its Applies carry it, as under its
	// Leader.
	if held, err := st.AcquireLease(t.Context(), LeaseName, "new", t0, DefaultLeaseTTL); err != nil || !held {
		t.Fatal(held, err)
	}
	lead := withFence(t.Context(), newLeadFence("new", func() {}))
	n := newTestNorway(t, st, f, srv)
	n.forgetMemory()
	if err := n.Sync(lead, t0); err != nil {
		t.Fatal(err)
	}
	// Item 100 of A is published; the old leader, whose lead is over
	// without its knowing, reads it, its fetch fails with internal_error,
	// and it stores the page late, with its own lease.
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	staleFetcher := newFakeFetcher()
	staleFetcher.set("NO", noA, failing(registry.CodeInternalError))
	oldCtx, oldEnd := context.WithCancel(t.Context())
	defer oldEnd()
	oldLead := newLeadFence("old", oldEnd)
	err := newTestNorway(t, st, staleFetcher, srv).Sync(withFence(oldCtx, oldLead), t0)
	if !errors.Is(err, changes.ErrLeaseLost) {
		t.Fatalf("the old leader's late Sync: %v, want ErrLeaseLost", err)
	}
	recv(t, oldLead.lost, "the end of the old leader's lead")
	if got := []string{cursor(t, st, "NO/enheter"), cursor(t, st, retryCursor)}; !cmp.Equal(got, []string{"100", ""}) {
		t.Errorf("after the refused late Apply: NO/enheter %q, NO/retry %q; want n's (100, none)", got[0], got[1])
	}
	if err := n.Sync(lead, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	// A is renamed again at 12:01:30; item 101 announces it.
	at101 := time.Date(2026, 9, 1, 12, 1, 30, 0, time.UTC)
	srv.add(t, "enheter", unitItem(101, noA, "2026-09-01T12:01:30.000Z"))
	if err := n.Sync(lead, t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	want := []noted{
		renamed(noA, "A AS", "A NY AS", "roller/2", time.Date(2026, 9, 1, 11, 59, 50, 0, time.UTC)),
		renamed(noA, "A NY AS", "A NYESTE AS", "enheter/101", at101),
	}
	if diff := cmp.Diff(want, notedOf(companyChanges(t, st, "NO", noA))); diff != "" {
		t.Errorf("A's changes (-want +got):\n%s", diff)
	}
	if got := f.count("NO", noA); got != 3 {
		t.Errorf("n fetched A %d times, want 3 (roller 2, items 100 and 101)", got)
	}
}
