package budget_test

import (
	"testing"
	"time"

	"github.com/companyregistry/registry/budget"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/internal/leakcheck"
	"github.com/companyregistry/registry/internal/redistest"
	"github.com/companyregistry/registry/ratelimit"
)

func TestMain(m *testing.M) { leakcheck.Main(m) }

// TestRedisBudgetShared: two budgets of one name on one Redis share the
// allowance; another name has its own.
func TestRedisBudgetShared(t *testing.T) {
	t.Parallel()
	mr, rdb := redistest.Mini(t)
	rate := ratelimit.Rate{Limit: 1, Period: time.Hour, Burst: 3}
	mk := func(name string) *budget.Budget {
		b, err := budget.Redis(rdb, name, rate, ratelimit.WithTimeout(5*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b, other := mk("GB/key1"), mk("GB/key1"), mk("GB/key2")
	taken := 0
	for range 4 {
		for _, x := range []*budget.Budget{a, b} {
			if ok, _, err := x.Take(t.Context()); err != nil {
				t.Fatal(err)
			} else if ok {
				taken++
			}
		}
	}
	if taken != 3 {
		t.Errorf("%d calls taken, want 3", taken)
	}
	if ok, _, _ := other.Take(t.Context()); !ok {
		t.Error("another name shares the allowance")
	}
	if !mr.Exists(budget.KeyPrefix + "GB/key1") {
		t.Errorf("keys %v, want %s", mr.Keys(), budget.KeyPrefix+"GB/key1")
	}
}

func TestNewValidation(t *testing.T) {
	t.Parallel()
	if _, err := budget.New(nil, "x"); err == nil {
		t.Error("New(nil) succeeded")
	}
	l, _ := ratelimit.NewLocal(ratelimit.PerMinute(1))
	if _, err := budget.New(l, ""); err == nil {
		t.Error("New with an empty name succeeded")
	}
	if _, err := budget.Local(ratelimit.Rate{}); err == nil {
		t.Error("Local with a zero rate succeeded")
	}
	for _, r := range []ratelimit.Rate{budget.CompaniesHouse(), budget.Brreg(), budget.PRH(), budget.RechercheEntreprises(), budget.CVR(),
		budget.Bolagsverket()} {
		if _, err := budget.Local(r); err != nil {
			t.Errorf("Local(%+v): %v", r, err)
		}
	}
}

// TestRedisDownReplicaShare: with Redis unreachable, each of three
// replicas built with ratelimit.WithReplicas(3) keeps to a third of
// Companies House's allowance, so that together they keep to it (issue
// 24, item 5: each took the whole allowance, three times 60 calls at once
// where the key allows 60); without the option a replica keeps the whole.
func TestRedisDownReplicaShare(t *testing.T) {
	t.Parallel()
	clock := fakeclock.New(time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC))
	_, proxy, rdb := redistest.MiniBehindProxy(t)
	proxy.Down()
	burst := func(opts ...ratelimit.Option) int {
		opts = append([]ratelimit.Option{ratelimit.WithTimeout(5 * time.Second), ratelimit.WithClock(clock.Now)}, opts...)
		b, err := budget.Redis(rdb, "GB/key", budget.CompaniesHouse(), opts...)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for range 100 {
			if ok, _, err := b.Take(t.Context()); err != nil {
				t.Fatal(err)
			} else if ok {
				n++
			}
		}
		return n
	}
	total := 0
	for range 3 {
		total += burst(ratelimit.WithReplicas(3))
	}
	if total != 60 {
		t.Errorf("three replicas took %d calls at once, want 60 (Companies House's burst of 60, 20 each)", total)
	}
	if n := burst(); n != 60 {
		t.Errorf("a replica without WithReplicas took %d, want the whole burst of 60", n)
	}
}

// TestRechercheEntreprisesUnderSeven: the API Recherche d'entreprises
// accepts at most 7 requests a second per address (its OpenAPI document,
// "Limite des requêtes"). Taking every call the default budget allows for
// a minute, by a fake clock, never puts 7 calls into any one second, and
// still allows at least 5 a second.
func TestRechercheEntreprisesUnderSeven(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	l, err := ratelimit.NewLocal(budget.RechercheEntreprises(), ratelimit.WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	var times []time.Time
	end := now.Add(time.Minute)
	for now.Before(end) {
		ok, retry, err := l.Allow(t.Context(), "FR", 1)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			times = append(times, now)
			continue
		}
		now = now.Add(retry)
	}
	for i := range times {
		j := i
		for j < len(times) && times[j].Sub(times[i]) < time.Second {
			j++
		}
		if j-i >= 7 {
			t.Fatalf("%d calls in the second from %v", j-i, times[i])
		}
	}
	if len(times) < 5*60 {
		t.Errorf("only %d calls in a minute, want at least 300", len(times))
	}
}

// TestBolagsverketTwoRequestsALookup: Bolagsverket allows 60 requests a
// minute per user (the API's page, as the research quotes it) and a lookup
// makes two, so a caller taking lookups as fast as it can for ten minutes
// never gets more than 29 in any minute (58 requests and one left for the
// token), and gets close to that on average.
func TestBolagsverketTwoRequestsALookup(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	clock := fakeclock.New(start)
	l, err := ratelimit.NewLocal(budget.Bolagsverket(), ratelimit.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	b, err := budget.New(l, "SE")
	if err != nil {
		t.Fatal(err)
	}
	var taken []time.Time
	for clock.Now().Before(start.Add(10 * time.Minute)) {
		ok, _, err := b.Take(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			taken = append(taken, clock.Now())
			continue
		}
		clock.Advance(100 * time.Millisecond)
	}
	for i, at := range taken {
		n := 0
		for _, other := range taken[:i+1] {
			if at.Sub(other) < time.Minute {
				n++
			}
		}
		if n > 29 {
			t.Fatalf("%d lookups in the minute before %v: more than 58 requests", n, at)
		}
	}
	if len(taken) < 10*26 {
		t.Errorf("%d lookups in ten minutes, want about 27 a minute", len(taken))
	}
}
