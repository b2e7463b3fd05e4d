package mcpserver_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
)

// reviewDrainBound is ServeIO's bound at the end of the input as its doc
// states it (stdioDrainMax; 30 s when the review found this, now 65 s).
const reviewDrainBound = 65 * time.Second

// attemptsNO is fakeNO whose register fails the first attempt of each
// lookup and each roles fetch with a retryable error (as a register that
// does not answer in time does, upstream_timeout), and answers the second.
// It records the time each attempt was given (its context's deadline).
type attemptsNO struct {
	*fakeNO
	mu       sync.Mutex
	lookups  int
	roles    int
	attempts []time.Duration // time until each attempt's deadline, in order
}

func (f *attemptsNO) record(ctx context.Context) {
	d, ok := ctx.Deadline()
	if !ok {
		d = time.Now() // no deadline: counted as nothing
	}
	f.attempts = append(f.attempts, time.Until(d).Round(time.Second))
}

func (f *attemptsNO) Lookup(ctx context.Context, id string) (*registry.CompanyReport, error) {
	f.mu.Lock()
	f.record(ctx)
	f.lookups++
	first := f.lookups == 1
	f.mu.Unlock()
	if first {
		return nil, &registry.Error{Code: registry.CodeUpstreamTimeout, Retryable: true, Message: "Brønnøysund did not answer."}
	}
	return f.fakeNO.Lookup(ctx, id)
}

func (f *attemptsNO) Roles(ctx context.Context, rep *registry.CompanyReport) (*registry.RolesReport, error) {
	f.mu.Lock()
	f.record(ctx)
	f.roles++
	first := f.roles == 1
	f.mu.Unlock()
	if first {
		return nil, &registry.Error{Code: registry.CodeUpstreamTimeout, Retryable: true, Message: "Brønnøysund did not answer."}
	}
	return f.fakeNO.Roles(ctx, rep)
}

// TestReview_DrainBoundBelowRolesCall (rev-drain): stdioDrainMax (30 s)
// is documented (ServeIO's doc, stdioDrainMax's comment, doc/decisions.md
// "a Registry call with its default timeouts takes at most about 20 s (10 s
// an attempt, a 250 ms pause, one retry)") as longer than any call of this
// server with the Registry's defaults. company_roles on a company not in
// the cache is two fetches one after the other (registry.rolesJSON: the
// lookup, then the roles), each with its retry: four attempts of up to
// DefaultUpstreamTimeout each and two pauses, 40.5 s. A roles call read
// before the client closed stdin, against a register that answers each
// second attempt just before its timeout, is cancelled by the bound and
// its (successful) answer dropped: the defect the change fixes.
func TestReview_DrainBoundBelowRolesCall(t *testing.T) {
	t.Parallel()
	no := &attemptsNO{fakeNO: &fakeNO{}}
	// The Registry's defaults: upstream timeout, retry pause.
	reg, err := registry.New([]registry.Country{no}, registry.WithClock(func() time.Time { return fixedNow }))
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, reg)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "company_roles",
		Arguments: map[string]any{"country": "NO", "id": idEquinor}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("company_roles failed: %+v", res.Content)
	}
	no.mu.Lock()
	defer no.mu.Unlock()
	if len(no.attempts) != 4 {
		t.Fatalf("attempts of one company_roles call: %d (%v), want 4 (lookup and roles, each retried)", len(no.attempts), no.attempts)
	}
	var worst time.Duration
	for _, a := range no.attempts {
		if a != registry.DefaultUpstreamTimeout {
			t.Errorf("an attempt was given %v, want the default %v", a, registry.DefaultUpstreamTimeout)
		}
		worst += a
	}
	worst += 2 * registry.DefaultRetryPause // one pause before each retry
	// Added by the lead with the fix: each fetch may first wait for an
	// empty upstream budget, at most MaxBudgetWait.
	worst += 2 * registry.MaxBudgetWait
	if worst > reviewDrainBound {
		t.Errorf("one company_roles call may run %v with the Registry's default timeouts (attempts %v, 2 pauses of %v), "+
			"longer than ServeIO's bound at the end of the input, %v: its answer, owed, is cancelled and dropped",
			worst, no.attempts, registry.DefaultRetryPause, reviewDrainBound)
	}
}
