package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/apitoken"
	"github.com/companyregistry/registry/changes/ingest"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/brregfeed"
	"github.com/companyregistry/registry/internal/memstore"
	"github.com/companyregistry/registry/internal/testwait"
)

const testToken = "erp-token-0123456789abcdef"

// TestParseChangeConfig: the defaults, and every setting of change
// monitoring read.
func TestParseChangeConfig(t *testing.T) {
	t.Parallel()
	got, err := parseChangeConfig(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := changeConfig{dataDir: "companyregistry-data", ingest: ingest.Settings{Interval: time.Minute, PollInterval: 24 * time.Hour}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(changeConfig{})); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
	file := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(file, []byte("# tokens\n"+apitoken.Line("crm", testToken)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err = parseChangeConfig(env(map[string]string{
		"REGISTRY_DATA_DIR":              " /var/lib/registry ",
		"DATABASE_URL":                   "postgres://registry:pw@db:5432/registry",
		"REGISTRY_API_TOKENS_FILE":       file,
		"COMPANIES_HOUSE_STREAM_KEY":     "stream-key",
		"REGISTRY_CHANGES_INTERVAL":      "30s",
		"REGISTRY_WATCH_POLL_INTERVAL":   "6h",
		"REGISTRY_WEBHOOK_ALLOW_PRIVATE": "true",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if got.dataDir != "/var/lib/registry" || got.databaseURL != "postgres://registry:pw@db:5432/registry" ||
		got.ingest.StreamKey != "stream-key" || got.ingest.Interval != 30*time.Second || got.ingest.PollInterval != 6*time.Hour || !got.allowPrivate {
		t.Errorf("parsed %+v", got)
	}
	if name, ok := got.tokens.Lookup(testToken); !ok || name != "crm" {
		t.Errorf("the file's token: %q %v", name, ok)
	}
	got, _ = parseChangeConfig(env(map[string]string{"REGISTRY_API_TOKENS": "erp=" + testToken}))
	if name, ok := got.tokens.Lookup(testToken); !ok || name != "erp" {
		t.Errorf("the inline token: %q %v", name, ok)
	}
}

// TestChangeConfigRefused: a bad value of a change monitoring setting
// exits 2, over HTTP and with -stdio, with a message naming the setting
// that never shows a token, a key or a database password.
func TestChangeConfigRefused(t *testing.T) {
	t.Parallel()
	for name, tt := range map[string]struct {
		env  map[string]string
		want string
	}{
		"changes word":        {map[string]string{"REGISTRY_CHANGES": "maybe"}, "REGISTRY_CHANGES"},
		"database URL scheme": {map[string]string{"DATABASE_URL": "mysql://u:s3cret@db/x"}, "DATABASE_URL"},
		"both token settings": {map[string]string{"REGISTRY_API_TOKENS": "erp=" + testToken, "REGISTRY_API_TOKENS_FILE": "/x"}, "REGISTRY_API_TOKENS and"},
		"short token":         {map[string]string{"REGISTRY_API_TOKENS": "erp=s3cret"}, "REGISTRY_API_TOKENS"},
		"token without name":  {map[string]string{"REGISTRY_API_TOKENS": testToken}, "REGISTRY_API_TOKENS"},
		"tokens file missing": {map[string]string{"REGISTRY_API_TOKENS_FILE": "/nonexistent/tokens"}, "REGISTRY_API_TOKENS_FILE"},
		"tokens file a token": {map[string]string{"REGISTRY_API_TOKENS_FILE": "TOKENSFILE"}, "REGISTRY_API_TOKENS_FILE"},
		"stream key space":    {map[string]string{"COMPANIES_HOUSE_STREAM_KEY": "s3cret key"}, "COMPANIES_HOUSE_STREAM_KEY"},
		"interval word":       {map[string]string{"REGISTRY_CHANGES_INTERVAL": "often"}, "REGISTRY_CHANGES_INTERVAL"},
		"interval too short":  {map[string]string{"REGISTRY_CHANGES_INTERVAL": "500ms"}, "REGISTRY_CHANGES_INTERVAL"},
		"poll too long":       {map[string]string{"REGISTRY_WATCH_POLL_INTERVAL": "9000h"}, "REGISTRY_WATCH_POLL_INTERVAL"},
		"poll negative":       {map[string]string{"REGISTRY_WATCH_POLL_INTERVAL": "-1h"}, "REGISTRY_WATCH_POLL_INTERVAL"},
		"allow private":       {map[string]string{"REGISTRY_WEBHOOK_ALLOW_PRIVATE": "yes please"}, "REGISTRY_WEBHOOK_ALLOW_PRIVATE"},
	} {
		for _, args := range [][]string{nil, {"-stdio"}} {
			t.Run(name+"/"+strings.Join(args, ""), func(t *testing.T) {
				t.Parallel()
				e := tt.env
				if e["REGISTRY_API_TOKENS_FILE"] == "TOKENSFILE" {
					file := filepath.Join(t.TempDir(), "tokens")
					if err := os.WriteFile(file, []byte("erp "+testToken+"\n"), 0o600); err != nil {
						t.Fatal(err)
					}
					e = map[string]string{"REGISTRY_API_TOKENS_FILE": file}
				}
				var stderr, stdout syncBuffer
				code := run(t.Context(), args, env(e), strings.NewReader(""), &stdout, &stderr, nil)
				msg := stderr.String()
				if code != 2 || !strings.HasPrefix(msg, "server: "+tt.want) {
					t.Errorf("exit %d, stderr %q; want 2 and a message starting with server: %s", code, msg, tt.want)
				}
				for _, secret := range []string{"s3cret", testToken} {
					if strings.Contains(msg, secret) {
						t.Errorf("the message shows a secret: %q", msg)
					}
				}
			})
		}
	}
}

// TestNewChangeParts: over a store, the parts have the Registry's fetcher
// and a leader of the ingesters (not run here: they would read the real
// registers).
func TestNewChangeParts(t *testing.T) {
	t.Parallel()
	cfg, err := parseConfig(nil, env(map[string]string{"COMPANIES_HOUSE_STREAM_KEY": "stream-key"}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := countries.All(countries.Config{})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.New(cs)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := newChangeParts(memstore.New(time.Now), "memory", cfg, reg, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if parts.fetcher == nil || parts.ingest == nil || parts.storeKind != "memory" {
		t.Errorf("parts %+v", parts)
	}
}

// changeRegister is a fake Brønnøysund with its update feeds: Equinor's
// recorded record and roles under any number, changed by what the feed
// publishes.
func changeRegister(t *testing.T) (*httptest.Server, *brregfeed.Feed) {
	t.Helper()
	unit, roles := testdata(t, "brreg_enhet_923609016.json"), testdata(t, "brreg_roller_923609016_anonymised.json")
	feed := brregfeed.New(nil)
	feeds := feed.Handler("")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/oppdateringer/"):
			feeds.ServeHTTP(w, r)
		case r.URL.Path == "/enheter/923609016":
			b, err := feed.Unit("923609016", unit)
			if err != nil {
				t.Error(err)
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(b)
		case r.URL.Path == "/enheter/923609016/roller":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(roles)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, feed
}

// TestChangeWiring walks README's "Change monitoring" through the program
// as an operator runs it, on its real embedded store (SQLite in
// REGISTRY_DATA_DIR) and its real ingesters, against a fake Brønnøysund
// whose update feed the test publishes to: the watch routes need the
// configured token; a watch is created (201, the secret, Location); a
// change published in the Norwegian feed reaches the watch's endpoint
// signed (webhook.Verify), with the change's id as webhook-id; GET
// /v1/changes lists the change; MCP's
// company_changes and REST's company route list it too; the database is
// in REGISTRY_DATA_DIR, in a folder only its owner may open.
func TestChangeWiring(t *testing.T) {
	t.Parallel()
	register, feed := changeRegister(t)
	hooks := make(chan *http.Request, 4)
	bodies := make(chan []byte, 4)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		hooks <- r
		bodies <- b
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()
	dataDir := filepath.Join(t.TempDir(), "data")
	r := start(t, map[string]string{"REGISTRY_CHANGES": "on", "REGISTRY_DATA_DIR": dataDir, "BRREG_BASE_URL": register.URL,
		"REGISTRY_API_TOKENS": "erp=" + testToken, "REGISTRY_WEBHOOK_ALLOW_PRIVATE": "true", "REGISTRY_RATE_LIMIT": "0",
		"REGISTRY_CHANGES_INTERVAL": "1s"})
	base := "http://" + r.addr
	call := func(method, path, token, body string) (int, http.Header, []byte) {
		t.Helper()
		req, _ := http.NewRequestWithContext(t.Context(), method, base+path, strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header, b
	}
	if fi, err := os.Stat(dataDir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("REGISTRY_DATA_DIR: %v, %v; want a folder of mode 0700", fi, err)
	}
	if _, err := os.Stat(filepath.Join(dataDir, sqlstore.FileName)); err != nil {
		t.Errorf("the database file: %v", err)
	}

	if code, _, _ := call("GET", "/v1/watches", "", ""); code != 401 {
		t.Errorf("no token: %d", code)
	}
	code, hdr, b := call("POST", "/v1/watches", testToken,
		`{"country":"NO","ids":["923609016"],"kinds":["name_changed"],"url":"`+receiver.URL+`/hook"}`)
	if code != 201 {
		t.Fatalf("create: %d %s", code, b)
	}
	var created struct{ ID, Secret string }
	_ = json.Unmarshal(b, &created)
	if hdr.Get("Location") != "/v1/watches/"+created.ID || !strings.HasPrefix(created.Secret, "whsec_") {
		t.Errorf("create: Location %q, %s", hdr.Get("Location"), b)
	}

	// Brønnøysund publishes a new name: the leader's next sync reads the
	// feed, fetches the report, compares it with the baseline and sends.
	if _, err := feed.Publish("923609016", map[string]any{"navn": "EQUINOR NY ASA"}); err != nil {
		t.Fatal(err)
	}
	var hook *http.Request
	var body []byte
	select {
	case hook = <-hooks:
		body = <-bodies
	case <-testwait.Expired(t):
		t.Fatalf("no webhook before the test's deadline; the program's log:\n%s", r.stderr.String())
	}
	if err := webhook.Verify(created.Secret, hook.Header, body, time.Now()); err != nil {
		t.Errorf("verify: %v", err)
	}
	var event struct {
		Type string
		Data changes.Change
	}
	if err := json.Unmarshal(body, &event); err != nil {
		t.Fatal(err)
	}
	if event.Type != "company.name_changed" || event.Data.ID != hook.Header.Get(webhook.HeaderID) ||
		string(event.Data.Old) != `"EQUINOR ASA"` || string(event.Data.New) != `"EQUINOR NY ASA"` {
		t.Errorf("webhook %s %s", hook.Header.Get(webhook.HeaderID), body)
	}

	code, _, b = call("GET", "/v1/changes", testToken, "")
	var page changes.Feed
	if err := json.Unmarshal(b, &page); code != 200 || err != nil || len(page.Changes) != 1 || page.Changes[0].ID != event.Data.ID ||
		page.NextCursor == "" {
		t.Errorf("feed: %d %s", code, b)
	}
	if code, _, b := call("GET", "/v1/NO/company/923609016/changes", "", ""); code != 200 || !strings.Contains(string(b), event.Data.ID) {
		t.Errorf("company changes: %d %s", code, b)
	}

	mcpClient, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mcpClient.Close()
	res, err := mcpClient.CallTool(t.Context(), &mcp.CallToolParams{Name: "company_changes", Arguments: map[string]any{"id": "923609016"}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, event.Data.ID) {
		t.Errorf("company_changes: %v %+v", err, res)
	}
	if !strings.Contains(r.stderr.String(), `"msg":"this replica runs the ingesters"`) ||
		!strings.Contains(r.stderr.String(), `"msg":"change monitoring","store":"sqlite"`) {
		t.Errorf("the log does not say the store and the leader:\n%s", r.stderr.String())
	}
	r.cancel()
	if code := <-r.done; code != 0 {
		t.Errorf("exit %d", code)
	}
	if strings.Contains(r.stderr.String(), testToken) || strings.Contains(r.stderr.String(), created.Secret) {
		t.Error("the log shows the token or the secret")
	}
}

// FuzzParseChangeConfig: any values of change monitoring's settings parse
// or fail with an error naming a setting; what parses is within bounds.
func FuzzParseChangeConfig(f *testing.F) {
	f.Add("postgres://u:p@h/db", "erp="+testToken, "key", "1m", "24h", "true")
	f.Add("mysql://x", "a=b,", "a b", "1s", "-1h", "maybe")
	f.Fuzz(func(t *testing.T, dbURL, tokens, key, changesEvery, pollEvery, private string) {
		c, err := parseChangeConfig(env(map[string]string{"DATABASE_URL": dbURL, "REGISTRY_API_TOKENS": tokens,
			"COMPANIES_HOUSE_STREAM_KEY": key, "REGISTRY_CHANGES_INTERVAL": changesEvery,
			"REGISTRY_WATCH_POLL_INTERVAL": pollEvery, "REGISTRY_WEBHOOK_ALLOW_PRIVATE": private}))
		if err != nil {
			if !strings.Contains(err.Error(), "DATABASE_URL") && !strings.Contains(err.Error(), "REGISTRY_") &&
				!strings.Contains(err.Error(), "COMPANIES_HOUSE_STREAM_KEY") {
				t.Fatalf("the error names no setting: %v", err)
			}
			return
		}
		// The bounds of ingest.WithInterval and ingest.WithPollInterval.
		if c.ingest.Interval < time.Second || c.ingest.Interval > 24*time.Hour ||
			c.ingest.PollInterval < time.Minute || c.ingest.PollInterval > 720*time.Hour {
			t.Fatalf("accepted intervals %v, %v", c.ingest.Interval, c.ingest.PollInterval)
		}
	})
}
