package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// The tests of this file: a watched company whose fetch fails with
// internal_error (registry.AsError of an unclassified error, a module's
// panic, an answer that could not be encoded: not always permanent) is
// fetched again, internalAttempts fetches in all, without holding up the
// other companies or the feed; only then is its signal dropped, with a
// warning that names no company (doc/decisions.md, "internal_error of a
// watched company is tried again a few times").

// noted is what the tests check of a recorded change.
type noted struct {
	Kind          changes.Kind
	CompanyID     string
	Old, New      string
	SourceEventID string
	RegisteredAt  time.Time
}

func notedOf(cs []changes.Change) []noted {
	out := []noted{}
	for _, c := range cs {
		n := noted{Kind: c.Kind, CompanyID: c.CompanyID, Old: string(c.Old), New: string(c.New), SourceEventID: c.SourceEventID}
		if c.RegisteredAt != nil {
			n.RegisteredAt = c.RegisteredAt.UTC()
		}
		out = append(out, n)
	}
	return out
}

// fetches is the number of fetches of each company.
func fetches(f *fakeFetcher, country string, ids ...string) map[string]int {
	out := map[string]int{}
	for _, id := range ids {
		out[id] = f.count(country, id)
	}
	return out
}

// warnings returns the messages logged at warn or above, and fails the
// test if one of them names a company of ids (company ids go to debug
// only).
func warnings(t *testing.T, logs *bytes.Buffer, ids ...string) []string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(logs.Bytes()))
	for sc.Scan() {
		var rec struct {
			Level string `json:"level"`
			Msg   string `json:"msg"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		if rec.Level != "WARN" && rec.Level != "ERROR" {
			continue
		}
		for _, id := range ids {
			if strings.Contains(sc.Text(), id) {
				t.Errorf("a %s line names the company: %s", rec.Level, sc.Text())
			}
		}
		out = append(out, rec.Msg)
	}
	return out
}

const (
	noA = "914375916" // a watched unit whose fetch fails with internal_error
	noB = "923609016" // another watched unit, after it in the feed
	noC = "987621370"
)

// unitItem is an enheter item of orgnr (the watched companies' changes
// come from their fetch, not from the patch).
func unitItem(id int, orgnr, dato string) json.RawMessage {
	return json.RawMessage(`{"oppdateringsid":` + strconv.Itoa(id) + `,"dato":"` + dato + `","organisasjonsnummer":"` + orgnr +
		`","endringstype":"Endring","endringer":[{"op":"replace","path":"/navn","value":"NYTT NAVN AS"}]}`)
}

func renamed(id, oldName, newName, event string, at time.Time) noted {
	return noted{Kind: changes.KindNameChanged, CompanyID: id, Old: `"` + oldName + `"`, New: `"` + newName + `"`, SourceEventID: event, RegisteredAt: at}
}

var (
	noAt100 = time.Date(2026, 9, 1, 11, 59, 40, 0, time.UTC)
	noAt101 = time.Date(2026, 9, 1, 11, 59, 41, 0, time.UTC)
	noAt102 = time.Date(2026, 9, 1, 11, 59, 42, 0, time.UTC)
)

// TestNorwayInternalErrorRetried (a): the item of a watched company whose
// fetch fails once with internal_error is fetched again at the next sync;
// its change is recorded once, with the item's source event and time.
func TestNorwayInternalErrorRetried(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	f.set("NO", noA, failing(registry.CodeInternalError), ok(report("NO", noA, "A NY AS")))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	if got := cursor(t, st, "NO/enheter"); got != "101" {
		t.Errorf("cursor %q after the failed fetch, want 101 (past the item)", got)
	}
	for i := 1; i <= 2; i++ {
		if err := n.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	want := []noted{renamed(noA, "A AS", "A NY AS", "enheter/100", noAt100)}
	if diff := cmp.Diff(want, notedOf(companyChanges(t, st, "NO", noA))); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{noA: 2}, fetches(f, "NO", noA)); diff != "" {
		t.Errorf("fetches (-want +got):\n%s", diff)
	}
	if st.deliveryCount() != 1 {
		t.Errorf("%d deliveries, want 1", st.deliveryCount())
	}
}

// TestNorwayInternalErrorDoesNotBlock (b): while a watched company is
// being tried again, another watched company's item after it on the page
// is recorded at once and the feed's cursor moves past both.
func TestNorwayInternalErrorDoesNotBlock(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"), unitItem(101, noB, "2026-09-01T11:59:41.000Z"))
	watch(t, st, "NO", []string{noA, noB}, snapshot(report("NO", noA, "A AS"), nil), snapshot(report("NO", noB, "B AS"), nil))
	f.set("NO", noA, failing(registry.CodeInternalError), ok(report("NO", noA, "A NY AS")))
	f.set("NO", noB, ok(report("NO", noB, "B NY AS")))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]noted{renamed(noB, "B AS", "B NY AS", "enheter/101", noAt101)}, notedOf(st.all())); diff != "" {
		t.Errorf("changes of the first sync (-want +got):\n%s", diff)
	}
	if got := cursor(t, st, "NO/enheter"); got != "102" {
		t.Errorf("cursor %q, want 102 (past both items)", got)
	}
	if err := n.Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	want := []noted{renamed(noB, "B AS", "B NY AS", "enheter/101", noAt101), renamed(noA, "A AS", "A NY AS", "enheter/100", noAt100)}
	if diff := cmp.Diff(want, notedOf(st.all())); diff != "" {
		t.Errorf("changes after the retry (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{noA: 2, noB: 1}, fetches(f, "NO", noA, noB)); diff != "" {
		t.Errorf("fetches (-want +got):\n%s", diff)
	}
}

// TestNorwayInternalErrorDroppedAtTheCap (c): a company whose fetch
// always fails with internal_error is fetched internalAttempts times, once
// a sync, then dropped with one warning that does not name it, and not
// fetched again.
func TestNorwayInternalErrorDroppedAtTheCap(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"))
	watch(t, st, "NO", []string{noA}, snapshot(report("NO", noA, "A AS"), nil))
	f.set("NO", noA, failing(registry.CodeInternalError))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	var logs bytes.Buffer
	n := newTestNorway(t, st, f, srv, WithLogger(slogJSON(&logs)))
	var counts []int
	for i := range internalAttempts + 2 {
		if err := n.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
		counts = append(counts, f.count("NO", noA))
	}
	if diff := cmp.Diff([]int{1, 2, 3, 4, 5, 5, 5}, counts); diff != "" {
		t.Errorf("fetches after each sync (-want +got):\n%s", diff)
	}
	want := []string{"a watched company could not be read after the last attempt; its update is skipped"}
	if diff := cmp.Diff(want, warnings(t, &logs, noA)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if cs := st.all(); len(cs) != 0 {
		t.Errorf("changes %+v, want none", notedOf(cs))
	}
}

// TestNorwayInternalErrorRetryApplyFails (d): an Apply that fails in a
// sync that retries neither loses nor duplicates a change, nor resets or
// repeats an attempt: C's change, fetched while Apply fails, is recorded
// at the next sync; A's attempts counted in that sync stay counted (it is
// fetched internalAttempts times in all); B, fetched at last when A is
// dropped in a sync whose Apply fails, is recorded once, and A stays
// dropped.
func TestNorwayInternalErrorRetryApplyFails(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter", unitItem(100, noA, "2026-09-01T11:59:40.000Z"), unitItem(101, noB, "2026-09-01T11:59:41.000Z"),
		unitItem(102, noC, "2026-09-01T11:59:42.000Z"))
	watch(t, st, "NO", []string{noA, noB, noC},
		snapshot(report("NO", noA, "A AS"), nil), snapshot(report("NO", noB, "B AS"), nil), snapshot(report("NO", noC, "C AS"), nil))
	ie := failing(registry.CodeInternalError)
	f.set("NO", noA, ie)
	f.set("NO", noB, ie, ie, ie, ie, ok(report("NO", noB, "B NY AS")))
	f.set("NO", noC, ie, ok(report("NO", noC, "C NY AS")))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	type after struct {
		Fetches map[string]int
		Changes []noted
		Failed  bool
	}
	var got []after
	for i := range 7 {
		st.failApply = nil
		if i == 1 || i == 4 {
			st.failApply = errDown
		}
		err := n.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute))
		got = append(got, after{Fetches: fetches(f, "NO", noA, noB, noC), Changes: notedOf(st.all()), Failed: err != nil})
	}
	bc := renamed(noB, "B AS", "B NY AS", "enheter/101", noAt101)
	cc := renamed(noC, "C AS", "C NY AS", "enheter/102", noAt102)
	want := []after{
		{Fetches: map[string]int{noA: 1, noB: 1, noC: 1}, Changes: []noted{}},
		{Fetches: map[string]int{noA: 2, noB: 2, noC: 2}, Changes: []noted{}, Failed: true}, // C found, Apply fails
		{Fetches: map[string]int{noA: 3, noB: 3, noC: 3}, Changes: []noted{cc}},
		{Fetches: map[string]int{noA: 4, noB: 4, noC: 3}, Changes: []noted{cc}},
		{Fetches: map[string]int{noA: 5, noB: 5, noC: 3}, Changes: []noted{cc}, Failed: true}, // A dropped, B found, Apply fails
		{Fetches: map[string]int{noA: 5, noB: 6, noC: 3}, Changes: []noted{cc, bc}},
		{Fetches: map[string]int{noA: 5, noB: 6, noC: 3}, Changes: []noted{cc, bc}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after each sync (-want +got):\n%s", diff)
	}
}

const (
	gbA = "11519482" // a watched company whose fetch fails with internal_error
	gbB = "SC571653" // another watched company, sorted after it
)

var gbPublished = time.Date(2022, 8, 2, 13, 51, 1, 0, time.UTC)

// newTestFlusher is a stream's processor whose flushes the test calls.
func newTestFlusher(t *testing.T, st changes.Store, f changes.Fetcher, opts ...Option) *streamProcessor {
	t.Helper()
	s := newTestStream(t, st, f, newCHServer(t, nil), newFakeClock(t0), append([]Option{WithStreams("insolvency-cases")}, opts...)...)
	if err := s.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	return &streamProcessor{s: s, progress: map[string]*streamProgress{"insolvency-cases": {}}, pending: map[string]*pendingCompany{}}
}

func insolvency(tp int64, company string) event {
	return event{stream: "insolvency-cases", timepoint: tp, company: company, published: &gbPublished}
}

func bankrupt(id, event string) noted {
	return noted{Kind: changes.KindStatusChanged, CompanyID: id, Old: `"active"`, New: `"bankrupt"`, SourceEventID: event, RegisteredAt: gbPublished}
}

// TestStreamInternalErrorRetried (a): a watched company whose fetch fails
// once with internal_error stays pending, the stored timepoint before its
// event; the next flush records its change once, with the event's
// timepoint and time.
func TestStreamInternalErrorRetried(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA}, snapshot(report("GB", gbA, "A LTD"), nil))
	f.set("GB", gbA, failing(registry.CodeInternalError), ok(report("GB", gbA, "A LTD", withStatus(registry.StatusBankrupt))))
	p := newTestFlusher(t, st, f)
	p.handle(insolvency(500, gbA))
	p.flush(t.Context())
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got != "499" {
		t.Errorf("cursor %q while the company is tried again, want 499", got)
	}
	p.flush(t.Context())
	p.flush(t.Context())
	if diff := cmp.Diff([]noted{bankrupt(gbA, "insolvency-cases/500")}, notedOf(companyChanges(t, st, "GB", gbA))); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got != "500" {
		t.Errorf("cursor %q, want 500", got)
	}
	if diff := cmp.Diff(map[string]int{gbA: 2}, fetches(f, "GB", gbA)); diff != "" {
		t.Errorf("fetches (-want +got):\n%s", diff)
	}
}

// TestStreamInternalErrorDoesNotBlock (b): a company tried again does not
// hold up the flush: the company after it is fetched, recorded and done
// at once (the stored timepoint stays before the first one's event).
func TestStreamInternalErrorDoesNotBlock(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA, gbB}, snapshot(report("GB", gbA, "A LTD"), nil), snapshot(report("GB", gbB, "B LTD"), nil))
	f.set("GB", gbA, failing(registry.CodeInternalError), ok(report("GB", gbA, "A LTD", withStatus(registry.StatusBankrupt))))
	f.set("GB", gbB, ok(report("GB", gbB, "B LTD", withStatus(registry.StatusBankrupt))))
	p := newTestFlusher(t, st, f)
	p.handle(insolvency(500, gbA))
	p.handle(insolvency(501, gbB))
	p.flush(t.Context())
	if diff := cmp.Diff([]noted{bankrupt(gbB, "insolvency-cases/501")}, notedOf(st.all())); diff != "" {
		t.Errorf("changes of the first flush (-want +got):\n%s", diff)
	}
	var pending []string
	for c := range p.pending {
		pending = append(pending, c)
	}
	if diff := cmp.Diff([]string{gbA}, pending); diff != "" {
		t.Errorf("pending after the first flush (-want +got):\n%s", diff)
	}
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got != "499" {
		t.Errorf("cursor %q, want 499 (before the company tried again)", got)
	}
	p.flush(t.Context())
	want := []noted{bankrupt(gbB, "insolvency-cases/501"), bankrupt(gbA, "insolvency-cases/500")}
	if diff := cmp.Diff(want, notedOf(st.all())); diff != "" {
		t.Errorf("changes after the retry (-want +got):\n%s", diff)
	}
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got != "501" {
		t.Errorf("cursor %q, want 501", got)
	}
	if diff := cmp.Diff(map[string]int{gbA: 2, gbB: 1}, fetches(f, "GB", gbA, gbB)); diff != "" {
		t.Errorf("fetches (-want +got):\n%s", diff)
	}
}

// TestStreamInternalErrorDroppedAtTheCap (c): a company whose fetch always
// fails with internal_error is fetched internalAttempts times, once a
// flush, then dropped with one warning that does not name it: the stored
// timepoint moves past its event and it is not fetched again.
func TestStreamInternalErrorDroppedAtTheCap(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA}, snapshot(report("GB", gbA, "A LTD"), nil))
	f.set("GB", gbA, failing(registry.CodeInternalError))
	var logs bytes.Buffer
	p := newTestFlusher(t, st, f, WithLogger(slogJSON(&logs)))
	p.handle(insolvency(500, gbA))
	type after struct {
		Fetches int
		Cursor  string
	}
	var got []after
	for range internalAttempts + 2 {
		p.flush(t.Context())
		got = append(got, after{f.count("GB", gbA), cursor(t, st, "GB/stream/insolvency-cases")})
	}
	want := []after{{1, "499"}, {2, "499"}, {3, "499"}, {4, "499"}, {5, "500"}, {5, "500"}, {5, "500"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after each flush (-want +got):\n%s", diff)
	}
	wantWarn := []string{"a watched company could not be read after the last attempt; its events are skipped"}
	if diff := cmp.Diff(wantWarn, warnings(t, &logs, gbA)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if cs := st.all(); len(cs) != 0 {
		t.Errorf("changes %+v, want none", notedOf(cs))
	}
}

// TestStreamInternalErrorRetryApplyFails (d): an Apply that fails in a
// flush that retries neither loses nor duplicates a change, nor repeats
// an attempt: A, found while Apply fails, is recorded once at the next
// flush; B's attempts go on counting, and B dropped in a flush whose
// Apply fails stays dropped.
func TestStreamInternalErrorRetryApplyFails(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA, gbB}, snapshot(report("GB", gbA, "A LTD"), nil), snapshot(report("GB", gbB, "B LTD"), nil))
	f.set("GB", gbA, failing(registry.CodeInternalError), ok(report("GB", gbA, "A LTD", withStatus(registry.StatusBankrupt))))
	f.set("GB", gbB, failing(registry.CodeInternalError))
	p := newTestFlusher(t, st, f)
	p.handle(insolvency(500, gbA))
	p.handle(insolvency(501, gbB))
	type after struct {
		Fetches map[string]int
		Changes []noted
		Cursor  string
	}
	var got []after
	for i := range 7 {
		st.failApply = nil
		if i == 1 || i == 4 {
			st.failApply = errDown
		}
		p.flush(t.Context())
		got = append(got, after{fetches(f, "GB", gbA, gbB), notedOf(st.all()), cursor(t, st, "GB/stream/insolvency-cases")})
	}
	ac := bankrupt(gbA, "insolvency-cases/500")
	want := []after{
		{map[string]int{gbA: 1, gbB: 1}, []noted{}, "499"},
		{map[string]int{gbA: 2, gbB: 2}, []noted{}, "499"}, // A found, Apply fails
		{map[string]int{gbA: 3, gbB: 3}, []noted{ac}, "500"},
		{map[string]int{gbA: 3, gbB: 4}, []noted{ac}, "500"},
		{map[string]int{gbA: 3, gbB: 5}, []noted{ac}, "500"}, // B dropped, Apply fails
		{map[string]int{gbA: 3, gbB: 5}, []noted{ac}, "501"},
		{map[string]int{gbA: 3, gbB: 5}, []noted{ac}, "501"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after each flush (-want +got):\n%s", diff)
	}
}

// TestPollerSweepInternalErrorRetried (a, b): a sweep-only poller (the
// United Kingdom beside a stream) has no next moment for a company its
// sweep could not read: one whose fetch fails once with internal_error is
// fetched again at the next sync and its change recorded once; the sweep
// reads the company after it at once and ends.
func TestPollerSweepInternalErrorRetried(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA, gbB}, snapshot(report("GB", gbA, "A LTD"), nil), snapshot(report("GB", gbB, "B LTD"), nil))
	f.set("GB", gbA, failing(registry.CodeInternalError), ok(report("GB", gbA, "A LTD", withStatus(registry.StatusBankrupt))))
	f.set("GB", gbB, ok(report("GB", gbB, "B LTD", withStatus(registry.StatusBankrupt))))
	p := newTestPoller(t, st, f, "GB", WithSweepOnly())
	p.RequestSweep()
	type after struct {
		Fetches map[string]int
		Changes []noted
	}
	var got []after
	for i := range 3 {
		if err := p.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
		got = append(got, after{fetches(f, "GB", gbA, gbB), notedOf(st.all())})
	}
	polled := func(id string) noted {
		return noted{Kind: changes.KindStatusChanged, CompanyID: id, Old: `"active"`, New: `"bankrupt"`}
	}
	want := []after{
		{map[string]int{gbA: 1, gbB: 1}, []noted{polled(gbB)}},
		{map[string]int{gbA: 2, gbB: 1}, []noted{polled(gbB), polled(gbA)}},
		{map[string]int{gbA: 2, gbB: 1}, []noted{polled(gbB), polled(gbA)}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after each sync (-want +got):\n%s", diff)
	}
	if c := cursor(t, st, "GB/poll"); strings.Contains(c, "sweep") {
		t.Errorf("poll cursor %s: the sweep did not end", c)
	}
}

// TestPollerSweepInternalErrorDroppedAtTheCap (c, d): a sweep's company
// whose fetch always fails with internal_error is fetched internalAttempts
// times, once a sync, then dropped with one warning that does not name
// it. An Apply that fails after a retry read a company (C) neither loses
// its change nor counts an attempt of A twice.
func TestPollerSweepInternalErrorDroppedAtTheCap(t *testing.T) {
	t.Parallel()
	const gbC = "SC999999"
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA, gbC}, snapshot(report("GB", gbA, "A LTD"), nil), snapshot(report("GB", gbC, "C LTD"), nil))
	f.set("GB", gbA, failing(registry.CodeInternalError))
	f.set("GB", gbC, failing(registry.CodeInternalError), ok(report("GB", gbC, "C LTD", withStatus(registry.StatusBankrupt))))
	var logs bytes.Buffer
	p := newTestPoller(t, st, f, "GB", WithSweepOnly(), WithLogger(slogJSON(&logs)))
	p.RequestSweep()
	type after struct {
		Fetches map[string]int
		Changes []noted
		Failed  bool
	}
	var got []after
	for i := range internalAttempts + 2 {
		st.failApply = nil
		if i == 1 {
			st.failApply = errDown
		}
		err := p.Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute))
		got = append(got, after{fetches(f, "GB", gbA, gbC), notedOf(st.all()), err != nil})
	}
	cc := noted{Kind: changes.KindStatusChanged, CompanyID: gbC, Old: `"active"`, New: `"bankrupt"`}
	want := []after{
		{map[string]int{gbA: 1, gbC: 1}, []noted{}, false},
		{map[string]int{gbA: 2, gbC: 2}, []noted{}, true}, // C read, Apply fails
		{map[string]int{gbA: 3, gbC: 3}, []noted{cc}, false},
		{map[string]int{gbA: 4, gbC: 3}, []noted{cc}, false},
		{map[string]int{gbA: 5, gbC: 3}, []noted{cc}, false},
		{map[string]int{gbA: 5, gbC: 3}, []noted{cc}, false},
		{map[string]int{gbA: 5, gbC: 3}, []noted{cc}, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after each sync (-want +got):\n%s", diff)
	}
	wantWarn := []string{"a watched company could not be read in a sweep after the last attempt; it is polled again at the next sweep"}
	if diff := cmp.Diff(wantWarn, warnings(t, &logs, gbA, gbC)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestStreamNewEventStandsForTheFailedOne: a new event of a company whose
// fetch failed with internal_error stands for the older event: the stored
// timepoint moves to just before the new event (not held before the
// first for as long as the company's events come), and once the fetch
// works the change is recorded once, with the new event; a restart then
// would replay the new event, whose fetch reads the whole company.
func TestStreamNewEventStandsForTheFailedOne(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	watch(t, st, "GB", []string{gbA}, snapshot(report("GB", gbA, "A LTD"), nil))
	ie := failing(registry.CodeInternalError)
	f.set("GB", gbA, ie, ie, ie, ok(report("GB", gbA, "A LTD", withStatus(registry.StatusBankrupt))))
	p := newTestFlusher(t, st, f)
	p.handle(insolvency(500, gbA))
	p.flush(t.Context())
	p.flush(t.Context())
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got != "499" {
		t.Errorf("cursor %q while the first event is tried again, want 499", got)
	}
	p.handle(insolvency(700, gbA))
	p.flush(t.Context()) // the third failure, the new event's first
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got != "699" {
		t.Errorf("cursor %q after the new event, want 699 (before the new event only)", got)
	}
	p.flush(t.Context())
	if diff := cmp.Diff([]noted{bankrupt(gbA, "insolvency-cases/700")}, notedOf(companyChanges(t, st, "GB", gbA))); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got != "700" {
		t.Errorf("cursor %q, want 700", got)
	}
}
