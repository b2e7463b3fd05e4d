package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/testwait"
)

// program is the program's HTTP stack as run() builds it (countries.All,
// newHandler, newHTTPServer) with the registers at test URLs, the rate
// limit off, no pause before a retry, and the longest attempt timeout (a
// minute) unless the test sets one: a loaded machine never makes a
// register that answers look hung.
type program struct {
	url    string
	log    *syncBuffer // JSON records of every logger, debug level
	client *http.Client
	reg    *registry.Registry
	// handler is the program's handler (newHandler), for a test that
	// serves it on a listener of its own.
	handler http.Handler
}

type programConfig struct {
	brreg, ch, key string
	recherche      string // the API Recherche d'entreprises (FR)
	// sweden sets the Swedish fields of the countries' Config (the
	// credential, the addresses, the bulk file and the data directory);
	// with a bulk file, startProgram returns once it is indexed.
	sweden  countries.Config
	limits  limits
	regOpts []registry.Option
	// transport, when not nil, carries the modules' requests (a
	// counting wrapper of an http.Transport).
	transport http.RoundTripper
}

func startProgram(t *testing.T, pc programConfig) *program {
	t.Helper()
	if pc.limits == (limits{}) {
		pc.limits = defaultLimits()
	}
	p := &program{log: &syncBuffer{}, client: &http.Client{Transport: &http.Transport{}}}
	logger := slog.New(slog.NewJSONHandler(p.log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	sw := pc.sweden
	cfg := countries.Config{BrregBaseURL: pc.brreg, CompaniesHouseBaseURL: pc.ch,
		CompaniesHouseAPIKey: pc.key, RechercheEntreprisesBaseURL: pc.recherche, ContactEmail: "ops@example.com", Logger: logger,
		BolagsverketCredentials: sw.BolagsverketCredentials, BolagsverketBaseURL: sw.BolagsverketBaseURL,
		BolagsverketTokenURL: sw.BolagsverketTokenURL, BolagsverketBulkFile: sw.BolagsverketBulkFile, DataDir: sw.DataDir}
	if pc.transport != nil {
		cfg.HTTPClient = &http.Client{Transport: pc.transport}
	}
	cs, err := countries.All(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = countries.Close(cs) })
	for _, c := range cs {
		if w, ok := c.(interface{ WaitIndexed(context.Context) error }); ok && sw.BolagsverketBulkFile != "" {
			indexed := make(chan error, 1)
			go func() { indexed <- w.WaitIndexed(t.Context()) }()
			if err := testwait.Recv(t, indexed, "the Swedish bulk file's index"); err != nil {
				t.Fatal(err)
			}
		}
	}
	opts := append([]registry.Option{registry.WithLogger(logger), registry.WithUpstreamTimeout(time.Minute), // no fake answer reaches it
		registry.WithRetryPause(0), registry.WithVersion("9.9.9-test")}, pc.regOpts...)
	reg, err := registry.New(cs, opts...)
	if err != nil {
		t.Fatal(err)
	}
	p.reg = reg
	h, _, err := newHandler(config{rateLimit: 0}, reg, logger, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.handler = h
	srv := newHTTPServer(h, logger, pc.limits)
	ln, err := listen("127.0.0.1:0") // as serve listens
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	t.Cleanup(func() {
		p.client.CloseIdleConnections()
		_ = srv.Close()
		<-done
	})
	p.url = "http://" + ln.Addr().String()
	return p
}

type response struct {
	status int
	header http.Header
	body   string
}

// do sends req; a request still unanswered when the test's wait gives up
// (testwait.Deadline) fails the test as a hang.
func (p *program) do(t *testing.T, req *http.Request) response {
	t.Helper()
	if dl, ok := testwait.Deadline(t); ok {
		ctx, cancel := context.WithDeadline(req.Context(), dl)
		defer cancel()
		req = req.WithContext(ctx)
	}
	res, err := p.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", req.Method, req.URL, err)
	}
	return response{status: res.StatusCode, header: res.Header, body: string(b)}
}

func (p *program) get(t *testing.T, path string) response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, p.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p.do(t, req)
}

// mcp posts one JSON-RPC request to /mcp.
func (p *program) mcp(t *testing.T, method string, params any) response {
	t.Helper()
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, p.url+"/mcp", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	return p.do(t, req)
}

// envelope decodes an error envelope, failing the test when body is not
// one with a code and a hint.
func envelope(t *testing.T, body string) *registry.Error {
	t.Helper()
	var e registry.Error
	if err := json.Unmarshal([]byte(body), &e); err != nil || e.Hint == "" {
		t.Fatalf("not an error envelope with a hint (%v): %.300s", err, body)
	}
	return &e
}

func testdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
