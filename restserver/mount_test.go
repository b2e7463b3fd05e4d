package restserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/mcpserver"
	"github.com/companyregistry/registry/restserver"
)

// urlPattern finds the absolute URLs of a text resource.
var urlPattern = regexp.MustCompile(`https?://[^\s)"'\]>,]+`)

// TestMountedLinksResolve mounts REST and MCP under /registry/ beside an
// application's own route, in the three ways a deployment tells the handler
// where it is (WithBasePath, a trusted proxy's X-Forwarded-Prefix,
// WithPublicURL), and follows every URL that /llms.txt, /llms-full.txt,
// /server.json and /openapi.json advertise: each starts with the base and
// reaches a route that answers (issue 14).
func TestMountedLinksResolve(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		opts []restserver.Option
		// proxy is the header a trusted proxy in front sends; the proxy
		// strips /registry itself, so the app mounts at its root.
		proxy bool
		base  string // the advertised base; "" is the test server's URL + /registry
	}{
		{name: "WithBasePath", opts: []restserver.Option{restserver.WithBasePath("/registry/")}},
		{name: "X-Forwarded-Prefix from a trusted proxy", opts: []restserver.Option{restserver.WithTrustedProxies("127.0.0.1/32")}, proxy: true},
		{name: "WithPublicURL with a path", opts: []restserver.Option{restserver.WithPublicURL("https://public.example/registry/")},
			base: "https://public.example/registry"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reg := newRegistry(t, newFakeClock())
			rest, err := restserver.New(reg, append([]restserver.Option{restserver.WithRateLimit(0)}, tc.opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			mcpHandler, err := mcpserver.Handler(reg)
			if err != nil {
				t.Fatal(err)
			}
			app := http.NewServeMux()
			app.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "home") })
			if tc.proxy {
				app.Handle("/mcp", mcpHandler)
				app.Handle("/", rest)
			} else {
				app.Handle("/registry/mcp", mcpHandler)
				app.Handle("/registry/", http.StripPrefix("/registry", rest))
			}
			srv := httptest.NewServer(app)
			t.Cleanup(srv.Close)
			base := tc.base
			if base == "" {
				base = srv.URL + "/registry"
			}
			// do requests path below the base, as a client of the base sees it.
			do := func(method, path, body string) (int, []byte) {
				t.Helper()
				target := srv.URL + "/registry" + path
				if tc.proxy {
					target = srv.URL + path
				}
				req, err := http.NewRequest(method, target, strings.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				if tc.proxy {
					req.Header.Set("X-Forwarded-Prefix", "/registry")
				}
				if method == http.MethodPost {
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Accept", "application/json, text/event-stream")
				}
				res, err := srv.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Body.Close()
				b, _ := io.ReadAll(res.Body)
				return res.StatusCode, b
			}

			seen := map[string]bool{}
			for _, doc := range []string{"/llms.txt", "/llms-full.txt", "/server.json", "/openapi.json"} {
				status, body := do(http.MethodGet, doc, "")
				if status != http.StatusOK {
					t.Fatalf("GET %s: %d", doc, status)
				}
				for _, u := range urlPattern.FindAllString(string(body), -1) {
					u = strings.TrimRight(u, ".:;")
					host := strings.SplitN(strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://"), "/", 2)[0]
					if !strings.Contains(base, "://"+host) {
						continue // another site: a source, a schema, a licence
					}
					if !strings.HasPrefix(u, base+"/") && u != base {
						t.Errorf("%s advertises %s, outside the base %s", doc, u, base)
						continue
					}
					seen[strings.TrimPrefix(u, base)] = true
				}
				if doc == "/openapi.json" {
					var d struct {
						Servers []struct{ URL string } `json:"servers"`
						Paths   map[string]any         `json:"paths"`
					}
					if err := json.Unmarshal(body, &d); err != nil {
						t.Fatal(err)
					}
					want := strings.TrimPrefix(base, srv.URL)
					if diff := cmp.Diff(want, d.Servers[0].URL); diff != "" {
						t.Errorf("openapi servers (-want +got):\n%s", diff)
					}
					for p := range d.Paths {
						seen[p] = true
					}
				}
			}
			if !seen["/mcp"] || !seen["/v1/countries"] || !seen["/openapi.json"] {
				t.Fatalf("expected links missing; saw %v", seen)
			}
			// The base and the /v1 prefix are named in prose ("Base URL: …",
			// "REST under …/v1"), not as routes.
			delete(seen, "")
			delete(seen, "/v1")
			for p := range seen {
				p = strings.NewReplacer("{country}", "ZZ", "{id}", "123456").Replace(p)
				if i := strings.IndexAny(p, "?#"); i >= 0 {
					p = p[:i]
				}
				if p == "/mcp" {
					status, body := do(http.MethodPost, p, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
					if status != http.StatusOK {
						t.Errorf("POST %s: %d %s", p, status, body)
					}
					continue
				}
				if status, body := do(http.MethodGet, p, ""); status == http.StatusNotFound && strings.Contains(string(body), "no route") || status == http.StatusInternalServerError {
					t.Errorf("GET %s (advertised): %d %s", p, status, body)
				}
			}

			// The 404 hint names the mounted resources.
			_, body := do(http.MethodGet, "/nowhere", "")
			want := strings.TrimPrefix(base, srv.URL)
			want = strings.TrimPrefix(want, "https://public.example")
			if e := errorOf(t, body); !strings.Contains(e.Hint, "Read "+want+"/llms.txt") {
				t.Errorf("404 hint %q does not name %s/llms.txt", e.Hint, want)
			}
		})
	}
}

// TestBasePathOptions checks the options that say where the handler is
// mounted refuse what they cannot use (issue 14).
func TestBasePathOptions(t *testing.T) {
	t.Parallel()
	reg := newRegistry(t, newFakeClock())
	for _, tc := range []struct {
		name string
		opts []restserver.Option
		ok   bool
	}{
		{"root", []restserver.Option{restserver.WithBasePath("/")}, true},
		{"empty", []restserver.Option{restserver.WithBasePath("")}, true},
		{"nested", []restserver.Option{restserver.WithBasePath("/api/registry")}, true},
		{"relative", []restserver.Option{restserver.WithBasePath("registry")}, false},
		{"dot-dot", []restserver.Option{restserver.WithBasePath("/a/../b")}, false},
		{"query", []restserver.Option{restserver.WithBasePath("/a?b")}, false},
		{"double slash", []restserver.Option{restserver.WithBasePath("//evil.example")}, false},
		{"public URL and base path agree", []restserver.Option{restserver.WithPublicURL("https://x.example/r"), restserver.WithBasePath("/r")}, true},
		{"public URL and base path disagree", []restserver.Option{restserver.WithPublicURL("https://x.example/r"), restserver.WithBasePath("/s")}, false},
		{"public URL with dot-dot", []restserver.Option{restserver.WithPublicURL("https://x.example/a/../b")}, false},
		{"MCP elsewhere", []restserver.Option{restserver.WithMCPPath("https://mcp.example/mcp")}, true},
		{"MCP URL with query", []restserver.Option{restserver.WithMCPPath("https://mcp.example/mcp?x=1")}, false},
		{"MCP relative", []restserver.Option{restserver.WithMCPPath("mcp")}, false},
		{"MCP path with a bracket", []restserver.Option{restserver.WithMCPPath("/mcp)x")}, false},
		{"MCP URL with a quote in the host", []restserver.Option{restserver.WithMCPPath(`https://a"b.example/mcp`)}, false},
		{"public URL with a bracket in the host", []restserver.Option{restserver.WithPublicURL("https://a)b.example/r")}, false},
	} {
		_, err := restserver.New(reg, tc.opts...)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

// TestForwardedPrefixUntrusted: X-Forwarded-Prefix from a peer that is not
// a trusted proxy changes nothing (issue 14).
func TestForwardedPrefixUntrusted(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithBasePath("/registry"))
	res := h.do(t, http.MethodGet, "/llms.txt", map[string]string{"X-Forwarded-Prefix": "/evil", "Host": "svc.example"})
	if strings.Contains(string(res.body), "/evil") || !strings.Contains(string(res.body), "http://svc.example/registry/v1/countries") {
		t.Errorf("llms.txt from an untrusted peer:\n%s", res.body)
	}
	res = h.do(t, http.MethodGet, "/nowhere", map[string]string{"X-Forwarded-Prefix": "/evil"})
	if e := errorOf(t, res.body); !strings.HasPrefix(e.Hint, "Read /registry/llms.txt") {
		t.Errorf("hint %q", e.Hint)
	}
}

// TestForwardedHeadersLastValue: from a trusted proxy the value it added
// counts, the last one; a value the client sent before it does not (review
// of issue 14).
func TestForwardedHeadersLastValue(t *testing.T) {
	t.Parallel()
	srv, err := restserver.New(newRegistry(t, newFakeClock()), restserver.WithTrustedProxies("192.0.2.0/24"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		header http.Header
		want   string
	}{
		{"prefix on two lines", http.Header{"X-Forwarded-Prefix": {"/evil", "/api"}}, "http://svc.example/api/v1/countries"},
		{"host list", http.Header{"X-Forwarded-Host": {"evil.example, svc2.example"}}, "http://svc2.example/v1/countries"},
		{"proto in capitals", http.Header{"X-Forwarded-Proto": {"HTTPS"}}, "https://svc.example/v1/countries"},
	} {
		req := httptest.NewRequest(http.MethodGet, "/llms.txt", nil)
		req.RemoteAddr = "192.0.2.7:1234"
		req.Host = "svc.example"
		for k, v := range tc.header {
			req.Header[k] = v
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if body := rec.Body.String(); !strings.Contains(body, "("+tc.want+")") {
			t.Errorf("%s: llms.txt does not link %s:\n%.400s", tc.name, tc.want, body)
		}
	}
}
