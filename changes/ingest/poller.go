package ingest

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// maxPollsPerSync bounds the companies one sync of a Poller fetches, so
// that the other ingesters get their turn; the rest follow at the next
// sync.
const maxPollsPerSync = 1000

// applyEvery is how many polled companies go into one Apply.
const applyEvery = 50

// Poller fetches each watched company of one country once per poll
// interval and compares it with its snapshot: the change detector of a
// register without a change feed (Finland, and every other country), of
// the United Kingdom without a stream key, and the fallback of a feed
// that lost events ([Poller.RequestSweep]). It is an [Ingester].
//
// The companies are spread evenly over the interval: each has a fixed
// moment in it (from a hash of its identifier), so that a watch list of N
// companies costs about N/interval fetches at every sync, and adding a
// company moves no other. The schedule's progress is a cursor in the
// store, so a restart or a new leader picks up where the last left. A
// fetch refused by the upstream budget ends the sync; the companies due
// are fetched at the next one (late, never skipped, unless the backlog
// grows past a whole interval, when the budget is too small for the
// watch list and a warning says so). One sync fetches a company once: a
// sweep's company (or one tried again) whose moment also falls in the
// sync's window is not fetched again for the schedule, so that a change
// is recorded once.
//
// A company the register does not know counts a miss; the second
// consecutive miss is reported deleted. A company whose fetch fails for
// good is polled again at its next moment, and the diff against its
// snapshot finds what changed meanwhile; but a sweep's company has no
// next moment in a sweep-only poller ([WithSweepOnly]), so one that a
// sweep could not read for an internal_error is fetched again at the
// next syncs, [internalAttempts] failed fetches in a row. Those
// companies and their attempts are stored in the poller's cursor with
// the schedule, so that a restart, or another replica's lead, continues
// them. So is a company whose snapshot another writer replaced while it
// was fetched (a watch's new baseline): what was found of it is not
// stored, and it is fetched again at the next sync, against the new
// snapshot.
type Poller struct {
	store   changes.Store
	ref     refresher
	country string
	o       options
	sweep   atomic.Bool

	mu sync.Mutex
	// retry holds the companies a sweep could not read for an
	// internal_error, with the number of such fetches: read from the
	// poller's cursor ([pollState].Retry) at the first sync and at the
	// first sync of each lead (retryLoaded false), then kept here and
	// stored with the cursor at each Apply.
	retry       map[string]int
	retryLoaded bool
	// asks are the tokens of the sweeps a stream asked for in memory
	// (askSweep) that no sync has started yet, oldest first, at most
	// maxStarted (the stream stores only its last).
	asks []string
	// started are the tokens of the asks (in memory, or read stored) a
	// sweep of this poller was started for, at most maxStarted, oldest
	// first: a stream stores its ask's token after asking in memory, and
	// a sync that then reads it stored only records it (pollState.Asked)
	// rather than sweeping again (rev-tok6).
	started []string
	// guard serialises this poller's refreshes with those of the stream
	// it sweeps for ([WithSweeper]).
	guard refreshGuard
}

// maxStarted bounds the tokens of sweeps started a poller keeps: a
// stream asks once per 416 or start without a timepoint, and stores its
// ask at its next flush, seconds later.
const maxStarted = 16

var _ Ingester = (*Poller)(nil)

// NewPoller returns the poller of country's watched companies. Options:
// [WithPollInterval], [WithSweepOnly], [WithLogger].
func NewPoller(store changes.Store, fetch changes.Fetcher, country string, opts ...Option) (*Poller, error) {
	if store == nil || fetch == nil {
		return nil, errors.New("ingest: NewPoller: nil store or fetcher")
	}
	if len(country) != 2 || country[0] < 'A' || country[0] > 'Z' || country[1] < 'A' || country[1] > 'Z' {
		return nil, fmt.Errorf("ingest: NewPoller: %q is not an upper-case country code", country)
	}
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	return &Poller{store: store, ref: refresher{store: store, fetch: fetch, log: o.log}, country: country, o: o}, nil
}

// Name implements [Ingester].
func (p *Poller) Name() string { return p.country + "/poll" }

// RequestSweep asks the next syncs to fetch every watched company once,
// whatever its moment: a feed has lost events. It is safe to call from
// any goroutine.
func (p *Poller) RequestSweep() { p.sweep.Store(true) }

// askSweep is RequestSweep for an ask whose token the stream stores in
// sweepCursorName at its next flush: the sweep started for it from
// memory is not started again when the sync meets the token stored.
func (p *Poller) askSweep(token string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asks = append(p.asks, token)
	if n := len(p.asks) - maxStarted; n > 0 {
		p.asks = slices.Delete(p.asks, 0, n)
	}
	p.sweep.Store(true)
}

// takeAsks returns whether a sweep was asked in memory and the tokens
// asked with it, and clears both.
func (p *Poller) takeAsks() (bool, []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	asks := p.asks
	p.asks = nil
	return p.sweep.Swap(false), asks
}

// reask puts back the asks of a sync whose sweep was not stored.
func (p *Poller) reask(tokens []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asks = append(slices.Clone(tokens), p.asks...)
	if n := len(p.asks) - maxStarted; n > 0 {
		p.asks = slices.Delete(p.asks, 0, n)
	}
	p.sweep.Store(true)
}

// startedFor reports whether a sweep of this poller was started for the
// ask of token.
func (p *Poller) startedFor(token string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Contains(p.started, token)
}

// markStarted records that a sweep was started for the asks of tokens.
func (p *Poller) markStarted(tokens []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range tokens {
		if t != "" {
			// Marked again, it is the newest.
			p.started = append(slices.DeleteFunc(p.started, func(s string) bool { return s == t }), t)
		}
	}
	if n := len(p.started) - maxStarted; n > 0 {
		p.started = slices.Delete(p.started, 0, n)
	}
}

// pollState is the poller's cursor.
type pollState struct {
	// Last is the moment up to which the schedule is done.
	Last time.Time `json:"last"`
	// Sweep is a sweep in progress; After the last identifier it fetched.
	Sweep bool   `json:"sweep,omitempty"`
	After string `json:"after,omitempty"`
	// Retry are the sweep's companies to fetch again, with their failed
	// fetches (internal_error) since they were last read (0: read, but
	// the Apply of what was read failed, or the store refused it because
	// another writer had replaced the snapshot it was diffed against);
	// at most one entry per watched company.
	Retry map[string]int `json:"retry,omitempty"`
	// Asked is the sweep ask (the token in sweepCursorName) the last
	// sweep was started for, or the token of the ask in memory it was
	// started for, which the stream stores at its next flush: a different
	// one is a new ask (unless this poller started a sweep for it).
	Asked string `json:"asked,omitempty"`
}

func (p *Poller) cursorName() string { return p.country + "/poll" }

// sweepCursorName is the cursor of the last sweep a stream asked for: a
// stream that lost events stores a new token there in the same Apply as
// its timepoint past the gap, so the ask outlives this replica's lead;
// the Poller starts a sweep for each token it has not started one for
// (pollState.Asked) and never writes this cursor, so no ask is erased.
func (p *Poller) sweepCursorName() string { return p.country + "/sweep" }

// Sync fetches the companies whose moment fell since the last sync (and,
// during a sweep, the next companies of the sweep) and stores what it
// found.
func (p *Poller) Sync(ctx context.Context, now time.Time) (err error) {
	st, orig, err := p.state(ctx, now)
	if err != nil {
		return err
	}
	p.loadRetries(st.Retry)
	// A sweep asked for, here (RequestSweep, askSweep) or stored by a
	// stream on any replica (a token in sweepCursorName no sweep was
	// started for), is the poller's to do once its cursor says so: until
	// an Apply has stored that, a failed sync asks for it again. A stored
	// token this poller started a sweep for from memory is only recorded
	// (rev-tok6).
	token, err := p.store.Cursor(ctx, p.sweepCursorName())
	if err != nil {
		return fmt.Errorf("ingest: %s sweep asked: %w", p.country, err)
	}
	newToken := token != "" && token != st.Asked
	if newToken && p.startedFor(token) {
		st.Asked, newToken = token, false
	}
	inMemory, tokens := p.takeAsks()
	asked, stored := inMemory || newToken, false
	defer func() {
		if asked && !stored && err != nil {
			p.reask(tokens)
		}
	}()
	if asked {
		// The sweep covers the stored ask read and the asks in memory;
		// the last of these is the one the stream stores next.
		st.Sweep, st.After, st.Asked = true, "", token
		if len(tokens) > 0 {
			st.Asked = tokens[len(tokens)-1]
		}
		p.markStarted(append(slices.Clone(tokens), token))
		p.o.log.LogAttrs(ctx, slog.LevelInfo, "sweeping the watched companies", slog.String("country", p.country))
	}
	ids, err := p.store.WatchedIDs(ctx, p.country)
	if err != nil {
		return fmt.Errorf("ingest: %s watched ids: %w", p.country, err)
	}
	sorted := make([]string, 0, len(ids))
	for id := range ids {
		sorted = append(sorted, id)
	}
	slices.Sort(sorted)

	type due struct {
		id string
		at time.Time // the moment; zero for a sweep
		// retry is, of a sweep's company tried again, its failed fetches.
		retry int
	}
	var work []due
	retried := map[string]bool{}
	for _, r := range p.retries(ids) {
		work = append(work, due{id: r.id, retry: r.fails})
		retried[r.id] = true
	}
	retrying := len(work)
	if st.Sweep {
		i, _ := slices.BinarySearch(sorted, st.After)
		if i < len(sorted) && sorted[i] == st.After {
			i++
		}
		for _, id := range sorted[i:] {
			// A company tried again is fetched once, as a retry, with
			// its count (a sweep asked again after a failed Apply:
			// rev-whole5).
			if !retried[id] {
				work = append(work, due{id: id})
			}
		}
	}
	sweeping := len(work) // the retries and the sweep
	if !p.o.sweepOnly {
		from := st.Last
		if lag := now.Sub(from); lag > p.o.pollInterval {
			p.o.log.LogAttrs(ctx, slog.LevelWarn, "polling is more than an interval behind; companies due in the gap wait for the next round (the watch list may be too large for the register's budget at this interval)",
				slog.String("country", p.country), slog.Duration("behind", lag))
			from = now.Add(-p.o.pollInterval)
		}
		var sched []due
		for _, id := range sorted {
			if at, ok := momentIn(p.country, id, p.o.pollInterval, from, now); ok {
				sched = append(sched, due{id: id, at: at})
			}
		}
		slices.SortStableFunc(sched, func(a, b due) int { return cmp.Or(a.at.Compare(b.at), cmp.Compare(a.id, b.id)) })
		work = append(work, sched...)
	}
	st.Last = maxTime(st.Last, now.Add(-p.o.pollInterval))

	var b changes.Batch
	// read are the companies read since the last Apply: a sweep's company
	// tried again is forgotten once what was read of it is stored.
	var read []string
	// held are the companies this sync holds in the guard since the last
	// Apply: a stream's flush leaves them for its next one until what
	// this sync found of them is stored (or the sync ends).
	var held []string
	defer func() { p.guard.release(p, held) }()
	flush := func() error {
		// The retries once what was read is stored, stored with it.
		st.Retry = p.retriesAfter(read)
		cur, err := json.Marshal(st)
		if err != nil {
			return err
		}
		if len(b.Changes) == 0 && len(b.Snapshots) == 0 && string(cur) == orig {
			p.forget(read)
			p.guard.release(p, held)
			read, held, stored = nil, nil, true
			return nil
		}
		b.Cursors = map[string]string{p.cursorName(): string(cur)}
		// A company whose snapshot another writer replaced since it was
		// read (a watch's new baseline) is read again at the next sync,
		// a retry stored with the cursor that passes it.
		_, err = applyOwing(ctx, p.store, b, func(refs []changes.CompanyRef, b *changes.Batch) error {
			for _, r := range refs {
				p.setRetry(r.CompanyID, 0)
				read = slices.DeleteFunc(read, func(id string) bool { return id == r.CompanyID })
			}
			st.Retry = p.retriesAfter(read)
			if cur, err = json.Marshal(st); err != nil {
				return err
			}
			b.Cursors = map[string]string{p.cursorName(): string(cur)}
			return nil
		})
		if err != nil {
			return err
		}
		stored = true
		p.forget(read)
		p.guard.release(p, held)
		b, orig, read, held = changes.Batch{}, string(cur), nil, nil
		return nil
	}
	var stop error
	done := 0
	// refreshed are the retries' and the sweep's companies this sync
	// fetched: a company whose moment also fell in the window is not
	// fetched again for the schedule. Both fetches would diff the
	// snapshot stored before this sync's Apply, and record one change
	// twice (rev-gb7); the sweep's fetch stands for the scheduled one.
	refreshed := map[string]bool{}
	// next counts a company of the work done, storing what was found
	// every applyEvery companies.
	next := func() error {
		done++
		if done%applyEvery == 0 {
			return flush()
		}
		return nil
	}
	for i, w := range work {
		if i >= maxPollsPerSync {
			break
		}
		if i >= sweeping && refreshed[w.id] {
			st.Last = w.at
			if err := next(); err != nil {
				return err
			}
			continue
		}
		if i < sweeping {
			refreshed[w.id] = true
		}
		// Held before its snapshot is read: a refresh of the stream under
		// way is stored first, and this one diffs what it stored.
		err := p.guard.hold(ctx, p, w.id)
		if err == nil {
			held = append(held, w.id)
			err = p.ref.refreshInto(ctx, signal{country: p.country, id: w.id}, now, &b)
		}
		switch {
		case skippedInternal(err) && i < sweeping:
			if n := w.retry + 1; n < internalAttempts {
				p.setRetry(w.id, n)
				p.o.log.LogAttrs(ctx, slog.LevelInfo, "a watched company could not be read in a sweep; it is tried again at the next sync",
					slog.String("country", p.country), errAttrs(err))
				p.o.log.LogAttrs(ctx, slog.LevelDebug, "company to try again", slog.String("id", w.id))
				break
			}
			p.forget([]string{w.id})
			p.o.log.LogAttrs(ctx, slog.LevelWarn, "a watched company could not be read in a sweep after the last attempt; it is polled again at the next sweep",
				slog.String("country", p.country), slog.Int("attempts", internalAttempts), errAttrs(err))
			p.o.log.LogAttrs(ctx, slog.LevelDebug, "skipped company", slog.String("id", w.id))
		case errors.Is(err, errSkip):
			p.forget([]string{w.id})
			p.o.log.LogAttrs(ctx, slog.LevelWarn, "a watched company could not be read; it is polled again next round",
				slog.String("country", p.country), errAttrs(err))
		case err != nil:
			stop = err
		default:
			read = append(read, w.id)
			if i < retrying {
				// Read: its entry stays until the Apply stores what was
				// read (a failed Apply leaves it to fetch again), with
				// its failures counted afresh (the fault passed).
				p.setRetry(w.id, 0)
			}
		}
		if stop != nil {
			break
		}
		switch {
		case i < retrying:
		case i < sweeping:
			st.After = w.id
		default:
			st.Last = w.at
		}
		if err := next(); err != nil {
			return err
		}
	}
	if stop == nil && done == len(work) {
		st.Last, st.Sweep, st.After = now, false, ""
	}
	if err := flush(); err != nil {
		return err
	}
	if errors.Is(stop, registry.ErrRateLimited) {
		p.o.log.LogAttrs(ctx, slog.LevelInfo, "the register's allowance is spent; polling resumes at the next sync",
			slog.String("country", p.country))
		return nil
	}
	return stop
}

// sweepRetry is a sweep's company to try again and its failed fetches.
type sweepRetry struct {
	id    string
	fails int
}

// retries returns, sorted by company, the sweep's companies to try again
// that ids (the watched companies) holds, and forgets the others.
func (p *Poller) retries(ids map[string]struct{}) []sweepRetry {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []sweepRetry
	for id, n := range p.retry {
		if _, ok := ids[id]; ok {
			out = append(out, sweepRetry{id, n})
		} else {
			delete(p.retry, id)
		}
	}
	slices.SortFunc(out, func(a, b sweepRetry) int { return strings.Compare(a.id, b.id) })
	return out
}

// setRetry sets the failed fetches of a sweep's company to try again (0:
// read since, its Apply not yet stored).
func (p *Poller) setRetry(id string, n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.retry == nil {
		p.retry = map[string]int{}
	}
	p.retry[id] = n
}

// loadRetries takes the sweep's companies to try again from the stored
// state when they have not been read since this poller was made or its
// memory forgotten.
func (p *Poller) loadRetries(stored map[string]int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.retryLoaded {
		return
	}
	p.retry, p.retryLoaded = map[string]int{}, true
	for id, n := range stored {
		if n >= 0 {
			p.retry[id] = n
		}
	}
}

// retriesAfter returns the sweep's companies to try again without read
// (the companies read since the last Apply), to be stored.
func (p *Poller) retriesAfter(read []string) map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := maps.Clone(p.retry)
	for _, id := range read {
		delete(out, id)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// forgetMemory drops the sweep's companies to try again, to be read again
// from the stored state at the next sync: the Leader calls it when this
// replica starts leading (see [memoryHolder]).
func (p *Poller) forgetMemory() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.retry, p.retryLoaded = nil, false
	// Another replica may have led since: whether a stored ask was swept
	// is the stored state's to say. The asks in memory stay, as the
	// RequestSweep flag does.
	p.started = nil
}

// forget drops ids from the sweep's companies to try again.
func (p *Poller) forget(ids []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, id := range ids {
		delete(p.retry, id)
	}
}

// state reads the poller's cursor (and returns it as stored); a poller
// that never ran starts its schedule now.
func (p *Poller) state(ctx context.Context, now time.Time) (pollState, string, error) {
	c, err := p.store.Cursor(ctx, p.cursorName())
	if err != nil {
		return pollState{}, "", err
	}
	var st pollState
	if c == "" || json.Unmarshal([]byte(c), &st) != nil || st.Last.IsZero() {
		if c != "" {
			p.o.log.LogAttrs(ctx, slog.LevelWarn, "unreadable poll cursor, starting the schedule now", slog.String("country", p.country))
		}
		st = pollState{Last: now}
	}
	if st.Last.After(now) {
		// Another replica's clock ahead of this one's (the last sync was
		// that replica's): the schedule resumes from now, and a sweep in
		// progress and its retries go on (rev-persist).
		st.Last = now
	}
	return st, c, nil
}

// momentIn returns the moment of id's poll in (from, to], if there is one
// (the window is at most one interval long, so there is at most one).
func momentIn(country, id string, interval time.Duration, from, to time.Time) (time.Time, bool) {
	h := fnv.New64a()
	h.Write([]byte(country))
	h.Write([]byte{'/'})
	h.Write([]byte(id))
	off := int64(h.Sum64() % uint64(interval))
	a := from.UnixNano()
	base := a - mod(a, int64(interval)) + off
	if base <= a {
		base += int64(interval)
	}
	at := time.Unix(0, base).UTC()
	return at, base <= to.UnixNano()
}

func mod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
