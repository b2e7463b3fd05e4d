package registry

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"time"
)

// UpstreamBudget is an allowance of calls to one register, which a
// [Registry] draws on before every upstream attempt, the retry included
// (see [WithUpstreamBudget]). Several Registries, in one process or in
// several replicas, that hold one budget together never call the register
// more often than it allows: the budget package has in-process and Redis
// implementations, with rates for Companies House, Brønnøysund and PRH.
//
// Take takes one call from the budget. When the budget is empty, ok is
// false and retryAfter says when a call will be available (more than
// zero). An error means the budget could not decide: the Registry logs it
// and lets the call through, so a failing budget store never stops the
// service (the register's own 429 is still answered as rate_limited).
// Implementations must be safe for concurrent use.
type UpstreamBudget interface {
	Take(ctx context.Context) (ok bool, retryAfter time.Duration, err error)
}

// UpstreamReserver is an [UpstreamBudget] that can also promise a call
// ahead of time; the budget package's budgets are. A Registry reserves
// from it instead of asking Take again after each wait, so that callers
// waiting for the register are served in the order they came (a newcomer
// does not take the call a waiter was told about) and a caller whose call
// cannot come within its wait bound is refused at once.
//
// Reserve takes one call that the budget allows within within: ok, and how
// long the caller must wait before it calls (0: at once); the call is then
// the caller's. release (nil when wait is 0) gives the call back, for a
// caller that gave up while it waited (a budget may keep it when later
// calls were reserved after it). When no call is allowed within
// within, nothing is taken: ok is false and wait says when a call will be
// allowed. A wait that is within within with ok false means the budget
// could not reserve: the Registry waits and asks again. An error is
// handled as Take's.
type UpstreamReserver interface {
	UpstreamBudget
	Reserve(ctx context.Context, within time.Duration) (ok bool, wait time.Duration, release func(context.Context), err error)
}

// WithUpstreamBudget makes every upstream attempt for country (a
// two-letter code of one of the Registry's modules) take a call from b
// first. When b is empty the caller waits for it when the call is allowed
// within the wait bound ([WithBudgetWait]) and before the caller's own
// deadline; otherwise the register is not called and the caller gets
// rate_limited with details.retry_after from the budget. A retry refused
// by the budget is not made, and the first attempt's failure is returned.
// Cache hits and calls collapsed into one fetch cost nothing. The last
// budget given for a country wins.
func WithUpstreamBudget(country string, b UpstreamBudget) Option {
	return func(o *options) error {
		cc, ok := normalizeCountry(country)
		if !ok {
			return fmt.Errorf("registry: WithUpstreamBudget: %q is not a two-letter country code", country)
		}
		if b == nil {
			return fmt.Errorf("registry: WithUpstreamBudget: nil budget for %s", cc)
		}
		if o.budgets == nil {
			o.budgets = make(map[string]UpstreamBudget)
		}
		o.budgets[cc] = b
		return nil
	}
}

// takeBudget takes one call from b before an upstream attempt of the
// fetch f, waiting for it while the wait fits what is left of the
// Registry's bound (*waited is what the fetch has waited so far, over its
// attempts, and grows by this wait) and the deadline of f's first caller.
// The wait ends when f is abandoned: a call reserved and not made is given
// back. It returns the rate_limited error when the budget stays empty, the
// canceled error when f was abandoned, and nil otherwise (also when b is
// nil or fails, which is logged).
func (r *Registry) takeBudget(f *flight, info CountryInfo, b UpstreamBudget, waited *time.Duration) *Error {
	if b == nil {
		return nil
	}
	ctx := f.ctx
	rb, reserves := b.(UpstreamReserver)
	if !reserves {
		rb = takeOnly{b}
	}
	for {
		room := r.budgetRoom(f.deadline, *waited)
		ok, wait, release, err := rb.Reserve(ctx, room)
		if err != nil {
			r.log.LogAttrs(ctx, slog.LevelWarn, "upstream budget failed, calling the register anyway",
				slog.String("country", info.Country), slog.String("error", err.Error()))
			return nil
		}
		if ok && wait <= 0 {
			return nil
		}
		wait = max(wait, time.Millisecond)
		if !ok && wait > room {
			return r.budgetRefusal(ctx, info, wait)
		}
		if r.budgetPause(f, wait) != nil {
			if release != nil {
				release(context.WithoutCancel(ctx))
			}
			return r.waitEnded(ctx, info)
		}
		*waited += wait
		if ok {
			return nil
		}
	}
}

// takeOnly is a budget that cannot reserve, seen as one that can: its
// Reserve is a Take, which never reserves ahead (a refusal is waited out
// and asked again).
type takeOnly struct{ UpstreamBudget }

func (t takeOnly) Reserve(ctx context.Context, _ time.Duration) (bool, time.Duration, func(context.Context), error) {
	ok, wait, err := t.Take(ctx)
	return ok, wait, nil, err
}

// waitEnded is the error of a budget wait that ctx ended.
func (r *Registry) waitEnded(ctx context.Context, info CountryInfo) *Error {
	return r.decorate(info, &Error{Code: CodeCanceled, Err: context.Cause(ctx),
		Message: "The request was cancelled by its caller before the register answered."})
}

// budgetRefusal is the rate_limited error of an empty budget that allows a
// call after wait.
func (r *Registry) budgetRefusal(ctx context.Context, info CountryInfo, wait time.Duration) *Error {
	secs := max(1, int(math.Ceil(wait.Seconds())))
	r.log.LogAttrs(ctx, slog.LevelDebug, "upstream budget empty",
		slog.String("country", info.Country), slog.Int("retry_after", secs))
	return r.decorate(info, &Error{
		Code:    CodeRateLimited,
		Message: fmt.Sprintf("This service has used up its allowance of calls to the %s register for now; the register was not called.", info.Country),
		Hint:    fmt.Sprintf("Back off for details.retry_after (%d) seconds, then retry.", secs),
		Details: map[string]any{"retry_after": secs},
	})
}
