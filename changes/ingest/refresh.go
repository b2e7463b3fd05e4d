package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// signal is a register's word that one company may have changed: an item
// of a feed, an event of a stream, or a poll that came due.
type signal struct {
	country, id string
	// eventID is the register's event id, the changes' SourceEventID (""
	// for a poll).
	eventID string
	// registeredAt is when the register published the event, if known.
	registeredAt *time.Time
	// removed says the register reported the company removed: a not_found
	// then is a deletion at once, not a first miss.
	removed bool
	// purge says the register removed the company from its open data
	// (Brønnøysund's Fjernet), so that copies must remove it too: the
	// changes stored of it are purged (see [changes.Batch.Purge]).
	purge bool
}

// refresher fetches a signalled company and compares it with its stored
// snapshot: the one step every ingester shares.
type refresher struct {
	store changes.Store
	fetch changes.Fetcher
	log   *slog.Logger
}

// errSkip marks a company whose fetch failed for a reason a retry will not
// cure (an identifier the register rejects, a defect): the signal is
// dropped with a warning and the ingester goes on. An internal_error is
// the exception the feeds make (see [skippedInternal]).
var errSkip = errors.New("ingest: company skipped")

// internalAttempts is how many fetches of a watched company that fail
// with internal_error, with no fetch that works between them, a feed's
// signal gets before it is dropped (a fetch that works whose Apply
// fails starts the count again: the fault passed): the
// code is also a passing fault (an upstream answer no rule recognises, a
// module's panic on a half-written document), and one failure would lose
// the change the signal announced, but a defect on one company's
// document fails every time and must not be tried for ever. Norway
// tries again at each sync (every minute by default), Companies House at
// each flush (every 5 seconds by default). See doc/decisions.md.
const internalAttempts = 5

// skippedInternal reports whether err is refresh's errSkip for an
// internal_error: final for this fetch, but the feeds try the signal
// again, up to [internalAttempts] fetches in all, without holding up the
// other companies.
func skippedInternal(err error) bool {
	var e *registry.Error
	return errors.Is(err, errSkip) && errors.As(err, &e) && e.Code == registry.CodeInternalError
}

// refresh fetches the company of s and returns the changes and the
// snapshot to apply (nil when there is nothing to store), and whether the
// register answered that it removed the company (410 Gone). A company seen
// for the first time gets its snapshot as a baseline and no change. A
// company the register does not know counts a miss; the second
// consecutive miss, or the first after a removal signal or a 410 (Gone),
// is one deleted change, and the snapshot's report is purged. A signal
// that the company was removed from the open data (s.purge) is taken as
// a 410 without a fetch. An error
// is transient (a spent budget, a register or store failure): the caller
// stops and retries the signal later; errSkip wraps a final one. expect
// is set to the snapshot read (its Snapshot nil when there was none),
// which the changes and the snapshot returned were diffed against.
func (r *refresher) refresh(ctx context.Context, s signal, now time.Time, expect *changes.ExpectedSnapshot) ([]changes.Change, *changes.Snapshot, bool, error) {
	old, err := r.store.Snapshot(ctx, s.country, s.id)
	hasOld := err == nil
	if err != nil && !errors.Is(err, changes.ErrNotFound) {
		return nil, nil, false, err
	}
	*expect = changes.ExpectedSnapshot{Country: s.country, CompanyID: s.id}
	if hasOld {
		read := old // a copy: what the diff below starts from, as read
		expect.Snapshot = &read
	}
	if s.purge {
		// The register says it removed the company from its open data:
		// that wins over a fetch, which may still answer from a copy not
		// yet updated. The company is gone, as after a 410.
		if !hasOld {
			return nil, nil, true, nil
		}
		cs, snap, err := r.missed(old, s, true, now)
		return cs, snap, true, err
	}
	fresh, err := r.fetch.Fetch(ctx, s.country, s.id)
	if err != nil {
		var e *registry.Error
		switch {
		case errors.As(err, &e) && e.Code == registry.CodeNotFound:
			if !hasOld {
				return nil, nil, e.Gone, nil
			}
			cs, snap, err := r.missed(old, s, e.Gone, now)
			return cs, snap, e.Gone, err
		case errors.As(err, &e) && final(e.Code):
			return nil, nil, false, errors.Join(errSkip, err)
		}
		return nil, nil, false, err
	}
	fresh.Country, fresh.CompanyID, fresh.Misses, fresh.RolesMisses = s.country, s.id, 0, 0
	if fresh.TakenAt.IsZero() {
		fresh.TakenAt = now
	}
	if !hasOld {
		return nil, &fresh, false, nil
	}
	// A whole group of roles gone from a company still there is, the
	// first time, a roles endpoint's one-off 404 until the next answer
	// says the same: the roles known are kept meanwhile.
	if changes.RolesVanished(old, fresh) {
		if old.RolesMisses == 0 {
			fresh.Roles, fresh.RolesMisses = old.Roles, 1
		} else {
			fresh.RolesMisses = 2 // confirmed: Diff reports it
		}
	}
	cs, err := changes.Diff(old, fresh, now)
	if fresh.RolesMisses >= 2 {
		fresh.RolesMisses = 0
	}
	if err != nil {
		// A stored snapshot that no longer decodes is replaced: the new
		// one is the baseline from now on.
		r.log.LogAttrs(ctx, slog.LevelWarn, "stored snapshot unreadable, taking a new baseline",
			slog.String("country", s.country), slog.String("error", err.Error()))
		return nil, &fresh, false, nil
	}
	return stamp(cs, s), &fresh, false, nil
}

// refreshInto is refresh, adding what it found to b. A company removed
// from the register's open data (the signal says so, or the register
// answered 410 Gone) is purged: b.Purge names it, so that the changes
// stored of it before are deleted, and its deletion carries no name.
//
// What it adds of the company is diffed against the snapshot refresh
// read, so b.Expect names that snapshot (or none, when there was none):
// the store writes the batch only while it is still the one stored, and
// otherwise the ingester drops the company from the batch and reads it
// again ([applyOwing]). A company the register removed from its open
// data (s.purge) expects nothing: the register's word removes it
// whatever was stored.
func (r *refresher) refreshInto(ctx context.Context, s signal, now time.Time, b *changes.Batch) error {
	var read changes.ExpectedSnapshot
	cs, snap, gone, err := r.refresh(ctx, s, now, &read)
	if s.purge || gone {
		purgeInto(b, s.country, s.id)
		for i := range cs {
			cs[i].CompanyName = nil
		}
	}
	b.Changes = append(b.Changes, cs...)
	if snap != nil {
		b.Snapshots = append(b.Snapshots, *snap)
	}
	if !s.purge && (len(cs) > 0 || snap != nil) {
		b.Expect = append(b.Expect, read)
	}
	return err
}

// dropCompanies removes from b the changes, snapshots, baselines and
// expected snapshots of refs, and reports whether it removed an expected
// snapshot (a company the batch named in Expect). The purges stay: a
// company the register removed expects nothing.
func dropCompanies(b *changes.Batch, refs []changes.CompanyRef) bool {
	set := make(map[changes.CompanyRef]bool, len(refs))
	for _, r := range refs {
		set[r] = true
	}
	in := func(country, id string) bool { return set[changes.CompanyRef{Country: country, CompanyID: id}] }
	n := len(b.Expect)
	b.Changes = slices.DeleteFunc(b.Changes, func(c changes.Change) bool { return in(c.Country, c.CompanyID) })
	b.Snapshots = slices.DeleteFunc(b.Snapshots, func(s changes.Snapshot) bool { return in(s.Country, s.CompanyID) })
	b.Baselines = slices.DeleteFunc(b.Baselines, func(s changes.Snapshot) bool { return in(s.Country, s.CompanyID) })
	b.Expect = slices.DeleteFunc(b.Expect, func(e changes.ExpectedSnapshot) bool { return in(e.Country, e.CompanyID) })
	return len(b.Expect) < n
}

// applyOwing stores b through [Apply]. When the store refuses it because
// the stored snapshots of some of its companies are no longer the ones
// their refresh diffed (a *[changes.SnapshotChangedError]: a watch's new
// baseline, say, stored meanwhile), nothing was written: it drops those
// companies from b, and owe records them as owed a new read in the
// ingester's own state and puts that state in b's cursors (so that the
// Apply that stores the rest, and the cursor that passes their signals,
// also stores that they are owed: a restart does not lose them); then it
// stores the rest, until the store takes it or fails otherwise. Each
// round drops at least one company, so it ends.
func applyOwing(ctx context.Context, store changes.Store, b changes.Batch, owe func(refs []changes.CompanyRef, b *changes.Batch) error) ([]changes.Change, error) {
	for {
		out, err := Apply(ctx, store, b)
		var sc *changes.SnapshotChangedError
		if !errors.As(err, &sc) {
			return out, err
		}
		if !dropCompanies(&b, sc.Companies) {
			return nil, err // none of the batch's: a store's defect, not looped on
		}
		if err := owe(sc.Companies, &b); err != nil {
			return nil, err
		}
	}
}

// purgeInto names the company in b.Purge and drops its changes already
// in b: a company removed from the register's open data keeps only the
// deletion that follows.
func purgeInto(b *changes.Batch, country, id string) {
	b.Purge = append(b.Purge, changes.CompanyRef{Country: country, CompanyID: id})
	b.Changes = slices.DeleteFunc(b.Changes, func(c changes.Change) bool { return c.Country == country && c.CompanyID == id })
}

// missed handles a company the register answered not_found for.
func (r *refresher) missed(old changes.Snapshot, s signal, gone bool, now time.Time) ([]changes.Change, *changes.Snapshot, error) {
	snap := old
	snap.Misses++
	snap.TakenAt = now
	if !gone && !s.removed && snap.Misses < 2 {
		return nil, &snap, nil
	}
	purged := snap
	purged.Report, purged.Roles = json.RawMessage("null"), nil
	cs, err := changes.Diff(old, purged, now)
	if err != nil {
		cs = nil
	}
	return stamp(cs, s), &purged, nil
}

// final reports whether a fetch that failed with code will fail again:
// the signal is dropped rather than retried for ever.
func final(code registry.Code) bool {
	switch code {
	case registry.CodeInvalidID, registry.CodeBadRequest, registry.CodeNotImplemented,
		registry.CodeUnsupportedCountry, registry.CodeInternalError:
		return true
	}
	return false
}

func stamp(cs []changes.Change, s signal) []changes.Change {
	for i := range cs {
		cs[i].SourceEventID = s.eventID
		cs[i].RegisteredAt = s.registeredAt
	}
	return cs
}

// errAttrs describes err for a log line: the registry code and upstream
// status of a registry error (whose message may name a company), the text
// of any other.
func errAttrs(err error) slog.Attr {
	var e *registry.Error
	if errors.As(err, &e) {
		attrs := []any{slog.String("code", string(e.Code))}
		if e.UpstreamStatus != 0 {
			attrs = append(attrs, slog.Int("upstream_status", e.UpstreamStatus))
		}
		return slog.Group("error", attrs...)
	}
	return slog.String("error", err.Error())
}
