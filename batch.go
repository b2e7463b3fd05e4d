package registry

import (
	"context"
	"errors"
	"sync"
	"time"
)

// DefaultBatchConcurrency is how many identifiers of a batch
// ([Registry.LookupBatch], [Registry.DeadlinesBatch]) are worked on at once
// unless [WithBatchConcurrency] says otherwise.
const DefaultBatchConcurrency = 8

// LookupItem is the answer for one identifier of [Registry.LookupBatch]:
// the report, or the error the same [Registry.Lookup] would give.
type LookupItem struct {
	// ID is the identifier as the caller gave it.
	ID string
	// Report is the report; nil when Err is set.
	Report *CompanyReport
	// Err is an [*Error]; nil on success.
	Err error
}

// DeadlinesItem is the answer for one identifier of
// [Registry.DeadlinesBatch]: the deadline report, or the error the same
// [Registry.Deadlines] would give.
type DeadlinesItem struct {
	// ID is the identifier as the caller gave it.
	ID string
	// Report is the deadline report; nil when Err is set.
	Report *DeadlineReport
	// Err is an [*Error]; nil on success.
	Err error
}

// LookupBatch looks up many identifiers of one country and returns one
// item per identifier, in the order given: a report or that identifier's
// own error (invalid_id, not_found, ...), so that one bad identifier never
// fails the batch. At most the batch concurrency (default
// [DefaultBatchConcurrency]) identifiers are worked on at once; each goes
// through the cache and the collapsing of identical fetches, so a warm batch
// asks no register and a repeated identifier is fetched once.
//
// An identifier waits for a register's upstream budget as a single lookup
// does ([WithBudgetWait]). When the allowance stays used up beyond that
// (rate_limited with a retry_after), the batch waits that long and tries
// the identifier again as long as ctx leaves room for it; otherwise the
// item keeps its rate_limited error. When
// ctx ends, the batch returns promptly: identifiers not yet answered carry
// the caller's cancellation or deadline error.
//
// The returned error is for the whole batch: unsupported_country.
func (r *Registry) LookupBatch(ctx context.Context, country string, ids []string) ([]LookupItem, error) {
	e, err := r.country(country)
	if err != nil {
		return nil, err
	}
	out := make([]LookupItem, len(ids))
	r.batch(ctx, e, len(ids), func(ctx context.Context, i int) error {
		out[i].ID = ids[i]
		b, err := r.lookupJSON(ctx, e, ids[i])
		if err == nil {
			out[i].Report, err = decodeAnswer[CompanyReport](r, e, b)
		}
		out[i].Err = err
		return err
	}, func(i int, err error) { out[i] = LookupItem{ID: ids[i], Err: err} })
	return out, nil
}

// DeadlinesBatch computes the deadlines of many identifiers of one country
// from one today and returns one item per identifier, in the order given:
// a deadline report or that identifier's own error. It looks the entities
// up the way [Registry.LookupBatch] does, with the same concurrency bound,
// waiting and cancellation.
//
// The returned error is for the whole batch: unsupported_country, or
// bad_request for a today that is not a real date.
func (r *Registry) DeadlinesBatch(ctx context.Context, country string, ids []string, today Date) ([]DeadlinesItem, error) {
	e, err := r.country(country)
	if err != nil {
		return nil, err
	}
	if !today.valid() {
		return nil, r.badRequest(e, "today must be a real calendar date.", todayHint)
	}
	out := make([]DeadlinesItem, len(ids))
	r.batch(ctx, e, len(ids), func(ctx context.Context, i int) error {
		out[i].ID = ids[i]
		b, err := r.lookupJSON(ctx, e, ids[i])
		var rep *CompanyReport
		if err == nil {
			rep, err = decodeAnswer[CompanyReport](r, e, b)
		}
		if err == nil {
			out[i].Report, err = r.computeDeadlines(e, rep, today)
		}
		out[i].Err = err
		return err
	}, func(i int, err error) { out[i] = DeadlinesItem{ID: ids[i], Err: err} })
	return out, nil
}

// maxBatchBackoff is the longest retry_after a batch waits for; a longer
// one (possible only from a third-party module) ends the item with its
// rate_limited error.
const maxBatchBackoff = time.Hour

// batch runs do for the items 0..n-1 with at most r.batchConcurrency at
// once. An item whose do fails with rate_limited is tried again after its
// retry_after when ctx leaves room for that; every worker then waits, so
// that the batch as a whole slows to the register's pace. When ctx ends, the
// items not started are given the caller's error by fail, without being
// tried.
func (r *Registry) batch(ctx context.Context, e entry, n int, do func(ctx context.Context, i int) error, fail func(i int, err error)) {
	var (
		mu         sync.Mutex
		next       int
		pauseUntil time.Time
	)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if next >= n {
			return 0, false
		}
		next++
		return next - 1, true
	}
	// wait blocks until a shared pause has passed; false when ctx ended.
	// The pause is kept on the Registry's pacing clock (see WithWaiter).
	wait := func() bool {
		for {
			mu.Lock()
			d := pauseUntil.Sub(r.wait.now())
			mu.Unlock()
			if d <= 0 {
				return ctx.Err() == nil
			}
			if r.wait.sleep(ctx, d) != nil {
				return false
			}
		}
	}
	var wg sync.WaitGroup
	for range min(n, r.batchConcurrency) {
		wg.Go(func() {
			for {
				i, ok := take()
				if !ok {
					return
				}
				for {
					if !wait() {
						fail(i, r.callerGaveUp(ctx, e.info))
						break
					}
					err := do(ctx, i)
					after, limited := retryAfter(err)
					if !limited || !roomFor(ctx, after) {
						break
					}
					mu.Lock()
					if until := r.wait.now().Add(after); until.After(pauseUntil) {
						pauseUntil = until
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
}

// retryAfter returns the back-off of a rate_limited error.
func retryAfter(err error) (time.Duration, bool) {
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeRateLimited || e.RetryAfter() > int(maxBatchBackoff/time.Second) {
		return 0, false
	}
	return time.Duration(max(e.RetryAfter(), 1)) * time.Second, true
}

// roomFor reports whether ctx is still live and its deadline, if any, is
// more than d away.
func roomFor(ctx context.Context, d time.Duration) bool {
	if ctx.Err() != nil {
		return false
	}
	dl, ok := ctx.Deadline()
	return !ok || time.Until(dl) > d
}
