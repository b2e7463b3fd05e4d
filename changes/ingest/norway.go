package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/countries/no"
	"github.com/companyregistry/registry/internal/upstream"
)

// NorwayBaseURL is the base URL of Brønnøysund's Enhetsregisteret API,
// whose /oppdateringer feeds [Norway] reads.
const NorwayBaseURL = no.DefaultBaseURL

// maxFeedBytes bounds one page of a Norwegian feed: 10,000 items with
// their patches stay well below it.
const maxFeedBytes = 32 << 20

// feedSpec is one of Brønnøysund's three update feeds.
type feedSpec struct {
	name  string // enheter, underenheter, roller
	roles bool   // the CloudEvents feed of roles
}

// The three feeds, read in this order.
var norwayFeeds = [...]feedSpec{{name: "enheter"}, {name: "underenheter"}, {name: "roller", roles: true}}

func (f feedSpec) path() string       { return "/oppdateringer/" + f.name }
func (f feedSpec) cursorName() string { return "NO/" + f.name }

// sourceURL is the register's document of the company an item is about.
func (f feedSpec) sourceURL(orgnr string) string {
	switch {
	case f.roles:
		return NorwayBaseURL + "/enheter/" + orgnr + "/roller"
	case f.name == "underenheter":
		return NorwayBaseURL + "/underenheter/" + orgnr
	}
	return NorwayBaseURL + "/enheter/" + orgnr
}

// Norway reads Brønnøysund's update feeds: /oppdateringer/enheter
// (units), /oppdateringer/underenheter (sub-units) and
// /oppdateringer/roller (roles, CloudEvents). See the package
// documentation. It is an [Ingester].
//
// A watched company whose fetch fails with internal_error is fetched
// again at the next syncs, [internalAttempts] failed fetches in a row,
// before its item is dropped with a warning; the feed reads on
// meanwhile. Those retries are stored with the feed cursors (cursor
// "NO/retry"), so that a restart, or another replica's lead, continues
// them with their attempts; the items held for a second look are in
// memory only, and a restart, or another replica's lead, forgets them.
// An item of a watched company whose snapshot another writer replaced
// while it was fetched (a watch's new baseline) becomes such a retry,
// with no attempt: nothing found of it is stored, and the next sync
// reads it against the new snapshot. The item of a company no watch held
// when the page was read is recorded as the register reported it, and
// reaches a watch of the company stored before the page's Apply.
type Norway struct {
	store changes.Store
	ref   refresher
	up    *upstream.Client
	o     options

	mu   sync.Mutex
	held []heldItem // items of companies no watch held, read in the last minute
	// retry holds the latest item of a watched company whose fetch failed
	// for a reason that may pass, or with internal_error fewer than
	// [internalAttempts] times. It is stored as [retryCursor], in the
	// Apply of the page or recheck that changed it; retryStored is the
	// value stored (or read), and retryLoaded says it was read since this
	// ingester was made or its memory forgotten.
	retry       []heldItem
	retryStored string
	retryLoaded bool
	// own is, of each feed's cursor, the value this replica read when it
	// loaded the retries or stored since: a stored cursor that differs is
	// another replica's late write (see [Norway.adoptForeign]).
	own map[string]string
}

// heldItem is an item of a company no watch held when it was read, kept
// for [newWatchGrace] to be asked about again (see [Norway.recheck]), or
// the item of a watched company kept to be fetched again.
type heldItem struct {
	orgnr     string
	published *time.Time
	seen      time.Time
	// eventID is the item's source event when the item was not recorded
	// as the register reported it (a watched company's whose fetch failed
	// with internal_error); "" for an item recorded so.
	eventID string
	// attempts counts the fetches for this item that failed with
	// internal_error.
	attempts int
}

// maxHeld bounds the items kept for a second look (Brønnøysund publishes
// a few a minute, some thousands in a burst).
const maxHeld = 10_000

var _ Ingester = (*Norway)(nil)

// NewNorway returns the ingester of Brønnøysund's feeds, which stores
// through store and fetches watched companies with fetch (a
// [changes.RegistryFetcher] in production). Options: [WithBaseURL],
// [WithHTTPClient], [WithContactEmail], [WithBudget], [WithPageSize],
// [WithMaxPages], [WithRequestTimeout], [WithLogger].
func NewNorway(store changes.Store, fetch changes.Fetcher, opts ...Option) (*Norway, error) {
	if store == nil || fetch == nil {
		return nil, errors.New("ingest: NewNorway: nil store or fetcher")
	}
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	base := o.baseURL
	if base == "" {
		base = NorwayBaseURL
	}
	up, err := upstream.NewClient(upstream.Config{
		Module: "ingest", Country: "NO", Registry: "brreg", Name: "Enhetsregisteret",
		BaseURL: base, HTTPClient: o.httpClient, ContactEmail: o.contactEmail, MaxBodyBytes: maxFeedBytes,
		RateLimitMessage: "Enhetsregisteret is limiting the rate of requests from this service.",
	})
	if err != nil {
		return nil, err
	}
	return &Norway{store: store, ref: refresher{store: store, fetch: fetch, log: o.log}, up: up, o: o}, nil
}

// Name implements [Ingester].
func (n *Norway) Name() string { return "NO/feeds" }

// errPaused stops a sync whose register allowance is spent for now.
var errPaused = errors.New("ingest: upstream budget spent")

// Sync reads each feed from its stored cursor until it is caught up (or
// has read the pages one sync may read), and stores what it found. A
// feed that fails does not stop the others; a spent budget stops the
// sync until the next one.
func (n *Norway) Sync(ctx context.Context, now time.Time) error {
	watched, err := n.store.WatchedIDs(ctx, "NO")
	if err != nil {
		return fmt.Errorf("ingest: NO watched ids: %w", err)
	}
	if err := n.takeStored(ctx); err != nil {
		return fmt.Errorf("ingest: NO retries: %w", err)
	}
	var errs []error
	if err := n.recheck(ctx, watched, now); err != nil {
		if errors.Is(err, changes.ErrLeaseLost) {
			return err // another replica leads: nothing more is written here
		}
		errs = append(errs, err)
	}
	from := readFrom{n: n, now: now}
	for _, f := range norwayFeeds {
		err := n.syncFeed(ctx, f, watched, &from)
		if errors.Is(err, changes.ErrLeaseLost) {
			return errors.Join(append(errs, err)...)
		}
		if errors.Is(err, errPaused) || errors.Is(err, registry.ErrRateLimited) {
			n.o.log.LogAttrs(ctx, slog.LevelInfo, "Brønnøysund's allowance is spent; the feeds are read again at the next sync",
				slog.String("feed", f.name))
			break
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("ingest: NO feed %s: %w", f.name, err))
		}
	}
	return errors.Join(errs...)
}

// recheck looks for a company of the items read in the last minute while
// no watch held it among the watched companies loaded at this sync's
// start: a watch takes its baselines before it is
// stored (up to the baseline timeout), so an item published after a
// baseline can be read, and recorded as an unwatched company's, before
// the watch is stored. Each such company is fetched once and compared
// with its baseline; its changes carry the item's time and no source event
// (the item itself is recorded already, as the register reported it). An
// item is asked about at every sync until it is a minute old, at least
// once; a fetch that fails for a reason that may pass keeps it. So does
// a fetch that fails with internal_error, until the item's
// [internalAttempts]th: the retries of [Norway.process] come this way,
// with the item's source event. The retries that remain are stored in
// the recheck's Apply (one with only [retryCursor] when nothing else is
// to store); the items held for their minute are in memory: a restart
// within the minute forgets them.
func (n *Norway) recheck(ctx context.Context, watched map[string]struct{}, now time.Time) error {
	n.mu.Lock()
	// Retries first: they are older than anything held since.
	items := append(n.retry, n.held...)
	n.held, n.retry = nil, nil
	n.mu.Unlock()
	// latest is, of each company watched now (watched is loaded after the
	// items were read), the index of its latest-published item: a roles
	// item read after a unit's item (the feeds are read in turn) may be
	// older, and two items without a time are told apart by their index.
	latest := map[string]int{}
	for i, h := range items {
		if _, ok := watched[h.orgnr]; !ok {
			continue
		}
		if l, seen := latest[h.orgnr]; !seen || publishedAfter(h, items[l]) {
			latest[h.orgnr] = i
		}
	}
	var b changes.Batch
	var keep, retry []heldItem
	var stop error
	// Of the items whose fetch failed with internal_error, by index: the
	// item with the attempt counted, or dropped at the last attempt. An
	// Apply that fails does not undo either.
	counted := map[int]heldItem{}
	dropped := map[int]bool{}
	// Of the items whose company was read, by index: should the Apply
	// fail, they are tried again with their failures counted afresh (the
	// fault passed; a failed Apply is the store's).
	read := map[int]bool{}
	for i, h := range items {
		l, ok := latest[h.orgnr]
		switch {
		case ok && i != l:
			// An older item of a company watched now: its latest stands for it.
		case ok && stop == nil:
			err := n.ref.refreshInto(ctx, signal{country: "NO", id: h.orgnr, eventID: h.eventID, registeredAt: h.published}, now, &b)
			switch {
			case skippedInternal(err):
				h.attempts++
				if h.attempts < internalAttempts {
					counted[i] = h
					retry = append(retry, h)
					break
				}
				dropped[i] = true
				n.o.log.LogAttrs(ctx, slog.LevelWarn, "a watched company could not be read after the last attempt; its update is skipped",
					slog.Int("attempts", h.attempts), errAttrs(err))
				n.o.log.LogAttrs(ctx, slog.LevelDebug, "skipped company", slog.String("id", h.orgnr))
			case errors.Is(err, errSkip):
				n.o.log.LogAttrs(ctx, slog.LevelWarn, "a newly watched company could not be read; its recent update is skipped", errAttrs(err))
			case err != nil:
				stop = err
				retry = append(retry, h)
			default:
				read[i] = true
			}
		case ok:
			retry = append(retry, h)
		case now.Sub(h.seen) < newWatchGrace:
			keep = append(keep, h)
		}
	}
	value, apply, err := n.withRetries(&b, retry)
	if err != nil {
		n.hold(keep, retry)
		return fmt.Errorf("ingest: NO retries: %w", err)
	}
	if apply {
		// A company whose snapshot another writer replaced since it was
		// read (a watch's new baseline) stays a retry, with no attempt,
		// stored in this Apply: the next recheck reads it again.
		owed := map[string]bool{}
		_, err := applyOwing(ctx, n.store, b, func(refs []changes.CompanyRef, b *changes.Batch) error {
			for _, r := range refs {
				for i, h := range items {
					if read[i] && h.orgnr == r.CompanyID && !owed[h.orgnr] {
						owed[h.orgnr] = true
						h.attempts = 0
						retry = append(retry, h)
					}
				}
			}
			var err error
			value, _, err = n.withRetries(b, retry)
			return err
		})
		if err != nil {
			// Nothing was stored (the stored retries neither): every
			// company watched now is tried again, and the retries kept
			// here are stored by the next Apply.
			retry, keep = nil, nil
			for i, h := range items {
				if l, ok := latest[h.orgnr]; !ok {
					keep = append(keep, h)
				} else if i == l && !dropped[i] {
					if c, ok := counted[i]; ok {
						h = c
					}
					if read[i] {
						h.attempts = 0
					}
					retry = append(retry, h)
				}
			}
			n.hold(keep, retry)
			return err
		}
		n.mu.Lock()
		n.retryStored = value
		n.mu.Unlock()
	}
	n.hold(keep, retry)
	if stop != nil {
		return fmt.Errorf("ingest: NO recheck: %w", stop)
	}
	return nil
}

// hold keeps items for the next sync's [Norway.recheck]: the newest
// [maxHeld] of the items of companies no watch held, and every retry (the
// latest item of a watched company whose fetch failed for a reason that
// may pass, or with internal_error), which no burst of other items
// pushes out.
func (n *Norway) hold(items, retry []heldItem) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.retry = append(n.retry, retry...)
	n.held = append(n.held, items...) // recheck holds the older ones before a sync reads on
	if over := len(n.held) - maxHeld; over > 0 {
		n.held = n.held[over:]
	}
}

// settle returns the retries once the page is stored, for the page's
// Apply to store: the retries of the companies whose item the feed has
// handled are dropped, since the fetch for that item (or its purge)
// stands for them, and the page's requeued items (a fetch that failed
// with internal_error) are added; of a company with both, the
// latest-published item stays, as recheck keeps it (a roles item, read
// after the unit's, may be older: rev-fix5). So each company has at most
// one retry and none outlives a newer item of its company. The retries
// kept are not changed until that Apply has stored the list.
func (n *Norway) settle(orgnrs []string, requeued []heldItem) []heldItem {
	set := make(map[string]struct{}, len(orgnrs))
	for _, o := range orgnrs {
		set[o] = struct{}{}
	}
	again := make(map[string]heldItem, len(requeued))
	for _, r := range requeued {
		again[r.orgnr] = r
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]heldItem, 0, len(n.retry)+len(requeued))
	older := map[string]bool{} // the requeued items a retry kept is later than
	for _, h := range n.retry {
		if _, ok := set[h.orgnr]; !ok {
			out = append(out, h)
		} else if r, ok := again[h.orgnr]; ok && publishedAfter(h, r) {
			// The later item stamps the change; the new signal gets
			// its own attempts (rev-persist).
			h.attempts = r.attempts
			out = append(out, h)
			older[h.orgnr] = true
		}
	}
	for _, r := range requeued {
		if !older[r.orgnr] {
			out = append(out, r)
		}
	}
	return out
}

// readAgain brings the retries in memory up to what a page fetched
// before its Apply failed: the page is read again at the next sync, but
// the recheck runs first, and a retry kept as it was would stand for
// what the page found. read is, of each company the page fetched and
// read, its item there; requeued, the page's items whose fetch failed
// with internal_error. A company's retry not published after its item on
// the page (the same time, or neither with a time, counts as not after,
// as [Norway.settle] counts it: rev-no7) moves onto that item's event and time, which the page's
// stored Apply would have left standing for the company ([Norway.settle]):
// kept, its recheck would record the change the newer item announced
// (and a read found) under the older item's event and time (rev-fix7).
// It takes the item's attempts: none after a read, the new signal's own
// after a failure. A retry
// published after (a roles item read after the unit's may be older)
// still stands for its company and stamps the change the page's older
// item finds ([Norway.laterRetry]); after a read its count of failed
// fetches starts again (the fault passed; a failed Apply is the
// store's), so that its next failure is not counted after the ones
// before the read (rev-gb7). A company the page read that has no retry,
// whose read found a change (found), gets its item as a retry with no
// attempt, so that it stands for the
// company at the roles page of the same sync and at the next recheck
// (rev-no7).
func (n *Norway) readAgain(read map[string]heldItem, found map[string]bool, requeued []heldItem) {
	if len(read) == 0 && len(requeued) == 0 {
		return
	}
	failed := make(map[string]heldItem, len(requeued))
	for _, r := range requeued {
		failed[r.orgnr] = r
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	has := make(map[string]bool, len(n.retry))
	for i, h := range n.retry {
		has[h.orgnr] = true
		if r, ok := read[h.orgnr]; ok {
			if !publishedAfter(h, r) {
				n.retry[i] = r
			} else {
				n.retry[i].attempts = 0
			}
		} else if r, ok := failed[h.orgnr]; ok && !publishedAfter(h, r) {
			n.retry[i] = r
		}
	}
	// A company read without a retry, whose read found a change, gets its
	// item as a retry, with no attempt: otherwise nothing stands for it
	// until the page is read again, and an older roles item read later in
	// the same sync would stamp the change the unit item announced
	// (rev-no7). Not when its read found nothing: the retry would stamp
	// whatever changes before the next sync with this older item
	// (rev-last7).
	for _, orgnr := range slices.Sorted(maps.Keys(read)) {
		if !has[orgnr] && found[orgnr] {
			n.retry = append(n.retry, read[orgnr])
		}
	}
}

// laterRetry returns the retry of orgnr when it has one published after
// published: a feed item's, or a held item's (without an event, as
// recheck stamps it: rev-last5).
func (n *Norway) laterRetry(orgnr string, published *time.Time) (heldItem, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, h := range n.retry {
		if h.orgnr == orgnr && publishedAfter(h, heldItem{published: published}) {
			return h, true
		}
	}
	return heldItem{}, false
}

// publishedAfter reports whether a was published after b; an item
// without a time is not after any.
func publishedAfter(a, b heldItem) bool {
	return a.published != nil && (b.published == nil || a.published.After(*b.published))
}

// forgetMemory drops the items held and marks the retries to be read
// again from the store before the next recheck: the Leader calls it when
// this replica starts leading, since another replica may have read on
// since they were kept (see [memoryHolder]); the stored retries are
// that replica's.
func (n *Norway) forgetMemory() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.held, n.retry = nil, nil
	n.retryStored, n.retryLoaded = "", false
	n.own = nil
}

// removedType is the endringstype of a unit removed from the open data:
// "Enheten har blitt fjernet fra Åpne Data. Eventuelle kopier skal også
// fjerne enheten" (the /oppdateringer operations' description): its
// stored changes are purged.
const removedType = "Fjernet"

// timeLayout is the register's time stamp format (dato, afterTime).
const timeLayout = "2006-01-02T15:04:05.000Z"

// A feed's cursor is "time:<stamp>" before the first item was read (the
// feed is read from a minute before the older of the first sync and the
// oldest baseline of a watched company: see [readFrom]), then a number:
// for enheter and underenheter the next oppdateringsid to ask for
// (inclusive), for roller the last event id read (afterId is exclusive).
const timeCursor = "time:"

// readFrom is when a feed without a cursor is read from: a minute
// ([newWatchGrace]) before the older of now and the oldest snapshot of a
// watched company (Store.OldestSnapshot). A watch created before the
// first sync took its baselines then; a change the register published
// between a baseline and the first sync is in the feed before now, and
// reading from now would lose it. The minute covers a watch whose
// baselines were taken just before the sync started but stored after the
// sync loaded the watched companies, and a snapshot stamped after the
// register's time of a change it missed (the stamp is taken when the
// fetch of report and roles ends, on this machine's clock). Asked once
// per sync, only when a feed has no cursor; a failed read is kept for the
// sync too.
type readFrom struct {
	n   *Norway
	now time.Time
	at  time.Time // zero: not asked yet
	err error
}

func (r *readFrom) time(ctx context.Context) (time.Time, error) {
	if !r.at.IsZero() || r.err != nil {
		return r.at, r.err
	}
	at := r.now
	oldest, ok, err := r.n.store.OldestSnapshot(ctx, "NO")
	if err != nil {
		r.err = fmt.Errorf("ingest: NO oldest snapshot: %w", err)
		return time.Time{}, r.err
	}
	if ok && oldest.Before(at) {
		at = oldest
	}
	r.at = at.Add(-newWatchGrace)
	return r.at, nil
}

func (n *Norway) syncFeed(ctx context.Context, f feedSpec, watched map[string]struct{}, from *readFrom) error {
	now := from.now
	cursor, err := n.store.Cursor(ctx, f.cursorName())
	if err != nil {
		return err
	}
	if err := n.adoptForeign(ctx, f, cursor); err != nil {
		return err
	}
	if !validCursor(cursor) {
		if cursor != "" {
			n.o.log.LogAttrs(ctx, slog.LevelWarn, "unreadable feed cursor, reading from before the oldest baseline", slog.String("feed", f.name))
		}
		start, err := from.time(ctx)
		if err != nil {
			return err
		}
		cursor = timeCursor + start.UTC().Format(timeLayout)
		n.mu.Lock()
		list := slices.Clone(n.retry)
		n.mu.Unlock()
		b := changes.Batch{Cursors: map[string]string{f.cursorName(): cursor}}
		value, _, err := n.withRetries(&b, list)
		if err != nil {
			return fmt.Errorf("retries: %w", err)
		}
		if _, err := Apply(ctx, n.store, b); err != nil {
			return err
		}
		n.mu.Lock()
		n.retryStored = value
		n.mu.Unlock()
		n.stored(f, cursor)
	}
	for range n.o.maxPages {
		items, full, err := n.read(ctx, f, cursor)
		if err != nil {
			return err
		}
		next, err := n.process(ctx, f, items, cursor, watched, now)
		if err != nil {
			return err
		}
		if !full || next == cursor {
			return nil
		}
		cursor = next
	}
	return nil
}

func validCursor(c string) bool {
	if ts, ok := strings.CutPrefix(c, timeCursor); ok {
		_, err := time.Parse(timeLayout, ts)
		return err == nil
	}
	n, err := strconv.ParseInt(c, 10, 64)
	return err == nil && n >= 0
}

// read asks for the page of f after cursor; full says the page held as
// many items as asked for, so that more may remain.
func (n *Norway) read(ctx context.Context, f feedSpec, cursor string) ([]feedItem, bool, error) {
	q := url.Values{}
	ts, isTime := strings.CutPrefix(cursor, timeCursor)
	switch {
	case isTime && f.roles:
		q.Set("afterTime", ts)
	case isTime:
		q.Set("dato", ts)
	case f.roles:
		q.Set("afterId", cursor)
	default:
		q.Set("oppdateringsid", cursor)
	}
	q.Set("size", strconv.Itoa(n.o.pageSize))
	if !f.roles {
		q.Set("includeChanges", "true")
	}
	if b := n.o.budget; b != nil {
		if ok, _, err := b.Take(ctx); err == nil && !ok {
			return nil, false, errPaused
		}
	}
	rctx, cancel := context.WithTimeout(ctx, n.o.timeout)
	defer cancel()
	a, err := n.up.Get(rctx, upstream.Request{Path: f.path(), Query: q})
	if err != nil {
		return nil, false, err
	}
	if a.Status != http.StatusOK {
		return nil, false, n.up.StatusError(a)
	}
	var items []feedItem
	var count int
	if f.roles {
		items, count, err = decodeRoleEvents(a.Body)
	} else {
		items, count, err = decodeUnitPage(a.Body)
	}
	if err != nil {
		return nil, false, n.up.Error(registry.CodeUpstreamError, true, err, "Enhetsregisteret sent a feed page that is not the expected JSON.")
	}
	return items, count >= n.o.pageSize, nil
}

// isNew reports whether the item of id comes after cursor.
func isNew(f feedSpec, cursor string, id int64) bool {
	c, err := strconv.ParseInt(cursor, 10, 64)
	switch {
	case err != nil:
		return true // a time cursor: the register chose the items
	case f.roles:
		return id > c
	}
	return id >= c
}

// cursorAfter is the cursor that follows the item of id.
func cursorAfter(f feedSpec, id int64) string {
	if f.roles {
		return strconv.FormatInt(id, 10)
	}
	return strconv.FormatInt(id+1, 10)
}

// checkUnknown asks the store whether a watch holds now any company of
// the page missing from the set loaded at the start of the sync (a watch
// created since, maybe on another replica), and adds those to watched:
// one query per page, so that such a company is fetched and compared
// with its baseline rather than recorded as an unwatched one.
func (n *Norway) checkUnknown(ctx context.Context, items []feedItem, watched map[string]struct{}) error {
	seen := map[string]bool{}
	var ids []string
	for _, it := range items {
		if _, ok := watched[it.OrgNr]; !ok && !seen[it.OrgNr] {
			seen[it.OrgNr] = true
			ids = append(ids, it.OrgNr)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	now, err := n.store.WatchedAmong(ctx, "NO", ids)
	if err != nil {
		return fmt.Errorf("watched ids: %w", err)
	}
	for id := range now {
		watched[id] = struct{}{}
	}
	return nil
}

// process records the items of one page and returns the cursor after
// the last one it could record. A watched company is fetched once, for
// its last item on the page, and compared with its snapshot; every other
// item is recorded as the register reported it ([feedChanges]). When a
// fetch fails for a reason that may pass (a spent budget, the register
// down), the page is recorded up to the item before and the error
// returned; the rest is read again next time. A fetch that fails with
// internal_error does not stop the page: the item goes to the retries
// of [Norway.recheck], with its source event.
func (n *Norway) process(ctx context.Context, f feedSpec, items []feedItem, cursor string, watched map[string]struct{}, now time.Time) (string, error) {
	if err := n.checkUnknown(ctx, items, watched); err != nil {
		return cursor, err
	}
	last := map[string]int{}
	for i, it := range items {
		if _, ok := watched[it.OrgNr]; ok {
			last[it.OrgNr] = i
		}
	}
	var b changes.Batch
	var hold, retry []heldItem
	// handled are the watched companies whose latest item of the page was
	// recorded, purged, skipped or given to the retries: once the page is
	// stored, their older retries are stale (the fetch for the newer item
	// saw what they would, and a purged unit must not be fetched back).
	var handled []string
	// read are the watched companies this page fetched and read, with
	// their item: should the page's Apply fail, their retries get their
	// failures counted afresh, as recheck's do, or move onto the newer
	// item ([Norway.readAgain]).
	read := map[string]heldItem{}
	found := map[string]bool{} // of read, the companies whose read found a change
	done := -1
	var stop error
	for i, it := range items {
		if !isNew(f, cursor, it.ID) {
			continue
		}
		if _, ok := watched[it.OrgNr]; !ok {
			if it.Type == removedType {
				purgeInto(&b, "NO", it.OrgNr)
			} else {
				hold = append(hold, heldItem{orgnr: it.OrgNr, published: it.Published, seen: now})
			}
			b.Changes = append(b.Changes, feedChanges(f, it, now)...)
			done = i
			continue
		}
		if last[it.OrgNr] == i {
			sig := signal{country: "NO", id: it.OrgNr, eventID: f.eventID(it.ID),
				registeredAt: it.Published, removed: it.Type == removedType, purge: it.Type == removedType}
			if r, ok := n.laterRetry(it.OrgNr, it.Published); ok && !sig.purge {
				// The company's retry was published after this item (a
				// roles item read after the unit's may be older): the
				// changes this fetch finds carry the later item's event
				// and time, as recheck's would (rev-persist).
				sig.eventID, sig.registeredAt = r.eventID, r.published
			}
			before := len(b.Changes)
			err := n.ref.refreshInto(ctx, sig, now, &b)
			if skippedInternal(err) {
				retry = append(retry, heldItem{orgnr: it.OrgNr, published: it.Published, seen: now, eventID: f.eventID(it.ID), attempts: 1})
				n.o.log.LogAttrs(ctx, slog.LevelInfo, "a watched company could not be read; it is tried again at the next sync",
					slog.String("feed", f.name), slog.Int64("update_id", it.ID), errAttrs(err))
				n.o.log.LogAttrs(ctx, slog.LevelDebug, "company to try again", slog.String("id", it.OrgNr))
			} else if errors.Is(err, errSkip) {
				n.o.log.LogAttrs(ctx, slog.LevelWarn, "a watched company could not be read; its update is skipped",
					slog.String("feed", f.name), slog.Int64("update_id", it.ID), errAttrs(err))
				n.o.log.LogAttrs(ctx, slog.LevelDebug, "skipped company", slog.String("id", it.OrgNr))
			} else if err != nil {
				stop = err
				break
			} else if !sig.purge {
				read[it.OrgNr] = heldItem{orgnr: it.OrgNr, published: it.Published, seen: now, eventID: f.eventID(it.ID)}
				found[it.OrgNr] = len(b.Changes) > before
			}
			handled = append(handled, it.OrgNr)
		}
		done = i
	}
	next := cursor
	if done >= 0 {
		next = cursorAfter(f, items[done].ID)
		if c, err := strconv.ParseInt(cursor, 10, 64); err == nil {
			if m, _ := strconv.ParseInt(next, 10, 64); m < c {
				next = cursor
			}
		}
	}
	if next != cursor {
		b.Cursors = map[string]string{f.cursorName(): next}
	}
	// The retries once the page is stored, stored with it.
	list := n.settle(handled, retry)
	value, apply, err := n.withRetries(&b, list)
	if err != nil {
		return cursor, fmt.Errorf("retries: %w", err)
	}
	if apply {
		// A company whose snapshot another writer replaced since it was
		// read (a watch's new baseline) goes to the retries, with its
		// item and no attempt, stored with the cursor that passes it: the
		// next recheck reads it against the snapshot stored now.
		_, err := applyOwing(ctx, n.store, b, func(refs []changes.CompanyRef, b *changes.Batch) error {
			for _, r := range refs {
				if h, ok := read[r.CompanyID]; ok {
					retry = append(retry, h)
					delete(read, r.CompanyID)
					delete(found, r.CompanyID)
				}
			}
			list = n.settle(handled, retry)
			var err error
			value, _, err = n.withRetries(b, list)
			return err
		})
		if err != nil {
			n.readAgain(read, found, retry)
			return cursor, err
		}
	}
	n.mu.Lock()
	n.retry, n.retryStored = list, value
	n.mu.Unlock()
	if c, ok := b.Cursors[f.cursorName()]; ok {
		n.stored(f, c)
	}
	n.hold(hold, nil)
	if stop != nil {
		return next, stop
	}
	return next, nil
}
