// Package redisstate tracks whether a Redis server answers, for the
// Redis-backed cache, rate limiter and upstream budget: each bounds every
// call by a short timeout, falls back to its in-process twin while Redis is
// unreachable, logs one line per change of state (a warning when Redis goes
// away, an info line when it is back), and tries Redis again by itself.
package redisstate

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
)

// Defaults of a State.
const (
	// DefaultTimeout bounds one Redis operation.
	DefaultTimeout = 100 * time.Millisecond
	// MaxTimeout is the longest bound of one Redis operation a component
	// accepts.
	MaxTimeout = 5 * time.Second
	// DefaultRetry is how often a State that saw Redis fail lets one call
	// try Redis again; the other calls use the fallback at once.
	DefaultRetry = time.Second
)

// State is the reachability of one Redis client as seen by one component.
// It is safe for concurrent use. The zero State is not usable; build one
// with [New].
type State struct {
	component string
	log       *slog.Logger
	timeout   time.Duration
	retry     time.Duration
	onUp      func()

	down      atomic.Bool
	nextProbe atomic.Int64 // unix nanoseconds
}

// New returns a State that starts up. component names the user in the log
// ("cache", "ratelimit", "budget"); log may be nil (discard); a
// non-positive timeout or retry takes its default; onUp, when not nil, runs
// once each time Redis answers again after a failure, before the info line
// is logged.
func New(component string, log *slog.Logger, timeout, retry time.Duration, onUp func()) *State {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if retry <= 0 {
		retry = DefaultRetry
	}
	return &State{component: component, log: log, timeout: timeout, retry: retry, onUp: onUp}
}

// Retry returns the interval at which a State that saw Redis fail lets one
// call try it again.
func (s *State) Retry() time.Duration { return s.retry }

// Up reports whether the last Redis call succeeded (true before any call).
func (s *State) Up() bool { return !s.down.Load() }

// Usable reports whether the caller should try Redis now: always while
// Redis is up, and for one caller per retry interval while it is down.
func (s *State) Usable() bool {
	if !s.down.Load() {
		return true
	}
	now := time.Now().UnixNano()
	next := s.nextProbe.Load()
	return now >= next && s.nextProbe.CompareAndSwap(next, now+int64(s.retry))
}

// Context returns the context of one Redis operation: ctx's values without
// its cancellation (a caller that gives up must not make Redis look down),
// bounded by the timeout.
func (s *State) Context(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), s.timeout)
}

// Report records the outcome of a Redis operation: nil and [redis.Nil] (a
// missing key) mean Redis answered, any other error that it did not. It
// logs a change of state once and returns whether Redis answered.
func (s *State) Report(ctx context.Context, err error) bool {
	if err == nil || errors.Is(err, redis.Nil) {
		if s.down.CompareAndSwap(true, false) {
			if s.onUp != nil {
				s.onUp()
			}
			s.log.LogAttrs(ctx, slog.LevelInfo, "redis reachable again", slog.String("component", s.component))
		}
		return true
	}
	s.nextProbe.Store(time.Now().UnixNano() + int64(s.retry))
	if s.down.CompareAndSwap(false, true) {
		s.log.LogAttrs(ctx, slog.LevelWarn, "redis unreachable, using the in-process fallback",
			slog.String("component", s.component), slog.String("cause", Cause(err)),
			slog.Duration("retry_every", s.retry))
	}
	return false
}

// Cause names the kind of a Redis failure from its type only, never from
// its text, so that no address, key or credential reaches a log.
func Cause(err error) string {
	var ne net.Error
	var rerr redis.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, redis.ErrClosed):
		return "client closed"
	case errors.As(err, &rerr):
		return "error reply"
	case errors.As(err, &ne):
		return "network"
	}
	return "error"
}
