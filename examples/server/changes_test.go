package main

import (
	"context"
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
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/memstore"
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

// fetchAny answers every company with a snapshot.
type fetchAny struct{}

func (fetchAny) Fetch(_ context.Context, country, id string) (changes.Snapshot, error) {
	return changes.Snapshot{Country: country, CompanyID: id, Report: json.RawMessage(`{"name":"X"}`)}, nil
}

// TestChangeWiring runs the program's handler with change monitoring over
// a memory store (in place of the stores that openChangeParts will open):
// the watch routes need the configured token, a change recorded after a
// watch is created reaches the watch's endpoint signed, MCP has
// company_changes, and the workers stop when their context ends.
func TestChangeWiring(t *testing.T) {
	t.Parallel()
	cs, err := countries.All(countries.Config{BrregBaseURL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.New(cs)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := parseConfig(nil, env(map[string]string{"REGISTRY_API_TOKENS": "erp=" + testToken,
		"REGISTRY_WEBHOOK_ALLOW_PRIVATE": "true", "REGISTRY_RATE_LIMIT": "0"}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	store := memstore.New(time.Now)
	logger := slog.New(slog.DiscardHandler)
	rt, err := newChangeRuntime(cfg.changes, reg, &changeParts{store: store, fetcher: fetchAny{}, storeKind: "memory"}, logger)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.close()
	h, _, err := newHandler(cfg, reg, logger, nil, rt)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	hooks := make(chan *http.Request, 4)
	bodies := make(chan []byte, 4)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		hooks <- r
		bodies <- b
	}))
	defer receiver.Close()

	ctx, cancel := context.WithCancel(t.Context())
	wait := rt.start(ctx)

	call := func(method, path, token, body string) (int, []byte) {
		req, _ := http.NewRequestWithContext(t.Context(), method, srv.URL+path, strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, b
	}
	if code, _ := call("GET", "/v1/watches", "", ""); code != 401 {
		t.Errorf("no token: %d", code)
	}
	code, b := call("POST", "/v1/watches", testToken, `{"country":"NO","ids":["923609016"],"url":"`+receiver.URL+`/hook"}`)
	if code != 201 {
		t.Fatalf("create: %d %s", code, b)
	}
	var created struct{ Secret string }
	_ = json.Unmarshal(b, &created)

	recorded, err := store.Apply(t.Context(), changes.Batch{Changes: []changes.Change{{Country: "NO", CompanyID: "923609016",
		Kind: changes.KindNameChanged, DetectedAt: time.Now()}}})
	if err != nil {
		t.Fatal(err)
	}
	rt.disp.Wake()
	r, body := <-hooks, <-bodies
	if r.Header.Get(webhook.HeaderID) != recorded[0].ID {
		t.Errorf("webhook-id %q, want %q", r.Header.Get(webhook.HeaderID), recorded[0].ID)
	}
	if err := webhook.Verify(created.Secret, r.Header, body, time.Now()); err != nil {
		t.Errorf("verify: %v", err)
	}

	mcpClient, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := mcpClient.CallTool(t.Context(), &mcp.CallToolParams{Name: "company_changes", Arguments: map[string]any{"id": "923609016"}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, recorded[0].ID) {
		t.Errorf("company_changes: %v %+v", err, res)
	}
	_ = mcpClient.Close()

	cancel()
	wait()
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
