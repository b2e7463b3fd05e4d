package gcra_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/gcra"
)

// TestDecide: 10 per minute in bursts of 10 (one every 6 s), from a new
// key: the steps of a token bucket of 10, a cost above the burst needing a
// full burst and leaving a debt.
func TestDecide(t *testing.T) {
	t.Parallel()
	p := gcra.NewParams(10, time.Minute, 10)
	if p != (gcra.Params{Interval: int64(6 * time.Second), Tolerance: int64(time.Minute), Burst: 10}) {
		t.Fatalf("params %+v", p)
	}
	type step struct {
		at   time.Duration // since the start
		cost int
		ok   bool
		wait time.Duration
	}
	steps := []step{
		{0, 4, true, 0},
		{0, 7, false, 6 * time.Second}, // 6 left, one short
		{0, 6, true, 0},
		{time.Minute, 25, true, 0},                    // full again; 25 leaves 15 owed
		{2 * time.Minute, 1, false, 36 * time.Second}, // 10 - 25 + 10 = -5: six short
		{2*time.Minute + 36*time.Second, 1, true, 0},
	}
	var tat int64
	var got, want []step
	for _, s := range steps {
		ok, next, wait := p.Decide(tat, int64(s.at), s.cost)
		if ok {
			tat = next
		} else if next != max(tat, int64(s.at)) {
			t.Errorf("a refusal moved tat from %d to %d", tat, next)
		}
		got = append(got, step{s.at, s.cost, ok, time.Duration(wait)})
		want = append(want, s)
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(step{})); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
}
