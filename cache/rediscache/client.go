package rediscache

import (
	"errors"
	"net/url"

	"github.com/redis/go-redis/v9"
)

// NewClient returns a Redis client for rawURL ("redis://[:password@]host[:port][/db]"
// or "rediss://" for TLS, as [redis.ParseURL] reads them) configured for the
// Redis-backed components of this module: the context's deadline bounds every
// call (ContextTimeoutEnabled, without which the per-operation timeout of
// [WithTimeout] cannot interrupt a Redis that stopped answering), no retries
// inside the client, of a command or of a dial (each component falls back
// instead, so a Redis that refuses connections costs a call no time), and
// dial, read and write timeouts of [MaxTimeout] as a last bound: no shorter,
// since go-redis ends a call at the earlier of its own timeout and the
// context's deadline, and a shorter one would cut every call of a component
// given a longer [WithTimeout] short. Share one client between the cache,
// the rate limiter and the budgets, and close it at exit.
//
// The error never contains rawURL, which may hold a password.
func NewClient(rawURL string) (*redis.Client, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return nil, errors.New("rediscache: NewClient: not a redis:// or rediss:// URL with a host")
	}
	opt, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, errors.New("rediscache: NewClient: the URL's port, database number or query is invalid")
	}
	opt.ContextTimeoutEnabled = true
	opt.MaxRetries = -1
	opt.DialerRetries = 1 // one dial per call: a refused connection fails at once
	opt.DialTimeout = MaxTimeout
	opt.ReadTimeout = MaxTimeout
	opt.WriteTimeout = MaxTimeout
	return redis.NewClient(opt), nil
}
