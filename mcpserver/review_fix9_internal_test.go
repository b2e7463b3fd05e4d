package mcpserver

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_RefusedDuplicatesEndCountingWithNothingInFlight (rev-fix9):
// since fix-parts9 a duplicate the SDK refused stays counted for the rest
// of the session (idCount.dups; decisions.md: "a duplicate's count never
// goes"), so its id keeps a slot of sdkIDs' table even once the request
// it duplicated is answered and nothing with that id is in flight. A
// client that, over one session, sends 4,096 requests each with a
// duplicate while it runs (a client retrying a call it thinks lost)
// fills the table: the next new id is not counted (addLocked: len(c.n)
// >= maxSDKIDs), stdioIn stops counting, and no later request of the
// session is waited for at the end of the input. ServeIO's doc names
// "more than 4,096 calls in flight" as what ends the counting; here none
// is in flight and none is owed. Same before fix-parts9 (the duplicate's
// n stayed); the fix made the count stay on purpose and documented the
// fast path's cost of it, not this one. Fix (suggested): say it in
// ServeIO's doc ("or 4,096 ids reused by duplicates it refused"), or let
// addLocked drop entries counted only for duplicates (n == dups, nothing
// being written) when the table is full.
func TestReview_RefusedDuplicatesEndCountingWithNothingInFlight(t *testing.T) {
	t.Parallel()
	c := newSDKIDs()
	for i := range maxSDKIDs {
		key := strconv.Itoa(i + 1)
		c.add(key, true) // a call the SDK runs
		c.add(key, true) // its duplicate, sent while it runs: refused
		answer(c, key)   // the call answered
	}
	c.mu.Lock()
	owed, kept := c.owed, len(c.n)
	var notDup int
	for _, e := range c.n {
		notDup += e.n - e.dups
	}
	c.mu.Unlock()
	s := &stdioIn{ids: c}
	counted := s.count(lineMsg{key: strconv.Itoa(maxSDKIDs + 1), method: []byte(`"tools/call"`)})
	type state struct {
		Owed        int
		InFlight    int // requests counted other than refused duplicates
		Kept        int // ids kept in the table
		NextCounted bool
	}
	want := state{Owed: 0, InFlight: 0, Kept: maxSDKIDs, NextCounted: true}
	if diff := cmp.Diff(want, state{owed, notDup, kept, counted}); diff != "" {
		t.Errorf("after %d calls each answered, with a duplicate refused while it ran, a new call (-want +got):\n%s",
			maxSDKIDs, diff)
	}
}
