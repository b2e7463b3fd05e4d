package main

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// Secrets of the secrets test: a distinctive API key, and a sole
// proprietorship (ENK, personal data) whose number and name must never be
// logged.
const (
	secretKey = "ch-key-5e3b9f1a-SECRET-77c2d4e6a8b0"
	enkID     = "123456785"
	enkName   = "OLA NORDMANN KONSULT"
)

// registers is a fake Brønnøysund and Companies House on one server. The
// Companies House routes check the key; 974760673 (NO) and SC000500 (GB)
// answer 503, GB 00000401 answers 401 as for a revoked key.
func registers(t *testing.T) *httptest.Server {
	t.Helper()
	enk := testdata(t, "brreg_enhet_123456785_enk_redacted.json")
	equinor := testdata(t, "brreg_enhet_923609016.json")
	profile := testdata(t, "ch_company_08957400.json")
	search := testdata(t, "ch_search_bbc.json")
	enkPage := []byte(`{"_embedded":{"enheter":[` + string(enk) + `]},"page":{"size":10,"totalElements":1,"totalPages":1,"number":0}}`)
	wantAuth := "Basic " + base64.StdEncoding.EncodeToString([]byte(secretKey+":"))
	send := func(w http.ResponseWriter, status int, body []byte) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch p := r.URL.Path; {
		case p == "/enheter/"+enkID:
			send(w, 200, enk)
		case p == "/enheter/923609016":
			send(w, 200, equinor)
		case p == "/enheter":
			send(w, 200, enkPage)
		case p == "/enheter/974760673":
			send(w, 503, nil)
		case strings.HasPrefix(p, "/enheter/") || strings.HasPrefix(p, "/underenheter/"):
			send(w, 404, nil)
		case r.Header.Get("Authorization") != wantAuth:
			send(w, 401, []byte(`{"error":"Invalid Authorization","type":"ch:service"}`))
		case p == "/company/08957400":
			send(w, 200, profile)
		case p == "/search/companies":
			send(w, 200, search)
		case p == "/company/00000401":
			send(w, 401, []byte(`{"error":"Invalid Authorization","type":"ch:service"}`))
		case p == "/company/SC000500":
			send(w, 503, nil)
		default:
			send(w, 404, []byte(`{"errors":[{"error":"company-profile-not-found","type":"ch:service"}]}`))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// everyOperation calls every REST route and every MCP method, ENK and
// failures included, and returns the responses.
func everyOperation(t *testing.T, p *program) map[string]response {
	t.Helper()
	out := map[string]response{}
	for _, path := range []string{
		"/health", "/v1/countries", "/llms.txt", "/llms-full.txt", "/server.json", "/openapi.json", "/nowhere",
		"/v1/NO/company/" + enkID, "/v1/NO/company/" + enkID, "/v1/no/company/123%20456%20785MVA",
		"/v1/NO/company/" + enkID + "/deadlines", "/v1/NO/company/" + enkID + "/deadlines?today=2026-03-01",
		"/v1/NO/validate/" + enkID, "/v1/NO/search?q=ola+nordmann", "/v1/NO/search?q=ola+nordmann&limit=1",
		"/v1/NO/company/923609016", "/v1/NO/company/974760673", "/v1/NO/company/123456784", "/v1/NO/company/100000008",
		"/v1/GB/company/08957400", "/v1/GB/company/08957400/deadlines", "/v1/GB/validate/8957400",
		"/v1/GB/search?q=bbc", "/v1/GB/company/00000401", "/v1/GB/company/SC000500", "/v1/GB/company/SC999999",
		"/v1/UK/company/08957400",
		// Sweden: the API's full report, the bulk file's search, and a sole
		// trader's personal identity number in its spellings.
		"/v1/SE/company/716409-9017", "/v1/SE/company/716409-9017/deadlines?today=2026-11-24", "/v1/SE/search?q=exempel",
		"/v1/SE/search?q=sole+trader", "/v1/SE/search?q=" + soleTraderPNR, "/v1/SE/company/5560160680",
		"/v1/SE/company/" + soleTraderPNR, "/v1/SE/company/19810105-2382", "/v1/SE/company/810105-2382",
		"/v1/SE/company/" + soleTraderPNR + "/deadlines", "/v1/SE/validate/19810105-2382", "/v1/SE/company/SE198101052382",
	} {
		out["GET "+path] = p.get(t, path)
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, p.url+"/v1/NO/company/"+enkID, nil)
	out["POST /v1/NO/company/{enk}"] = p.do(t, req)
	out["GET /mcp"] = p.get(t, "/mcp")
	tool := func(name string, args map[string]any) {
		b, _ := json.Marshal(args)
		out["tools/call "+name+" "+string(b)] = p.mcp(t, "tools/call", map[string]any{"name": name, "arguments": args})
	}
	out["initialize"] = p.mcp(t, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "0"}})
	for _, m := range []string{"tools/list", "resources/list", "resources/templates/list", "prompts/list"} {
		out[m] = p.mcp(t, m, map[string]any{})
	}
	tool("list_countries", map[string]any{})
	for _, c := range []struct{ country, id, q string }{
		{"NO", enkID, "ola nordmann"}, {"NO", "974760673", "x"}, {"GB", "08957400", "bbc"}, {"GB", "00000401", "bbc"}, {"GB", "SC000500", "x"},
		{"SE", "7164099017", "exempel"}, {"SE", soleTraderPNR, "sole trader"}, {"SE", "810105-2382", soleTraderPNR},
	} {
		tool("lookup_company", map[string]any{"country": c.country, "id": c.id})
		tool("company_deadlines", map[string]any{"country": c.country, "id": c.id, "today": "2026-03-01"})
		tool("validate_company_id", map[string]any{"country": c.country, "id": c.id})
		tool("search_company", map[string]any{"country": c.country, "name": c.q, "limit": 5})
	}
	for _, c := range []string{"NO", "GB", "UK", "SE"} {
		out["resources/read "+c] = p.mcp(t, "resources/read", map[string]any{"uri": "registry://rules/" + c})
	}
	out["prompts/get enk"] = p.mcp(t, "prompts/get", map[string]any{"name": "explain_company", "arguments": map[string]string{"id": enkID}})
	out["prompts/get sole trader"] = p.mcp(t, "prompts/get", map[string]any{"name": "explain_company",
		"arguments": map[string]string{"country": "SE", "id": soleTraderPNR}})
	return out
}

// TestNoSecretsOrPersonalDataLeak (issues #9 and 26): every operation of
// both surfaces runs with a known Companies House key, a Norwegian sole
// proprietorship, Bolagsverket's client secret and access token, and a
// Swedish sole trader's personal identity number, with every logger of the
// program capturing JSON at debug level. No response carries a secret (nor
// its Authorization form); no log record carries a secret, the ENK's
// number (in any spelling) or its name; the personal identity number is in
// no log record, no request to Bolagsverket and no answer (but the echo of
// the caller's own input a validation answer must give), and the sole
// trader's name in no answer.
func TestNoSecretsOrPersonalDataLeak(t *testing.T) {
	t.Parallel()
	up := registers(t)
	bv := newFakeBolagsverket(t)
	p := startProgram(t, programConfig{brreg: up.URL, ch: up.URL, key: secretKey, sweden: bv.config(t)})
	responses := everyOperation(t, p)

	// The calls did what they should, so the scan covers real answers.
	if r := responses["GET /v1/NO/company/"+enkID]; r.status != 200 || !strings.Contains(r.body, enkName) {
		t.Fatalf("ENK lookup: %d %.200s", r.status, r.body)
	}
	if r := responses["GET /v1/GB/company/08957400"]; r.status != 200 {
		t.Fatalf("GB lookup with the key: %d %.200s", r.status, r.body)
	}
	if r := responses[`tools/call search_company {"country":"NO","limit":5,"name":"ola nordmann"}`]; !strings.Contains(r.body, enkName) ||
		strings.Contains(r.body, `"isError":true`) {
		t.Fatalf("MCP search for the ENK: %d %.300s", r.status, r.body)
	}
	if r := responses["GET /v1/GB/company/00000401"]; r.status != 502 {
		t.Errorf("GB lookup with a refused key: %d %.200s", r.status, r.body)
	}
	if r := responses["GET /v1/SE/company/716409-9017"]; r.status != 200 || !strings.Contains(r.body, `"code":"68310"`) {
		t.Fatalf("SE lookup with the credential: %d %.200s", r.status, r.body)
	}
	if r := responses["GET /v1/SE/company/"+soleTraderPNR]; r.status != 400 || !strings.Contains(r.body, `"code":"invalid_id"`) {
		t.Fatalf("SE lookup of a personal identity number: %d %.200s", r.status, r.body)
	}
	if r := responses["GET /v1/SE/search?q=exempel"]; r.status != 200 || !strings.Contains(r.body, "Exempel Sverige AB") {
		t.Fatalf("SE search: %d %.200s", r.status, r.body)
	}

	secrets := []string{secretKey, base64.StdEncoding.EncodeToString([]byte(secretKey + ":")), bvClientSecret, bvToken}
	// The personal identity number in any spelling (with or without the
	// century, a hyphen or plus, spaces), and the sole trader's name.
	pnr := regexp.MustCompile(`(19)?810105\D{0,3}2382`)
	// A validation answer echoes the caller's input (the spec's input),
	// and the explain_company prompt is a template of the caller's own
	// argument (it fetches nothing): those echoes are cut before the scan.
	echo := regexp.MustCompile(`\\?"input\\?":\\?"[^"\\]*\\?"`)
	for name, r := range responses {
		if name == "prompts/get sole trader" {
			continue
		}
		body := echo.ReplaceAllString(r.body, "")
		if m := pnr.FindString(body); m != "" {
			t.Errorf("%s: the answer contains the personal identity number (%s): %.300s", name, m, r.body)
		}
		if strings.Contains(r.body, soleTraderName) {
			t.Errorf("%s: the answer contains the sole trader's name", name)
		}
	}
	if m := pnr.FindString(bv.requests()); m != "" {
		t.Errorf("a request to Bolagsverket contains the personal identity number:\n%s", bv.requests())
	}
	for name, r := range responses {
		for _, s := range secrets {
			if strings.Contains(r.body, s) {
				t.Errorf("%s: the response body contains the API key", name)
			}
			for k, vs := range r.header {
				if strings.Contains(strings.Join(vs, " "), s) {
					t.Errorf("%s: response header %s contains the API key", name, k)
				}
			}
		}
	}

	logs := p.log.String()
	if !strings.Contains(logs, `"msg":"request"`) || !strings.Contains(logs, `"msg":"upstream attempt failed"`) ||
		!strings.Contains(logs, `"msg":"Swedish bulk file indexed"`) || !strings.Contains(logs, `"country":"SE"`) {
		t.Fatalf("the logs were not captured:\n%.2000s", logs)
	}
	personal := regexp.MustCompile(`(?i)` + secretKey + `|` + regexp.QuoteMeta(secrets[1]) +
		`|123\D{0,3}456\D{0,3}785|ola\W*nordmann|` + bvClientSecret + `|` + bvToken + `|` + pnr.String() + `|` + soleTraderName)
	for _, line := range strings.Split(logs, "\n") {
		if m := personal.FindString(line); m != "" {
			t.Errorf("a log record contains %q: %s", m, line)
		}
	}
}

// TestResponseHeaders (issue #9): every answer of both surfaces, errors
// included, carries X-Content-Type-Options: nosniff and a Cache-Control
// (data no-cache, errors no-store, static text public for five minutes),
// and nothing names the server software or the Go version.
func TestResponseHeaders(t *testing.T) {
	t.Parallel()
	up := registers(t)
	p := startProgram(t, programConfig{brreg: up.URL, ch: up.URL, key: secretKey, sweden: newFakeBolagsverket(t).config(t)})
	responses := everyOperation(t, p)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, p.url+"/mcp", strings.NewReader("{not json"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	responses["POST /mcp malformed"] = p.do(t, req)
	req, _ = http.NewRequestWithContext(t.Context(), http.MethodPost, p.url+"/mcp", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Origin", "https://evil.example")
	responses["POST /mcp cross-origin"] = p.do(t, req)

	allowed := map[string]bool{"no-cache": true, "no-store": true, "public, max-age=300": true, "no-cache, no-transform": true}
	for name, r := range responses {
		h := r.header
		if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s (%d): X-Content-Type-Options %q, want nosniff", name, r.status, got)
		}
		cc := h.Get("Cache-Control")
		if !allowed[cc] {
			t.Errorf("%s (%d): Cache-Control %q", name, r.status, cc)
		}
		if r.status >= 400 && cc != "no-store" {
			t.Errorf("%s (%d): an error with Cache-Control %q, want no-store", name, r.status, cc)
		}
		if strings.HasPrefix(name, "GET /v1/") && r.status == 200 && cc != "no-cache" {
			t.Errorf("%s: data with Cache-Control %q, want no-cache (never stored by shared caches)", name, cc)
		}
		for _, k := range []string{"Server", "X-Powered-By"} {
			if v := h.Get(k); v != "" {
				t.Errorf("%s: %s header %q", name, k, v)
			}
		}
		for k, vs := range h {
			if v := strings.Join(vs, " "); strings.Contains(v, runtime.Version()) || strings.Contains(strings.ToLower(v), "go-http") {
				t.Errorf("%s: header %s names the software: %q", name, k, v)
			}
		}
	}
}
