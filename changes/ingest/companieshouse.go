package ingest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/internal/upstream"
)

// StreamBaseURL is the host of Companies House's streaming API.
const StreamBaseURL = "https://stream.companieshouse.gov.uk"

// DefaultStreams are the Companies House streams read by default: company
// profiles, officers, persons with significant control, insolvency cases
// and charges.
func DefaultStreams() []string {
	return []string{"companies", "officers", "persons-with-significant-control", "insolvency-cases", "charges"}
}

// Back-off of a stream's reconnection.
const (
	minBackoff = time.Second
	maxBackoff = 5 * time.Minute
	// rateLimitedBackoff is the least wait after a 429.
	rateLimitedBackoff = time.Minute
)

// CompaniesHouseStream reads Companies House's streaming API: one
// long-lived connection per stream (newline-delimited JSON events and
// blank heartbeat lines), authenticated with the stream key (which is not
// the REST API key). An event about a watched company queues the company;
// every few seconds ([WithFlushEvery]) the queued companies are fetched
// from the REST API and compared with their snapshots, and each stream's
// timepoint is stored, with the changes, in one Apply (also when every
// event was about a company nobody watches, but never a write per
// event). An event about a company missing from the watched set loaded
// at the last Sync is not dropped at once: the store is asked at the next
// flush, and again a minute after the event, whether a watch holds it
// now (a watch created since, maybe on another replica, whose baseline
// was taken before it was stored), and the stored timepoint stays before
// it meanwhile. A watched company whose fetch fails with internal_error
// stays queued, the stored timepoint before its events, and is fetched
// again at the next flushes, [internalAttempts] failed fetches in a
// row, before its events are dropped with a warning; the other
// companies go on meanwhile. So does a company whose snapshot another
// writer replaced while it was fetched (a watch's new baseline): nothing
// found of it is stored, and the next flush reads it against the new
// snapshot. A restart resumes each stream from its stored timepoint.
//
// A stream that answers 416 (the timepoint is too old) is read again from
// now, and the sweeper ([WithSweeper]) polls every watched British
// company once, since events were missed; so does a stream started
// without a stored timepoint, which gets only the events after its
// connection. A stream silent for longer than
// [WithIdleTimeout] (no event, no heartbeat) is reconnected from its last
// timepoint, and a server that leaves the request unanswered (no headers)
// for as long is a failed connection; failures are retried with exponential back-off and jitter
// (at least a minute after a 429; a refused key is retried every five
// minutes, with an error in the log). Lines longer than [WithMaxLine] are
// skipped. The key is never logged or put in an error.
//
// It is a [Streamer]: the Leader runs Run while it holds the lease and
// calls Sync every interval, which reloads the watched companies.
type CompaniesHouseStream struct {
	store   changes.Store
	ref     refresher
	key     *credential
	http    *http.Client
	base    string
	loc     *time.Location
	o       options
	streams []string
	watched atomic.Pointer[map[string]struct{}]
	// handled, when set (by tests), is called after the processing of
	// each event.
	handled func(event)
}

// credential holds the stream key and what hides it in an error; a
// pointer, so that printing the stream with fmt shows an address, never
// the key.
type credential struct {
	key string
	red redactor
}

// String hides the stream from fmt, whose %v would follow its fields.
func (*CompaniesHouseStream) String() string { return "ingest.CompaniesHouseStream" }

// GoString hides the stream from fmt's %#v.
func (*CompaniesHouseStream) GoString() string { return "ingest.CompaniesHouseStream" }

var _ Streamer = (*CompaniesHouseStream)(nil)

// NewCompaniesHouseStream returns the reader of Companies House's streams
// with key (COMPANIES_HOUSE_STREAM_KEY), which stores through store and
// fetches watched companies with fetch. Options: [WithStreams],
// [WithSweeper], [WithBaseURL], [WithHTTPClient] (its Timeout, if any,
// ends every connection: leave it zero), [WithContactEmail],
// [WithFlushEvery], [WithIdleTimeout], [WithMaxLine], [WithClock],
// [WithLogger].
func NewCompaniesHouseStream(store changes.Store, fetch changes.Fetcher, key string, opts ...Option) (*CompaniesHouseStream, error) {
	if store == nil || fetch == nil {
		return nil, errors.New("ingest: NewCompaniesHouseStream: nil store or fetcher")
	}
	key = strings.TrimSpace(key)
	if key == "" {
		return nil, errors.New("ingest: NewCompaniesHouseStream: no stream key (set " + EnvStreamKey + ")")
	}
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	s := &CompaniesHouseStream{store: store, ref: refresher{store: store, fetch: fetch, log: o.log},
		key: &credential{key: key, red: newRedactor(key)}, http: upstream.NoRedirects(o.httpClient),
		base: o.baseURL, o: o, streams: o.streams}
	if s.base == "" {
		s.base = StreamBaseURL
	}
	if len(s.streams) == 0 {
		s.streams = DefaultStreams()
	}
	if s.loc, err = time.LoadLocation("Europe/London"); err != nil {
		s.loc = time.UTC
	}
	return s, nil
}

// Name implements [Ingester].
func (s *CompaniesHouseStream) Name() string { return "GB/stream" }

// Sync implements [Ingester]: it reloads the watched British companies,
// which the stream's events are filtered with.
func (s *CompaniesHouseStream) Sync(ctx context.Context, _ time.Time) error {
	ids, err := s.store.WatchedIDs(ctx, "GB")
	if err != nil {
		return err
	}
	s.watched.Store(&ids)
	return nil
}

func cursorOfStream(name string) string { return "GB/stream/" + name }

// Run implements [Streamer]: it reads the streams until ctx ends.
func (s *CompaniesHouseStream) Run(ctx context.Context) error {
	p := &streamProcessor{s: s, progress: map[string]*streamProgress{}, pending: map[string]*pendingCompany{}}
	if !s.start(ctx, p) {
		return nil
	}
	rctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	events := make(chan event, 1024)
	for _, name := range s.streams {
		tp := p.progress[name].seen
		wg.Go(func() { s.readLoop(rctx, name, tp, events) })
	}
	flush := s.o.clock.NewTimer(s.o.flushEvery)
	defer func() { flush.Stop() }()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev := <-events:
			p.handle(ev)
			if s.handled != nil {
				s.handled(ev)
			}
		case <-flush.C():
			p.flush(ctx)
			flush = s.o.clock.NewTimer(s.o.flushEvery)
		}
	}
}

// start reads what the streams need before they connect: the watched
// companies (without them an event could not be told worth keeping, and
// its timepoint would be stored past it) and each stream's stored
// timepoint. A store failure is retried every flush period; start
// returns false when ctx ends first.
func (s *CompaniesHouseStream) start(ctx context.Context, p *streamProcessor) bool {
	for {
		err := s.loadWatched(ctx)
		for _, name := range s.streams {
			if err != nil {
				break
			}
			var c string
			if c, err = s.store.Cursor(ctx, cursorOfStream(name)); err == nil {
				tp, _ := strconv.ParseInt(c, 10, 64)
				p.progress[name] = &streamProgress{seen: tp, stored: tp}
			}
		}
		if err == nil {
			s.sweepWithoutTimepoint(p)
			return true
		}
		if ended(ctx) {
			return false
		}
		s.o.log.LogAttrs(ctx, slog.LevelWarn, "the stream's state could not be read; retrying", errAttrs(err))
		if !sleep(ctx, s.o.clock, s.o.flushEvery) {
			return false
		}
	}
}

// sweepWithoutTimepoint asks the sweeper ([WithSweeper]) for a sweep when
// a stream has no stored timepoint: it connects without one and gets only
// the events after the connection, so a change between a watch's
// baseline and that connection (the first start; a stream added to the
// list) would have no event. The sweep compares every watched company
// with its baseline once.
func (s *CompaniesHouseStream) sweepWithoutTimepoint(p *streamProcessor) {
	if s.o.sweeper == nil {
		return
	}
	for _, name := range s.streams {
		if pr := p.progress[name]; pr == nil || pr.stored == 0 {
			p.askSweep()
			return
		}
	}
}

// askSweep asks the sweeper for a sweep in memory, with a new token that
// the next flush stores (sweepAsk).
func (p *streamProcessor) askSweep() {
	p.sweepAsk = sweepToken()
	p.s.o.sweeper.askSweep(p.sweepAsk)
}

// guard is what serialises the stream's refreshes with its sweeper's
// (nil without a sweeper: nothing else refreshes British companies).
func (s *CompaniesHouseStream) guard() *refreshGuard {
	if s.o.sweeper == nil {
		return nil
	}
	return &s.o.sweeper.guard
}

// loadWatched reads the watched companies unless a Sync already did.
func (s *CompaniesHouseStream) loadWatched(ctx context.Context) error {
	if s.watched.Load() != nil {
		return nil
	}
	return s.Sync(ctx, s.o.clock.Now())
}

// streamProgress is how far one stream has been read and stored.
type streamProgress struct {
	seen   int64 // the last timepoint received
	stored int64 // the timepoint stored
	clear  bool  // the stored timepoint was refused: store none
}

// pendingCompany is a watched company with events not yet processed, or
// a company missing from the watched set whose events wait for the
// store's word.
type pendingCompany struct {
	first   map[string]int64 // per stream, its first unprocessed timepoint
	last    event
	removed bool
	// Of an unknown company: when its last event happened (received or
	// published, the earlier), and whether the store said once that no
	// watch holds it.
	at      time.Time
	checked bool
	// attempts counts the fetches of a watched company that failed with
	// internal_error.
	attempts int
}

func (pc *pendingCompany) add(ev event) {
	pc.renew()
	if _, ok := pc.first[ev.stream]; !ok {
		pc.first[ev.stream] = ev.timepoint
	}
	pc.last = ev
	pc.removed = pc.removed || ev.deleted
}

// renew readies a company whose fetch failed with internal_error for a
// new event (add, or checkUnknown's merge): the new event gets its own
// attempts, and stands for the events before it, since its fetch reads
// the whole company and a replay from it (a restart) reads it again; so
// their first timepoints are let go, and the stored timepoint is not held
// before them for as long as the company's events come. Not when one of
// them said the company was deleted: a replay must read that event
// again, or its not_found is a first miss only (rev-persist).
func (pc *pendingCompany) renew() {
	if pc.attempts == 0 {
		return
	}
	if !pc.removed {
		clear(pc.first)
	}
	pc.attempts = 0
}

// newWatchGrace is how long the event of a company no watch holds is
// kept before it is dropped: a watch takes its baselines before it is
// stored (for up to changes.DefaultBaselineTimeout, 20 seconds), so that
// a company's event that comes between the baseline and the stored watch
// must still be checked after the watch is stored, or its change is
// lost. The stream's stored timepoint stays before the events kept.
const newWatchGrace = time.Minute

// maxUnknown bounds the unknown companies kept for the grace: beyond it
// they are checked at once.
const maxUnknown = 20000

// streamProcessor is the state of Run's loop.
type streamProcessor struct {
	s        *CompaniesHouseStream
	progress map[string]*streamProgress
	pending  map[string]*pendingCompany
	// unknown holds the events of companies missing from the watched set
	// loaded at the last Sync, until the store is asked whether a watch
	// holds them now (a watch created since, maybe on another replica):
	// once at the next flush, and again when the grace has passed.
	unknown map[string]*pendingCompany
	// sweepAsk is the token of the last sweep the stream asked of the
	// sweeper in memory, which the next flush also stores in the
	// sweeper's sweepCursorName with the timepoints past the gap, so that
	// whichever replica's sweeper syncs next does it if the lease moves
	// ("" once stored). The sweeper, having started a sweep for it from
	// memory, only records it when it reads it stored (rev-tok6).
	sweepAsk string
}

func (p *streamProcessor) handle(ev event) {
	prog := p.progress[ev.stream]
	if ev.reset {
		prog.seen, prog.clear = 0, true
		if p.s.o.sweeper != nil {
			p.askSweep()
		}
		return
	}
	if ev.timepoint <= prog.seen {
		return // read before: a reconnection from an inclusive timepoint
	}
	prog.seen = ev.timepoint
	if ev.company == "" {
		return
	}
	if _, ok := (*p.s.watched.Load())[ev.company]; !ok {
		p.keepUnknown(ev)
		return
	}
	pc := p.pending[ev.company]
	if pc == nil {
		pc = &pendingCompany{first: map[string]int64{}}
		p.pending[ev.company] = pc
	}
	pc.add(ev)
}

// keepUnknown keeps the event of a company missing from the watched set
// until the store is asked about it.
func (p *streamProcessor) keepUnknown(ev event) {
	if p.unknown == nil {
		p.unknown = map[string]*pendingCompany{}
	}
	at := p.s.o.clock.Now()
	if ev.published != nil && ev.published.Before(at) {
		at = *ev.published
	}
	u := p.unknown[ev.company]
	if u == nil {
		u = &pendingCompany{first: map[string]int64{}}
		p.unknown[ev.company] = u
	}
	u.add(ev)
	u.at = at
}

// checkUnknown asks the store which of the unknown companies a watch
// holds now (one query): those join the pending companies; the others
// are dropped once their last event is older than the grace (or the
// store said so twice). A store failure keeps them for the next flush.
func (p *streamProcessor) checkUnknown(ctx context.Context, now time.Time) {
	var ids []string
	for c, u := range p.unknown {
		if !u.checked || now.Sub(u.at) >= newWatchGrace || len(p.unknown) > maxUnknown {
			ids = append(ids, c)
		}
	}
	if len(ids) == 0 {
		return
	}
	slices.Sort(ids)
	watched, err := p.s.store.WatchedAmong(ctx, "GB", ids)
	if err != nil {
		if ctx.Err() == nil {
			p.s.o.log.LogAttrs(ctx, slog.LevelWarn, "the stream could not check its unknown companies; retrying at the next flush", errAttrs(err))
		}
		return
	}
	for _, c := range ids {
		u := p.unknown[c]
		if _, ok := watched[c]; ok {
			pc := p.pending[c]
			if pc == nil {
				pc = &pendingCompany{first: map[string]int64{}}
				p.pending[c] = pc
			}
			pc.renew()
			for stream, tp := range u.first {
				if f, ok := pc.first[stream]; !ok || tp < f {
					pc.first[stream] = tp
				}
			}
			if pc.last.stream == "" || u.last.timepoint > pc.last.timepoint {
				pc.last = u.last
			}
			pc.removed = pc.removed || u.removed
			delete(p.unknown, c)
			continue
		}
		if !u.checked && now.Sub(u.at) < newWatchGrace && len(p.unknown) <= maxUnknown {
			u.checked = true
			continue
		}
		delete(p.unknown, c)
	}
}

// flush fetches the pending companies and stores the changes, the
// snapshots and each stream's timepoint in one Apply. A fetch refused
// for now (a spent budget, the register down) leaves the rest pending,
// and the timepoints stop before their first event. A fetch that fails
// with internal_error leaves that company pending, its timepoints held
// the same way, and the flush goes on with the others; at the
// [internalAttempts]th such failure its events are dropped with a
// warning.
func (p *streamProcessor) flush(ctx context.Context) {
	s := p.s
	now := s.o.clock.Now()
	p.checkUnknown(ctx, now)
	var b changes.Batch
	done := map[string]bool{}
	companies := make([]string, 0, len(p.pending))
	for c := range p.pending {
		companies = append(companies, c)
	}
	slices.Sort(companies)
	// A company the sweeper is refreshing (it read the snapshot this
	// flush would diff, and has not stored what it found) stays pending:
	// the first flush after the sweeper's Apply of its batch reads it.
	// The others are held until the Apply below.
	guard := s.guard()
	var held []string
	defer func() { guard.release(s, held) }()
fetch:
	for _, c := range companies {
		if !guard.tryHold(s, c) {
			continue
		}
		held = append(held, c)
		pc := p.pending[c]
		err := s.ref.refreshInto(ctx, signal{country: "GB", id: c,
			eventID:      pc.last.stream + "/" + strconv.FormatInt(pc.last.timepoint, 10),
			registeredAt: pc.last.published, removed: pc.removed}, now, &b)
		switch {
		case skippedInternal(err):
			pc.attempts++
			if pc.attempts < internalAttempts {
				s.o.log.LogAttrs(ctx, slog.LevelInfo, "a watched company could not be read; it is tried again at the next flush", errAttrs(err))
				s.o.log.LogAttrs(ctx, slog.LevelDebug, "company to try again", slog.String("id", c))
				continue
			}
			s.o.log.LogAttrs(ctx, slog.LevelWarn, "a watched company could not be read after the last attempt; its events are skipped",
				slog.Int("attempts", pc.attempts), errAttrs(err))
			s.o.log.LogAttrs(ctx, slog.LevelDebug, "skipped company", slog.String("id", c))
			// Given up whatever the Apply below does: the company is not
			// fetched again for these events.
			delete(p.pending, c)
			continue
		case errors.Is(err, errSkip):
			s.o.log.LogAttrs(ctx, slog.LevelWarn, "a watched company could not be read; its events are skipped", errAttrs(err))
		case err != nil:
			s.o.log.LogAttrs(ctx, slog.LevelInfo, "watched companies wait for the next flush", errAttrs(err))
			break fetch
		}
		// Read: should the Apply below fail, the company stays pending,
		// and the failures of its next fetches are counted afresh (the
		// fault passed; a failed Apply is the store's).
		pc.attempts = 0
		done[c] = true
	}
	tps := map[string]int64{}
	// cursors sets b's cursors: each stream's timepoint, held before the
	// first event of a pending company not done.
	cursors := func(b *changes.Batch) {
		b.Cursors, tps = nil, map[string]int64{}
		for name, prog := range p.progress {
			tp := prog.seen
			for c, pc := range p.pending {
				if f, ok := pc.first[name]; ok && !done[c] && f-1 < tp {
					tp = f - 1
				}
			}
			for _, u := range p.unknown {
				if f, ok := u.first[name]; ok && f-1 < tp {
					tp = f - 1
				}
			}
			if tp != prog.stored || prog.clear {
				if b.Cursors == nil {
					b.Cursors = map[string]string{}
				}
				b.Cursors[cursorOfStream(name)] = ""
				if tp > 0 {
					b.Cursors[cursorOfStream(name)] = strconv.FormatInt(tp, 10)
				}
				tps[name] = tp
			}
		}
		if p.sweepAsk != "" {
			if b.Cursors == nil {
				b.Cursors = map[string]string{}
			}
			b.Cursors[s.o.sweeper.sweepCursorName()] = p.sweepAsk
		}
	}
	cursors(&b)
	if len(b.Changes) == 0 && len(b.Snapshots) == 0 && len(b.Cursors) == 0 {
		for c := range done {
			delete(p.pending, c)
		}
		return
	}
	// A company whose snapshot another writer replaced since it was read
	// (a watch's new baseline) stays pending, read again at the next
	// flush, and the timepoints stored stay before its events.
	if _, err := applyOwing(ctx, s.store, b, func(refs []changes.CompanyRef, b *changes.Batch) error {
		for _, r := range refs {
			delete(done, r.CompanyID)
		}
		cursors(b)
		return nil
	}); err != nil {
		if ctx.Err() == nil {
			s.o.log.LogAttrs(ctx, slog.LevelWarn, "the stream's progress could not be stored; retrying at the next flush", errAttrs(err))
		}
		return
	}
	for c := range done {
		delete(p.pending, c)
	}
	for name, tp := range tps {
		p.progress[name].stored, p.progress[name].clear = tp, false
	}
	p.sweepAsk = ""
}

// readLoop keeps one stream connected until ctx ends, sending its events.
func (s *CompaniesHouseStream) readLoop(ctx context.Context, name string, timepoint int64, events chan<- event) {
	log := s.o.log.With(slog.String("stream", name))
	var backoff time.Duration
	for {
		status, got, err := s.connect(ctx, name, &timepoint, events)
		if ctx.Err() != nil {
			return
		}
		switch {
		case status == http.StatusRequestedRangeNotSatisfiable:
			log.LogAttrs(ctx, slog.LevelWarn, "Companies House refused the stream's timepoint as too old: events were missed; reading from now, and sweeping the watched companies",
				slog.Int64("timepoint", timepoint))
			timepoint = 0
			select {
			case events <- event{stream: name, reset: true}:
			case <-ctx.Done():
				return
			}
			backoff = minBackoff
		case status == http.StatusUnauthorized || status == http.StatusForbidden:
			log.LogAttrs(ctx, slog.LevelError, "Companies House refused the stream key; check "+EnvStreamKey+" (a streaming key, not the REST API key)",
				slog.Int("status", status))
			backoff = maxBackoff
		case status == http.StatusTooManyRequests:
			log.LogAttrs(ctx, slog.LevelWarn, "Companies House is limiting the stream's connections")
			backoff = min(max(2*backoff, rateLimitedBackoff), maxBackoff)
		case got:
			// A connection that delivered and then ended (the nightly
			// disconnection, the 24-hour limit, silence): reconnect soon.
			log.LogAttrs(ctx, slog.LevelInfo, "stream ended; reconnecting", errAttrsOrNil(err))
			backoff = minBackoff
		default:
			attrs := []slog.Attr{errAttrsOrNil(err)}
			if status != 0 {
				attrs = append(attrs, slog.Int("status", status))
			}
			log.LogAttrs(ctx, slog.LevelWarn, "stream connection failed", attrs...)
			backoff = min(max(2*backoff, minBackoff), maxBackoff)
		}
		// Jitter: between half and all of the back-off.
		wait := backoff/2 + rand.N(backoff/2+1)
		if !sleep(ctx, s.o.clock, wait) {
			return
		}
	}
}

func errAttrsOrNil(err error) slog.Attr {
	if err == nil {
		return slog.String("error", "")
	}
	return errAttrs(err)
}

// errIdle ends a connection that sent nothing for the idle timeout.
var errIdle = errors.New("ingest: the stream sent nothing, not even a heartbeat, for the idle timeout")

// errNoHeaders ends a connection whose answer's headers did not come
// within the idle timeout.
var errNoHeaders = errors.New("ingest: the stream's server sent no answer to the request for the idle timeout")

// line is one line read from a stream.
type line struct {
	b       []byte
	tooLong bool
}

// connect opens one connection to a stream and reads it until it ends,
// the idle timeout passes (waiting for the answer's headers, or for a
// byte of its body) or ctx ends. It returns the HTTP status (0 when there
// was no answer), whether any line came, and why it ended.
func (s *CompaniesHouseStream) connect(ctx context.Context, name string, timepoint *int64, events chan<- event) (int, bool, error) {
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	u := s.base + "/" + name
	if *timepoint > 0 {
		u += "?timepoint=" + strconv.FormatInt(*timepoint, 10)
	}
	req, err := http.NewRequestWithContext(cctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, false, s.key.red.redact(err)
	}
	req.SetBasicAuth(s.key.key, "")
	req.Header.Set("User-Agent", upstream.UserAgent(s.o.contactEmail))
	req.Header.Set("Accept", "application/json")
	resp, err := s.do(cctx, cancel, req)
	if err != nil {
		return 0, false, s.key.red.redact(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		upstream.Discard(resp.Body)
		return resp.StatusCode, false, nil
	}
	lines := make(chan line)
	readErr := make(chan error, 1)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		resp.Body.Close()
		wg.Wait()
	}()
	wg.Go(func() { readErr <- readLines(cctx, resp.Body, s.o.maxLine, lines) })

	got := false
	lastByte := s.o.clock.Now()
	check := s.o.clock.NewTimer(s.o.idleTimeout / 3)
	defer func() { check.Stop() }()
	for {
		select {
		case <-ctx.Done():
			return http.StatusOK, got, ctx.Err()
		case l, ok := <-lines:
			if !ok {
				return http.StatusOK, got, s.key.red.redact(<-readErr)
			}
			got, lastByte = true, s.o.clock.Now()
			if l.tooLong {
				s.o.log.LogAttrs(ctx, slog.LevelWarn, "a stream line longer than the bound was skipped",
					slog.String("stream", name), slog.Int("max_line", s.o.maxLine))
				continue
			}
			if len(bytes.TrimSpace(l.b)) == 0 {
				continue // a heartbeat
			}
			ev, ok := decodeStreamLine(name, l.b, s.loc)
			if !ok {
				s.o.log.LogAttrs(ctx, slog.LevelDebug, "a stream line that is not an event was skipped", slog.String("stream", name))
				continue
			}
			*timepoint = max(*timepoint, ev.timepoint)
			select {
			case events <- ev:
			case <-ctx.Done():
				return http.StatusOK, got, ctx.Err()
			}
		case <-check.C():
			if s.o.clock.Now().Sub(lastByte) >= s.o.idleTimeout {
				return http.StatusOK, got, errIdle
			}
			check = s.o.clock.NewTimer(s.o.idleTimeout / 3)
		}
	}
}

// do sends req (whose context is ctx, cancelled by cancel) and returns
// the answer once its headers have come: the HTTP client need not bound
// that wait (the default one does not), so a timer of the idle timeout
// does, as the idle check does once the body is read; when it fires first,
// the request is cancelled and the error is errNoHeaders. The timer is
// stopped, and its goroutine has ended, when do returns.
func (s *CompaniesHouseStream) do(ctx context.Context, cancel context.CancelFunc, req *http.Request) (*http.Response, error) {
	timer := s.o.clock.NewTimer(s.o.idleTimeout)
	answered, fired := make(chan struct{}), make(chan bool, 1)
	go func() {
		select {
		case <-timer.C():
			cancel()
			fired <- true
		case <-answered:
			fired <- false
		case <-ctx.Done():
			fired <- false
		}
	}()
	resp, err := s.http.Do(req)
	close(answered)
	timer.Stop()
	if <-fired {
		if err == nil {
			resp.Body.Close() // headers that came as the timer fired: the request is cancelled
		}
		return nil, errNoHeaders
	}
	return resp, err
}

// readLines sends the lines of body until it ends or ctx ends, and
// returns why it stopped.
func readLines(ctx context.Context, body io.Reader, maxLine int, out chan<- line) error {
	defer close(out)
	lr := newLineReader(body, maxLine)
	for {
		b, err := lr.next()
		var l line
		switch {
		case errors.Is(err, errLineTooLong):
			l.tooLong = true
		case err != nil:
			return err
		default:
			l.b = bytes.Clone(b)
		}
		select {
		case out <- l:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// sweepToken is a new sweep ask's token: random, so that each ask differs
// from every earlier one whatever the clocks say.
func sweepToken() string { return strconv.FormatUint(rand.Uint64()|1, 36) }
