package ingest

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// TestNorwayAdoptForeign: when a feed's stored cursor is not the one this
// replica last read or stored (a late Apply of a replica that led
// before), the stored retries of that feed's items new to this replica's
// own cursor are added to its list: items it never read. Those of items
// it read itself (older than its cursor), of other feeds, and held items'
// (no event) are not; a company's later-published item wins over the one
// in the list; the same cursor as its own adopts nothing.
func TestNorwayAdoptForeign(t *testing.T) {
	t.Parallel()
	at := func(m int) *time.Time { p := t0.Add(time.Duration(m) * time.Minute); return &p }
	stored := []heldItem{
		{orgnr: "A", published: at(1), eventID: "enheter/100", attempts: 1}, // read by this replica (own cursor 105)
		{orgnr: "C", published: at(2), eventID: "enheter/107", attempts: 2}, // never read here: adopted
		{orgnr: "D", published: at(3), eventID: "roller/5", attempts: 1},    // another feed
		{orgnr: "E", published: at(4), attempts: 1},                         // a held item's
		{orgnr: "F", published: at(9), eventID: "enheter/108", attempts: 3}, // later than F's in the list: wins
		{orgnr: "G", published: at(1), eventID: "enheter/109", attempts: 1}, // older than G's in the list
	}
	value, err := encodeRetries(stored)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, storedCursor string
		want               []string
	}{
		{"foreign", "101", []string{"B/enheter/104/1", "C/enheter/107/2", "F/enheter/108/3", "G/enheter/106/1"}},
		{"own", "105", []string{"B/enheter/104/1", "F/enheter/103/1", "G/enheter/106/1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := newMemStore()
			setCursors(t, st, "NO/enheter", tc.storedCursor, retryCursor, value)
			n := newTestNorway(t, st, newFakeFetcher(), newFeedServer(t))
			n.retry = []heldItem{
				{orgnr: "B", published: at(2), eventID: "enheter/104", attempts: 1},
				{orgnr: "F", published: at(5), eventID: "enheter/103", attempts: 1},
				{orgnr: "G", published: at(6), eventID: "enheter/106", attempts: 1},
			}
			n.own = map[string]string{"NO/enheter": "105"}
			if err := n.adoptForeign(t.Context(), norwayFeeds[0], tc.storedCursor); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range n.retry {
				got = append(got, h.orgnr+"/"+h.eventID+"/"+string(rune('0'+h.attempts)))
			}
			slices.Sort(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("retries (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.storedCursor, n.own["NO/enheter"]); diff != "" {
				t.Errorf("own cursor (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNorwayAdoptForeignBeforeRecheck: the late Apply of a replica that
// led before lands while this replica has a retry of its own, so its
// recheck stores its list at the next sync: what the late Apply stored
// (A's retry, with the feed cursor past A's item, which this replica
// never read) is taken in before that, not written over and lost.
func TestNorwayAdoptForeignBeforeRecheck(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	watch(t, st, "NO", []string{noA, noB}, snapshot(report("NO", noA, "A AS"), nil), snapshot(report("NO", noB, "B AS"), nil))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	f.set("NO", noA, ok(report("NO", noA, "A NY AS")))
	n := newTestNorway(t, st, f, srv)
	n.forgetMemory() // n leads
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	bAt := noAt100.Add(-time.Minute)
	n.mu.Lock()
	n.retry = []heldItem{{orgnr: noB, published: &bAt, seen: t0, eventID: "enheter/99", attempts: 1}}
	n.mu.Unlock()
	f.set("NO", noB, failing(registry.CodeInternalError))
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	late, err := encodeRetries([]heldItem{{orgnr: noA, published: &noAt100, seen: t0, eventID: "enheter/100", attempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	setCursors(t, st, "NO/enheter", "101", "NO/retry", late)
	if err := n.Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	want := []noted{renamed(noA, "A AS", "A NY AS", "enheter/100", noAt100)}
	if diff := cmp.Diff(want, notedOf(companyChanges(t, st, "NO", noA))); diff != "" {
		t.Errorf("A's changes (-want +got):\n%s", diff)
	}
}
