package ingest

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// The tests of this file: the retries of a watched company whose fetch
// failed with internal_error are stored with the feed cursors (Norway:
// cursor "NO/retry"; a sweep's: the poller's cursor), in the Apply that
// changed them, so that a restart, or another replica's lead, continues
// them with their attempts (doc/decisions.md, "The retries of
// internal_error are stored with the cursors").

// storedRetry is what the tests read of a retry stored in "NO/retry".
type storedRetryView struct {
	OrgNr     string    `json:"orgnr"`
	Published time.Time `json:"published"`
	EventID   string    `json:"event"`
	Attempts  int       `json:"attempts"`
}

// storedNorwayRetries decodes the stored "NO/retry": nil when it is not
// set (or empty).
func storedNorwayRetries(t *testing.T, st changes.Store) []storedRetryView {
	t.Helper()
	v := cursor(t, st, "NO/retry")
	if v == "" {
		return nil
	}
	var s struct {
		V     int               `json:"v"`
		Retry []storedRetryView `json:"retry"`
	}
	if err := json.Unmarshal([]byte(v), &s); err != nil {
		t.Fatalf("stored retries %q: %v", v, err)
	}
	if s.V != 1 {
		t.Fatalf("stored retries %q: version %d, want 1", v, s.V)
	}
	return s.Retry
}

// oneItemOfA is a feed with one item of noA (a watched unit), the other
// feeds caught up.
func oneItemOfA(t *testing.T) (*memStore, *fakeFetcher, *feedServer) {
	t.Helper()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	return st, f, srv
}

// TestNorwayRetrySurvivesRestart: a retry is stored with the page that
// read its item; a new Norway on the same store (a restart) continues it:
// the change is recorded once, with the item's source event and time, and
// the settled retry is gone from the store.
func TestNorwayRetrySurvivesRestart(t *testing.T) {
	t.Parallel()
	st, f, srv := oneItemOfA(t)
	f.set("NO", noA, failing(registry.CodeInternalError), ok(report("NO", noA, "A NY AS")))
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	want := []storedRetryView{{OrgNr: noA, Published: noAt100, EventID: "enheter/100", Attempts: 1}}
	if diff := cmp.Diff(want, storedNorwayRetries(t, st)); diff != "" {
		t.Errorf("stored retries after the failed fetch (-want +got):\n%s", diff)
	}
	restarted := newTestNorway(t, st, f, srv)
	for i := 1; i <= 2; i++ {
		if err := restarted.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]noted{renamed(noA, "A AS", "A NY AS", "enheter/100", noAt100)}, notedOf(st.all())); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{noA: 2}, fetches(f, "NO", noA)); diff != "" {
		t.Errorf("fetches (-want +got):\n%s", diff)
	}
	if got := storedNorwayRetries(t, st); got != nil {
		t.Errorf("stored retries %+v after the retry succeeded, want none", got)
	}
}

// TestNorwayRetryCapAcrossRestarts: the attempts are stored with the
// retry, so a company whose fetch always fails is fetched internalAttempts
// times in all even when every sync is a new Norway, and then dropped from
// the store with one warning.
func TestNorwayRetryCapAcrossRestarts(t *testing.T) {
	t.Parallel()
	st, f, srv := oneItemOfA(t)
	f.set("NO", noA, failing(registry.CodeInternalError))
	var logs bytes.Buffer
	type after struct {
		Fetches  int
		Attempts int // stored; 0: no retry stored
	}
	var got []after
	for i := range internalAttempts + 2 {
		n := newTestNorway(t, st, f, srv, WithLogger(slogJSON(&logs)))
		if err := n.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
		a := after{Fetches: f.count("NO", noA)}
		if s := storedNorwayRetries(t, st); len(s) == 1 {
			a.Attempts = s[0].Attempts
		} else if len(s) > 1 {
			t.Fatalf("stored retries %+v, want at most one", s)
		}
		got = append(got, a)
	}
	want := []after{{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 0}, {5, 0}, {5, 0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after each sync (-want +got):\n%s", diff)
	}
	wantWarn := []string{"a watched company could not be read after the last attempt; its update is skipped"}
	if diff := cmp.Diff(wantWarn, warnings(t, &logs, noA)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if cs := st.all(); len(cs) != 0 {
		t.Errorf("changes %+v, want none", notedOf(cs))
	}
}

// TestNorwayRetryContinuedAcrossLeads: two replicas lead in turn, each
// forgetting its memory at the start of its lead as the Leader makes it;
// the retry stored by one is continued by the other with its attempts,
// and its change recorded once with the item's source event and time.
func TestNorwayRetryContinuedAcrossLeads(t *testing.T) {
	t.Parallel()
	st, f, srv := oneItemOfA(t)
	ie := failing(registry.CodeInternalError)
	f.set("NO", noA, ie, ie, ie, ok(report("NO", noA, "A NY AS")))
	replicas := []*Norway{newTestNorway(t, st, f, srv), newTestNorway(t, st, f, srv)}
	var attempts []int
	for i := range 5 {
		n := replicas[i%2]
		n.forgetMemory()
		if err := n.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
		a := 0
		if s := storedNorwayRetries(t, st); len(s) > 0 {
			a = s[0].Attempts
		}
		attempts = append(attempts, a)
	}
	if diff := cmp.Diff([]int{1, 2, 3, 0, 0}, attempts); diff != "" {
		t.Errorf("stored attempts after each lead (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]noted{renamed(noA, "A AS", "A NY AS", "enheter/100", noAt100)}, notedOf(st.all())); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{noA: 4}, fetches(f, "NO", noA)); diff != "" {
		t.Errorf("fetches (-want +got):\n%s", diff)
	}
}

// TestNorwayRetrySettledByAnotherLeader: a retry that the other replica
// settled (it handled and stored a newer item of the company) is gone
// from the store, so the first replica, leading again, does not fetch it
// back (which could undo the newer item's purge, or stamp its change with
// the older item's event).
func TestNorwayRetrySettledByAnotherLeader(t *testing.T) {
	t.Parallel()
	st, f, srv := oneItemOfA(t)
	ie := failing(registry.CodeInternalError)
	f.set("NO", noA, ie, ie, ok(report("NO", noA, "A NY AS")))
	a, b := newTestNorway(t, st, f, srv), newTestNorway(t, st, f, srv)
	if err := a.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	var stored [][]storedRetryView
	stored = append(stored, storedNorwayRetries(t, st))
	// b leads: its recheck fails again (the second attempt), then its
	// page reads a newer item of A, whose fetch settles the retry.
	srv.add(t, "enheter", unitItem(101, noA, "2026-09-01T12:00:30.000Z"))
	b.forgetMemory()
	if err := b.Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	stored = append(stored, storedNorwayRetries(t, st))
	a.forgetMemory()
	if err := a.Sync(t.Context(), t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	stored = append(stored, storedNorwayRetries(t, st))
	want := [][]storedRetryView{{{OrgNr: noA, Published: noAt100, EventID: "enheter/100", Attempts: 1}}, nil, nil}
	if diff := cmp.Diff(want, stored); diff != "" {
		t.Errorf("stored retries after each sync (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{noA: 3}, fetches(f, "NO", noA)); diff != "" {
		t.Errorf("fetches (-want +got):\n%s", diff)
	}
	at101 := time.Date(2026, 9, 1, 12, 0, 30, 0, time.UTC)
	if diff := cmp.Diff([]noted{renamed(noA, "A AS", "A NY AS", "enheter/101", at101)}, notedOf(st.all())); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
}

// TestNorwayRetryApplyFailsKeepsStoredList: an Apply that fails stores
// nothing of the retries: a page whose Apply fails leaves none stored (it
// is read again), and a recheck whose Apply fails leaves the stored
// attempts as they were; the attempt it counted is stored by the next
// Apply.
func TestNorwayRetryApplyFailsKeepsStoredList(t *testing.T) {
	t.Parallel()
	st, f, srv := oneItemOfA(t)
	f.set("NO", noA, failing(registry.CodeInternalError))
	n := newTestNorway(t, st, f, srv)
	type after struct {
		Fetches, Attempts int
		Cursor            string
		Failed            bool
	}
	var got []after
	for i := range 4 {
		st.failApply = nil
		if i == 0 || i == 2 {
			st.failApply = errDown
		}
		err := n.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute))
		a := after{Fetches: f.count("NO", noA), Cursor: cursor(t, st, "NO/enheter"), Failed: err != nil}
		if s := storedNorwayRetries(t, st); len(s) > 0 {
			a.Attempts = s[0].Attempts
		}
		got = append(got, a)
	}
	want := []after{
		{Fetches: 1, Attempts: 0, Cursor: "100", Failed: true}, // the page's Apply fails
		{Fetches: 2, Attempts: 1, Cursor: "101"},               // the page read again
		{Fetches: 3, Attempts: 1, Cursor: "101", Failed: true}, // the recheck's Apply fails
		{Fetches: 4, Attempts: 3, Cursor: "101"},               // the attempt counted is kept
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after each sync (-want +got):\n%s", diff)
	}
}

// TestNorwayRetryUnreadableStored: a stored list of retries that cannot
// be read (not JSON, another version, an entry without a company) is
// logged at warn and taken as none: the sync goes on, the feed is read,
// and the value is replaced by a readable one.
func TestNorwayRetryUnreadableStored(t *testing.T) {
	t.Parallel()
	for name, v := range map[string]string{
		"not json":        `{"v":1,"retry":[`,
		"another version": `{"v":2,"retry":[{"orgnr":"` + noA + `","attempts":1}]}`,
		"no company":      `{"v":1,"retry":[{"attempts":1}]}`,
		"not an object":   `"914375916"`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			st, f, srv := oneItemOfA(t)
			f.set("NO", noA, failing(registry.CodeInternalError))
			setCursors(t, st, "NO/retry", v)
			var logs bytes.Buffer
			n := newTestNorway(t, st, f, srv, WithLogger(slogJSON(&logs)))
			if err := n.Sync(t.Context(), t0); err != nil {
				t.Fatalf("sync: %v", err)
			}
			want := []storedRetryView{{OrgNr: noA, Published: noAt100, EventID: "enheter/100", Attempts: 1}}
			if diff := cmp.Diff(want, storedNorwayRetries(t, st)); diff != "" {
				t.Errorf("stored retries (-want +got):\n%s", diff)
			}
			wantWarn := []string{"unreadable list of retries of watched companies, starting with none"}
			if diff := cmp.Diff(wantWarn, warnings(t, &logs, noA)); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPollerSweepRetrySurvivesRestart: a sweep's company to fetch again
// is stored in the poller's cursor; a new poller on the same store (a
// restart) fetches it again and records its change once.
func TestPollerSweepRetrySurvivesRestart(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA, gbB}, snapshot(report("GB", gbA, "A LTD"), nil), snapshot(report("GB", gbB, "B LTD"), nil))
	f.set("GB", gbA, failing(registry.CodeInternalError), ok(report("GB", gbA, "A LTD", withStatus(registry.StatusBankrupt))))
	f.set("GB", gbB, ok(report("GB", gbB, "B LTD")))
	p := newTestPoller(t, st, f, "GB", WithSweepOnly())
	p.RequestSweep()
	if err := p.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 2; i++ {
		if err := newTestPoller(t, st, f, "GB", WithSweepOnly()).Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	want := []noted{{Kind: changes.KindStatusChanged, CompanyID: gbA, Old: `"active"`, New: `"bankrupt"`}}
	if diff := cmp.Diff(want, notedOf(st.all())); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{gbA: 2, gbB: 1}, fetches(f, "GB", gbA, gbB)); diff != "" {
		t.Errorf("fetches (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int(nil), storedPollRetries(t, st, "GB/poll")); diff != "" {
		t.Errorf("stored retries after the retry succeeded (-want +got):\n%s", diff)
	}
}

// storedPollRetries decodes the retries of a poller's stored state.
func storedPollRetries(t *testing.T, st changes.Store, name string) map[string]int {
	t.Helper()
	var s struct {
		Retry map[string]int `json:"retry"`
	}
	if err := json.Unmarshal([]byte(cursor(t, st, name)), &s); err != nil {
		t.Fatal(err)
	}
	return s.Retry
}

// TestPollerSweepRetryCapAcrossLeads: the attempts are stored with the
// poller's state, so a sweep's company whose fetch always fails is
// fetched internalAttempts times in all when restarts and leads of two
// replicas alternate; an Apply that fails leaves the stored attempts as
// they were, and the replica that counted one stores it at its next sync.
func TestPollerSweepRetryCapAcrossLeads(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA}, snapshot(report("GB", gbA, "A LTD"), nil))
	f.set("GB", gbA, failing(registry.CodeInternalError))
	a, b := newTestPoller(t, st, f, "GB", WithSweepOnly()), newTestPoller(t, st, f, "GB", WithSweepOnly())
	a.RequestSweep()
	type after struct {
		Fetches int
		Stored  map[string]int
		Failed  bool
	}
	var got []after
	// Who syncs, and whether it starts a lead (forgetMemory) first.
	steps := []struct {
		p    *Poller
		lead bool
		fail bool
	}{{a, true, false}, {b, true, false}, {b, false, true}, {b, false, false}, {a, true, false}, {a, false, false}, {b, true, false}}
	for i, s := range steps {
		if s.lead {
			s.p.forgetMemory()
		}
		st.failApply = nil
		if s.fail {
			st.failApply = errDown
		}
		err := s.p.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute))
		st.failApply = nil
		got = append(got, after{f.count("GB", gbA), storedPollRetries(t, st, "GB/poll"), err != nil})
	}
	want := []after{
		{1, map[string]int{gbA: 1}, false},
		{2, map[string]int{gbA: 2}, false},
		{3, map[string]int{gbA: 2}, true}, // counted, not stored
		{4, map[string]int{gbA: 4}, false},
		{5, nil, false}, // the last attempt: dropped
		{5, nil, false},
		{5, nil, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after each sync (-want +got):\n%s", diff)
	}
}

// FuzzDecodeRetries: any stored value of "NO/retry" is read without a
// panic; one that is read is stored again as a value that reads the same.
func FuzzDecodeRetries(f *testing.F) {
	f.Add(``)
	f.Add(`{"v":1,"retry":[{"orgnr":"914375916","published":"2026-09-01T11:59:40Z","seen":"2026-09-01T12:00:00Z","event":"enheter/100","attempts":1}]}`)
	f.Add(`{"v":1,"retry":[{"orgnr":"914375916","seen":"0001-01-01T00:00:00Z"}]}`)
	f.Add(`{"v":2}`)
	f.Add(`{"v":1,"retry":[{"attempts":-1}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		list, ok := decodeRetries(s)
		if !ok {
			if list != nil {
				t.Fatalf("unreadable %q gave %d retries", s, len(list))
			}
			return
		}
		enc, err := encodeRetries(list)
		if err != nil {
			t.Fatalf("%q read, not stored again: %v", s, err)
		}
		again, ok := decodeRetries(enc)
		if !ok {
			t.Fatalf("%q read, stored as %q, which does not read", s, enc)
		}
		if enc2, _ := encodeRetries(again); enc2 != enc {
			t.Fatalf("%q stored as %q, then as %q", s, enc, enc2)
		}
	})
}
