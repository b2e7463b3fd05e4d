package registry

import (
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
)

// fetch runs call at most once for all concurrent callers of key, under a
// context that no caller can cancel, with a per-attempt timeout and one retry
// of a retryable failure, and caches the answer under key with tag. Each
// caller waits under its own ctx and gets the answer's JSON (cached false,
// or the stored answer when a fetch of key ended just before this one
// started), which is shared and must not be modified.
func fetch[T answerDoc](ctx context.Context, r *Registry, e entry, key string, tag byte, call func(context.Context) (T, error)) ([]byte, error) {
	// A fetch whose every caller gave up while it waited for the budget
	// ends that wait and answers errWaitAbandoned; a caller that joined it
	// just then, alive, starts a fetch of its own.
	for range 3 {
		b, err := fetchOnce(ctx, r, e, key, tag, call)
		if !errors.Is(err, errWaitAbandoned) || ctx.Err() != nil {
			return b, err
		}
	}
	return nil, r.callerGaveUp(ctx, e.info)
}

// errWaitAbandoned ends the budget wait of a fetch whose callers have all
// given up.
var errWaitAbandoned = errors.New("registry: every caller of the fetch gave up")

// fetchOnce is one fetch of key (see fetch).
func fetchOnce[T answerDoc](ctx context.Context, r *Registry, e entry, key string, tag byte, call func(context.Context) (T, error)) ([]byte, error) {
	if ctx.Err() != nil {
		// A caller that has already given up starts no upstream work.
		return nil, r.callerGaveUp(ctx, e.info)
	}
	// leader is set by the function of the call that starts the fetch, before
	// its result is sent: a caller that reads it false after the result
	// joined a fetch another call started.
	leader := false
	// A refresh (see Registry.Refresh) must read the register after it
	// was asked: it joins only other refreshes and takes no second look.
	refresh := isRefresh(ctx)
	group := key
	if refresh {
		group = refreshGroup + key
	}
	// The callers of the fetch keep its wait for the budget going: it
	// ends when the last of them gives up.
	fw := r.fetchWaits.join(group, ctx)
	ch := r.group.DoChan(group, func() (any, error) {
		leader = true
		bg := context.WithoutCancel(ctx)
		// The caller's deadline bounds a wait for the upstream budget.
		deadline, _ := ctx.Deadline()
		// A fetch of key that ended between this caller's cache miss and
		// this call has stored its answer: send that answer (it says cached
		// true) rather than ask the register again.
		if b, hit, err := r.cachedAnswer(bg, key, tag); hit && !refresh {
			return b, err
		}
		v, err := r.attempts(bg, fw.ctx, deadline, e.info, e.budget, func(ctx context.Context) (any, error) { return call(ctx) })
		if err != nil {
			r.remember(bg, key, err)
			return nil, err
		}
		doc := v.(T)
		// Two encodings: the stored one says cached true, so that a hit is
		// sent as stored; the live one, cached false, goes to the callers
		// of this fetch.
		doc.setCached(true)
		stored, err := json.Marshal(doc)
		if err != nil {
			return nil, r.decorate(e.info, &Error{Code: CodeInternalError, Message: "The answer could not be encoded.", Err: err})
		}
		doc.setCached(false)
		live, err := json.Marshal(doc)
		if err != nil {
			return nil, r.decorate(e.info, &Error{Code: CodeInternalError, Message: "The answer could not be encoded.", Err: err})
		}
		r.cacheSet(bg, key, append([]byte{tag}, stored...), r.ttl)
		return live, nil
	})
	select {
	case <-ctx.Done():
		// Leave before answering: when this was the last caller, the
		// fetch's wait for the budget has ended when the caller hears.
		r.fetchWaits.leave(group, fw)
		return nil, r.callerGaveUp(ctx, e.info)
	case res := <-ch:
		r.fetchWaits.leave(group, fw)
		if !leader && r.observer != nil {
			r.observer.FetchCollapsed(e.info.Country)
		}
		if res.Err != nil {
			return nil, res.Err
		}
		return res.Val.([]byte), nil
	}
}

// fetchWaits counts the callers of each fetch, so that a fetch's wait for
// the upstream budget ends when they have all given up.
type fetchWaits struct {
	mu sync.Mutex
	m  map[string]*fetchWait
}

// fetchWait is the context of one fetch's wait for the budget.
type fetchWait struct {
	ctx     context.Context
	cancel  context.CancelCauseFunc
	callers int
}

// join counts a caller of the fetch of group in; ctx is its context,
// whose values (not its end) the wait keeps.
func (w *fetchWaits) join(group string, ctx context.Context) *fetchWait {
	w.mu.Lock()
	defer w.mu.Unlock()
	fw := w.m[group]
	if fw == nil {
		c, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
		fw = &fetchWait{ctx: c, cancel: cancel}
		if w.m == nil {
			w.m = make(map[string]*fetchWait)
		}
		w.m[group] = fw
	}
	fw.callers++
	return fw
}

// leave counts a caller of the fetch out; the last one ends the wait.
func (w *fetchWaits) leave(group string, fw *fetchWait) {
	w.mu.Lock()
	defer w.mu.Unlock()
	fw.callers--
	if fw.callers > 0 {
		return
	}
	if w.m[group] == fw {
		delete(w.m, group)
	}
	fw.cancel(errWaitAbandoned)
}

// answerDoc is a document that the Registry caches: a report or a search
// result.
type answerDoc interface {
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
// nil; waiting for it under waitCtx, within the bound, counted over both
// attempts, and before deadline): an empty budget stops before the
// register is called. It never panics.
func (r *Registry) attempts(ctx, waitCtx context.Context, deadline time.Time, info CountryInfo, budget UpstreamBudget, call func(context.Context) (any, error)) (any, error) {
	var last *Error
	var waited time.Duration
	for attempt := 1; attempt <= 2; attempt++ {
		if attempt == 2 {
			time.Sleep(r.retryPause)
		}
		if err := r.takeBudget(waitCtx, deadline, info, budget, &waited); err != nil {
			// A wait that ended because every caller counted in gave up
			// answers errWaitAbandoned, also before a retry: a caller that
			// joined the fetch after the last counted one left (and so
			// was counted in a wait of its own) starts a fetch of its own
			// rather than take the first attempt's failure unretried.
			if last != nil && !errors.Is(err, errWaitAbandoned) {
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
