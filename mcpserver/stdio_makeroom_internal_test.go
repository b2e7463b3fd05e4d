package mcpserver

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSDKIDsMakeRoom checks what a full table of sdkIDs gives up for a new
// id (makeRoom): only ids counted for nothing but duplicates the SDK
// refused; a request in flight, an answer being written or an owed answer
// keeps its id, and with no such id to drop the new one is not counted
// (stdioIn then stops counting, as for more than maxSDKIDs calls in flight).
func TestSDKIDsMakeRoom(t *testing.T) {
	t.Parallel()
	type result struct {
		Counted   bool
		Kept      int
		Present   []string // of the ids "d1", "d2" (refused duplicates only) and "x"
		InFlight  int      // entries with a request not a duplicate
		OwedTotal int
	}
	// fill counts inFlight calls (ids 1..inFlight, owing their answers)
	// and refused ids d1..dN, each a call, its duplicate and the call's
	// answer, so that only the duplicate stays counted.
	fill := func(inFlight, refused int) *sdkIDs {
		c := newSDKIDs()
		for i := range inFlight {
			c.add(strconv.Itoa(i+1), true)
		}
		for i := range refused {
			key := "d" + strconv.Itoa(i+1)
			c.add(key, true)
			c.add(key, true)
			answer(c, key)
		}
		return c
	}
	state := func(c *sdkIDs, counted bool) result {
		c.mu.Lock()
		defer c.mu.Unlock()
		r := result{Counted: counted, Kept: len(c.n), OwedTotal: c.owed}
		for _, k := range []string{"d1", "d2", "x"} {
			if _, ok := c.n[slot(k)]; ok {
				r.Present = append(r.Present, k)
			}
		}
		for _, e := range c.n {
			if e.n > e.dups {
				r.InFlight++
			}
		}
		return r
	}
	t.Run("full of calls in flight", func(t *testing.T) {
		c := fill(maxSDKIDs, 0)
		got := state(c, c.add("new", true))
		want := result{Counted: false, Kept: maxSDKIDs, InFlight: maxSDKIDs, OwedTotal: maxSDKIDs}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("one refused duplicate makes room", func(t *testing.T) {
		c := fill(maxSDKIDs-1, 1)
		got := state(c, c.add("new", true))
		want := result{Counted: true, Kept: maxSDKIDs, InFlight: maxSDKIDs,
			OwedTotal: maxSDKIDs}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("a batch takes the room of two", func(t *testing.T) {
		c := fill(maxSDKIDs-2, 2)
		c.mu.Lock()
		ok := c.addBatchLocked([]string{"b1", "b2"}, true)
		c.mu.Unlock()
		got := state(c, ok)
		want := result{Counted: true, Kept: maxSDKIDs, InFlight: maxSDKIDs,
			OwedTotal: maxSDKIDs}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("a duplicate whose call is still in flight is kept", func(t *testing.T) {
		c := fill(maxSDKIDs-1, 0)
		c.add("x", true)
		c.add("x", true) // refused: x's call runs
		got := state(c, c.add("new", true))
		want := result{Counted: false, Kept: maxSDKIDs, Present: []string{"x"}, InFlight: maxSDKIDs,
			OwedTotal: maxSDKIDs}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("a dropped id reused owes its answer", func(t *testing.T) {
		c := fill(maxSDKIDs-1, 1)
		if !c.add("new", true) {
			t.Fatal("new not counted")
		}
		answer(c, "new") // room again
		if !c.add("d1", true) {
			t.Fatal("d1 reused not counted")
		}
		c.mu.Lock()
		e := c.n[slot("d1")]
		c.mu.Unlock()
		if diff := cmp.Diff(idCount{n: 1, owed: 1}, e, cmp.AllowUnexported(idCount{})); diff != "" {
			t.Errorf("d1 reused after its duplicate's entry was dropped (-want +got):\n%s", diff)
		}
	})
}
