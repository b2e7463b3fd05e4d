// Package metrics counts what an operator of a (scaled-out) server watches,
// in the Prometheus format: requests by surface, route pattern and status,
// upstream calls by register host and outcome with their latency, cache
// hits, misses and errors, rate-limit and budget refusals, fetches
// collapsed into another caller's, and whether Redis answers.
//
// It works by wrapping: [Metrics.Cache] wraps a cache.Cache,
// [Metrics.Limiter] a rate limiter, [Metrics.Budget] an upstream budget,
// [Metrics.Transport] the HTTP transport of the country modules, and
// [Metrics.Middleware] an HTTP handler, and [Metrics] itself is the
// registry's fetch observer (registry.WithFetchObserver); the library
// itself knows nothing of metrics. No label ever holds an identifier, a query or a client address:
// routes are patterns ("GET /v1/{country}/company/{id}"), registers are
// host names from the configuration, countries are codes.
//
// Serve [Metrics.Handler] on an address of its own (not the public
// listener), so that it is never rate limited and never exposed by
// accident.
package metrics

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/internal/httplog"
)

// Metrics holds the collectors, on a registry of their own (plus the Go
// runtime and process collectors). It is safe for concurrent use.
type Metrics struct {
	reg       *prometheus.Registry
	requests  *prometheus.CounterVec
	upstream  *prometheus.CounterVec
	latency   *prometheus.HistogramVec
	cacheGets *prometheus.CounterVec
	refusals  *prometheus.CounterVec
	collapsed *prometheus.CounterVec
}

// New returns an empty Metrics.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "companyregistry_http_requests_total",
			Help: "HTTP requests by surface (rest, mcp), route pattern and status code.",
		}, []string{"surface", "route", "status"}),
		upstream: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "companyregistry_upstream_requests_total",
			Help: "Requests to the national registers by host and outcome (2xx, 4xx, 429, 5xx, error).",
		}, []string{"host", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "companyregistry_upstream_request_duration_seconds",
			Help:    "Latency of requests to the national registers, until the response header.",
			Buckets: []float64{.025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"host"}),
		cacheGets: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "companyregistry_cache_gets_total",
			Help: "Cache lookups by result (hit, miss, error).",
		}, []string{"result"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "companyregistry_refusals_total",
			Help: "Refusals by kind: client (the per-client rate limit) or budget (a register's upstream budget, by country).",
		}, []string{"kind", "country"}),
		collapsed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "companyregistry_fetches_collapsed_total",
			Help: "Lookups and searches that missed the cache and were answered by a fetch another call already had in flight, by country.",
		}, []string{"country"}),
	}
	m.reg.MustRegister(m.requests, m.upstream, m.latency, m.cacheGets, m.refusals, m.collapsed,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// FetchCollapsed counts a call of country that joined another call's
// fetch; it implements registry.FetchObserver (pass m to
// registry.WithFetchObserver).
func (m *Metrics) FetchCollapsed(country string) {
	m.collapsed.WithLabelValues(country).Inc()
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// RedisUp reports up (called at every scrape) as the companyregistry_redis_up
// gauge of component. Register it once per component.
func (m *Metrics) RedisUp(component string, up func() bool) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name:        "companyregistry_redis_up",
		Help:        "1 when the component's last Redis call succeeded, 0 when it uses its in-process fallback.",
		ConstLabels: prometheus.Labels{"component": component},
	}, func() float64 {
		if up() {
			return 1
		}
		return 0
	}))
}

// Middleware counts the requests next answers, labelled with surface and
// the route pattern route returns for the request ("" counts as "other").
func (m *Metrics) Middleware(surface string, route func(*http.Request) string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		p := route(r)
		if p == "" {
			p = "other"
		}
		m.requests.WithLabelValues(surface, p, strconv.Itoa(sw.status)).Inc()
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

// WriteHeader records the first final status: an informational one (such
// as 103 Early Hints) is followed by the real one.
func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 && !httplog.Informational(code) {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Transport counts the requests made through next (nil: the default
// transport) by host and outcome, with their latency.
func (m *Metrics) Transport(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return roundTripper(func(r *http.Request) (*http.Response, error) {
		start := time.Now()
		resp, err := next.RoundTrip(r)
		host := r.URL.Hostname()
		m.latency.WithLabelValues(host).Observe(time.Since(start).Seconds())
		outcome := "error"
		if err == nil {
			switch s := resp.StatusCode; {
			case s == http.StatusTooManyRequests:
				outcome = "429"
			case s >= 500:
				outcome = "5xx"
			case s >= 400:
				outcome = "4xx"
			default:
				outcome = "2xx"
			}
		}
		m.upstream.WithLabelValues(host, outcome).Inc()
		return resp, err
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Cache counts the Gets of c by result. The result describes itself as c
// does (cache.Describe).
func (m *Metrics) Cache(c cache.Cache) cache.Cache { return &countingCache{Cache: c, m: m} }

type countingCache struct {
	cache.Cache
	m *Metrics
}

// Describe forwards the wrapped cache's description (see cache.Describer).
func (c *countingCache) Describe(ctx context.Context) cache.Description {
	return cache.Describe(ctx, c.Cache)
}

func (c *countingCache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	v, ok, err := c.Cache.Get(ctx, key)
	switch {
	case err != nil:
		c.m.cacheGets.WithLabelValues("error").Inc()
	case ok:
		c.m.cacheGets.WithLabelValues("hit").Inc()
	default:
		c.m.cacheGets.WithLabelValues("miss").Inc()
	}
	return v, ok, err
}

// Limiter is the method of restserver.Limiter, mcpserver.Limiter and
// ratelimit.Limiter.
type Limiter interface {
	Allow(ctx context.Context, key string, cost int) (ok bool, retryAfter time.Duration, err error)
}

// Limiter counts the refusals of l as kind "client".
func (m *Metrics) Limiter(l Limiter) Limiter { return &countingLimiter{l: l, m: m} }

type countingLimiter struct {
	l Limiter
	m *Metrics
}

func (c *countingLimiter) Allow(ctx context.Context, key string, cost int) (bool, time.Duration, error) {
	ok, wait, err := c.l.Allow(ctx, key, cost)
	if !ok && err == nil {
		c.m.refusals.WithLabelValues("client", "").Inc()
	}
	return ok, wait, err
}

// Budget is the method of registry.UpstreamBudget.
type Budget interface {
	Take(ctx context.Context) (ok bool, retryAfter time.Duration, err error)
}

// Reserver is the method of registry.UpstreamReserver.
type Reserver interface {
	Budget
	Reserve(ctx context.Context, within time.Duration) (ok bool, wait time.Duration, release func(context.Context), err error)
}

// Budget counts the refusals of b, the budget of country, as kind
// "budget". When b is a [Reserver], so is the budget returned, and a
// reservation that does not fit its wait counts as a refusal.
func (m *Metrics) Budget(country string, b Budget) Budget {
	c := &countingBudget{b: b, m: m, country: country}
	if r, ok := b.(Reserver); ok {
		return &countingReserver{countingBudget: c, r: r}
	}
	return c
}

type countingReserver struct {
	*countingBudget
	r Reserver
}

func (c *countingReserver) Reserve(ctx context.Context, within time.Duration) (bool, time.Duration, func(context.Context), error) {
	ok, wait, release, err := c.r.Reserve(ctx, within)
	if !ok && err == nil {
		c.m.refusals.WithLabelValues("budget", c.country).Inc()
	}
	return ok, wait, release, err
}

type countingBudget struct {
	b       Budget
	m       *Metrics
	country string
}

func (c *countingBudget) Take(ctx context.Context) (bool, time.Duration, error) {
	ok, wait, err := c.b.Take(ctx)
	if !ok && err == nil {
		c.m.refusals.WithLabelValues("budget", c.country).Inc()
	}
	return ok, wait, err
}
