package ingest

import (
	"context"
	"sync"
)

// refreshGuard serialises the refreshes of a company by ingesters that
// run at once and refresh the same companies: Companies House's stream
// and its sweeper ([WithSweeper]). A refresh diffs the company's stored
// snapshot, and its Apply stores the new one, so two refreshes of one
// company between the same snapshot read and Apply would both record
// the same change. An ingester holds a company from before it reads the
// snapshot until the Apply that stores what it found has returned (or
// failed); the other then sees that snapshot. The zero value is ready;
// a nil guard holds nothing (a stream without a sweeper).
type refreshGuard struct {
	mu   sync.Mutex
	held map[string]guardHold
	// waiting, when set (by tests), is called when hold starts waiting
	// for a company another holds.
	waiting func(id string)
}

// guardHold is a company's holder and what its release closes.
type guardHold struct {
	owner any
	done  chan struct{}
}

// tryHold holds id for owner and reports whether it could: false while
// another owner holds it. An owner holding it already holds it still.
func (g *refreshGuard) tryHold(owner any, id string) bool {
	if g == nil {
		return true
	}
	_, ok := g.take(owner, id)
	return ok
}

// hold holds id for owner, waiting while another owner holds it; it
// fails only when ctx ends first.
func (g *refreshGuard) hold(ctx context.Context, owner any, id string) error {
	if g == nil {
		return nil
	}
	for {
		done, ok := g.take(owner, id)
		if ok {
			return nil
		}
		if g.waiting != nil {
			g.waiting(id)
		}
		select {
		case <-done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// take holds id for owner if no other owner holds it; otherwise it
// returns what the other's release closes.
func (g *refreshGuard) take(owner any, id string) (<-chan struct{}, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if h, ok := g.held[id]; ok {
		return h.done, h.owner == owner
	}
	if g.held == nil {
		g.held = map[string]guardHold{}
	}
	g.held[id] = guardHold{owner: owner, done: make(chan struct{})}
	return nil, true
}

// release lets go of the companies of ids that owner holds.
func (g *refreshGuard) release(owner any, ids []string) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, id := range ids {
		if h, ok := g.held[id]; ok && h.owner == owner {
			close(h.done)
			delete(g.held, id)
		}
	}
}
