package ingest

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/companyregistry/registry/changes"
)

// retryCursor is the name of the cursor that stores Norway's retries
// (see [Norway.retry]): set in the same [changes.Store.Apply] as the
// feed cursors and changes that go with it, so that a restart, or
// another replica's lead, continues them with their attempts.
const retryCursor = "NO/retry"

// retryVersion is the version of the stored retries' JSON; a value of
// another version is not read (the retries start empty).
const retryVersion = 1

// storedRetries is the value of [retryCursor].
type storedRetries struct {
	V     int           `json:"v"`
	Retry []storedRetry `json:"retry"`
}

// storedRetry is one retry: the latest item of a watched company.
type storedRetry struct {
	OrgNr     string     `json:"orgnr"`
	Published *time.Time `json:"published,omitempty"`
	Seen      time.Time  `json:"seen"`
	EventID   string     `json:"event,omitempty"`
	Attempts  int        `json:"attempts,omitempty"`
}

// encodeRetries is the stored value of the retries: "" for none (the
// value of a cursor never set).
func encodeRetries(list []heldItem) (string, error) {
	if len(list) == 0 {
		return "", nil
	}
	v := storedRetries{V: retryVersion, Retry: make([]storedRetry, len(list))}
	for i, h := range list {
		p := h.published
		if p != nil && (p.Year() < 1 || p.Year() > 9999) {
			p = nil // JSON has no such time; the register never sends one
		}
		v.Retry[i] = storedRetry{OrgNr: h.orgnr, Published: p, Seen: h.seen, EventID: h.eventID, Attempts: h.attempts}
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// decodeRetries reads a value of [encodeRetries]; ok is false when the
// value is not one (another version, not JSON, an entry without a
// company), and the list is then empty.
func decodeRetries(s string) (list []heldItem, ok bool) {
	if s == "" {
		return nil, true
	}
	var v storedRetries
	if err := json.Unmarshal([]byte(s), &v); err != nil || v.V != retryVersion {
		return nil, false
	}
	for _, r := range v.Retry {
		if r.OrgNr == "" || r.Attempts < 0 {
			return nil, false
		}
		list = append(list, heldItem{orgnr: r.OrgNr, published: r.Published, seen: r.Seen, eventID: r.EventID, attempts: r.Attempts})
	}
	return list, true
}

// takeStored brings the retries in memory up to the store's at the start
// of a sync, before recheck stores the list: it reads the feed cursors,
// then the stored retries when they have not been read since this
// ingester was made or its memory forgotten (a new lead), or else what
// another replica's late Apply stored since (adoptForeign; syncFeed looks
// again before each feed is read). A store that fails fails the sync,
// whose Applies would otherwise store a list that lacks the stored
// retries.
func (n *Norway) takeStored(ctx context.Context) error {
	// The feed cursors first: a late write of another replica that lands
	// after them and before the retries is in the retries read, or is
	// adopted at the next look; one before them is in both.
	cursors := make(map[string]string, len(norwayFeeds))
	for _, f := range norwayFeeds {
		c, err := n.store.Cursor(ctx, f.cursorName())
		if err != nil {
			return err
		}
		cursors[f.cursorName()] = c
	}
	n.mu.Lock()
	loaded := n.retryLoaded
	n.mu.Unlock()
	if !loaded {
		return n.loadRetries(ctx, cursors)
	}
	for _, f := range norwayFeeds {
		if err := n.adoptForeign(ctx, f, cursors[f.cursorName()]); err != nil {
			return err
		}
	}
	return nil
}

// loadRetries reads the stored retries, and takes own as the feed
// cursors this replica has read: an unreadable value is logged and taken
// as none (and overwritten at the next store).
func (n *Norway) loadRetries(ctx context.Context, own map[string]string) error {
	v, err := n.store.Cursor(ctx, retryCursor)
	if err != nil {
		return err
	}
	list, ok := decodeRetries(v)
	if !ok {
		n.o.log.LogAttrs(ctx, slog.LevelWarn, "unreadable list of retries of watched companies, starting with none",
			slog.String("cursor", retryCursor))
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.retry, n.retryStored, n.retryLoaded = list, v, true
	n.own = own
	return nil
}

// stored records c as f's cursor that this replica stored.
func (n *Norway) stored(f feedSpec, c string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.own == nil {
		n.own = map[string]string{}
	}
	n.own[f.cursorName()] = c
}

// adoptForeign takes in the retries another replica stored with f's
// cursor behind this one's back. Under a [Leader], on a store that
// honours [changes.Batch.Lease], that cannot happen (the late Apply is
// refused) and adoptForeign finds nothing to adopt. What it is kept for:
// Norway synced without a Leader on several replicas (each its own
// scheduler), where one replica can finish a page after another's, storing
// f's cursor past items the other never read and the retries of those
// items (and a Store of your own that breaks the fence's contract).
// Writing this replica's list over them
// would lose their changes (rev-e5), and keeping every stored entry would
// bring back retries of items this replica handled itself (rev-last5).
// So when f's stored cursor is not the one this replica last read or
// stored, the stored list's entries of f's items that are new to this
// replica's cursor are added (a company's later-published item wins),
// and the rest is left to this replica's list, which the next Apply
// stores.
func (n *Norway) adoptForeign(ctx context.Context, f feedSpec, cursor string) error {
	n.mu.Lock()
	own, ok := n.own[f.cursorName()]
	n.mu.Unlock()
	if !ok || own == cursor {
		if !ok {
			n.stored(f, cursor)
		}
		return nil
	}
	v, err := n.store.Cursor(ctx, retryCursor)
	if err != nil {
		return err
	}
	theirs, _ := decodeRetries(v) // an unreadable value has nothing to adopt
	prefix := f.name + "/"
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, r := range theirs {
		num, isFeed := strings.CutPrefix(r.eventID, prefix)
		id, err := strconv.ParseInt(num, 10, 64)
		if !isFeed || err != nil || !isNew(f, own, id) {
			continue
		}
		i := slices.IndexFunc(n.retry, func(h heldItem) bool { return h.orgnr == r.orgnr })
		switch {
		case i < 0:
			n.retry = append(n.retry, r)
		case publishedAfter(r, n.retry[i]):
			n.retry[i] = r
		}
	}
	n.own[f.cursorName()] = cursor
	return nil
}

// withRetries puts the stored value of list in b, which is to be applied
// (apply) when it holds anything else or when the value must be written.
// The value goes with every Apply of the ingester, an empty list too (an
// old leader's late write is put right: rev-last5), and must be written
// when it differs from the one this ingester stored, or while there are
// retries: a value overwritten behind this ingester's back (a late Apply
// of a replica that led before, which only the lease fence of a Leader
// on a fencing store stops) is put right at the next sync rather than
// read back by the next lead (rev-persist).
func (n *Norway) withRetries(b *changes.Batch, list []heldItem) (value string, apply bool, err error) {
	value, err = encodeRetries(list)
	if err != nil {
		return "", false, err
	}
	n.mu.Lock()
	must := len(list) > 0 || value != n.retryStored
	n.mu.Unlock()
	if !must && len(b.Changes) == 0 && len(b.Snapshots) == 0 && len(b.Cursors) == 0 && len(b.Purge) == 0 {
		return value, false, nil
	}
	if b.Cursors == nil {
		b.Cursors = map[string]string{}
	}
	b.Cursors[retryCursor] = value
	return value, true, nil
}
