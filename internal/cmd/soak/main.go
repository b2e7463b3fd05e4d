// Command soak drives a mixed load at a running example server (see
// .ci/soak.sh, which starts the server and the fake register and runs
// it): cached and cold lookups, searches, deadline batches, MCP calls and
// bad requests, for -duration, from -workers clients on loopback. The
// fake register (internal/cmd/fakebrreg -faults) answers some units with
// 503, a timeout, a slow or a broken body.
//
// Afterwards it checks, from the server's Prometheus metrics
// (REGISTRY_METRICS_ADDR):
//   - no goroutine growth: once the load has stopped and the server is
//     idle again, go_goroutines is back within -goroutine-slack of what
//     it was before the load;
//   - memory: process_resident_memory_bytes after the load is within 10 %
//     of its plateau (the median of the samples of the load's second
//     half);
//   - no 5xx but the injected upstream errors, mapped as the interface
//     spec says (502 upstream_error, 504 upstream_timeout), and no failed
//     connection.
//
// It prints its numbers and a PASS or FAIL line per check, and exits 1
// when a check failed, 2 for bad flags. Every request goes to -base, a
// loopback address; the run is bounded by -duration and the settle time.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/command"
)

func main() { command.Main(run) }

// config is the flags.
type config struct {
	base, metrics  string
	duration       time.Duration
	workers        int
	settle         time.Duration
	goroutineSlack int
	seed           uint64
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var c config
	fs := flag.NewFlagSet("soak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.base, "base", "", "base URL of the server, on loopback (required)")
	fs.StringVar(&c.metrics, "metrics", "", "URL of the server's /metrics (required)")
	fs.DurationVar(&c.duration, "duration", 5*time.Minute, "how long the load runs (at most 1h)")
	fs.IntVar(&c.workers, "workers", 16, "concurrent clients (1 to 256)")
	fs.DurationVar(&c.settle, "settle", 90*time.Second, "longest wait for the server to be idle after the load")
	fs.IntVar(&c.goroutineSlack, "goroutine-slack", 5, "goroutines allowed above the count before the load")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the request mix")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := c.check(); err != nil {
		fmt.Fprintf(stderr, "soak: %v\n", err)
		return 2
	}
	return soak(ctx, c, stdout)
}

// check refuses flags out of range and any address off loopback.
func (c config) check() error {
	for _, u := range []string{c.base, c.metrics} {
		p, err := url.Parse(u)
		if err != nil || p.Scheme != "http" {
			return fmt.Errorf("%q is not an http:// URL", u)
		}
		host := p.Hostname()
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return fmt.Errorf("%q is not on loopback", u)
		}
	}
	switch {
	case c.duration <= 0 || c.duration > time.Hour:
		return errors.New("-duration must be in (0, 1h]")
	case c.workers < 1 || c.workers > 256:
		return errors.New("-workers must be 1 to 256")
	case c.settle <= 0 || c.settle > 10*time.Minute:
		return errors.New("-settle must be in (0, 10m]")
	}
	return nil
}

// sample is one reading of the server's metrics.
type sample struct {
	at         time.Duration // since the load started
	goroutines float64
	rss        float64
}

func soak(ctx context.Context, c config, out io.Writer) int {
	tr := &http.Transport{MaxIdleConnsPerHost: c.workers, IdleConnTimeout: 30 * time.Second}
	client := &http.Client{Transport: tr, Timeout: 90 * time.Second}
	metricsClient := &http.Client{Timeout: 10 * time.Second}
	read := func() (sample, error) { return readMetrics(ctx, metricsClient, c.metrics) }

	before, err := read()
	if err != nil {
		fmt.Fprintf(out, "FAIL: metrics: %v\n", err)
		return 1
	}
	fmt.Fprintf(out, "before the load: %.0f goroutines, RSS %.1f MiB\n", before.goroutines, before.rss/(1<<20))

	l := &load{c: c, client: client, hot: ids(20, 91_000_000)}
	lctx, stop := context.WithTimeout(ctx, c.duration)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range c.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.worker(lctx, rand.New(rand.NewPCG(c.seed, uint64(w))))
		}()
	}
	var samples []sample
	tick := time.NewTicker(2 * time.Second)
sampling:
	for {
		select {
		case <-lctx.Done():
			break sampling
		case <-tick.C:
			s, err := read()
			if err != nil {
				fmt.Fprintf(out, "metrics: %v\n", err)
				continue
			}
			s.at = time.Since(start)
			samples = append(samples, s)
		}
	}
	tick.Stop()
	stop()
	wg.Wait()
	took := time.Since(start)
	tr.CloseIdleConnections()

	// Idle: wait until the goroutines are back, at most -settle.
	var after sample
	settleStart := time.Now()
	for {
		after, err = read()
		if err == nil && after.goroutines <= before.goroutines+float64(c.goroutineSlack) ||
			time.Since(settleStart) > c.settle || ctx.Err() != nil {
			break
		}
		time.Sleep(time.Second)
	}
	settled := time.Since(settleStart)

	plateau := plateauRSS(samples)
	peakG := 0.0
	for _, s := range samples {
		peakG = max(peakG, s.goroutines)
	}
	total := l.total.Load()
	fmt.Fprintf(out, "load: %v, %d workers, %d requests (%.0f/s)\n", took.Round(time.Second), c.workers, total,
		float64(total)/took.Seconds())
	for _, k := range kinds {
		fmt.Fprintf(out, "  %-14s %7d  statuses %s\n", k, l.count(k), l.statuses(k))
	}
	fmt.Fprintf(out, "during the load: peak %.0f goroutines, RSS plateau %.1f MiB (median of %d samples of the second half)\n",
		peakG, plateau/(1<<20), len(samples)-len(samples)/2)
	fmt.Fprintf(out, "after the load (idle after %v): %.0f goroutines, RSS %.1f MiB (%.1f %% of the plateau)\n",
		settled.Round(time.Second), after.goroutines, after.rss/(1<<20), 100*after.rss/plateau)
	fmt.Fprintf(out, "injected upstream errors answered as the spec maps them: %d (502 upstream_error), %d (504 upstream_timeout)\n",
		l.injected502.Load(), l.injected504.Load())

	failed := 0
	check := func(ok bool, what string) {
		if ok {
			fmt.Fprintf(out, "PASS: %s\n", what)
			return
		}
		failed++
		fmt.Fprintf(out, "FAIL: %s\n", what)
	}
	check(err == nil && after.goroutines <= before.goroutines+float64(c.goroutineSlack),
		fmt.Sprintf("no goroutine growth: %.0f after, %.0f before (slack %d)", after.goroutines, before.goroutines, c.goroutineSlack))
	check(len(samples) >= 2 && after.rss <= 1.10*plateau,
		fmt.Sprintf("RSS after the load within 10 %% of its plateau (%.1f %%)", 100*after.rss/plateau))
	check(l.unexpected.Load() == 0, fmt.Sprintf("no 5xx but the injected upstream errors, no failed connection: %d unexpected",
		l.unexpected.Load()))
	for _, e := range l.examples() {
		fmt.Fprintf(out, "  unexpected: %s\n", e)
	}
	check(l.injected502.Load() > 0 && l.injected504.Load() > 0 && total > 0, "the injected faults were exercised")
	if failed > 0 {
		return 1
	}
	return 0
}

// plateauRSS is the median RSS of the second half of the samples.
func plateauRSS(s []sample) float64 {
	if len(s) == 0 {
		return 0
	}
	var v []float64
	for _, x := range s[len(s)/2:] {
		v = append(v, x.rss)
	}
	slices.Sort(v)
	return v[len(v)/2]
}

// readMetrics reads go_goroutines and process_resident_memory_bytes.
func readMetrics(ctx context.Context, c *http.Client, u string) (sample, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return sample{}, err
	}
	res, err := c.Do(req)
	if err != nil {
		return sample{}, err
	}
	defer res.Body.Close()
	var s sample
	found := 0
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		switch name {
		case "go_goroutines":
			s.goroutines, err = strconv.ParseFloat(value, 64)
			found++
		case "process_resident_memory_bytes":
			s.rss, err = strconv.ParseFloat(value, 64)
			found++
		}
		if err != nil {
			return sample{}, err
		}
	}
	if err := sc.Err(); err != nil {
		return sample{}, err
	}
	if found != 2 {
		return sample{}, errors.New("go_goroutines or process_resident_memory_bytes missing")
	}
	return s, nil
}

// ids returns n valid Norwegian organisation numbers from base on, none of
// them a fault of the fake register.
func ids(n, base int) []string {
	var out []string
	for b := base; len(out) < n; b++ {
		if f := b % 100; f >= 91 && f <= 94 {
			continue
		}
		if id, ok := orgnr(b); ok {
			out = append(out, id)
		}
	}
	return out
}

// orgnr returns the organisation number of eight leading digits n, when
// one of the ten check digits makes it valid (MOD11).
func orgnr(n int) (string, bool) {
	head := fmt.Sprintf("%08d", n)
	for d := range 10 {
		id := head + strconv.Itoa(d)
		if v, p := idcheck.ParseOrgNr(id); p == idcheck.ProblemNone && v.String() == id {
			return id, true
		}
	}
	return "", false
}

// The kinds of request of the mix.
const (
	kindHot    = "lookup cached"
	kindCold   = "lookup cold"
	kindFault  = "lookup fault"
	kindSearch = "search"
	kindBatch  = "batch"
	kindMCP    = "mcp"
	kindBad    = "bad request"
)

var kinds = []string{kindHot, kindCold, kindFault, kindSearch, kindBatch, kindMCP, kindBad}

// load is the state of the request mix.
type load struct {
	c      config
	client *http.Client
	hot    []string
	cold   atomic.Int64 // next cold unit

	total, unexpected, injected502, injected504 atomic.Int64

	mu     sync.Mutex
	counts map[string]map[int]int // kind -> status -> count
	bad    []string               // the first unexpected answers
}

func (l *load) worker(ctx context.Context, r *rand.Rand) {
	for ctx.Err() == nil {
		l.one(ctx, r)
	}
}

// one sends one request of the mix and judges its answer.
func (l *load) one(ctx context.Context, r *rand.Rand) {
	p := r.IntN(100)
	var kind, method, path, body string
	var header map[string]string
	fault := false
	switch {
	case p < 30:
		kind, method, path = kindHot, http.MethodGet, "/v1/NO/company/"+l.hot[r.IntN(len(l.hot))]
	case p < 48:
		kind, method, path = kindCold, http.MethodGet, "/v1/NO/company/"+l.nextCold(false)
	case p < 50:
		kind, method, path, fault = kindFault, http.MethodGet, "/v1/NO/company/"+l.nextCold(true), true
	case p < 60:
		names := []string{"equinor", "telenor", "dnb", "kiwi", "rema"}
		kind, method, path = kindSearch, http.MethodGet, "/v1/NO/search?q="+names[r.IntN(len(names))]+"&limit=5"
		if r.IntN(4) == 0 {
			path = "/v1/NO/search?q=cold" + strconv.Itoa(r.IntN(1_000_000))
		}
	case p < 68:
		batch := []string{l.hot[r.IntN(len(l.hot))], l.nextCold(false), l.hot[r.IntN(len(l.hot))]}
		b, _ := json.Marshal(map[string]any{"ids": batch, "today": "2026-11-26"})
		kind, method, path, body = kindBatch, http.MethodPost, "/v1/NO/deadlines:batch", string(b)
	case p < 85:
		kind, method, path = kindMCP, http.MethodPost, "/mcp"
		header = map[string]string{"Accept": "application/json, text/event-stream"}
		switch r.IntN(4) {
		case 0:
			body = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
		case 1:
			body = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_countries","arguments":{}}}`
		case 2:
			body = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup_company","arguments":{"id":"` +
				l.hot[r.IntN(len(l.hot))] + `"}}}`
		default:
			body = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"lookup_company","arguments":{"id":"` +
				l.nextCold(r.IntN(10) == 0) + `"}}}`
		}
	default:
		kind = kindBad
		method, path = http.MethodGet, []string{
			"/v1/NO/company/923609017", // bad checksum: 400
			"/v1/XX/company/923609016", // unsupported country
			"/v1/NO/search",            // no q: 400
			"/v1/NO/company/" + strings.Repeat("9", 300),
			"/nope",
		}[r.IntN(5)]
		switch r.IntN(4) {
		case 0:
			method, path, body = http.MethodPost, "/v1/NO/deadlines:batch", `{"ids":`
		case 1:
			method, path, body = http.MethodPost, "/mcp", `{"jsonrpc":"2.0","id":`
			header = map[string]string{"Accept": "application/json, text/event-stream"}
		case 2:
			header = map[string]string{"X-Padding": strings.Repeat("x", 20<<10)} // over the header limit: 431
		}
	}
	status, text, err := l.send(ctx, method, path, body, header)
	if ctx.Err() != nil {
		return // the load's end cut the request off
	}
	l.total.Add(1)
	l.record(kind, status)
	switch {
	case err != nil:
		l.fail(fmt.Sprintf("%s %s: %v", method, path, err))
	case status == http.StatusBadGateway && fault && strings.Contains(text, `"code":"upstream_error"`):
		l.injected502.Add(1)
	case status == http.StatusGatewayTimeout && fault && strings.Contains(text, `"code":"upstream_timeout"`):
		l.injected504.Add(1)
	case status >= 500:
		l.fail(fmt.Sprintf("%s %s: %d %.200s", method, path, status, text))
	}
}

// coldUnits is the number of distinct plain cold units, and of fault
// units.
const coldUnits = 10_000

// faultMix is the faults of the fake register's units in the order they
// are asked (91 503, 92 timeout, 93 slow body, 94 broken body): a timeout
// holds a client for two upstream attempts of 10 s, so it is the rarest.
var faultMix = []int{91, 93, 94, 91, 93, 94, 91, 93, 91, 94, 91, 93, 94, 91, 93, 94, 91, 93, 91, 92}

// nextCold returns a unit not asked before: a fault unit of the fake
// register when fault is set (in the order of faultMix), else a plain one.
func (l *load) nextCold(fault bool) string {
	for {
		// A cycle of coldUnits: the cache's working set stays bounded,
		// and with the soak's cache lifetime (1 min, shorter than a
		// cycle) a unit asked again has expired and is fetched again.
		n := int(l.cold.Add(1)) % coldUnits
		var b int
		if fault {
			b = 80_000_000 + n*100 + faultMix[n%len(faultMix)]
		} else {
			b = 90_000_000 + n*100 + n%90
		}
		if id, ok := orgnr(b); ok {
			return id
		}
	}
}

func (l *load) send(ctx context.Context, method, path, body string, header map[string]string) (int, string, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, l.c.base+path, rd)
	if err != nil {
		return 0, "", err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := l.client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return res.StatusCode, "", err
	}
	return res.StatusCode, string(bytes.TrimSpace(b)), nil
}

func (l *load) record(kind string, status int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.counts == nil {
		l.counts = map[string]map[int]int{}
	}
	if l.counts[kind] == nil {
		l.counts[kind] = map[int]int{}
	}
	l.counts[kind][status]++
}

func (l *load) fail(what string) {
	l.unexpected.Add(1)
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.bad) < 10 {
		l.bad = append(l.bad, what)
	}
}

func (l *load) count(kind string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, c := range l.counts[kind] {
		n += c
	}
	return n
}

// statuses lists the statuses of kind with their counts ("0" is a failed
// connection).
func (l *load) statuses(kind string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var codes []int
	for code := range l.counts[kind] {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	var parts []string
	for _, code := range codes {
		parts = append(parts, fmt.Sprintf("%d×%d", code, l.counts[kind][code]))
	}
	return strings.Join(parts, " ")
}

func (l *load) examples() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.bad)
}
