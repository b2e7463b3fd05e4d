package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/changes/ingest"
	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/moduletest"
	"github.com/companyregistry/registry/internal/testwait"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestParseConfigDefaults(t *testing.T) {
	t.Parallel()
	got, err := parseConfig(nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := config{addr: ":8080", rateLimit: 60, cacheTTL: 24 * time.Hour, logLevel: slog.LevelInfo, replicas: 1,
		countries: countries.Config{DataDir: "companyregistry-data"},
		changes:   changeConfig{dataDir: "companyregistry-data", ingest: ingest.Settings{Interval: time.Minute, PollInterval: 24 * time.Hour}}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(config{}, changeConfig{})); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
}

// TestParseConfigEnvironment: every variable of DESIGN §3, and a flag wins
// over its variable.
func TestParseConfigEnvironment(t *testing.T) {
	t.Parallel()
	e := env(map[string]string{
		"REGISTRY_ADDR":            "127.0.0.1:9000",
		"BRREG_BASE_URL":           "http://brreg.test/api",
		"COMPANIES_HOUSE_BASE_URL": "http://ch.test",
		"COMPANIES_HOUSE_API_KEY":  " key ",
		"REGISTRY_CONTACT_EMAIL":   "ops@example.com",
		"REGISTRY_RATE_LIMIT":      "0",
		"REGISTRY_TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.1,",
		"REGISTRY_CACHE_TTL":       "90m",
		"REGISTRY_LOG_LEVEL":       "DEBUG",
		"REGISTRY_PUBLIC_URL":      "https://registry.example.com",
		"REGISTRY_REPLICAS":        " 3 ",
		"BOLAGSVERKET_CREDENTIALS": "id:secret",
		"BOLAGSVERKET_BASE_URL":    "https://bv.test/v1",
		"BOLAGSVERKET_TOKEN_URL":   "https://bv.test/token",
		"BOLAGSVERKET_BULK_FILE":   "/data/bolagsverket_bulkfil.zip",
		"REGISTRY_DATA_DIR":        " /var/lib/registry ",
	})
	got, err := parseConfig([]string{"-addr", ":7000", "-stdio"}, e, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := config{
		addr: ":7000", stdio: true,
		countries: countries.Config{BrregBaseURL: "http://brreg.test/api", CompaniesHouseBaseURL: "http://ch.test",
			CompaniesHouseAPIKey: "key", ContactEmail: "ops@example.com", BolagsverketCredentials: "id:secret",
			BolagsverketBaseURL: "https://bv.test/v1", BolagsverketTokenURL: "https://bv.test/token",
			BolagsverketBulkFile: "/data/bolagsverket_bulkfil.zip", DataDir: "/var/lib/registry"},
		rateLimit:      0,
		trustedProxies: []string{"10.0.0.0/8", "192.0.2.1"}, cacheTTL: 90 * time.Minute, logLevel: slog.LevelDebug,
		publicURL: "https://registry.example.com", replicas: 3,
		changes: changeConfig{dataDir: "/var/lib/registry", dataDirSet: true, ingest: ingest.Settings{Interval: time.Minute, PollInterval: 24 * time.Hour}},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(config{}, changeConfig{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got, _ := parseConfig(nil, e, io.Discard); got.addr != "127.0.0.1:9000" {
		t.Errorf("REGISTRY_ADDR not used: %q", got.addr)
	}
}

func TestParseConfigErrors(t *testing.T) {
	t.Parallel()
	for name, tt := range map[string]struct {
		args []string
		env  map[string]string
		want string
	}{
		"rate not a number":   {env: map[string]string{"REGISTRY_RATE_LIMIT": "sixty"}, want: "REGISTRY_RATE_LIMIT"},
		"ttl not a duration":  {env: map[string]string{"REGISTRY_CACHE_TTL": "1 day"}, want: "REGISTRY_CACHE_TTL"},
		"log level":           {env: map[string]string{"REGISTRY_LOG_LEVEL": "loud"}, want: "REGISTRY_LOG_LEVEL"},
		"heap floor":          {env: map[string]string{"REGISTRY_HEAP_FLOOR": "24MB"}, want: "REGISTRY_HEAP_FLOOR"},
		"addr without port":   {args: []string{"-addr", "localhost"}, want: "host:port"},
		"addr env empty port": {env: map[string]string{"REGISTRY_ADDR": "nohost"}, want: "REGISTRY_ADDR"},
		"unknown flag":        {args: []string{"-port", "1"}, want: "flag provided but not defined"},
		"stray argument":      {args: []string{"serve"}, want: "unexpected argument"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := parseConfig(tt.args, env(tt.env), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one naming %q", err, tt.want)
			}
		})
	}
	var help bytes.Buffer
	if _, err := parseConfig([]string{"-h"}, env(nil), &help); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v", err)
	}
	for _, v := range []string{"-addr", "-stdio", "BRREG_BASE_URL", "COMPANIES_HOUSE_API_KEY", "REGISTRY_PUBLIC_URL", "REGISTRY_TRUSTED_PROXIES"} {
		if !strings.Contains(help.String(), v) {
			t.Errorf("usage does not mention %s", v)
		}
	}
}

// TestConfigRefusedInBothModes: every setting whose option refuses its
// value is refused by parseConfig + build, with and without -stdio, and the
// error names the flag or environment variable it came from (README
// "Running the server": an invalid configuration says which setting is
// wrong). The range checks live in the options only (registry.WithCacheTTL,
// restserver.WithRateLimit, ...), not in parseConfig.
func TestConfigRefusedInBothModes(t *testing.T) {
	t.Parallel()
	for name, tt := range map[string]struct {
		args []string
		env  map[string]string
		want string
	}{
		"rate not a number":   {env: map[string]string{"REGISTRY_RATE_LIMIT": "sixty"}, want: "REGISTRY_RATE_LIMIT"},
		"rate negative":       {env: map[string]string{"REGISTRY_RATE_LIMIT": "-1"}, want: "REGISTRY_RATE_LIMIT"},
		"ttl not a duration":  {env: map[string]string{"REGISTRY_CACHE_TTL": "1 day"}, want: "REGISTRY_CACHE_TTL"},
		"ttl above 24h":       {env: map[string]string{"REGISTRY_CACHE_TTL": "25h"}, want: "REGISTRY_CACHE_TTL"},
		"ttl zero":            {env: map[string]string{"REGISTRY_CACHE_TTL": "0s"}, want: "REGISTRY_CACHE_TTL"},
		"ttl negative":        {env: map[string]string{"REGISTRY_CACHE_TTL": "-1h"}, want: "REGISTRY_CACHE_TTL"},
		"log level":           {env: map[string]string{"REGISTRY_LOG_LEVEL": "loud"}, want: "REGISTRY_LOG_LEVEL"},
		"addr without port":   {args: []string{"-addr", "localhost"}, want: "-addr"},
		"addr env empty port": {env: map[string]string{"REGISTRY_ADDR": "nohost"}, want: "REGISTRY_ADDR"},
		"proxies bad CIDR":    {env: map[string]string{"REGISTRY_TRUSTED_PROXIES": "10.0.0.0/99"}, want: "REGISTRY_TRUSTED_PROXIES"},
		"proxies not an IP":   {env: map[string]string{"REGISTRY_TRUSTED_PROXIES": "10.0.0.0/8, proxy"}, want: "REGISTRY_TRUSTED_PROXIES"},
		"public URL relative": {env: map[string]string{"REGISTRY_PUBLIC_URL": "registry.example.com"}, want: "REGISTRY_PUBLIC_URL"},
		"public URL ftp":      {env: map[string]string{"REGISTRY_PUBLIC_URL": "ftp://x"}, want: "REGISTRY_PUBLIC_URL"},
		"public URL query":    {env: map[string]string{"REGISTRY_PUBLIC_URL": "https://r.example/?a=b"}, want: "REGISTRY_PUBLIC_URL"},
		"base path relative":  {env: map[string]string{"REGISTRY_BASE_PATH": "registry"}, want: "REGISTRY_BASE_PATH"},
		"base path dot-dot":   {env: map[string]string{"REGISTRY_BASE_PATH": "/a/../b"}, want: "REGISTRY_BASE_PATH"},
		"brreg URL":           {env: map[string]string{"BRREG_BASE_URL": "ftp://brreg"}, want: "BRREG_BASE_URL"},
		"ch URL":              {env: map[string]string{"COMPANIES_HOUSE_BASE_URL": "not a url"}, want: "COMPANIES_HOUSE_BASE_URL"},
		"prh URL":             {env: map[string]string{"PRH_BASE_URL": "avoindata.prh.fi"}, want: "PRH_BASE_URL"},
		"contact email":       {env: map[string]string{"REGISTRY_CONTACT_EMAIL": "ops (at) example.com"}, want: "REGISTRY_CONTACT_EMAIL"},
		"upstream wait word":  {env: map[string]string{"REGISTRY_UPSTREAM_WAIT": "soon"}, want: "REGISTRY_UPSTREAM_WAIT"},
		"upstream wait long":  {env: map[string]string{"REGISTRY_UPSTREAM_WAIT": "11s"}, want: "REGISTRY_UPSTREAM_WAIT"},
		"upstream wait < 0":   {env: map[string]string{"REGISTRY_UPSTREAM_WAIT": "-1s"}, want: "REGISTRY_UPSTREAM_WAIT"},
	} {
		for _, mode := range []string{"http", "stdio"} {
			t.Run(name+"/"+mode, func(t *testing.T) {
				t.Parallel()
				args := tt.args
				if mode == "stdio" {
					args = append([]string{"-stdio"}, args...)
				}
				cfg, err := parseConfig(args, env(tt.env), io.Discard)
				if err == nil {
					_, err = build(cfg, slog.New(slog.DiscardHandler))
				}
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("error %v, want one naming %q", err, tt.want)
				}
			})
		}
	}
}

// TestConfigAcceptedInBothModes: the edge values the options allow pass
// parseConfig + build in both modes.
func TestConfigAcceptedInBothModes(t *testing.T) {
	t.Parallel()
	for name, e := range map[string]map[string]string{
		"defaults":          nil,
		"rate off":          {"REGISTRY_RATE_LIMIT": "0"},
		"ttl 24h":           {"REGISTRY_CACHE_TTL": "24h"},
		"ttl 1ns":           {"REGISTRY_CACHE_TTL": "1ns"},
		"proxies":           {"REGISTRY_TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.1, ::1"},
		"public URL":        {"REGISTRY_PUBLIC_URL": "https://registry.example.com/"},
		"base path":         {"REGISTRY_BASE_PATH": "/registry/"},
		"base URLs, mail":   {"BRREG_BASE_URL": "http://brreg.test/api", "COMPANIES_HOUSE_BASE_URL": "https://ch.test", "REGISTRY_CONTACT_EMAIL": "ops@example.com"},
		"no upstream wait":  {"REGISTRY_UPSTREAM_WAIT": "0"},
		"upstream wait 10s": {"REGISTRY_UPSTREAM_WAIT": "10s"},
	} {
		for _, args := range [][]string{nil, {"-stdio"}} {
			t.Run(name+"/"+strings.Join(args, ""), func(t *testing.T) {
				t.Parallel()
				cfg, err := parseConfig(args, env(e), io.Discard)
				if err != nil {
					t.Fatal(err)
				}
				cfg.changes.dataDir = t.TempDir() // the change store's folder: the test's own
				a, err := build(cfg, slog.New(slog.DiscardHandler))
				if err != nil {
					t.Fatalf("build: %v", err)
				}
				if (a.changes != nil) == (cfg.stdio) {
					t.Errorf("change monitoring on: %v, want it on over HTTP only (no store chosen)", a.changes != nil)
				}
				a.close()
			})
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer = moduletest.SyncBuffer

// TestInvalidConfigExits2: a clear message naming the setting on stderr
// and exit status 2, over HTTP and with -stdio alike.
func TestInvalidConfigExits2(t *testing.T) {
	t.Parallel()
	for name, tt := range map[string]struct {
		env  map[string]string
		want string
	}{
		"rate":         {map[string]string{"REGISTRY_RATE_LIMIT": "x"}, "REGISTRY_RATE_LIMIT"},
		"rate < 0":     {map[string]string{"REGISTRY_RATE_LIMIT": "-5"}, "REGISTRY_RATE_LIMIT"},
		"ttl":          {map[string]string{"REGISTRY_CACHE_TTL": "48h"}, "REGISTRY_CACHE_TTL"},
		"proxies":      {map[string]string{"REGISTRY_TRUSTED_PROXIES": "10.0.0.0/99"}, "REGISTRY_TRUSTED_PROXIES"},
		"public URL":   {map[string]string{"REGISTRY_PUBLIC_URL": "registry.example.com"}, "REGISTRY_PUBLIC_URL"},
		"public ftp":   {map[string]string{"REGISTRY_PUBLIC_URL": "ftp://x"}, "REGISTRY_PUBLIC_URL"},
		"brreg URL":    {map[string]string{"BRREG_BASE_URL": "ftp://brreg"}, "BRREG_BASE_URL"},
		"ch URL":       {map[string]string{"COMPANIES_HOUSE_BASE_URL": "not a url"}, "COMPANIES_HOUSE_BASE_URL"},
		"prh URL":      {map[string]string{"PRH_BASE_URL": "ftp://prh"}, "PRH_BASE_URL"},
		"contact mail": {map[string]string{"REGISTRY_CONTACT_EMAIL": "a\nb"}, "REGISTRY_CONTACT_EMAIL"},
	} {
		for _, args := range [][]string{nil, {"-stdio"}} {
			t.Run(name+"/"+strings.Join(args, ""), func(t *testing.T) {
				t.Parallel()
				var stderr, stdout syncBuffer
				code := run(t.Context(), args, env(tt.env), strings.NewReader(""), &stdout, &stderr, nil)
				if code != 2 || !strings.HasPrefix(stderr.String(), "server: "+tt.want) {
					t.Errorf("exit %d, stderr %q; want 2 and a message starting with server: %s", code, stderr.String(), tt.want)
				}
				if stdout.String() != "" {
					t.Errorf("stdout %q, want nothing", stdout.String())
				}
			})
		}
	}
}

// TestStdio runs the program with -stdio: an MCP client on the other end of
// stdin and stdout looks up a company from the fake Brønnøysund, and the
// program exits 0 when the client closes stdin. Logs stay on stderr.
func TestStdio(t *testing.T) {
	t.Parallel()
	upstream := fakeBrreg(t, nil, nil)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(t.Context(), []string{"-stdio"}, env(map[string]string{"BRREG_BASE_URL": upstream.URL}), inR, outW, &stderr, nil)
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(t.Context(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "lookup_company", Arguments: map[string]any{"id": "923 609 016"}})
	if err != nil || res.IsError {
		t.Fatalf("lookup_company: %v %+v", err, res)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, `"name":"EQUINOR ASA"`) {
		t.Errorf("lookup_company: %s", text)
	}
	_ = cs.Close()
	if code := testwait.Recv(t, done, "the program's exit after the client closed stdin"); code != 0 {
		t.Errorf("exit status %d, stderr %s", code, stderr.String())
	}
}

// fakeBrreg serves the recorded Equinor unit, and 404 for everything else.
// started, when not nil, receives one value per unit request, which then
// waits until gate is closed (or the test ends).
func fakeBrreg(t *testing.T, gate <-chan struct{}, started chan<- struct{}) *httptest.Server {
	t.Helper()
	body, err := os.ReadFile("testdata/brreg_enhet_923609016.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/enheter/923609016" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		if started != nil {
			started <- struct{}{}
		}
		if gate != nil {
			select {
			case <-gate:
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

type running struct {
	addr   string
	cancel context.CancelFunc
	done   chan int
	stderr *syncBuffer
}

// start runs the program with the environment e on a free loopback port
// and returns once it listens: run reports the address it listens on,
// which is the signal. The wait has no time limit of its own (a loaded
// machine starts the program later); only the test's deadline ends it.
func start(t *testing.T, e map[string]string) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(cancel)
	r := &running{cancel: cancel, done: make(chan int, 1), stderr: &syncBuffer{}}
	addrc := make(chan string, 1)
	e["REGISTRY_ADDR"] = "127.0.0.1:0"
	// Change monitoring only where a test asks for it (it reads the
	// register's feed, which counts against the upstream budget), in the
	// test's own folder.
	if e["REGISTRY_CHANGES"] == "" {
		e["REGISTRY_CHANGES"] = "off"
	}
	if e["REGISTRY_DATA_DIR"] == "" {
		e["REGISTRY_DATA_DIR"] = t.TempDir()
	}
	go func() {
		r.done <- run(ctx, nil, env(e), strings.NewReader(""), io.Discard, r.stderr, func(a string) { addrc <- a })
	}()
	select {
	case r.addr = <-addrc:
	case code := <-r.done:
		t.Fatalf("server exited %d: %s", code, r.stderr.String())
	case <-testwait.Expired(t):
		t.Fatalf("server did not start before the test's deadline: %s", r.stderr.String())
	}
	return r
}

// TestServerEndToEnd runs the program against a fake Brønnøysund: Norway
// answers, GB is absent from the lists without a key and answers 502 naming
// the key, MCP answers at /mcp and /mcp/ without a redirect (also for a
// public Host name), and the logs are JSON without the key.
func TestServerEndToEnd(t *testing.T) {
	t.Parallel()
	upstream := fakeBrreg(t, nil, nil)
	r := start(t, map[string]string{"BRREG_BASE_URL": upstream.URL, "REGISTRY_LOG_LEVEL": "debug"})
	get := func(path string) (int, string) {
		t.Helper()
		res, err := http.Get("http://" + r.addr + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get("/health"); code != 200 || !strings.Contains(body, `"countries":["FI","FR","NO"]`) {
		t.Errorf("/health: %d %s", code, body)
	}
	if code, body := get("/v1/NO/company/923%20609%20016"); code != 200 || !strings.Contains(body, `"name":"EQUINOR ASA"`) {
		t.Errorf("lookup: %d %s", code, body)
	}
	if code, body := get("/v1/GB/company/00000006"); code != 502 || !strings.Contains(body, "COMPANIES_HOUSE_API_KEY") {
		t.Errorf("GB without key: %d %s", code, body)
	}
	if code, _ := get("/v1/GB/validate/6"); code != 200 {
		t.Errorf("GB validate without key: %d", code)
	}
	for _, path := range []string{"/mcp", "/mcp/"} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, "http://"+r.addr+path, strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_company","arguments":{"id":"923609016"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Host = "registry.example.com"
		res, err := http.DefaultTransport.RoundTrip(req) // no redirect following
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(b), `EQUINOR ASA`) {
			t.Errorf("POST %s: %d %s", path, res.StatusCode, b)
		}
	}
	if code, _ := get("/mcp"); code != http.StatusMethodNotAllowed {
		t.Errorf("GET /mcp: %d, want 405 (stateless MCP has no SSE stream)", code)
	}
	r.cancel()
	if code := <-r.done; code != 0 {
		t.Errorf("exit status %d after shutdown", code)
	}
	for _, line := range strings.Split(strings.TrimSpace(r.stderr.String()), "\n") {
		if !json.Valid([]byte(line)) {
			t.Errorf("log line is not JSON: %q", line)
		}
	}
	if !strings.Contains(r.stderr.String(), `"route":"GET /v1/{country}/company/{id}"`) {
		t.Errorf("no access log record for the lookup:\n%s", r.stderr.String())
	}
}

// TestGracefulShutdown: a slow request in flight when the signal arrives
// completes, while new connections are refused.
func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	started := make(chan struct{}, 1)
	slow := make(chan struct{}) // the register answers once closed
	release := sync.OnceFunc(func() { close(slow) })
	t.Cleanup(release)
	upstream := fakeBrreg(t, slow, started)
	r := start(t, map[string]string{"BRREG_BASE_URL": upstream.URL})

	type result struct {
		code int
		body string
		err  error
	}
	inflight := make(chan result, 1)
	go func() {
		res, err := http.Get("http://" + r.addr + "/v1/NO/company/923609016")
		if err != nil {
			inflight <- result{err: err}
			return
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		inflight <- result{code: res.StatusCode, body: string(b), err: err}
	}()
	testwait.Recv(t, started, "the request's arrival at the upstream")
	r.cancel() // what SIGINT/SIGTERM does through signal.NotifyContext

	// The register holds the request until the server refuses new
	// connections: the refusal is seen while the request is in flight.
	testwait.Until(t, "new connections refused after the shutdown signal", func() bool {
		c, err := net.Dial("tcp", r.addr)
		if err != nil {
			return true
		}
		c.Close()
		return false
	})
	select {
	case res := <-inflight:
		t.Fatalf("the in-flight request ended before the register answered: %d %v", res.code, res.err)
	default:
	}
	release()
	if res := testwait.Recv(t, inflight, "the in-flight request's answer"); res.err != nil || res.code != 200 ||
		!strings.Contains(res.body, "EQUINOR ASA") {
		t.Errorf("in-flight request: %d %v %.100s", res.code, res.err, res.body)
	}
	if code := testwait.Recv(t, r.done, "the server's stop"); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// FuzzParseConfig: any environment value either parses and builds or is a
// clear error, never a panic.
func FuzzParseConfig(f *testing.F) {
	f.Add("60", "24h", "info", "10.0.0.0/8", ":8080")
	f.Add("-1", "0s", "LOUD", ",,", "x")
	f.Fuzz(func(t *testing.T, rate, ttl, level, proxies, addr string) {
		cfg, err := parseConfig(nil, env(map[string]string{"REGISTRY_RATE_LIMIT": rate, "REGISTRY_CACHE_TTL": ttl,
			"REGISTRY_LOG_LEVEL": level, "REGISTRY_TRUSTED_PROXIES": proxies, "REGISTRY_ADDR": addr}), io.Discard)
		if err != nil {
			return
		}
		cfg.changes.off = true // the fuzzed settings are others; no store per input
		a, err := build(cfg, slog.New(slog.DiscardHandler))
		if err != nil {
			return
		}
		a.close()
		if cfg.rateLimit < 0 || cfg.cacheTTL <= 0 || cfg.cacheTTL > 24*time.Hour || cfg.addr == "" {
			t.Errorf("accepted an invalid configuration: %+v", cfg)
		}
	})
}

// TestBasePath: with REGISTRY_BASE_PATH the REST routes and MCP answer under
// it, the links say so, and nothing is served outside it (issue 14).
func TestBasePath(t *testing.T) {
	t.Parallel()
	cfg, err := parseConfig(nil, env(map[string]string{"REGISTRY_BASE_PATH": "/registry/", "BRREG_BASE_URL": "http://127.0.0.1:1",
		"REGISTRY_CHANGES": "off"}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	a, err := build(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.close)
	srv := httptest.NewServer(a.handler)
	t.Cleanup(srv.Close)
	get := func(path string) (int, string) {
		res, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if status, body := get("/registry/v1/NO/validate/923609016"); status != http.StatusOK || !strings.Contains(body, `"valid":true`) {
		t.Errorf("validate under the base path: %d %s", status, body)
	}
	if status, body := get("/registry/llms.txt"); status != http.StatusOK || !strings.Contains(body, srv.URL+"/registry/mcp") {
		t.Errorf("llms.txt under the base path: %d\n%s", status, body)
	}
	if status, _ := get("/v1/NO/validate/923609016"); status != http.StatusNotFound {
		t.Errorf("outside the base path: %d, want 404", status)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/registry/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("MCP under the base path: %d", res.StatusCode)
	}
}

// TestParseHeapFloor: REGISTRY_HEAP_FLOOR in bytes, KiB, MiB or GiB, up
// to 64 GiB; unset is the default, 0 none; anything else an error that
// names the variable.
func TestParseHeapFloor(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]uint64{
		"": defaultHeapFloor, "0": 0, "24MiB": 24 << 20, " 16 KiB ": 16 << 10, "1048576": 1 << 20,
		"2GiB": 2 << 30, "64GiB": 64 << 30, "0MiB": 0,
	} {
		got, err := parseHeapFloor(env(map[string]string{"REGISTRY_HEAP_FLOOR": v}))
		if err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", v, got, err, want)
		}
	}
	for _, v := range []string{"-1", "1.5MiB", "MiB", "24MB", "24mib", "65GiB", "18446744073709551615", "1e6"} {
		if got, err := parseHeapFloor(env(map[string]string{"REGISTRY_HEAP_FLOOR": v})); err == nil ||
			!strings.Contains(err.Error(), "REGISTRY_HEAP_FLOOR") {
			t.Errorf("%q: %d, %v; want an error naming the variable", v, got, err)
		}
	}
}
