package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/testwait"
)

// Sweden's test credential and token, and the sole trader of the bulk
// sample: a personal identity number from Skatteverket's test register.
const (
	bvClientID     = "companyregistry-test"
	bvClientSecret = "bv-SECRET-3c1f6e2a9d"
	bvToken        = "bv-TOKEN-8e2d4b6f0a"
	soleTraderPNR  = "198101052382"
	soleTraderName = "Sole Trader Name"
)

// fakeBolagsverket is Bolagsverket's token endpoint and API on one
// server, from recordings: the token for the test credential only, and
// with that token /organisationer (7164099017, a housing co-operative of
// the test register; any other number gets the test environment's 400) and
// /dokumentlista. It keeps every request body, for the personal-data
// checks.
type fakeBolagsverket struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
}

func newFakeBolagsverket(t *testing.T) *fakeBolagsverket {
	t.Helper()
	brf := testdata(t, "bolagsverket_organisationer_7164099017_brf.json")
	docs := testdata(t, "bolagsverket_dokumentlista_5561890038.json")
	bad := testdata(t, "bolagsverket_400_not_on_allowlist.json")
	f := &fakeBolagsverket{}
	send := func(w http.ResponseWriter, status int, body []byte) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.bodies = append(f.bodies, r.URL.String()+" "+string(body))
		f.mu.Unlock()
		if r.URL.Path == "/oauth2/token" {
			form, err := url.ParseQuery(string(body))
			if err != nil || form.Get("grant_type") != "client_credentials" || form.Get("client_id") != bvClientID || form.Get("client_secret") != bvClientSecret {
				send(w, http.StatusUnauthorized, []byte(`{"error":"invalid_client"}`))
				return
			}
			send(w, 200, []byte(`{"access_token":"`+bvToken+`","scope":"vardefulla-datamangder:read vardefulla-datamangder:ping","token_type":"Bearer","expires_in":3600}`))
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+bvToken {
			send(w, http.StatusUnauthorized, nil)
			return
		}
		var q struct {
			ID string `json:"identitetsbeteckning"`
		}
		_ = json.Unmarshal(body, &q)
		switch {
		case r.URL.Path == "/vardefulla-datamangder/v1/organisationer" && q.ID == "7164099017":
			send(w, 200, brf)
		case r.URL.Path == "/vardefulla-datamangder/v1/dokumentlista" && q.ID == "7164099017":
			send(w, 200, docs)
		default:
			send(w, http.StatusBadRequest, bad)
		}
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeBolagsverket) requests() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.bodies, "\n")
}

// env returns the environment of the API with the credential.
func (f *fakeBolagsverket) env() map[string]string {
	return map[string]string{
		"BOLAGSVERKET_CREDENTIALS": bvClientID + ":" + bvClientSecret,
		"BOLAGSVERKET_BASE_URL":    f.URL + "/vardefulla-datamangder/v1",
		"BOLAGSVERKET_TOKEN_URL":   f.URL + "/oauth2/token",
	}
}

// config returns the Swedish fields of the countries' Config: the API
// with the credential, and the bulk file of bulkEnv.
func (f *fakeBolagsverket) config(t *testing.T) countries.Config {
	t.Helper()
	b := bulkEnv(t)
	return countries.Config{BolagsverketCredentials: bvClientID + ":" + bvClientSecret,
		BolagsverketBaseURL: f.URL + "/vardefulla-datamangder/v1", BolagsverketTokenURL: f.URL + "/oauth2/token",
		BolagsverketBulkFile: b["BOLAGSVERKET_BULK_FILE"], DataDir: b["REGISTRY_DATA_DIR"]}
}

// bulkEnv returns the environment of a bulk file (the synthetic sample,
// copied) and a fresh data directory.
func bulkEnv(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "bolagsverket_bulkfil.txt")
	if err := os.WriteFile(file, testdata(t, "bolagsverket_bulkfil_sample_SYNTHETIC.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"BOLAGSVERKET_BULK_FILE": file, "REGISTRY_DATA_DIR": filepath.Join(dir, "data")}
}

// watchWriter is the program's stderr: it keeps every log record and
// closes indexed when the Swedish index's "indexed" record is written
// (slog writes each record in one call).
type watchWriter struct {
	syncBuffer
	once    sync.Once
	indexed chan struct{}
}

func newWatchWriter() *watchWriter { return &watchWriter{indexed: make(chan struct{})} }

func (w *watchWriter) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(`"msg":"Swedish bulk file indexed"`)) {
		w.once.Do(func() { close(w.indexed) })
	}
	return w.syncBuffer.Write(p)
}

// sweden is the program run as an operator would run it, over HTTP, with
// the environment e; it returns once the program listens and has indexed
// the bulk file.
type sweden struct {
	t      *testing.T
	addr   string
	stderr *watchWriter
	done   chan int
	cancel context.CancelFunc
}

func startSweden(t *testing.T, e map[string]string) *sweden {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	s := &sweden{t: t, stderr: newWatchWriter(), done: make(chan int, 1), cancel: cancel}
	e["REGISTRY_ADDR"] = "127.0.0.1:0"
	addrc := make(chan string, 1)
	go func() {
		s.done <- run(ctx, nil, env(e), strings.NewReader(""), io.Discard, s.stderr, func(a string) { addrc <- a })
	}()
	t.Cleanup(func() {
		cancel()
		<-s.done
	})
	expired := testwait.Expired(t)
	select {
	case s.addr = <-addrc:
	case code := <-s.done:
		t.Fatalf("the program exited %d: %s", code, s.stderr.String())
	case <-expired:
		t.Fatalf("the program did not listen before the test's deadline: %s", s.stderr.String())
	}
	select {
	case <-s.stderr.indexed:
	case code := <-s.done:
		t.Fatalf("the program exited %d before indexing: %s", code, s.stderr.String())
	case <-expired:
		t.Fatalf("the program did not index the bulk file before the test's deadline: %s", s.stderr.String())
	}
	return s
}

// get returns the status and body of a REST GET.
func (s *sweden) get(path string) (int, string) {
	s.t.Helper()
	req, err := http.NewRequestWithContext(s.t.Context(), http.MethodGet, "http://"+s.addr+path, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return res.StatusCode, string(b)
}

// mcpHTTP connects an MCP client to the program's /mcp.
func (s *sweden) mcpHTTP() *mcp.ClientSession {
	s.t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(s.t.Context(), &mcp.StreamableClientTransport{Endpoint: "http://" + s.addr + "/mcp"}, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// stdioSweden runs the program with -stdio and the environment e and
// returns an MCP client on its stdin and stdout, once it has indexed the
// bulk file. The program exits when the test ends.
func stdioSweden(t *testing.T, e map[string]string) *mcp.ClientSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	stderr := newWatchWriter()
	done := make(chan int, 1)
	go func() {
		done <- run(t.Context(), []string{"-stdio"}, env(e), inR, outW, stderr, nil)
		_ = outW.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(t.Context(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		if code := <-done; code != 0 {
			t.Errorf("-stdio exited %d: %s", code, stderr.String())
		}
	})
	select {
	case <-stderr.indexed:
	case code := <-done:
		t.Fatalf("-stdio exited %d before indexing: %s", code, stderr.String())
	case <-testwait.Expired(t):
		t.Fatalf("-stdio did not index the bulk file before the test's deadline: %s", stderr.String())
	}
	return cs
}

// call calls a tool and returns its text, failing the test on an error
// result unless wantError.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, wantError bool) string {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError != wantError || len(res.Content) != 1 {
		t.Fatalf("%s %v: isError %t, %d contents", tool, args, res.IsError, len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content %T", tool, res.Content[0])
	}
	return tc.Text
}

// fetchedAt is the time a live answer was fetched, and indexedAt the time
// the bulk file was indexed, which differ between two programs.
var (
	fetchedAt = regexp.MustCompile(`"fetched_at":"[^"]*"`)
	indexedAt = regexp.MustCompile(`indexed \d{4}-\d\d-\d\dT[\d:]+Z`)
)

// sameDocument fails the test unless a and b are byte for byte the same,
// the times of fetching and indexing aside when ignoreTime.
func sameDocument(t *testing.T, what, a, b string, ignoreTime bool) {
	t.Helper()
	if ignoreTime {
		for _, re := range []*regexp.Regexp{fetchedAt, indexedAt} {
			a, b = re.ReplaceAllString(a, "TIME"), re.ReplaceAllString(b, "TIME")
		}
	}
	if a != b {
		t.Errorf("%s: not byte-identical:\n%s\n%s", what, a, b)
	}
}

// TestSwedenAsANewUser (issue 26) runs the program as an operator would:
// first with only the bulk file (search and a basic lookup work, the full
// report is missing with a note naming the credential), then with the
// credential too (the full report from the API, through the OAuth2 token).
// Each answer is the same byte for byte over REST, MCP over HTTP and MCP
// over stdio (a second program, so its fetch time may differ).
func TestSwedenAsANewUser(t *testing.T) {
	t.Parallel()
	t.Run("bulk file only", func(t *testing.T) {
		t.Parallel()
		p := startSweden(t, bulkEnv(t))
		code, body := p.get("/v1/countries")
		if code != 200 || !regexp.MustCompile(`"country":"SE"[^}]*"requires_api_key":true,"api_key_env":"BOLAGSVERKET_CREDENTIALS"`).MatchString(body) {
			t.Errorf("/v1/countries: %d %s", code, body)
		}

		code, search := p.get("/v1/SE/search?q=exempel&limit=20")
		if code != 200 || !strings.Contains(search, `"id":"5560160680","name":"Exempel Sverige AB"`) || !strings.Contains(search, `"total":5`) {
			t.Fatalf("search: %d %s", code, search)
		}
		code, lookup := p.get("/v1/SE/company/556016-0680")
		if code != 200 || !strings.Contains(lookup, `"name":"Exempel Sverige AB"`) ||
			!strings.Contains(lookup, "Set BOLAGSVERKET_CREDENTIALS (a free credential of Bolagsverket's API) for the full report") {
			t.Fatalf("lookup: %d %s", code, lookup)
		}
		if code, body := p.get("/v1/SE/company/7164099017"); code != 404 || !strings.Contains(body, `"code":"not_found"`) {
			t.Errorf("a number the bulk file lacks: %d %s", code, body)
		}
		if code, body := p.get("/v1/SE/company/" + soleTraderPNR); code != 400 || !strings.Contains(body, `"code":"invalid_id"`) {
			t.Errorf("a personal identity number: %d %s", code, body)
		}
		if code, body := p.get("/v1/SE/search?q=sole+trader&limit=20"); code != 200 || strings.Contains(body, soleTraderName) {
			t.Errorf("the sole trader is searchable: %d %s", code, body)
		}

		// The same answers over MCP: cached by the REST calls above, so
		// byte for byte the second REST answer.
		cs := p.mcpHTTP()
		_, search2 := p.get("/v1/SE/search?q=exempel&limit=20")
		_, lookup2 := p.get("/v1/SE/company/556016-0680")
		sameDocument(t, "search, MCP over HTTP", call(t, cs, "search_company", map[string]any{"country": "SE", "name": "exempel", "limit": 20}, false), search2, false)
		sameDocument(t, "lookup, MCP over HTTP", call(t, cs, "lookup_company", map[string]any{"country": "SE", "id": "556016-0680"}, false), lookup2, false)

		// And from a program over stdio, which fetches them itself.
		viaStdio := stdioSweden(t, bulkEnv(t))
		sameDocument(t, "search, MCP over stdio", call(t, viaStdio, "search_company", map[string]any{"country": "SE", "name": "exempel", "limit": 20}, false), search, true)
		sameDocument(t, "lookup, MCP over stdio", call(t, viaStdio, "lookup_company", map[string]any{"country": "SE", "id": "556016-0680"}, false), lookup, true)
	})

	t.Run("with the credential", func(t *testing.T) {
		t.Parallel()
		bv := newFakeBolagsverket(t)
		e := bulkEnv(t)
		for k, v := range bv.env() {
			e[k] = v
		}
		p := startSweden(t, e)
		code, report := p.get("/v1/SE/company/716409-9017")
		if code != 200 || !strings.Contains(report, `"name":"Testbolag 24 bokat av SKV Bostadsrättsförening"`) ||
			!strings.Contains(report, `"code":"68310"`) || !strings.Contains(report, `"last_annual_accounts_year":2022`) ||
			strings.Contains(report, "bulk file") {
			t.Fatalf("full report: %d %s", code, report)
		}
		code, deadlines := p.get("/v1/SE/company/716409-9017/deadlines?today=2026-11-24")
		if code != 200 || !strings.Contains(deadlines, `"kind":"general_meeting"`) || !strings.Contains(deadlines, "period ending 2022-12-31") {
			t.Errorf("deadlines: %d %s", code, deadlines)
		}
		if code, body := p.get("/v1/SE/search?q=exempel&limit=20"); code != 200 || !strings.Contains(body, `"total":5`) {
			t.Errorf("search with the credential: %d %s", code, body)
		}
		if code, body := p.get("/v1/SE/company/5560160680"); code != 400 || !strings.Contains(body, `"code":"invalid_id"`) {
			t.Errorf("a number the test environment does not hold: %d %s", code, body)
		}

		cs := p.mcpHTTP()
		_, report2 := p.get("/v1/SE/company/716409-9017")
		_, deadlines2 := p.get("/v1/SE/company/716409-9017/deadlines?today=2026-11-24")
		sameDocument(t, "report, MCP over HTTP", call(t, cs, "lookup_company", map[string]any{"country": "SE", "id": "716409-9017"}, false), report2, false)
		sameDocument(t, "deadlines, MCP over HTTP",
			call(t, cs, "company_deadlines", map[string]any{"country": "SE", "id": "716409-9017", "today": "2026-11-24"}, false), deadlines2, false)

		e = bulkEnv(t)
		for k, v := range bv.env() {
			e[k] = v
		}
		viaStdio := stdioSweden(t, e)
		sameDocument(t, "report, MCP over stdio", call(t, viaStdio, "lookup_company", map[string]any{"country": "SE", "id": "716409-9017"}, false), report, true)
		if got := bv.requests(); strings.Count(got, "/oauth2/token") != 2 {
			t.Errorf("token requests (want one per program):\n%s", got)
		}
	})
}

// TestBuildFailureClosesModules: when build fails after the modules are
// made (here on REGISTRY_UPSTREAM_BUDGETS), it closes them: Sweden's index
// goroutine does not outlive the failure. Not parallel, so that the leak
// check sees this test's goroutines only.
func TestBuildFailureClosesModules(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		// database/sql ends its opener goroutine just after Close returns.
		goleak.IgnoreTopFunction("database/sql.(*DB).connectionOpener"))
	e := bulkEnv(t)
	e["REGISTRY_UPSTREAM_BUDGETS"] = "SE=not-a-rate"
	cfg, err := parseConfig(nil, env(e), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := build(cfg, slog.New(slog.DiscardHandler)); err == nil || !strings.Contains(err.Error(), "REGISTRY_UPSTREAM_BUDGETS") {
		t.Fatalf("build: %v, want an error naming REGISTRY_UPSTREAM_BUDGETS", err)
	}
}
