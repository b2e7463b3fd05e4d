package restserver_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/restserver"
	"github.com/companyregistry/registry/schema"
)

func TestTextResourceHeaders(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	hp := newHarness(t, restserver.WithPublicURL("https://registry.example.com/"))
	for _, tt := range []struct{ path, ctype string }{
		{"/llms.txt", "text/plain; charset=utf-8"},
		{"/llms-full.txt", "text/plain; charset=utf-8"},
		{"/server.json", "application/json"},
		{"/openapi.json", "application/json"},
	} {
		res := h.get(t, tt.path)
		if res.status != 200 || res.header.Get("Content-Type") != tt.ctype || len(res.body) == 0 {
			t.Errorf("%s: %d %q, %d bytes; want 200 %q", tt.path, res.status, res.header.Get("Content-Type"), len(res.body), tt.ctype)
		}
		// Derived from the request: may differ per Host, so not cacheable by
		// shared caches; the openapi.json names its server relatively.
		want := "no-cache"
		if tt.path == "/openapi.json" {
			want = "public, max-age=300"
		}
		if got := res.header.Get("Cache-Control"); got != want {
			t.Errorf("%s: Cache-Control %q, want %q", tt.path, got, want)
		}
		if got := hp.get(t, tt.path).header.Get("Cache-Control"); got != "public, max-age=300" {
			t.Errorf("%s with a public URL: Cache-Control %q", tt.path, got)
		}
	}
}

func TestLLMSTxt(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithPublicURL("https://registry.example.com"))
	body := string(h.get(t, "/llms.txt").body)
	// The llms.txt shape: an H1, then a blockquote summary, then H2 link lists.
	if !strings.HasPrefix(body, "# ") || !strings.Contains(body, "\n\n> ") {
		t.Errorf("llms.txt does not start with an H1 and a blockquote:\n%s", body)
	}
	for _, want := range []string{
		"(https://registry.example.com/v1/countries)",
		"(https://registry.example.com/llms-full.txt)",
		"(https://registry.example.com/openapi.json)",
		"(https://registry.example.com/mcp)",
		"(https://registry.example.com/server.json)",
		"(https://registry.example.com/v1/ZZ/company/123456)", // the first country without a credential
		"## Optional",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("llms.txt lacks %q", want)
		}
	}
	if strings.Contains(body, "{{") {
		t.Errorf("llms.txt holds an unfilled placeholder:\n%s", body)
	}
}

// TestLLMSFullTxt: the full reference names every route, every error code,
// every field of every document and embeds every country's rules.
func TestLLMSFullTxt(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	body := string(h.get(t, "/llms-full.txt").body)
	want := []string{
		"/health", "/v1/countries", "/v1/{country}/company/{id}", "/v1/{country}/search",
		"/v1/{country}/company/{id}/deadlines", "/v1/{country}/validate/{id}",
		"`q` (query, required)", "`limit` (query, optional)", "`today` (query, optional)",
		"### Fake ZZ", "#### Identifier", "# not a heading", "### Fake ZY", "FAKE_API_KEY",
		"version 1.2.3-test", "60 requests per minute",
	}
	for _, c := range registry.Codes() {
		want = append(want, "| "+string(c)+" |")
	}
	for name, s := range schema.Components() {
		want = append(want, "### "+name)
		for p := range s.Properties {
			want = append(want, "`"+p+"`")
		}
	}
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("llms-full.txt lacks %q", w)
		}
	}
	if strings.Contains(body, "\n# Fake") {
		t.Error("a rules document's H1 was not demoted")
	}
}

func TestNoMCPAdvertisedWithoutPath(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithMCPPath(""))
	for _, p := range []string{"/llms.txt", "/llms-full.txt", "/server.json"} {
		if body := string(h.get(t, p).body); strings.Contains(body, "/mcp") || strings.Contains(body, "remotes") {
			t.Errorf("%s advertises MCP without an MCP path", p)
		}
	}
}

// TestBaseURLFromRequest: without a configured public URL the base comes
// from the Host header, and from X-Forwarded-Host/-Proto only when the peer
// is a trusted proxy.
func TestBaseURLFromRequest(t *testing.T) {
	t.Parallel()
	fwd := map[string]string{"Host": "api.example.org", "X-Forwarded-Host": "public.example.org", "X-Forwarded-Proto": "https"}
	untrusted := newHarness(t)
	if body := string(untrusted.do(t, "GET", "/llms.txt", fwd).body); !strings.Contains(body, "(http://api.example.org/v1/countries)") {
		t.Errorf("untrusted peer: base is not the Host header:\n%s", body)
	}
	trusted := newHarness(t, restserver.WithTrustedProxies("127.0.0.1"))
	if body := string(trusted.do(t, "GET", "/llms.txt", fwd).body); !strings.Contains(body, "(https://public.example.org/v1/countries)") {
		t.Errorf("trusted proxy: base is not the forwarded host:\n%s", body)
	}
	bad := map[string]string{"X-Forwarded-Host": `evil"><x`}
	if body := string(trusted.do(t, "GET", "/server.json", bad).body); !strings.Contains(body, `"url": "http://localhost/mcp"`) {
		t.Errorf("an invalid forwarded host is not replaced by localhost:\n%s", body)
	}
}

// TestServerJSON checks /server.json against the MCP registry's rules
// (research/server-json.md): the 2025-12-11 schema URL, a name with one
// slash, a description of at most 100 characters, the software version, and
// the Streamable HTTP remote at the public URL.
func TestServerJSON(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	reg := newRegistry(t, clock)
	h := newHarnessWith(t, reg, clock, restserver.WithPublicURL("https://registry.example.com"))
	body := h.get(t, "/server.json").body

	raw, err := os.ReadFile("testdata/server.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := sjs.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := sjs.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("mem:///server.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem:///server.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := sjs.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("server.json is not JSON: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("server.json breaks the registry's rules: %v\n%s", err, body)
	}

	var m struct {
		Schema      string `json:"$schema"`
		Name        string `json:"name"`
		Description string `json:"description"`
		Version     string `json:"version"`
		Remotes     []struct{ Type, URL string }
		Meta        map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if m.Schema != restserver.ServerJSONSchemaURL || m.Name != restserver.ServerName {
		t.Errorf("$schema %q name %q", m.Schema, m.Name)
	}
	if n := len([]rune(m.Description)); n > 100 {
		t.Errorf("description has %d characters, more than 100", n)
	}
	if m.Version != reg.Version() {
		t.Errorf("version %q, want the software version %q", m.Version, reg.Version())
	}
	if len(m.Remotes) != 1 || m.Remotes[0].Type != "streamable-http" || m.Remotes[0].URL != "https://registry.example.com/mcp" {
		t.Errorf("remotes %+v", m.Remotes)
	}
	if n := len(m.Meta["io.modelcontextprotocol.registry/publisher-provided"]); n > 4096 {
		t.Errorf("publisher-provided _meta is %d bytes, more than 4 KB", n)
	}
}

// TestOpenAPI: OpenAPI 3.1.0, interface version 0.2.0, every route, and
// every schema resolvable.
func TestOpenAPI(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithPublicURL("https://registry.example.com"))
	body := h.get(t, "/openapi.json").body
	var doc struct {
		OpenAPI string `json:"openapi"`
		Info    struct{ Version string }
		Servers []struct{ URL string }
		Paths   map[string]map[string]struct {
			Responses map[string]json.RawMessage
		}
		Components struct{ Schemas map[string]json.RawMessage }
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" || doc.Info.Version != "0.2.0" {
		t.Errorf("openapi %q version %q, want 3.1.0 and 0.2.0", doc.OpenAPI, doc.Info.Version)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "https://registry.example.com" {
		t.Errorf("servers %+v", doc.Servers)
	}
	for _, p := range []string{"/health", "/v1/countries", "/v1/{country}/company/{id}", "/v1/{country}/search",
		"/v1/{country}/company/{id}/deadlines", "/v1/{country}/validate/{id}", "/llms.txt", "/llms-full.txt",
		"/server.json", "/openapi.json"} {
		if _, ok := doc.Paths[p]["get"].Responses["200"]; !ok {
			t.Errorf("path %s has no GET 200", p)
		}
	}
	if _, ok := doc.Paths["/v1/{country}/search"]["get"].Responses["422"]; ok {
		t.Error("openapi.json documents a 422")
	}
	// The schema package's documents, the batch route's three and
	// ErrorBody.
	if want := len(schema.Names()) + 4; len(doc.Components.Schemas) != want {
		t.Errorf("%d component schemas, want %d", len(doc.Components.Schemas), want)
	}
	api := h.openAPI(t)
	for name := range doc.Components.Schemas {
		if _, err := api.compiler.Compile(openAPIURL + "#/components/schemas/" + name); err != nil {
			t.Errorf("component %s does not compile: %v", name, err)
		}
	}
}
