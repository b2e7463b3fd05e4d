package registry

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/internal/cacheonly"
)

// fetch runs call at most once for all concurrent callers of key, under a
// context that no caller can cancel, with a per-attempt timeout and one retry
// of a retryable failure, and caches the answer under key with tag. Each
// caller waits under its own ctx and gets the answer's JSON (cached false,
// or the stored answer when a fetch of key ended just before this one
// started), which is shared and must not be modified.
func fetch[T answerDoc](ctx context.Context, r *Registry, e entry, key string, tag byte, call func(context.Context) (T, error)) ([]byte, error) {
	if cacheonly.Is(ctx) {
		// The MCP stdio server's cache-only attempt: never the register.
		return nil, cacheonly.Miss{}
	}
	// A refresh (see Registry.Refresh) must read the register after it
	// was asked: it joins only other refreshes and takes no second look.
	refresh := isRefresh(ctx)
	group := key
	if refresh {
		group = refreshGroup + key
	}
	for {
		if ctx.Err() != nil {
			// A caller that has already given up starts no upstream work.
			return nil, r.callerGaveUp(ctx, e.info)
		}
		f, created := r.flights.join(group, ctx)
		if created {
			go func() {
				b, pack, err := fetchRun(r, f, e, key, tag, refresh, call)
				if pack != nil {
					// Queued before the callers have the answer, and
					// compressed packDelay later, once it has left the
					// process (so a caller that has it finds the key
					// queued: Internal.PendingPacks).
					r.packs.add(pack, key)
				}
				r.flights.end(group, f, b, err)
			}()
		}
		if !awaitFetch(ctx, f.done) {
			// Leave before answering: when this was the last caller, the
			// fetch's wait for the budget has ended when the caller hears.
			r.flights.leave(f)
			return nil, r.callerGaveUp(ctx, e.info)
		}
		r.flights.leave(f)
		if f.abandoned {
			// The fetch ended for want of callers before this caller
			// joined it (it only waited for the end): fetch again.
			continue
		}
		if !created && r.observer != nil {
			r.observer.FetchCollapsed(e.info.Country)
		}
		return f.val, f.err
	}
}

// awaitFetch is where the callers of a shared fetch wait for it (done),
// false when ctx ends first. Tests that wait until callers have joined a
// fetch read the Registry's own count (adapter.FetchCallers), not stacks.
func awaitFetch(ctx context.Context, done <-chan struct{}) bool {
	select {
	case <-ctx.Done():
		return false
	case <-done:
		return true
	}
}

// fetchRun is the work of the fetch f of key: the stored answer of a fetch
// that ended just before it started, or the register's, stored. When pack
// is not nil, the answer is stored plain and pack.Pack(key) compresses it;
// the fetch calls it after answering its callers (see storeAnswer).
func fetchRun[T answerDoc](r *Registry, f *flight, e entry, key string, tag byte, refresh bool, call func(context.Context) (T, error)) (b []byte, pack *cache.Memory, err error) {
	bg := context.WithoutCancel(f.ctx)
	// A fetch of key that ended between this caller's cache miss and
	// this call has stored its answer: send that answer (it says cached
	// true) rather than ask the register again.
	if b, hit, err := r.cachedAnswer(bg, key, tag); hit && !refresh {
		return b, nil, err
	}
	v, err := r.attempts(bg, f, e.info, e.budget, func(ctx context.Context) (any, error) { return call(ctx) })
	if err != nil {
		r.remember(bg, key, err)
		return nil, nil, err
	}
	live, stored, err := encodeAnswer(v.(T), tag)
	if err != nil {
		return nil, nil, r.decorate(e.info, &Error{Code: CodeInternalError, Message: "The answer could not be encoded.", Err: err})
	}
	return live, r.storeAnswer(bg, key, stored, r.ttl), nil
}

// The top-level "cached" member of an answer's encoding and the member
// that follows it (see encodeAnswer).
const (
	cachedFalse = `,"cached":false,"fetched_at":`
	cachedTrue  = `,"cached":true,"fetched_at":`
)

// encodeAnswer returns the two encodings of doc: live, with cached false,
// for the callers of the fetch, and stored, the cache entry: tag, then the
// encoding with cached true, so that a hit is sent as stored. Both are the
// bytes json.Marshal gives (see TestEncodeAnswerIsJSONMarshal).
//
// doc is encoded once, by its MarshalJSON: json.Marshal would call the
// same method and then check and compact its output again, which took as
// long as the encoding itself. stored is live with its top-level cached
// member turned true: in every answer type it is followed by fetched_at,
// and after it come only strings, null and lists of strings, where the
// bytes `,"cached":false,"fetched_at":` cannot occur (a quote inside a
// string is escaped), so that their last occurrence is the top-level
// member. An encoding without it (a type that does not fit that shape) is
// encoded a second time instead.
func encodeAnswer[T answerDoc](doc T, tag byte) (live, stored []byte, err error) {
	doc.setCached(false)
	live, err = doc.MarshalJSON()
	if err != nil {
		return nil, nil, err
	}
	i := bytes.LastIndex(live, []byte(cachedFalse))
	if i < 0 {
		doc.setCached(true)
		b, err := doc.MarshalJSON()
		doc.setCached(false)
		if err != nil {
			return nil, nil, err
		}
		return live, append([]byte{tag}, b...), nil
	}
	stored = make([]byte, 0, 1+len(live)-len(cachedFalse)+len(cachedTrue))
	stored = append(stored, tag)
	stored = append(stored, live[:i]...)
	stored = append(stored, cachedTrue...)
	stored = append(stored, live[i+len(cachedFalse):]...)
	return live, stored, nil
}

// flights holds the fetch in flight of each group (a cache key, or a
// refresh's), so that concurrent callers of one key share one fetch, and
// counts its callers, so that the fetch's wait for the upstream budget
// ends when they have all given up.
type flights struct {
	mu sync.Mutex
	m  map[string]*flight
	// callers counts the callers waiting for any fetch (awaitFetch).
	callers int
}

// flight is one fetch. Its fields other than done, ctx and cancel are
// guarded by flights.mu until done is closed; val, err and abandoned are
// read only after.
type flight struct {
	done chan struct{}
	val  []byte
	err  error
	// ctx carries the values of the caller that started the fetch (not
	// its end); it ends, with errWaitAbandoned, when the fetch is
	// abandoned.
	ctx    context.Context
	cancel context.CancelCauseFunc
	// deadline is that caller's (zero: none); it bounds the wait for the
	// budget.
	deadline time.Time
	// callers waiting for the fetch; waiting: the fetch waits for the
	// budget; abandoned: it ended that wait for want of callers and
	// answers no one (a caller that joins it waits for its end, then
	// fetches again).
	callers   int
	waiting   bool
	abandoned bool
}

// errWaitAbandoned ends the budget wait of a fetch whose callers have all
// given up.
var errWaitAbandoned = errors.New("registry: every caller of the fetch gave up")

// join counts a caller in to the fetch of group, which it starts (created)
// when there is none; ctx is the caller's, whose values (not its end) a
// fetch it starts keeps.
func (g *flights) join(group string, ctx context.Context) (f *flight, created bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.callers++
	f = g.m[group]
	if f == nil {
		c, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
		f = &flight{done: make(chan struct{}), ctx: c, cancel: cancel}
		f.deadline, _ = ctx.Deadline()
		if g.m == nil {
			g.m = make(map[string]*flight)
		}
		g.m[group] = f
		created = true
	}
	f.callers++
	return f, created
}

// leave counts a caller out of f. The last caller to leave f while it
// waits for the budget abandons it.
func (g *flights) leave(f *flight) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.callers--
	f.callers--
	if f.callers == 0 && f.waiting {
		g.abandon(f)
	}
}

// abandon ends f's wait for the budget; g.mu is held.
func (g *flights) abandon(f *flight) {
	f.abandoned = true
	f.cancel(errWaitAbandoned)
}

// end sets f's answer and takes it out of group.
func (g *flights) end(group string, f *flight, val []byte, err error) {
	g.mu.Lock()
	if g.m[group] == f {
		delete(g.m, group)
	}
	f.val, f.err = val, err
	g.mu.Unlock()
	f.cancel(nil)
	close(f.done)
}

// budgetPause is a pause of the fetch f for the budget: d on the
// Registry's pacing clock, or until f is abandoned (its last caller leaves
// during the pause, or had left before it), when it returns f.ctx's error.
func (r *Registry) budgetPause(f *flight, d time.Duration) error {
	g := &r.flights
	g.mu.Lock()
	if f.callers == 0 {
		g.abandon(f)
	}
	f.waiting = true
	g.mu.Unlock()
	err := r.wait.sleep(f.ctx, d)
	if err == nil {
		err = f.ctx.Err()
	}
	g.mu.Lock()
	f.waiting = false
	g.mu.Unlock()
	return err
}

// answerDoc is a document that the Registry fetches and caches: a report,
// a search result or a roles report. Its MarshalJSON must give what
// json.Marshal gives (encodeAnswer calls it directly).
type answerDoc interface {
	json.Marshaler
	setCached(bool)
}

func (r *CompanyReport) setCached(c bool) { r.Cached = c }
func (s *SearchResult) setCached(c bool)  { s.Cached = c }

// callerGaveUp is the error of a caller whose context ended while it
// waited: canceled when it was cancelled, upstream_timeout when its own
// deadline passed. The shared fetch goes on for the other callers.
func (r *Registry) callerGaveUp(ctx context.Context, info CountryInfo) *Error {
	cause := context.Cause(ctx)
	if errors.Is(ctx.Err(), context.Canceled) {
		return r.decorate(info, &Error{Code: CodeCanceled, Err: cause,
			Message: "The request was cancelled by its caller before the register answered."})
	}
	return r.decorate(info, &Error{Code: CodeUpstreamTimeout, Err: cause,
		Message: fmt.Sprintf("The caller's deadline passed before the %s register answered.", info.Country)})
}

// attempts runs call once, and once more after a pause when the first
// failure is retryable, each time after taking a call from budget (when not
// nil; waiting for it while the fetch f has callers, within the bound,
// counted over both attempts, and before the deadline of f's first
// caller): an empty budget stops before the register is called. It never
// panics.
func (r *Registry) attempts(ctx context.Context, f *flight, info CountryInfo, budget UpstreamBudget, call func(context.Context) (any, error)) (any, error) {
	var last *Error
	var waited time.Duration
	for attempt := 1; attempt <= 2; attempt++ {
		if attempt == 2 {
			time.Sleep(r.retryPause)
		}
		if err := r.takeBudget(f, info, budget, &waited); err != nil {
			if last != nil {
				return nil, last
			}
			return nil, err
		}
		v, err := r.attempt(ctx, info, call)
		if err == nil {
			return v, nil
		}
		last = err
		r.log.LogAttrs(ctx, slog.LevelWarn, "upstream attempt failed",
			slog.String("country", info.Country), slog.String("registry", info.Registry),
			slog.Int("attempt", attempt), slog.String("code", string(err.Code)), slog.Bool("retryable", err.Retryable),
			slog.String("cause", causeOf(err)))
		if !err.Retryable {
			break
		}
	}
	return nil, last
}

// attempt runs call once under the per-attempt timeout and classifies its
// failure.
func (r *Registry) attempt(ctx context.Context, info CountryInfo, call func(context.Context) (any, error)) (v any, err *Error) {
	actx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			r.logPanic(info, "fetch", p)
			v, err = nil, r.decorate(info, &Error{Code: CodeInternalError, Message: "A defect in the country module stopped this request."})
		}
	}()
	v, cerr := call(actx)
	if cerr == nil {
		return v, nil
	}
	return nil, r.classify(actx, cerr, info)
}

// classify maps a module's failure to an *Error with the right code and
// retryability. A plain error from an HTTP client becomes upstream_timeout
// or upstream_error (retryable); anything else unknown is internal_error.
func (r *Registry) classify(actx context.Context, err error, info CountryInfo) *Error {
	timedOut := errors.Is(actx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		timedOut = true
	}
	var e *Error
	if errors.As(err, &e) {
		e = r.decorate(info, e)
		if e.Retryable && timedOut && e.Code == CodeUpstreamError {
			e.Code = CodeUpstreamTimeout
		}
		return e
	}
	if timedOut {
		return r.decorate(info, &Error{Code: CodeUpstreamTimeout, Retryable: true, Err: err,
			Message: fmt.Sprintf("The %s register did not answer in time.", info.Country)})
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	if errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.As(err, &se) || errors.As(err, &te) {
		return r.decorate(info, &Error{Code: CodeUpstreamError, Retryable: true, Err: err,
			Message: fmt.Sprintf("The %s register could not be reached or sent an unreadable answer.", info.Country)})
	}
	return r.decorate(info, &Error{Code: CodeInternalError, Err: err,
		Message: "An unexpected error occurred inside the service."})
}

// causeOf names why an attempt failed, for the operator's log: the HTTP
// status the register answered, or the kind of network failure (DNS,
// refused or reset connection, timeout, TLS, a body cut short or not JSON).
// It is built from the error's types and status only, never from an error
// text, so it holds no URL, identifier or credential.
func causeOf(e *Error) string {
	if e.UpstreamStatus != 0 {
		return "http " + strconv.Itoa(e.UpstreamStatus)
	}
	err := e.Err
	var dns *net.DNSError
	var ne net.Error
	var op *net.OpError
	var cert *tls.CertificateVerificationError
	var rec tls.RecordHeaderError
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return string(e.Code)
	case errors.As(err, &dns):
		switch {
		case dns.IsNotFound:
			return "dns: no such host"
		case dns.IsTimeout:
			return "dns: timeout"
		}
		return "dns: lookup failed"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.As(err, &cert), errors.As(err, &rec):
		return "tls"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "connection closed early"
	case errors.As(err, &se), errors.As(err, &te):
		return "malformed JSON"
	case errors.As(err, &op):
		return "network: " + op.Op
	}
	return string(e.Code)
}
