package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/internal/testwait"
)

// The Danish credential of these tests; no response or log line may hold
// it.
const (
	dkUser     = "ops-dk"
	dkPassword = "cvr-S3CRET-pw"
)

// dkFakeCVR serves the CVR distribution's search endpoint from a recording:
// the ApS 41774037 for a term query on its number and for any name search,
// an empty answer for any other number, and 401 without the test
// credential.
func dkFakeCVR(t *testing.T) *httptest.Server {
	t.Helper()
	aps, err := os.ReadFile("testdata/cvr_virksomhed_41774037_aps_REDACTED.json")
	if err != nil {
		t.Fatal(err)
	}
	empty := []byte(`{"took":1,"timed_out":false,"_shards":{"total":6,"successful":6,"skipped":0,"failed":0},"hits":{"total":0,"max_score":null,"hits":[]}}`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/cvr-permanent/virksomhed/_search" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		if user, pw, ok := r.BasicAuth(); !ok || user != dkUser || pw != dkPassword {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, "<html><head><title>401 Authorization Required</title></head></html>")
			return
		}
		var q struct {
			Query map[string]map[string]json.RawMessage `json:"query"`
		}
		if err := json.NewDecoder(r.Body).Decode(&q); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		term, isTerm := q.Query["term"]
		if _, isMatch := q.Query["match"]; isMatch || (isTerm && string(term["Vrvirksomhed.cvrNummer"]) == "41774037") {
			_, _ = w.Write(aps)
			return
		}
		_, _ = w.Write(empty)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// dkEnv is the environment of a program with the Danish credential and
// the fake CVR distribution.
func dkEnv(cvr *httptest.Server) map[string]string {
	return map[string]string{"CVR_CREDENTIALS": dkUser + ":" + dkPassword, "CVR_BASE_URL": cvr.URL + "/cvr-permanent",
		"REGISTRY_LOG_LEVEL": "debug", "REGISTRY_RATE_LIMIT": "0"}
}

// TestDenmarkAsANewUser runs the program as a new user would, with
// CVR_CREDENTIALS set and CVR_BASE_URL pointing at a server that serves a
// recording: Denmark is listed (with its credential variable) in the
// countries, /health, /llms.txt, /llms-full.txt (with its rules) and
// /server.json through the catalogue (/openapi.json lists no countries,
// only the schema of /v1/countries); lookup, search, deadlines, roles and
// validation answer on REST and over MCP (Streamable HTTP), the MCP text of
// each being byte for byte the REST body; the rules resource reads; and
// neither the answers nor the logs hold the credential or a person's
// address.
func TestDenmarkAsANewUser(t *testing.T) {
	t.Parallel()
	r := start(t, dkEnv(dkFakeCVR(t)))
	base := "http://" + r.addr
	get := func(path string) (int, string) { t.Helper(); return dkHTTPGet(t, base+path) }
	var seen []string
	for _, tt := range []struct{ path, want string }{
		{"/health", `"DK"`},
		{"/v1/countries", `"country":"DK","registry":"cvr"`},
		{"/v1/countries", `"requires_api_key":true,"api_key_env":"CVR_CREDENTIALS"`},
		{"/llms.txt", "DK"},
		{"/llms-full.txt", "CVR-nummer"},
		{"/llms-full.txt", "# Denmark (DK): CVR"},
		{"/openapi.json", `"api_key_env"`}, // no country list by design: /v1/countries is the live one
		{"/server.json", `"DK"`},
	} {
		code, body := get(tt.path)
		if code != http.StatusOK || !strings.Contains(body, tt.want) {
			t.Errorf("GET %s: %d, want 200 with %q: %.300s", tt.path, code, tt.want, body)
		}
		seen = append(seen, body)
	}

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "new-user", Version: "0"}, nil).
		Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	ops := []struct {
		name, path, tool string
		args             map[string]any
		want             string
	}{
		{"lookup", "/v1/DK/company/DK%2041%2077%2040%2037", "lookup_company", map[string]any{"country": "DK", "id": "DK 41 77 40 37"}, `"name":"Tietgen Invest ApS"`},
		{"search", "/v1/DK/search?q=tietgen&limit=5", "search_company", map[string]any{"country": "DK", "name": "tietgen", "limit": 5}, `"id":"41774037"`},
		{"deadlines", "/v1/DK/company/41774037/deadlines?today=2026-11-24", "company_deadlines",
			map[string]any{"country": "DK", "id": "41774037", "today": "2026-11-24"}, `"kind":"annual_report"`},
		{"roles", "/v1/DK/company/41774037/roles", "company_roles", map[string]any{"country": "DK", "id": "41774037"}, `"role":"Chair of the board"`},
		{"validate", "/v1/DK/validate/22756214", "validate_company_id", map[string]any{"country": "DK", "id": "22756214"}, `"valid":true`},
	}
	for _, op := range ops {
		// The first REST call fills the cache; the second and the MCP call
		// read the same entry, so the documents match byte for byte.
		if code, body := get(op.path); code != http.StatusOK || !strings.Contains(body, op.want) {
			t.Fatalf("%s: REST %d %.300s", op.name, code, body)
		}
		code, rest := get(op.path)
		if code != http.StatusOK {
			t.Fatalf("%s: REST %d", op.name, code)
		}
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: op.tool, Arguments: op.args})
		if err != nil || res.IsError || len(res.Content) != 1 {
			t.Fatalf("%s: MCP %v %+v", op.name, err, res)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if text != rest {
			t.Errorf("%s: the MCP text is not the REST body:\n mcp %.400s\nrest %.400s", op.name, text, rest)
		}
		seen = append(seen, rest, text)
	}
	rules, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "registry://rules/DK"})
	if err != nil || len(rules.Contents) != 1 || !strings.Contains(rules.Contents[0].Text, "REGNSKABSÅR_SLUT") {
		t.Errorf("rules resource: %v %+v", err, rules)
	}
	if code, body := get("/v1/DK/company/13585628"); code != http.StatusNotFound || !strings.Contains(body, `"code":"not_found"`) {
		t.Errorf("unknown CVR number: %d %s", code, body)
	}
	_ = cs.Close()
	r.cancel()
	<-r.done
	all := strings.Join(seen, "\n") + r.stderr.String()
	for _, secret := range []string{dkPassword, dkUser + ":" + dkPassword} {
		if strings.Contains(all, secret) {
			t.Errorf("an answer or log line holds the credential %q", secret)
		}
	}
	if strings.Contains(all, "REDACTED") {
		t.Error("an answer holds a person's (redacted) address")
	}
	if !strings.Contains(r.stderr.String(), `"cvr_credentials_set":true`) {
		t.Errorf("the start-up log does not say the credential is set")
	}
}

// TestDenmarkOverStdio: the same program with -stdio answers the Danish
// operations to an MCP client on stdin and stdout, with the documents of
// the REST surface (deadlines and validation byte for byte; a lookup's
// report apart from when it was fetched).
func TestDenmarkOverStdio(t *testing.T) {
	t.Parallel()
	cvr := dkFakeCVR(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(t.Context(), []string{"-stdio"}, env(dkEnv(cvr)), inR, outW, &stderr, nil) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(t.Context(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	call := func(tool string, args map[string]any) string {
		t.Helper()
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", tool, err, res)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	lookup := call("lookup_company", map[string]any{"country": "DK", "id": "41774037"})
	deadlines := call("company_deadlines", map[string]any{"country": "DK", "id": "41774037", "today": "2026-11-24"})
	validate := call("validate_company_id", map[string]any{"country": "dk", "id": "DK 22 75 62 14"})
	roles := call("company_roles", map[string]any{"country": "DK", "id": "41774037"})
	_ = cs.Close()
	if code := testwait.Recv(t, done, "the program's exit after the client closed stdin"); code != 0 {
		t.Errorf("exit status %d, stderr %s", code, stderr.String())
	}

	r := start(t, dkEnv(cvr))
	rest := func(path string) string {
		t.Helper()
		_, body := dkHTTPGet(t, "http://"+r.addr+path)
		return body
	}
	if got := rest("/v1/DK/company/41774037/deadlines?today=2026-11-24"); got != deadlines {
		t.Errorf("deadlines differ:\nstdio %.300s\n rest %.300s", deadlines, got)
	}
	if got := rest("/v1/DK/validate/DK%2022%2075%2062%2014"); got != validate {
		t.Errorf("validate differs:\nstdio %s\n rest %s", validate, got)
	}
	for name, pair := range map[string][2]string{"lookup": {lookup, rest("/v1/DK/company/41774037")}, "roles": {roles, rest("/v1/DK/company/41774037/roles")}} {
		a, b := dkDropFetchedAt(t, pair[0]), dkDropFetchedAt(t, pair[1])
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs apart from fetched_at:\nstdio %.300s\n rest %.300s", name, a, b)
		}
	}
	if strings.Contains(stderr.String(), dkPassword) {
		t.Error("the stdio logs hold the credential")
	}
}

// dkDropFetchedAt returns the document with fetched_at and cached removed,
// re-encoded.
func dkDropFetchedAt(t *testing.T, doc string) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatalf("%v: %.200s", err, doc)
	}
	delete(m, "fetched_at")
	delete(m, "cached")
	b, _ := json.Marshal(m)
	return b
}

// TestDenmarkWithoutCredential: without CVR_CREDENTIALS Denmark is not
// listed, every Danish call but validation answers 502 upstream_error whose
// hint names the variable, and the register is never called; a malformed
// credential stops the program with status 2 naming the variable, without
// repeating it.
func TestDenmarkWithoutCredential(t *testing.T) {
	t.Parallel()
	cvr := dkFakeCVR(t)
	r := start(t, map[string]string{"CVR_BASE_URL": cvr.URL + "/cvr-permanent"})
	get := func(path string) (int, string) { t.Helper(); return dkHTTPGet(t, "http://"+r.addr+path) }
	if code, body := get("/v1/countries"); code != 200 || strings.Contains(body, `"DK"`) {
		t.Errorf("countries: %d %s", code, body)
	}
	for _, path := range []string{"/v1/DK/company/41774037", "/v1/DK/search?q=tietgen", "/v1/DK/company/41774037/deadlines",
		"/v1/DK/company/41774037/roles"} {
		code, body := get(path)
		if code != http.StatusBadGateway || !strings.Contains(body, `"code":"upstream_error"`) || !strings.Contains(body, "CVR_CREDENTIALS") {
			t.Errorf("GET %s: %d %s", path, code, body)
		}
	}
	if code, body := get("/v1/DK/validate/41774037"); code != 200 || !strings.Contains(body, `"valid":true`) {
		t.Errorf("validate: %d %s", code, body)
	}

	for _, mode := range [][]string{nil, {"-stdio"}} {
		var stderr syncBuffer
		code := run(t.Context(), mode, env(map[string]string{"CVR_CREDENTIALS": "S3CRET-no-colon", "REGISTRY_ADDR": "127.0.0.1:0"}),
			strings.NewReader(""), io.Discard, &stderr, nil)
		if code != 2 || !strings.Contains(stderr.String(), "CVR_CREDENTIALS") || strings.Contains(stderr.String(), "S3CRET") {
			t.Errorf("%v: a malformed credential: exit %d, stderr %s", mode, code, stderr.String())
		}
	}
}

// dkHTTPGet returns the status and body of a GET of url.
func dkHTTPGet(t *testing.T, url string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}
