package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/ops"
	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/mcpserver"
	"github.com/companyregistry/registry/restserver"
)

// The review rev-parity12: the four doors (the Go API, REST, MCP over
// Streamable HTTP, MCP over stdio) asked the same generated questions about
// the six countries the module ships, with the registers faked from each
// country's recordings.

// p12Fake answers every register's requests from the recordings of its
// country's testdata, whatever the identifier or name asked.
type p12Fake struct{ files map[string][]byte }

func p12Rec(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "countries", rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func newP12Fake(t testing.TB) *p12Fake {
	f := &p12Fake{files: map[string][]byte{}}
	for name, rel := range map[string]string{
		"no/enhet":    "no/testdata/brreg/enhet_923609016_equinor_asa_2026-08.json",
		"no/roller":   "no/testdata/brreg/roles/roller_923609016_equinor_asa_2026-09_ANONYMISED-TRIMMED.json",
		"no/search":   "no/testdata/brreg/search_enheter_navn_digitaliseringsdirektoratet_size1_2025-02.json",
		"gb/profile":  "gb/testdata/recordings/company_profile_active_ltd_08957400_2020.json",
		"gb/officers": "gb/testdata/recordings/roles/officers_00445790_tesco-plc_2026-07_TRIMMED.json",
		"gb/psc":      "gb/testdata/recordings/roles/psc_list_03977902_corporate-entity-alphabet_2026-07.json",
		"gb/pscst":    "gb/testdata/recordings/roles/psc_statements_05124262_2026-07.json",
		"gb/search":   "gb/testdata/recordings/search_companies_q-bbc_via-proxy_2024.json",
		"fi/company":  "fi/testdata/prh/companies_businessId-0112038-9_nokia-oyj_2026-05.json",
		"fi/search":   "fi/testdata/prh/companies_name-supercell_3hits_2026-05.json",
		"dk/company":  "dk/testdata/cvr/virksomhed_search_cvrNummer_41774037_aps_cvr-v-20220630_2024-02_REDACTED.json",
		"dk/search":   "dk/testdata/cvr/virksomhed_search_name_assure_4hits_cvr-v-20220630_2024-02_REDACTED.json",
		"fr/company":  "fr/testdata/recherche-entreprises/search_q-552032534_DANONE_SA-5599_active_body.json",
		"fr/search":   "fr/testdata/recherche-entreprises/search_q-Kikou_page1_body.json",
		"se/org":      "se/testdata/bolagsverket/organisationer_production_ab_2025-12_REDACTED.json",
	} {
		f.files[name] = p12Rec(t, rel)
	}
	return f
}

func (f *p12Fake) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		_ = req.Body.Close()
	}
	p := req.URL.Path
	status, out := http.StatusOK, []byte(nil)
	// Three Norwegian organisation numbers the register fails on: gone
	// (404 on both paths), down (503), throttled (429, Retry-After 42).
	switch {
	case req.URL.Host == "brreg.test" && strings.Contains(p, "/100000008"):
		return p12Status(req, http.StatusNotFound, ""), nil
	case req.URL.Host == "brreg.test" && strings.Contains(p, "/974760673"):
		return p12Status(req, http.StatusServiceUnavailable, ""), nil
	case req.URL.Host == "brreg.test" && strings.Contains(p, "/982463718"):
		return p12Status(req, http.StatusTooManyRequests, "42"), nil
	}
	switch req.URL.Host {
	case "brreg.test":
		switch {
		case strings.HasSuffix(p, "/roller"):
			out = f.files["no/roller"]
		case strings.HasPrefix(p, "/api/enheter/"):
			out = f.files["no/enhet"]
		case p == "/api/enheter":
			out = f.files["no/search"]
		default:
			status = http.StatusNotFound
		}
	case "ch.test":
		switch {
		case strings.HasSuffix(p, "/officers"):
			out = f.files["gb/officers"]
		case strings.HasSuffix(p, "/persons-with-significant-control"):
			out = f.files["gb/psc"]
		case strings.HasSuffix(p, "/persons-with-significant-control-statements"):
			out = f.files["gb/pscst"]
		case p == "/search/companies":
			out = f.files["gb/search"]
		case strings.HasPrefix(p, "/company/"):
			out = f.files["gb/profile"]
		default:
			status = http.StatusNotFound
		}
	case "prh.test":
		if req.URL.Query().Has("businessId") {
			out = f.files["fi/company"]
		} else {
			out = f.files["fi/search"]
		}
	case "cvr.test":
		if bytes.Contains(body, []byte(`"term"`)) {
			out = f.files["dk/company"]
		} else {
			out = f.files["dk/search"]
		}
	case "fr.test":
		q := req.URL.Query().Get("q")
		if strings.Trim(q, "0123456789") == "" {
			out = f.files["fr/company"]
		} else {
			out = f.files["fr/search"]
		}
	case "bv-portal.test":
		out = []byte(`{"access_token":"tok-1","scope":"x","token_type":"Bearer","expires_in":3600}`)
	case "bv.test":
		var q struct {
			ID string `json:"identitetsbeteckning"`
		}
		_ = json.Unmarshal(body, &q)
		switch {
		case strings.HasSuffix(p, "/organisationer"):
			out = bytes.ReplaceAll(f.files["se/org"], []byte("5590852777"), []byte(q.ID))
		case strings.HasSuffix(p, "/dokumentlista"):
			out = []byte(`{"dokument":[]}`)
		default:
			status = http.StatusNotFound
		}
	default:
		status = http.StatusNotFound
	}
	res := &http.Response{StatusCode: status, Status: http.StatusText(status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(out)),
		ContentLength: int64(len(out)), Request: req}
	return res, nil
}

// p12Status is an empty answer with status and, when set, Retry-After.
func p12Status(req *http.Request, status int, retryAfter string) *http.Response {
	h := http.Header{"Content-Type": {"application/json"}}
	if retryAfter != "" {
		h.Set("Retry-After", retryAfter)
	}
	return &http.Response{StatusCode: status, Status: http.StatusText(status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(bytes.NewReader(nil)), Request: req}
}

// p12Registry returns a Registry over the six default modules against the
// fake registers, with every credential set and Sweden's synthetic bulk file
// indexed, a fixed clock and no retry pause.
func p12Registry(t testing.TB, fake *p12Fake) *registry.Registry {
	t.Helper()
	cs, err := countries.All(countries.Config{
		BrregBaseURL: "http://brreg.test/api", CompaniesHouseBaseURL: "http://ch.test", CompaniesHouseAPIKey: "test-key-never-shown",
		PRHBaseURL: "http://prh.test", RechercheEntreprisesBaseURL: "http://fr.test",
		CVRBaseURL: "http://cvr.test", CVRCredentials: "user:pass",
		BolagsverketCredentials: "client:secret", BolagsverketBaseURL: "http://bv.test/v1", BolagsverketTokenURL: "http://bv-portal.test/oauth2/token",
		BolagsverketBulkFile: filepath.Join("..", "countries", "se", "testdata", "bulk_sample_SYNTHETIC.txt"), DataDir: t.TempDir(),
		HTTPClient: &http.Client{Transport: fake},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = countries.Close(cs) })
	for _, c := range cs {
		if w, ok := c.(interface{ WaitIndexed(context.Context) error }); ok {
			indexed := make(chan error, 1)
			go func() { indexed <- w.WaitIndexed(t.Context()) }()
			if err := testwait.Recv(t, indexed, "the Swedish bulk file's index"); err != nil {
				t.Fatal(err)
			}
		}
	}
	reg, err := registry.New(cs, registry.WithClock(func() time.Time { return fixedNow }), registry.WithRetryPause(0),
		registry.WithUpstreamTimeout(time.Minute), registry.WithVersion("1.2.3-test"))
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// p12Question is one question a door is asked: an operation and its
// parameters as text. A nil limit or today is absent.
type p12Question struct {
	op             string // lookup, search, deadlines, roles, validate, countries
	country, id, q string
	limit, today   *string
}

// p12Answer is a door's answer: the HTTP status its code implies (200 for
// a document) and the document or error envelope.
type p12Answer struct {
	Status int
	Body   string
}

func p12Ptr(s string) *string { return &s }

// p12Go asks the Go API: the adapters' text rules for limit and today
// (ops.ParseLimit, ops.ParseToday), the document as json.Marshal writes it
// or the envelope of the error as both servers write it.
func p12Go(reg *registry.Registry) func(t testing.TB, q p12Question) p12Answer {
	o := ops.New(reg)
	return func(t testing.TB, q p12Question) p12Answer {
		ctx := t.Context()
		var doc any
		var err error
		switch q.op {
		case "lookup":
			doc, err = reg.Lookup(ctx, q.country, q.id)
		case "roles":
			doc, err = reg.Roles(ctx, q.country, q.id)
		case "validate":
			var v *registry.ValidationResult
			v, err = reg.Validate(q.country, q.id)
			doc = ops.SurfaceValidation(v)
		case "countries":
			doc = reg.Countries()
		case "search":
			limit := 0
			limit, err = o.ParseLimit(q.country, deref(q.limit), q.limit != nil)
			if err == nil {
				var b []byte
				b, err = o.SearchJSON(ctx, q.country, q.q, limit)
				doc = json.RawMessage(b)
			}
		case "deadlines":
			var day registry.Date
			day, err = o.ParseToday(q.country, deref(q.today), q.today != nil)
			if err == nil {
				doc, err = reg.Deadlines(ctx, q.country, q.id, day)
			}
		}
		if err != nil {
			b, e := ops.EnvelopeJSON(err)
			return p12Answer{e.HTTPStatus(), string(b)}
		}
		b, merr := json.Marshal(doc)
		if merr != nil {
			t.Fatalf("%+v: %v", q, merr)
		}
		return p12Answer{200, string(b)}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// p12RESTPath is the REST request of q.
func p12RESTPath(q p12Question) string {
	esc := url.PathEscape
	v := url.Values{}
	var path string
	switch q.op {
	case "lookup":
		path = "/v1/" + esc(q.country) + "/company/" + esc(q.id)
	case "roles":
		path = "/v1/" + esc(q.country) + "/company/" + esc(q.id) + "/roles"
	case "validate":
		path = "/v1/" + esc(q.country) + "/validate/" + esc(q.id)
	case "countries":
		path = "/v1/countries"
	case "search":
		path = "/v1/" + esc(q.country) + "/search"
		v.Set("q", q.q)
		if q.limit != nil {
			v.Set("limit", *q.limit)
		}
	case "deadlines", "ics":
		path = "/v1/" + esc(q.country) + "/company/" + esc(q.id) + "/deadlines"
		if q.op == "ics" {
			path += ".ics"
		}
		if q.today != nil {
			v.Set("today", *q.today)
		}
	}
	if len(v) > 0 {
		path += "?" + v.Encode()
	}
	return path
}

// p12REST asks the REST handler.
func p12REST(t testing.TB, reg *registry.Registry) func(t testing.TB, q p12Question) p12Answer {
	srv, err := restserver.New(reg, restserver.WithRateLimit(0))
	if err != nil {
		t.Fatal(err)
	}
	return func(t testing.TB, q p12Question) p12Answer {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodGet, p12RESTPath(q), nil))
		return p12Answer{rec.Code, rec.Body.String()}
	}
}

// p12ToolCall is the JSON-RPC tools/call of q, id 7: every parameter given
// as a JSON string (limit as the string of its text, which the tool reads
// as REST reads its text).
func p12ToolCall(t testing.TB, q p12Question) []byte {
	args := map[string]any{}
	name := ""
	switch q.op {
	case "lookup":
		name = mcpserver.ToolLookupCompany
	case "roles":
		name = mcpserver.ToolCompanyRoles
	case "validate":
		name = mcpserver.ToolValidateCompanyID
	case "countries":
		name = mcpserver.ToolListCountries
	case "search":
		name = mcpserver.ToolSearchCompany
		args["name"] = q.q
		if q.limit != nil {
			args["limit"] = *q.limit
		}
	case "deadlines":
		name = mcpserver.ToolCompanyDeadlines
		if q.today != nil {
			args["today"] = *q.today
		}
	}
	if q.op != "countries" {
		args["country"] = q.country
	}
	if q.op != "countries" && q.op != "search" {
		args["id"] = q.id
	}
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "tools/call",
		"params": map[string]any{"name": name, "arguments": args}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// p12ToolAnswer reads a JSON-RPC answer to a tools/call: the document, or
// the envelope with its code's status; a JSON-RPC error is status 0.
func p12ToolAnswer(t testing.TB, raw []byte) p12Answer {
	var msg struct {
		Result *struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			StructuredContent json.RawMessage `json:"structuredContent"`
			IsError           bool            `json:"isError"`
		} `json:"result"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &msg); err != nil {
		t.Fatalf("not a JSON-RPC answer: %v: %.300s", err, raw)
	}
	if msg.Result == nil || len(msg.Result.Content) != 1 {
		return p12Answer{0, "jsonrpc: " + string(msg.Error)}
	}
	text := msg.Result.Content[0].Text
	if !msg.Result.IsError {
		if !bytes.Equal(msg.Result.StructuredContent, []byte(text)) {
			var a, b any
			_ = json.Unmarshal(msg.Result.StructuredContent, &a)
			_ = json.Unmarshal([]byte(text), &b)
			if ja, _ := json.Marshal(a); string(ja) != func() string { jb, _ := json.Marshal(b); return string(jb) }() {
				return p12Answer{-1, "structuredContent differs from text: " + string(msg.Result.StructuredContent)}
			}
		}
		return p12Answer{200, text}
	}
	var env struct {
		Error struct {
			Code registry.Code `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal([]byte(text), &env)
	return p12Answer{env.Error.Code.HTTPStatus(), text}
}

// p12MCPHTTP asks MCP over Streamable HTTP (opts: mcpserver.WithoutFastPath
// for the SDK's own path).
func p12MCPHTTP(t testing.TB, reg *registry.Registry, opts ...mcpserver.Option) func(t testing.TB, q p12Question) p12Answer {
	return p12MCPHTTPVersion(t, reg, "", opts...)
}

// p12MCPHTTPVersion is p12MCPHTTP under the protocol version v ("": no
// header); 2026-07-28 sends the headers and _meta that version requires.
func p12MCPHTTPVersion(t testing.TB, reg *registry.Registry, v string, opts ...mcpserver.Option) func(t testing.TB, q p12Question) p12Answer {
	h, err := mcpserver.Handler(reg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return func(t testing.TB, q p12Question) p12Answer {
		msg := p12ToolCall(t, q)
		var name string
		if v == "2026-07-28" {
			var m map[string]any
			if err := json.Unmarshal(msg, &m); err != nil {
				t.Fatal(err)
			}
			params := m["params"].(map[string]any)
			name, _ = params["name"].(string)
			params["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": v,
				"io.modelcontextprotocol/clientCapabilities": map[string]any{},
				"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "t", "version": "0"}}
			if msg, err = json.Marshal(m); err != nil {
				t.Fatal(err)
			}
		}
		req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/mcp", bytes.NewReader(msg))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if v != "" {
			req.Header.Set("Mcp-Protocol-Version", v)
		}
		if name != "" {
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", name)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		body := rec.Body.Bytes()
		if rec.Code != http.StatusOK {
			return p12Answer{-rec.Code, string(body)}
		}
		if ct := rec.Header().Get("Content-Type"); strings.HasPrefix(ct, "text/event-stream") {
			for line := range strings.SplitSeq(string(body), "\n") {
				if d, ok := strings.CutPrefix(line, "data: "); ok {
					body = []byte(d)
				}
			}
		}
		return p12ToolAnswer(t, body)
	}
}

// p12Stdio asks MCP over stdio, one session for every question.
func p12Stdio(t testing.TB, reg *registry.Registry, opts ...mcpserver.Option) func(t testing.TB, q p12Question) p12Answer {
	ask := p12StdioRaw(t, reg, opts...)
	return func(t testing.TB, q p12Question) p12Answer {
		return p12ToolAnswer(t, ask(t, p12ToolCall(t, q)))
	}
}

// p12StdioRaw starts a stdio session and returns a function that sends one
// message and returns the next line.
func p12StdioRaw(t testing.TB, reg *registry.Registry, opts ...mcpserver.Option) func(t testing.TB, msg []byte) []byte {
	return p12StdioRawInit(t, reg, []byte(initialize), opts...)
}

// p12StdioRawInit is p12StdioRaw with the initialize message init.
func p12StdioRawInit(t testing.TB, reg *registry.Registry, init []byte, opts ...mcpserver.Option) func(t testing.TB, msg []byte) []byte {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- mcpserver.ServeIO(context.Background(), reg, inR, outW, opts...)
		_ = outW.Close()
	}()
	out := bufio.NewReaderSize(outR, 1<<20)
	t.Cleanup(func() {
		_ = inW.Close()
		go func() { _, _ = io.Copy(io.Discard, outR) }()
		if err := <-done; err != nil {
			t.Errorf("ServeIO: %v", err)
		}
	})
	send := func(t testing.TB, msg []byte, answer bool) []byte {
		if _, err := inW.Write(append(msg, '\n')); err != nil {
			t.Fatal(err)
		}
		if !answer {
			return nil
		}
		line, err := out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("reading the answer: %v", err)
		}
		return line
	}
	send(t, init, true)
	send(t, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), false)
	return func(t testing.TB, msg []byte) []byte { return send(t, msg, true) }
}
