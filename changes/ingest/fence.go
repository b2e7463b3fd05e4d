package ingest

import (
	"context"
	"errors"
	"sync"

	"github.com/companyregistry/registry/changes"
)

// leadKey is the context key of the [leadFence] a Leader's lead context
// carries.
type leadKey struct{}

// leadFence is a Leader's hold of the lease for one lead: the fence its
// ingesters' batches carry, and what to do when the store refuses one.
type leadFence struct {
	fence changes.LeaseFence
	once  sync.Once
	lost  chan struct{} // closed at the first refusal
	stop  func()        // cancels the lead context
}

func newLeadFence(holder string, stop func()) *leadFence {
	return &leadFence{fence: changes.LeaseFence{Name: LeaseName, Holder: holder}, lost: make(chan struct{}), stop: stop}
}

// refused records that the store refused a batch of this lead: the lead
// context ends at once (so that no ingester writes or logs more under
// it) and lost is closed for the Leader.
func (l *leadFence) refused() {
	l.once.Do(func() {
		l.stop()
		close(l.lost)
	})
}

// withFence returns ctx carrying l: the ingesters' Applies under it are
// fenced by l's lease.
func withFence(ctx context.Context, l *leadFence) context.Context {
	return context.WithValue(ctx, leadKey{}, l)
}

// Apply stores b through store.Apply, fenced by the lease of the Leader
// whose lead ctx carries (b.Lease set from it): the store writes it only
// while that Leader holds the lease, and otherwise returns
// [changes.ErrLeaseLost] and writes nothing. Every ingester stores
// through it, the package's own and any of yours a Leader runs; under no
// Leader (an ingester's Sync called by you) b is stored with the fence it
// came with, usually none.
// A batch whose [changes.Batch.Expect] the store refuses (a
// *[changes.SnapshotChangedError]: nothing was written) is the caller's
// to store again without the companies named, which it reads again.
// When the store refuses b's fence, the lead ends at once, before Apply returns,
// so the ingester's own error handling sees its context ended and stops
// without a warning of its own (the Leader logs one).
func Apply(ctx context.Context, store changes.Store, b changes.Batch) ([]changes.Change, error) {
	l, _ := ctx.Value(leadKey{}).(*leadFence)
	if l != nil {
		f := l.fence
		b.Lease = &f
	}
	out, err := store.Apply(ctx, b)
	if l != nil && errors.Is(err, changes.ErrLeaseLost) {
		l.refused()
	}
	return out, err
}
