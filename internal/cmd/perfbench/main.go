// Command perfbench holds the parts of the end-to-end performance benchmark
// (.ci/perf-bench.sh, BENCHMARKS.md "Performance II") that wrk does not do.
// Every request goes to a loopback address given on the command line, and
// every run is bounded by its count.
//
//	perfbench bare -from URL [-addr 127.0.0.1:0]
//	    fetches URL once and then serves its status, headers and body, the
//	    same bytes, to every request, from a plain net/http handler: the
//	    ceiling a cached lookup is compared with. It prints its base URL
//	    ("http://host:port") as the first line on stdout.
//	perfbench stdio [-calls N] [-rounds R] [-method M] [-params JSON] [-socketpair] NAME=COMMAND...
//	    one plain JSON-RPC client over stdio: for each round and each
//	    server in turn, starts COMMAND, initializes, sends two requests to
//	    warm up and then N sequential requests (each after the previous
//	    answer), and prints the calls per second. The server's stdin and
//	    stdout are pipes, as a Go or Python client makes them, or with
//	    -socketpair Unix socketpairs, as a Node client (libuv) makes them.
//	perfbench cold -api URL -register URL [-n 300] [-from 20000000]
//	    n sequential lookups of fresh organisation numbers through the
//	    server (GET URL/v1/NO/company/ID), each next to a request for
//	    another fresh number straight to the register (a fakebrreg with
//	    -delay), and prints the percentiles of both and of the latency the
//	    service adds: each lookup's time at the client minus the time the
//	    register's handler took for it (fakebrreg's /held/ID). The same
//	    difference for the requests straight to the register is the floor
//	    of that figure: what the client's and the register's HTTP stacks
//	    and one loopback round trip take with no service between them.
//	perfbench proxy -register URL [-addr 127.0.0.1:0]
//	    the least a Go net/http service in front of the register can do for
//	    a cold lookup: GET URL/v1/NO/company/ID asks the register (a
//	    fakebrreg) for unit ID with one shared net/http client and writes
//	    its status and body back; no cache, no decoding, no log. perfbench
//	    cold against it measures what one more hop through a Go process
//	    adds on the machine, the floor of the server's cold figure. It
//	    prints its base URL as the first line on stdout.
//	perfbench ratios A/B...
//	    reads lines "NAME VALUE" (one wrk run each, rounds in order) on
//	    stdin and prints each NAME's median and, for each A/B, the median
//	    and range of the per-round ratios A ÷ B (the i-th A over the i-th B).
//	perfbench fill -api URL -pid PID [-n 20000] [-workers 4] [-from 30000000]
//	    looks up n distinct fresh organisation numbers through the server
//	    and prints the server's resident memory (VmRSS, VmHWM of
//	    /proc/PID/status) before and after.
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
	"math"
	"net/http"
	"os"
	"os/exec"
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

// run is the program; it returns the exit status: 0, 1 when a run failed,
// 2 for bad arguments.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: perfbench bare|stdio|cold|proxy|fill|ratios [flags]")
		return 2
	}
	var err error
	switch args[0] {
	case "bare":
		err = bare(ctx, args[1:], stdout, stderr)
	case "stdio":
		err = stdio(ctx, args[1:], stdout, stderr)
	case "cold":
		err = cold(ctx, args[1:], stdout, stderr)
	case "proxy":
		err = proxy(ctx, args[1:], stdout, stderr)
	case "fill":
		err = fill(ctx, args[1:], stdout, stderr)
	case "ratios":
		err = ratios(os.Stdin, args[1:], stdout)
	default:
		fmt.Fprintf(stderr, "perfbench: unknown command %q (bare, stdio, cold, proxy, fill, ratios)\n", args[0])
		return 2
	}
	var usage usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "perfbench %s: %v\n", args[0], err)
		return 2
	default:
		fmt.Fprintf(stderr, "perfbench %s: %v\n", args[0], err)
		return 1
	}
}

// usageError is a bad argument.
type usageError struct{ error }

func parse(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	return nil
}

// response is a captured answer: what the bare server repeats.
type response struct {
	status int
	header http.Header
	body   []byte
}

// capture fetches url once. The Date header is left out: net/http writes
// its own on every response, as it does for the server measured.
func capture(ctx context.Context, url string) (*response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	h := res.Header.Clone()
	h.Del("Date")
	return &response{status: res.StatusCode, header: h, body: body}, nil
}

// ServeHTTP writes the captured answer: the headers (each value a slice
// prepared once, as the cheapest handler would), the status and the body in
// one Write.
func (c *response) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	for k, v := range c.header {
		h[k] = v
	}
	w.WriteHeader(c.status)
	_, _ = w.Write(c.body)
}

func bare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bare", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	from := fs.String("from", "", "the URL whose answer to serve (required)")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	if *from == "" {
		return usageError{errors.New("-from is required")}
	}
	c, err := capture(ctx, *from)
	if err != nil {
		return err
	}
	return command.Serve(ctx, *addr, "", c, stdout, 5*time.Second)
}

// lookupProxy is perfbench proxy's handler: a lookup passed to the
// register as it is.
type lookupProxy struct {
	register string // the register's base URL, fakebrreg's
	client   *http.Client
}

func (p lookupProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id, ok := strings.CutPrefix(r.URL.Path, "/v1/NO/company/")
	if !ok {
		http.NotFound(w, r)
		return
	}
	req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, p.register+"/enheter/"+id, nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	res, err := p.client.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(res.StatusCode)
	_, _ = w.Write(b)
}

func proxy(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("proxy", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	register := fs.String("register", "", "base URL of the register, a fakebrreg (required)")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	if *register == "" {
		return usageError{errors.New("-register is required")}
	}
	h := lookupProxy{register: *register, client: &http.Client{Timeout: 30 * time.Second}}
	return command.Serve(ctx, *addr, "", h, stdout, 5*time.Second)
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

// ids returns n valid organisation numbers from eight leading digits base
// on.
func ids(n, base int) []string {
	out := make([]string, 0, n)
	for b := base; len(out) < n && b < 1e8; b++ {
		if id, ok := orgnr(b); ok {
			out = append(out, id)
		}
	}
	return out
}

// get fetches url and checks the status; it returns the time it took.
func get(ctx context.Context, c *http.Client, url string) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	res, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	took := time.Since(start)
	if err != nil {
		return 0, err
	}
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: status %d", url, res.StatusCode)
	}
	return took, nil
}

// percentile returns the p-th percentile (0 < p <= 100) of sorted by the
// nearest-rank method.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[min(max(rank, 1), len(sorted))-1]
}

func ms(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 2, 64) + " ms" }

func cold(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("cold", flag.ContinueOnError)
	api := fs.String("api", "", "base URL of the server (required)")
	register := fs.String("register", "", "base URL of the register, BRREG_BASE_URL, a fakebrreg with -delay (required)")
	n := fs.Int("n", 300, "lookups")
	from := fs.Int("from", 20_000_000, "eight leading digits of the first fresh number")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	if *api == "" || *register == "" || *n < 1 {
		return usageError{errors.New("-api and -register are required, -n must be positive")}
	}
	root, _, ok := strings.Cut(strings.TrimPrefix(*register, "http://"), "/")
	if !ok {
		return usageError{errors.New("-register is not http://host:port/prefix")}
	}
	fresh := ids(2*(*n+1), *from)
	c := &http.Client{Timeout: 30 * time.Second}
	// One request each way first opens the connections.
	if _, err := get(ctx, c, *register+"/enheter/"+fresh[0]); err != nil {
		return err
	}
	if _, err := get(ctx, c, *api+"/v1/NO/company/"+fresh[1]); err != nil {
		return err
	}
	var direct, through, added, floor []time.Duration
	for i := 1; i <= *n; i++ {
		d, err := get(ctx, c, *register+"/enheter/"+fresh[2*i])
		if err != nil {
			return err
		}
		hd, err := heldFor(ctx, c, "http://"+root+"/held/"+fresh[2*i])
		if err != nil {
			return err
		}
		id := fresh[2*i+1]
		t, err := get(ctx, c, *api+"/v1/NO/company/"+id)
		if err != nil {
			return err
		}
		h, err := heldFor(ctx, c, "http://"+root+"/held/"+id)
		if err != nil {
			return err
		}
		direct, through, added, floor = append(direct, d), append(through, t), append(added, t-h), append(floor, d-hd)
	}
	for _, s := range [][]time.Duration{direct, through, added, floor} {
		slices.Sort(s)
	}
	line := func(what string, s []time.Duration) {
		fmt.Fprintf(stdout, "%s: p50 %s, p90 %s, p99 %s, max %s\n", what,
			ms(percentile(s, 50)), ms(percentile(s, 90)), ms(percentile(s, 99)), ms(s[len(s)-1]))
	}
	fmt.Fprintf(stdout, "cold lookups: %d, each beside a request for another unit straight to the register\n", len(through))
	line("register alone (client's time)", direct)
	line("through the server (client's time)", through)
	line("added: client's time minus the register handler's own", added)
	line("floor: the same for the register alone (no service)", floor)
	return nil
}

// heldFor asks a fakebrreg with -delay how long its handler took for the
// last request of a unit.
func heldFor(ctx context.Context, c *http.Client, url string) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	res, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	var v struct{ NS int64 }
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil || res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: status %d: %w", url, res.StatusCode, err)
	}
	return time.Duration(v.NS), nil
}

// memory returns VmRSS and VmHWM of process pid in KiB.
func memory(pid int) (rss, hwm int64, err error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, 0, err
	}
	return parseStatus(b)
}

// parseStatus reads VmRSS and VmHWM (in kB) from a /proc/PID/status.
func parseStatus(b []byte) (rss, hwm int64, err error) {
	for line := range strings.SplitSeq(string(b), "\n") {
		name, v, ok := strings.Cut(line, ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		n, perr := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if perr != nil {
			return 0, 0, fmt.Errorf("%s: %w", name, perr)
		}
		if name == "VmRSS" {
			rss = n
		} else {
			hwm = n
		}
	}
	if rss == 0 || hwm == 0 {
		return 0, 0, errors.New("no VmRSS or VmHWM")
	}
	return rss, hwm, nil
}

func mib(kib int64) string { return strconv.FormatFloat(float64(kib)/1024, 'f', 1, 64) + " MiB" }

func fill(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("fill", flag.ContinueOnError)
	api := fs.String("api", "", "base URL of the server (required)")
	pid := fs.Int("pid", 0, "process id of the server (required)")
	n := fs.Int("n", 20_000, "distinct reports to cache")
	workers := fs.Int("workers", 4, "concurrent clients")
	from := fs.Int("from", 30_000_000, "eight leading digits of the first fresh number")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	if *api == "" || *pid <= 0 || *n < 1 || *workers < 1 {
		return usageError{errors.New("-api and -pid are required; -n and -workers must be positive")}
	}
	rss0, _, err := memory(*pid)
	if err != nil {
		return err
	}
	fresh := ids(*n, *from)
	c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: *workers}}
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, *workers)
	for range *workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(fresh) || ctx.Err() != nil {
					return
				}
				if _, err := get(ctx, c, *api+"/v1/NO/company/"+fresh[i]); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	rss, hwm, err := memory(*pid)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "cached %d reports: VmRSS %s before, %s after (peak %s)\n", len(fresh), mib(rss0), mib(rss), mib(hwm))
	return nil
}

// server is one stdio server under test.
type server struct{ name, cmd string }

func stdio(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("stdio", flag.ContinueOnError)
	calls := fs.Int("calls", 20_000, "sequential calls per round")
	rounds := fs.Int("rounds", 3, "rounds")
	method := fs.String("method", "tools/call", "JSON-RPC method")
	params := fs.String("params", `{"name":"lookup_company","arguments":{"country":"NO","id":"923609016"}}`, "params (JSON)")
	socket := fs.Bool("socketpair", false, "give the server Unix socketpairs for stdin and stdout, not pipes")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	if !json.Valid([]byte(*params)) || *calls < 1 || *rounds < 1 {
		return usageError{errors.New("-params must be JSON, -calls and -rounds positive")}
	}
	var servers []server
	for _, a := range fs.Args() {
		name, cmd, ok := strings.Cut(a, "=")
		if !ok || name == "" || strings.TrimSpace(cmd) == "" {
			return usageError{fmt.Errorf("%q is not NAME=COMMAND", a)}
		}
		servers = append(servers, server{name, cmd})
	}
	if len(servers) == 0 {
		return usageError{errors.New("no servers")}
	}
	rates := make(map[string][]float64)
	for r := range *rounds {
		for _, s := range servers {
			rate, size, err := stdioRound(ctx, s.cmd, *method, *params, *calls, *socket)
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			rates[s.name] = append(rates[s.name], rate)
			fmt.Fprintf(stdout, "round %d %s: %.0f calls/s (%.1f µs a call; answer %d B)\n", r+1, s.name, rate, 1e6/rate, size)
		}
	}
	for _, s := range servers {
		m, lo, hi := spread(rates[s.name])
		fmt.Fprintf(stdout, "%s: median %.0f calls/s (%.0f–%.0f)\n", s.name, m, lo, hi)
	}
	return nil
}

// stdioRound runs one server for one round and returns its calls per
// second and the size of one answer line.
func stdioRound(ctx context.Context, command, method, params string, calls int, socket bool) (float64, int, error) {
	f := strings.Fields(command)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, f[0], f[1:]...)
	var in io.WriteCloser
	var outPipe io.ReadCloser
	if socket {
		cin, sin, err := socketpair()
		if err != nil {
			return 0, 0, err
		}
		cout, sout, err := socketpair()
		if err != nil {
			_, _ = cin.Close(), sin.Close()
			return 0, 0, err
		}
		defer cout.Close()
		in, outPipe, cmd.Stdin, cmd.Stdout = cin, cout, sin, sout
		err = cmd.Start()
		_, _ = sin.Close(), sout.Close() // the server's ends, in the server now
		if err != nil {
			_ = cin.Close()
			return 0, 0, err
		}
	} else {
		var err error
		if in, err = cmd.StdinPipe(); err != nil {
			return 0, 0, err
		}
		if outPipe, err = cmd.StdoutPipe(); err != nil {
			return 0, 0, err
		}
		if err := cmd.Start(); err != nil {
			return 0, 0, err
		}
	}
	defer func() {
		_ = in.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	out := bufio.NewReaderSize(outPipe, 1<<16)
	w := bufio.NewWriter(in)
	send := func(msg string) error {
		if _, err := w.WriteString(msg + "\n"); err != nil {
			return err
		}
		return w.Flush()
	}
	call := func(msg string) ([]byte, error) {
		if err := send(msg); err != nil {
			return nil, err
		}
		return out.ReadSlice('\n')
	}
	line, err := call(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"perfbench","version":"0"}}}`)
	if err != nil || !bytes.Contains(line, []byte(`"result"`)) {
		return 0, 0, fmt.Errorf("initialize: %q: %w", line, err)
	}
	if err := send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		return 0, 0, err
	}
	req := func(id int) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + method + `","params":` + params + `}`
	}
	// The first call may fill the cache; the second is the answer every
	// later one repeats, with its own id.
	for id := 1; id <= 2; id++ {
		line, err = call(req(id))
		if err != nil || !bytes.Contains(line, []byte(`"result"`)) || bytes.Contains(line, []byte(`"isError":true`)) {
			return 0, 0, fmt.Errorf("%s %d: %.300q: %w", method, id, line, err)
		}
	}
	size := len(line)
	last := calls + 2
	want := bytes.Replace(line, []byte(`"id":2,`), []byte(`"id":`+strconv.Itoa(last)+`,`), 1)
	start := time.Now()
	for id := 3; id <= last; id++ {
		if line, err = call(req(id)); err != nil {
			return 0, 0, fmt.Errorf("call %d: %w", id, err)
		}
	}
	rate := float64(calls) / time.Since(start).Seconds()
	if !bytes.Equal(line, want) {
		return 0, 0, fmt.Errorf("the last answer differs from the second: %.300q", line)
	}
	return rate, size, nil
}

// ratios prints the medians of the series read from in and the per-round
// ratios of the pairs.
func ratios(in io.Reader, pairs []string, stdout io.Writer) error {
	series := map[string][]float64{}
	var names []string
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 {
			continue
		}
		v, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			return fmt.Errorf("%q: %w", sc.Text(), err)
		}
		if _, ok := series[f[0]]; !ok {
			names = append(names, f[0])
		}
		series[f[0]] = append(series[f[0]], v)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	for _, n := range names {
		m, lo, hi := spread(series[n])
		fmt.Fprintf(stdout, "%s: median %.1f (%.1f–%.1f) over %d runs\n", n, m, lo, hi, len(series[n]))
	}
	for _, p := range pairs {
		a, b, ok := strings.Cut(p, "/")
		if !ok || len(series[a]) == 0 || len(series[a]) != len(series[b]) {
			return usageError{fmt.Errorf("%q is not A/B of two series of the same length", p)}
		}
		r := make([]float64, len(series[a]))
		for i := range r {
			r[i] = series[a][i] / series[b][i]
		}
		m, lo, hi := spread(r)
		fmt.Fprintf(stdout, "%s ÷ %s: median %.3f (%.3f–%.3f) over %d rounds\n", a, b, m, lo, hi, len(r))
	}
	return nil
}

// spread returns the median, the least and the greatest of v (not empty).
func spread(v []float64) (median, lo, hi float64) {
	s := slices.Sorted(slices.Values(v))
	n := len(s)
	median = s[n/2]
	if n%2 == 0 {
		median = (s[n/2-1] + s[n/2]) / 2
	}
	return median, s[0], s[n-1]
}
