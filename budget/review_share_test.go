package budget_test

import (
	"testing"

	"github.com/companyregistry/registry/budget"
)

// TestReview_ReplicaSharesKeepToTheBudget: README ("Running several
// replicas") says REGISTRY_REPLICAS=N "gives each replica 1/N of the
// budget's burst and rate, so that together they still keep to it", and
// the example server's help that each replica "keeps to this share".
// Rate.Share rounds each part down but to at least 1, so for France's
// default budget (at most 6 calls in any second, under the API's published
// 7 a second per address) the shares of 4 replicas allow 8 calls in a
// second and those of 6 replicas 12: during a Redis outage, or without
// Redis, such a deployment exceeds the register's published limit.
// (Rate.Share's own doc says so; README and the help do not.)
func TestReview_ReplicaSharesKeepToTheBudget(t *testing.T) {
	t.Parallel()
	fr := budget.RechercheEntreprises()
	for _, n := range []int{4, 6} {
		s := fr.Share(n)
		if together, whole := n*(s.Burst+s.Limit), fr.Burst+fr.Limit; together > whole {
			t.Errorf("FR with %d replicas: their shares allow %d calls in a second, the budget %d", n, together, whole)
		}
	}
}
