package budget_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/budget"
	"github.com/companyregistry/registry/ratelimit"
)

// TestReplicaSharesOfSmallBudgets: what README ("Running several
// replicas") says REGISTRY_REPLICAS=N does while Redis is unreachable.
// Each replica keeps to ratelimit.Rate.Share(N): the burst and the limit
// divided by N, rounded down, but at least one call of each per window. So
// N replicas keep to a budget only while N divides it (Companies House's
// 600 per 5 minutes, a burst of 60, up to 60 replicas); beyond, the shares
// add up to more: France's default budget (at most 6 calls in any second,
// a burst of 1) is kept by 2 or 3 replicas, but 4 may make 8 calls in a
// second and 6 may make 12, more than the API's published 7 a second per
// address. (README used to say the shares always keep to the budget.)
func TestReplicaSharesOfSmallBudgets(t *testing.T) {
	t.Parallel()
	together := func(r ratelimit.Rate, n int) int {
		s := r.Share(n)
		return n * (s.Burst + s.Limit)
	}
	type row struct {
		Budget   string
		Replicas int
		Together int // calls the N shares allow in one window
		Whole    int // calls the budget allows in one window
	}
	var got []row
	for _, tc := range []struct {
		name     string
		r        ratelimit.Rate
		replicas []int
	}{
		{"GB", budget.CompaniesHouse(), []int{2, 3, 60, 61}},
		{"FR", budget.RechercheEntreprises(), []int{2, 3, 4, 6}},
	} {
		for _, n := range tc.replicas {
			got = append(got, row{tc.name, n, together(tc.r, n), tc.r.Burst + tc.r.Limit})
		}
	}
	want := []row{
		{"GB", 2, 600, 600}, {"GB", 3, 600, 600}, {"GB", 60, 600, 600}, {"GB", 61, 549, 600},
		{"FR", 2, 6, 6}, {"FR", 3, 6, 6}, {"FR", 4, 8, 6}, {"FR", 6, 12, 6},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls per window of N replicas' shares (-want +got):\n%s", diff)
	}
}
