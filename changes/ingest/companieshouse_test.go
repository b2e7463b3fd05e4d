package ingest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/internal/moduletest"
)

const testStreamKey = "a-streaming-api-key"

// chServer plays Companies House's streams: each connection to a stream
// follows the next plan of that stream (the last one repeats).
type chServer struct {
	*httptest.Server
	mu    sync.Mutex
	plans map[string][]connPlan
	conns []chConn
}

// connPlan is one connection: a status other than 200, or lines (each
// written with its newline, flushed), and then the connection is held
// open until the client leaves.
type connPlan struct {
	status int
	lines  []string
}

type chConn struct {
	stream    string
	timepoint string
	authOK    bool
}

func newCHServer(t *testing.T, plans map[string][]connPlan) *chServer {
	t.Helper()
	s := &chServer{plans: plans}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *chServer) serve(w http.ResponseWriter, r *http.Request) {
	user, pass, ok := r.BasicAuth()
	stream := strings.TrimPrefix(r.URL.Path, "/")
	s.mu.Lock()
	s.conns = append(s.conns, chConn{stream: stream, timepoint: r.URL.Query().Get("timepoint"), authOK: ok && user == testStreamKey && pass == ""})
	n := 0
	for _, c := range s.conns {
		if c.stream == stream {
			n++
		}
	}
	plans := s.plans[stream]
	s.mu.Unlock()
	if len(plans) == 0 {
		http.NotFound(w, r)
		return
	}
	p := plans[min(n, len(plans))-1]
	if p.status != 0 && p.status != http.StatusOK {
		w.WriteHeader(p.status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	for _, l := range p.lines {
		_, _ = w.Write([]byte(l + "\n"))
		w.(http.Flusher).Flush()
	}
	w.(http.Flusher).Flush()
	<-r.Context().Done()
}

func (s *chServer) connections() []chConn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]chConn(nil), s.conns...)
}

// eventLine is a recorded stream event compacted to one line.
func eventLine(t *testing.T, file string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, moduletest.Recording(t, "companieshouse", file)); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

const (
	evCompany    = "stream_companies_event_company-profile_SC571653_2022-08.json"
	evInsolvency = "stream_insolvency-cases_event_company-insolvency_11519482_2022-08_relay-received.json"
	evPSC        = "stream_persons-with-significant-control_event_company-psc-corporate_14273658_2022-08_relay-received.json"
	evCharges    = "stream_charges_event_company-charges_fully-satisfied_03743582_2022-11.json"
	evFilings    = "stream_filings_event_fields_changed_10620794_2023-11.json"
)

// runStream starts s.Run and returns a channel of the events it handled;
// the test's cleanup stops it and checks that it returned nil.
func runStream(t *testing.T, s *CompaniesHouseStream) <-chan event {
	t.Helper()
	handled := make(chan event, 64)
	s.handled = func(ev event) { handled <- ev }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := recv(t, done, "return of Run"); err != nil {
			t.Errorf("Run = %v", err)
		}
	})
	return handled
}

// awaitConnections waits until the test server has counted n connections
// and the stream waits on at least timers timers (the flush and each
// connection's wait). A connection's timers change when its answer's
// headers come (the wait for them ends, the idle check starts), after the
// server counted it, so this returns by then at the latest. Counting
// timers alone does not tell a connection answered from one whose request
// is on its way: each waits on a timer.
func awaitConnections(t *testing.T, clock *fakeClock, srv *chServer, n, timers int) {
	t.Helper()
	clock.WaitFor(t, func(waiting int) bool { return waiting >= timers && len(srv.connections()) >= n })
}

func newTestStream(t *testing.T, st changes.Store, f changes.Fetcher, srv *chServer, clock Clock, opts ...Option) *CompaniesHouseStream {
	t.Helper()
	s, err := NewCompaniesHouseStream(st, f, testStreamKey, append([]Option{WithBaseURL(srv.URL), WithClock(clock)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStreamFiltersAndStoresTimepoints (issue 28): four streams play their
// recorded events with heartbeats between; the events about watched
// companies lead to a fetch and a diff (an insolvency: the status
// changed, with the event's timepoint and time), the others only move
// their stream's timepoint; all of it is stored in one Apply at the
// flush. The requests carry the stream key as Basic authentication.
func TestStreamFiltersAndStoresTimepoints(t *testing.T) {
	t.Parallel()
	srv := newCHServer(t, map[string][]connPlan{
		"companies":                        {{lines: []string{"", eventLine(t, evCompany), ""}}},
		"insolvency-cases":                 {{lines: []string{eventLine(t, evInsolvency)}}},
		"persons-with-significant-control": {{lines: []string{"", "", eventLine(t, evPSC)}}},
		"charges":                          {{lines: []string{eventLine(t, evCharges), ""}}},
	})
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	st.applied = make(chan changes.Batch, 4)
	watch(t, st, "GB", []string{"SC571653", "11519482"},
		snapshot(report("GB", "SC571653", "FC KIOSKS LTD"), nil), snapshot(report("GB", "11519482", "IN TROUBLE LTD"), nil))
	f.set("GB", "SC571653", ok(report("GB", "SC571653", "FC KIOSKS LTD")))
	f.set("GB", "11519482", ok(report("GB", "11519482", "IN TROUBLE LTD", withStatus(registry.StatusUnderLiquidation))))
	s := newTestStream(t, st, f, srv, clock, WithStreams("companies", "insolvency-cases", "persons-with-significant-control", "charges"))
	handled := runStream(t, s)
	for range 4 {
		recv(t, handled, "event")
	}
	clock.BlockUntil(t, 5) // the flush and four idle checks
	clock.Advance(DefaultFlushEvery)
	b := recv(t, st.applied, "flush")
	want := map[string]string{"GB/stream/companies": "47695461", "GB/stream/insolvency-cases": "1293709",
		"GB/stream/persons-with-significant-control": "4099642", "GB/stream/charges": "1660556"}
	if diff := cmp.Diff(want, b.Cursors); diff != "" {
		t.Errorf("cursors (-want +got):\n%s", diff)
	}
	cs := companyChanges(t, st, "GB", "11519482")
	published := time.Date(2022, 8, 2, 13, 51, 1, 704338000, time.UTC)
	if len(cs) != 1 || cs[0].Kind != changes.KindStatusChanged || cs[0].SourceEventID != "insolvency-cases/1293709" ||
		cs[0].RegisteredAt == nil || !cs[0].RegisteredAt.Equal(published) {
		t.Errorf("changes %+v", recordedOf(cs))
	}
	if len(st.all()) != 1 || f.count("GB", "SC571653") != 1 || f.total() != 2 {
		t.Errorf("%d changes, %d fetches; want 1 change, one fetch per watched company", len(st.all()), f.total())
	}
	for _, c := range srv.connections() {
		if !c.authOK || c.timepoint != "" {
			t.Errorf("connection %+v: want the key as Basic user and no timepoint", c)
		}
	}
	// Nothing new: the next flush stores nothing.
	applies := st.applyCount()
	clock.BlockUntil(t, 5)
	clock.Advance(DefaultFlushEvery)
	clock.BlockUntil(t, 5)
	if st.applyCount() != applies {
		t.Errorf("a flush with nothing new wrote to the store")
	}
}

// TestStreamTimepointTooOld (issue 28): a stored timepoint is sent on
// connection; a 416 answer clears it, reconnects without one, and asks
// the sweeper to poll every watched company, in memory and stored with
// the cleared timepoint.
func TestStreamTimepointTooOld(t *testing.T) {
	t.Parallel()
	srv := newCHServer(t, map[string][]connPlan{"companies": {{status: http.StatusRequestedRangeNotSatisfiable}, {}}})
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	setCursors(t, st, "GB/stream/companies", "1000")
	st.applied = make(chan changes.Batch, 4)
	sweeper := newTestPoller(t, st, f, "GB", WithSweepOnly())
	s := newTestStream(t, st, f, srv, clock, WithStreams("companies"), WithSweeper(sweeper))
	handled := runStream(t, s)
	if ev := recv(t, handled, "reset"); !ev.reset {
		t.Fatalf("first event %+v, want the reset", ev)
	}
	if !sweeper.sweep.Load() {
		t.Error("no sweep asked for")
	}
	clock.BlockUntil(t, 2) // the flush and the back-off
	clock.Advance(minBackoff)
	awaitConnections(t, clock, srv, 2, 2) // the flush and the idle check of the new connection
	clock.Advance(DefaultFlushEvery)
	b := recv(t, st.applied, "flush")
	// The flush that clears the timepoint stores the sweep asked for with
	// it, so that it outlives this replica's lead (rev-whole6).
	if b.Cursors["GB/sweep"] == "" {
		t.Errorf("the flush stored no sweep token: %v", b.Cursors)
	}
	delete(b.Cursors, "GB/sweep") // a random token
	if diff := cmp.Diff(map[string]string{"GB/stream/companies": ""}, b.Cursors); diff != "" {
		t.Errorf("cursors (-want +got):\n%s", diff)
	}
	var tps []string
	for _, c := range srv.connections() {
		tps = append(tps, c.timepoint)
	}
	if diff := cmp.Diff([]string{"1000", ""}, tps); diff != "" {
		t.Errorf("timepoints asked (-want +got):\n%s", diff)
	}
}

// TestStreamReconnectsWhenSilent: a stream that sends nothing, not even
// a heartbeat, for the idle timeout is reconnected from its last
// timepoint; an event sent again after the reconnection is not processed
// twice.
func TestStreamReconnectsWhenSilent(t *testing.T) {
	t.Parallel()
	line := eventLine(t, evCompany)
	srv := newCHServer(t, map[string][]connPlan{"companies": {{lines: []string{line}}, {lines: []string{line}}}})
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	watch(t, st, "GB", []string{"SC571653"}, snapshot(report("GB", "SC571653", "FC KIOSKS LTD"), nil))
	f.set("GB", "SC571653", ok(report("GB", "SC571653", "FC KIOSKS LTD")))
	s := newTestStream(t, st, f, srv, clock, WithStreams("companies"))
	handled := runStream(t, s)
	recv(t, handled, "event")
	// Three idle checks, the third at the idle timeout, which ends the
	// connection; then the back-off and the new connection.
	for range 3 {
		clock.BlockUntil(t, 2) // the flush and the idle check
		clock.Advance(DefaultIdleTimeout / 3)
	}
	clock.BlockUntil(t, 2) // the flush and the back-off
	clock.Advance(minBackoff)
	awaitConnections(t, clock, srv, 2, 2)
	if c := srv.connections()[1]; c.timepoint != "47695461" {
		t.Errorf("reconnected with timepoint %q, want 47695461", c.timepoint)
	}
	if clock.Now().Sub(t0) < DefaultIdleTimeout {
		t.Errorf("reconnected after %v, before the idle timeout", clock.Now().Sub(t0))
	}
	clock.Advance(DefaultFlushEvery)
	clock.BlockUntil(t, 2)
	if n := f.count("GB", "SC571653"); n != 1 {
		t.Errorf("the company was fetched %d times, want 1 (the repeated event is skipped)", n)
	}
}

// TestStreamFailuresBackOffAndHideTheKey: a 503, a refused key (401) and
// a 429 are retried after growing waits; the log says what happened and
// never holds the key.
func TestStreamFailuresBackOffAndHideTheKey(t *testing.T) {
	t.Parallel()
	srv := newCHServer(t, map[string][]connPlan{"companies": {
		{status: http.StatusServiceUnavailable}, {status: http.StatusUnauthorized}, {status: http.StatusTooManyRequests}, {}}})
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	var logs moduletest.SyncBuffer
	s := newTestStream(t, st, f, srv, clock, WithStreams("companies"), WithLogger(slogJSON(&logs)))
	runStream(t, s)
	failures := func() int {
		out := logs.String()
		return strings.Count(out, "stream connection failed") + strings.Count(out, "refused the stream key") +
			strings.Count(out, "limiting the stream")
	}
	// The back-off is the timer that is not the flush: the k-th
	// connection's failure is logged after its wait for the headers ended
	// and before its back-off starts, and the next connection waits until
	// the back-off fires.
	notFlush := func(d time.Duration) bool { return d != DefaultFlushEvery }
	var waits []time.Duration
	for k := 1; k <= 3; k++ {
		clock.WaitFor(t, func(n int) bool { return failures() >= k && clock.find(notFlush) != nil })
		backoff, before := clock.find(notFlush), clock.Now()
		for clock.waiting(backoff) {
			clock.Advance(time.Second)
		}
		waits = append(waits, clock.Now().Sub(before))
	}
	awaitConnections(t, clock, srv, 4, 2)
	if waits[0] > minBackoff || waits[1] < maxBackoff/2 || waits[2] < maxBackoff/2 {
		t.Errorf("waits %v: want about 1 s after the 503, minutes after the 401 and the 429", waits)
	}
	out := logs.String()
	for _, want := range []string{"stream connection failed", `"status":503`, "refused the stream key", "limiting the stream"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, testStreamKey) || strings.Contains(out, base64.StdEncoding.EncodeToString([]byte(testStreamKey+":"))) {
		t.Errorf("the key is in the log:\n%s", out)
	}
	if got := fmt.Sprintf("%v %+v %#v", s, s, s); strings.Contains(got, testStreamKey) {
		t.Errorf("fmt shows the key: %s", got)
	}
}

// TestStreamSkipsOverlongLines: a line longer than the bound is skipped
// without being held; the next event is read.
func TestStreamSkipsOverlongLines(t *testing.T) {
	t.Parallel()
	srv := newCHServer(t, map[string][]connPlan{"companies": {{lines: []string{strings.Repeat("x", 20000), "not json", eventLine(t, evCompany)}}}})
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	var logs moduletest.SyncBuffer
	s := newTestStream(t, st, f, srv, clock, WithStreams("companies"), WithMaxLine(4096), WithLogger(slogJSON(&logs)))
	handled := runStream(t, s)
	if ev := recv(t, handled, "event"); ev.timepoint != 47695461 || ev.company != "SC571653" {
		t.Errorf("event %+v", ev)
	}
	if !strings.Contains(logs.String(), "longer than the bound") {
		t.Errorf("log:\n%s", logs.String())
	}
}

// TestStreamDeletedProfile: a deleted company-profile event (no real one
// is recorded; its envelope as documented) followed by a not_found fetch
// is a deletion at once.
func TestStreamDeletedProfile(t *testing.T) {
	t.Parallel()
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	watch(t, st, "GB", []string{"SC571653"}, snapshot(report("GB", "SC571653", "FC KIOSKS LTD"), nil))
	s := newTestStream(t, st, f, newCHServer(t, nil), clock, WithStreams("companies"))
	if err := s.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	ev, ok := decodeStreamLine("companies", []byte(`{"resource_kind":"company-profile","resource_uri":"/company/SC571653","resource_id":"SC571653","data":{},"event":{"timepoint":48000000,"published_at":"2022-08-03T09:00:00","type":"deleted"}}`), s.loc)
	if !ok || !ev.deleted {
		t.Fatalf("decoded %+v, %v", ev, ok)
	}
	p := &streamProcessor{s: s, progress: map[string]*streamProgress{"companies": {}}, pending: map[string]*pendingCompany{}}
	p.handle(ev)
	p.flush(t.Context())
	cs := companyChanges(t, st, "GB", "SC571653")
	if len(cs) != 1 || cs[0].Kind != changes.KindDeleted || cs[0].SourceEventID != "companies/48000000" ||
		!cs[0].RegisteredAt.Equal(time.Date(2022, 8, 3, 8, 0, 0, 0, time.UTC)) {
		t.Errorf("changes %+v (published_at without a zone is UK time, BST in August)", recordedOf(cs))
	}
	if got := cursor(t, st, "GB/stream/companies"); got != "48000000" {
		t.Errorf("cursor %q", got)
	}
}

// TestStreamPendingHoldsTheTimepoint: when a watched company cannot be
// fetched yet (the budget), its event stays pending and the stream's
// stored timepoint stops before it, so that a restart reads it again.
func TestStreamPendingHoldsTheTimepoint(t *testing.T) {
	t.Parallel()
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	watch(t, st, "GB", []string{"11519482"}, snapshot(report("GB", "11519482", "X LTD"), nil))
	f.set("GB", "11519482", failing(registry.CodeRateLimited), ok(report("GB", "11519482", "X LTD", withStatus(registry.StatusBankrupt))))
	s := newTestStream(t, st, f, newCHServer(t, nil), clock, WithStreams("insolvency-cases"))
	if err := s.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	p := &streamProcessor{s: s, progress: map[string]*streamProgress{"insolvency-cases": {}}, pending: map[string]*pendingCompany{}}
	for _, ev := range []event{
		{stream: "insolvency-cases", timepoint: 500, company: "11519482"},
		{stream: "insolvency-cases", timepoint: 501, company: "00000001"},
		{stream: "insolvency-cases", timepoint: 502, company: "11519482"},
	} {
		p.handle(ev)
	}
	p.flush(t.Context())
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got != "499" {
		t.Errorf("cursor %q while the company waits, want 499", got)
	}
	p.flush(t.Context())
	// The event of 00000001, which no watch holds, keeps the timepoint
	// before it for the grace a new watch's baselines may take.
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got != "500" {
		t.Errorf("cursor %q after the fetch, within the grace of the unwatched company's event, want 500", got)
	}
	clock.Advance(newWatchGrace)
	p.flush(t.Context())
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got != "502" {
		t.Errorf("cursor %q after the fetch and the grace, want 502", got)
	}
	if cs := companyChanges(t, st, "GB", "11519482"); len(cs) != 1 || cs[0].SourceEventID != "insolvency-cases/502" {
		t.Errorf("changes %+v", recordedOf(cs))
	}
}

// TestDecodeStreamLine: the recorded events of each stream: timepoint,
// company number from resource_uri (never resource_id), published_at in
// its three forms.
func TestDecodeStreamLine(t *testing.T) {
	t.Parallel()
	london, err := time.LoadLocation("Europe/London")
	if err != nil {
		t.Skip("no time zone database")
	}
	for _, tc := range []struct {
		file, stream, company string
		timepoint             int64
		published             time.Time
	}{
		{evCompany, "companies", "SC571653", 47695461, time.Date(2022, 8, 2, 14, 21, 6, 0, time.UTC)},
		{evInsolvency, "insolvency-cases", "11519482", 1293709, time.Date(2022, 8, 2, 13, 51, 1, 704338000, time.UTC)},
		{evPSC, "persons-with-significant-control", "14273658", 4099642, time.Date(2022, 8, 3, 11, 8, 2, 0, time.UTC)},
		{evCharges, "charges", "03743582", 1660556, time.Date(2022, 11, 15, 18, 59, 2, 333257000, time.UTC)},
		{evFilings, "filings", "10620794", 140062688, time.Date(2023, 11, 4, 14, 33, 31, 0, time.UTC)},
	} {
		ev, ok := decodeStreamLine(tc.stream, []byte(eventLine(t, tc.file)), london)
		if !ok || ev.company != tc.company || ev.timepoint != tc.timepoint || ev.published == nil || !ev.published.Equal(tc.published) || ev.deleted {
			t.Errorf("%s: %+v %v", tc.file, ev, ok)
		}
	}
	for _, bad := range []string{"", "{}", "[1]", `{"event":{"timepoint":0}}`, `{"event":{"timepoint":"x"}}`} {
		if ev, ok := decodeStreamLine("companies", []byte(bad), london); ok {
			t.Errorf("decodeStreamLine(%q) = %+v", bad, ev)
		}
	}
	ev, ok := decodeStreamLine("company-exemptions", []byte(`{"resource_uri":"company/14438833/exemptions","event":{"timepoint":"12"}}`), london)
	if !ok || ev.company != "14438833" || ev.timepoint != 12 || ev.published != nil {
		t.Errorf("exemptions event without a leading slash: %+v %v", ev, ok)
	}
}

// TestLineReader: lines end at newlines (CRLF too), an overlong line is
// skipped whole, and a last line without a newline is dropped.
func TestLineReader(t *testing.T) {
	t.Parallel()
	in := "a\r\n\n" + strings.Repeat("y", 10000) + "\nb\nunfinished"
	lr := newLineReader(strings.NewReader(in), 4096)
	var got []string
	for {
		b, err := lr.next()
		if errors.Is(err, errLineTooLong) {
			got = append(got, "<too long>")
			continue
		}
		if err != nil {
			break
		}
		got = append(got, string(b))
	}
	if diff := cmp.Diff([]string{"a", "", "<too long>", "b"}, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

// FuzzStreamLines: any bytes read as a stream give lines within the bound
// and events with a positive timepoint, never a panic.
func FuzzStreamLines(f *testing.F) {
	for _, name := range []string{evCompany, evInsolvency, evPSC, evCharges, evFilings} {
		b := moduletest.Recording(f, "companieshouse", name)
		f.Add(append(append([]byte("\n"), bytes.ReplaceAll(b, []byte("\n"), nil)...), '\n'))
	}
	f.Add([]byte("\n\n{\"event\":{\"timepoint\":\"007\"},\"resource_uri\":\"/company/sc000001\"}\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		lr := newLineReader(bytes.NewReader(in), 4096)
		for {
			b, err := lr.next()
			if errors.Is(err, errLineTooLong) {
				continue
			}
			if err != nil {
				return
			}
			if len(b) > 4096 {
				t.Fatalf("a line of %d bytes", len(b))
			}
			if ev, ok := decodeStreamLine("companies", b, time.UTC); ok && (ev.timepoint <= 0 || (ev.company != "" && len(ev.company) != 8)) {
				t.Fatalf("event %+v", ev)
			}
		}
	})
}

func TestRedactor(t *testing.T) {
	t.Parallel()
	r := newRedactor(testStreamKey)
	err := r.redact(&url.Error{Op: "Get", URL: "https://x/?k=" + testStreamKey, Err: fmt.Errorf("auth %s", base64.StdEncoding.EncodeToString([]byte(testStreamKey+":")))})
	if strings.Contains(err.Error(), testStreamKey) || strings.Contains(err.Error(), "YS1zdHJlYW1pbmctYXBpLWtleTo=") {
		t.Errorf("redacted %q", err)
	}
	plain := fmt.Errorf("plain")
	if got := r.redact(plain); !errors.Is(got, plain) || got.Error() != "plain" || r.redact(nil) != nil {
		t.Error("an error without the key was changed")
	}
}

func TestNewCompaniesHouseStreamValidation(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	if _, err := NewCompaniesHouseStream(st, f, "  "); err == nil || !strings.Contains(err.Error(), EnvStreamKey) {
		t.Errorf("no key: %v", err)
	}
	if _, err := NewCompaniesHouseStream(st, f, "k", WithStreams("Companies")); err == nil {
		t.Error("a bad stream name was accepted")
	}
	if _, err := NewCompaniesHouseStream(nil, f, "k"); err == nil {
		t.Error("a nil store was accepted")
	}
}

// failOnceStore fails its first WatchedIDs.
type failOnceStore struct {
	changes.Store
	failed atomic.Bool
}

func (s *failOnceStore) WatchedIDs(ctx context.Context, country string) (map[string]struct{}, error) {
	if s.failed.CompareAndSwap(false, true) {
		return nil, errDown
	}
	return s.Store.WatchedIDs(ctx, country)
}

// TestStreamWaitsForItsState: the streams connect only once the watched
// companies are known (an event could not be judged, and its timepoint
// would be stored past it); a store failure is retried.
func TestStreamWaitsForItsState(t *testing.T) {
	t.Parallel()
	srv := newCHServer(t, map[string][]connPlan{"companies": {{lines: []string{eventLine(t, evCompany)}}}})
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	watch(t, st, "GB", []string{"SC571653"}, snapshot(report("GB", "SC571653", "FC KIOSKS LTD"), nil))
	f.set("GB", "SC571653", ok(report("GB", "SC571653", "FC KIOSKS LTD")))
	s := newTestStream(t, &failOnceStore{Store: st}, f, srv, clock, WithStreams("companies"))
	handled := runStream(t, s)
	clock.BlockUntil(t, 1) // the retry's pause
	if n := len(srv.connections()); n != 0 {
		t.Fatalf("%d connections before the state was read", n)
	}
	clock.Advance(DefaultFlushEvery)
	recv(t, handled, "event")
	clock.BlockUntil(t, 2)
	clock.Advance(DefaultFlushEvery)
	clock.BlockUntil(t, 2)
	if n := f.count("GB", "SC571653"); n != 1 {
		t.Errorf("the watched company was fetched %d times, want 1", n)
	}
}

// TestStreamEventBeforeTheWatchIsStored (issue 28, at-least-once; a
// watch takes its baselines before it is stored): a company's event
// arrives after the baseline was fetched but before the watch is stored;
// the first check of the store says no watch holds it, and the second,
// after the grace, finds the watch and reports the change against the
// baseline.
func TestStreamEventBeforeTheWatchIsStored(t *testing.T) {
	t.Parallel()
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	s := newTestStream(t, st, f, newCHServer(t, nil), clock, WithStreams("insolvency-cases"))
	if err := s.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	baseline := snapshot(report("GB", "11519482", "X LTD"), nil)
	f.set("GB", "11519482", ok(report("GB", "11519482", "X LTD", withStatus(registry.StatusUnderLiquidation))))
	p := &streamProcessor{s: s, progress: map[string]*streamProgress{"insolvency-cases": {}}, pending: map[string]*pendingCompany{}}
	p.handle(event{stream: "insolvency-cases", timepoint: 700, company: "11519482"})
	p.handle(event{stream: "insolvency-cases", timepoint: 701, company: "00000001"})
	clock.Advance(5 * time.Second)
	p.flush(t.Context()) // the watch is not stored yet
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got != "699" {
		t.Errorf("cursor %q while the events wait for the grace, want 699", got)
	}
	watch(t, st, "GB", []string{"11519482"}, baseline) // stored 15 s after the event
	clock.Advance(10 * time.Second)
	p.flush(t.Context()) // within the grace: not asked again yet
	if cs := companyChanges(t, st, "GB", "11519482"); len(cs) != 0 {
		t.Errorf("changes before the grace: %+v", recordedOf(cs))
	}
	clock.Advance(newWatchGrace)
	p.flush(t.Context())
	cs := companyChanges(t, st, "GB", "11519482")
	if len(cs) != 1 || cs[0].Kind != changes.KindStatusChanged || cs[0].SourceEventID != "insolvency-cases/700" {
		t.Errorf("changes after the grace %+v, want the status_changed of event 700", recordedOf(cs))
	}
	if got := cursor(t, st, "GB/stream/insolvency-cases"); got != "701" {
		t.Errorf("cursor %q after the grace, want 701", got)
	}
}

// TestStreamUnknownCheckFailureHoldsTheTimepoint: when the store cannot
// say whether a watch holds the company of an event, the event is kept
// and the stored timepoint stays before it.
func TestStreamUnknownCheckFailureHoldsTheTimepoint(t *testing.T) {
	t.Parallel()
	mem, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	st := &failAmongStore{memStore: mem, fail: true}
	s := newTestStream(t, st, f, newCHServer(t, nil), clock, WithStreams("insolvency-cases"))
	if err := s.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	watch(t, mem, "GB", []string{"11519482"}, snapshot(report("GB", "11519482", "X LTD"), nil))
	f.set("GB", "11519482", ok(report("GB", "11519482", "X LTD", withStatus(registry.StatusBankrupt))))
	p := &streamProcessor{s: s, progress: map[string]*streamProgress{"insolvency-cases": {}}, pending: map[string]*pendingCompany{}}
	p.handle(event{stream: "insolvency-cases", timepoint: 800, company: "11519482"})
	clock.Advance(2 * newWatchGrace)
	p.flush(t.Context())
	if got := cursor(t, mem, "GB/stream/insolvency-cases"); got != "799" {
		t.Errorf("cursor %q while the store cannot be asked, want 799", got)
	}
	st.setFail(false)
	p.flush(t.Context())
	if cs := companyChanges(t, mem, "GB", "11519482"); len(cs) != 1 || cs[0].SourceEventID != "insolvency-cases/800" {
		t.Errorf("changes %+v", recordedOf(cs))
	}
	if got := cursor(t, mem, "GB/stream/insolvency-cases"); got != "800" {
		t.Errorf("cursor %q, want 800", got)
	}
}

// failAmongStore fails WatchedAmong while fail is set.
type failAmongStore struct {
	*memStore
	mu   sync.Mutex
	fail bool
}

func (s *failAmongStore) setFail(v bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = v
}

func (s *failAmongStore) WatchedAmong(ctx context.Context, country string, ids []string) (map[string]struct{}, error) {
	s.mu.Lock()
	fail := s.fail
	s.mu.Unlock()
	if fail {
		return nil, errors.New("database is locked")
	}
	return s.memStore.WatchedAmong(ctx, country, ids)
}

// TestStreamHeadersWaitBounded: a stream whose server takes the request
// and never answers is given up after the idle timeout, logged as a
// failed connection that names the missing answer, and connected again
// after its back-off; the caller's cancellation ends the wait for the
// headers at once, with no time passing on the clock.
func TestStreamHeadersWaitBounded(t *testing.T) {
	t.Parallel()
	arrived, ended := make(chan struct{}, 4), make(chan struct{}, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-r.Context().Done() // no header, no byte
		ended <- struct{}{}
	}))
	t.Cleanup(srv.Close)
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	var logs moduletest.SyncBuffer
	s, err := NewCompaniesHouseStream(st, f, testStreamKey, WithBaseURL(srv.URL), WithClock(clock), WithStreams("companies"),
		WithLogger(slogJSON(&logs)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()

	recv(t, arrived, "the first request")
	clock.BlockUntil(t, 2) // the flush and the wait for the headers
	headerWait := func(d time.Duration) bool { return d == DefaultIdleTimeout }
	clock.Advance(DefaultIdleTimeout - time.Nanosecond)
	stillWaiting := clock.find(headerWait) != nil // Advance removes the timers it fires
	clock.Advance(time.Nanosecond)
	recv(t, ended, "the end of the first request")
	// The failure is logged before the back-off starts.
	logged := func() bool { return strings.Contains(logs.String(), "stream connection failed") }
	clock.WaitFor(t, func(n int) bool { return n >= 2 && logged() })
	clock.Advance(minBackoff)
	recv(t, arrived, "the request after the back-off")
	out := logs.String()
	got := map[string]any{"waiting just before the idle timeout": stillWaiting,
		"logged": strings.Contains(out, `"msg":"stream connection failed"`) && strings.Contains(out, errNoHeaders.Error())}
	want := map[string]any{"waiting just before the idle timeout": true, "logged": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s\nlog:\n%s", diff, out)
	}

	// The second request waits for its headers; cancelling ends it.
	clock.BlockUntil(t, 2)
	cancel()
	recv(t, ended, "the end of the second request")
	if err := recv(t, done, "the return of Run"); err != nil {
		t.Errorf("Run = %v", err)
	}
}
