package restserver

import (
	"net/netip"
	"testing"
	"time"
)

// TestLimiterAllowN: a call of n needs min(n, bucket) tokens and takes n.
func TestLimiterAllowN(t *testing.T) {
	t.Parallel()
	c := newClock()
	l := newLimiter(10, 100_000, c.Now)
	if ok, _ := l.allowN(ip1, 4); !ok {
		t.Fatal("4 of 10 refused")
	}
	if ok, retry := l.allowN(ip1, 7); ok || retry != 6 {
		t.Fatalf("7 of 6: ok %v retry %d, want refused, 6 s", ok, retry)
	}
	if ok, _ := l.allowN(ip1, 6); !ok {
		t.Fatal("6 of 6 refused")
	}
	c.Advance(time.Minute)
	if ok, _ := l.allowN(ip1, 500); !ok {
		t.Fatal("a batch larger than a full bucket refused")
	}
	// 10 - 500 = -490: 50 minutes to one token.
	if ok, retry := l.allow(ip1); ok || retry != 49*60+6 {
		t.Fatalf("after the large batch: ok %v retry %d, want refused, %d s", ok, retry, 49*60+6)
	}
}

// TestLimiterKeepsDebts: a bucket in debt survives the rotations that
// forget idle buckets, so waiting two minutes does not wipe a large batch's
// cost.
func TestLimiterKeepsDebts(t *testing.T) {
	t.Parallel()
	c := newClock()
	l := newLimiter(10, 100_000, c.Now)
	others := make([]netip.Addr, 2000) // enough to touch every shard
	for i := range others {
		others[i] = netip.AddrFrom4([4]byte{198, 51, byte(i >> 8), byte(i)})
	}
	touch := func() {
		for _, a := range others {
			l.allow(a)
		}
	}
	if ok, _ := l.allowN(ip1, 50); !ok { // 10 - 50 = -40
		t.Fatal("refused")
	}
	for range 3 { // three timed rotations of every shard
		c.Advance(61 * time.Second)
		touch()
	}
	// -40 + 3*61/6 = -9.5: 63 s to one token.
	if ok, retry := l.allow(ip1); ok || retry != 63 {
		t.Fatalf("ok %v retry %d, want refused, 63 s", ok, retry)
	}
}
