package restserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/restserver"
)

const batchPath = "/v1/ZZ/deadlines:batch"

func (h *harness) post(t *testing.T, path, body string) response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, h.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return send(t, h.srv.Client(), req)
}

// checkPost validates a POST answer against the schema /openapi.json
// documents for route and its status.
func (h *harness) checkPost(t *testing.T, route string, res response) {
	t.Helper()
	api := h.openAPI(t)
	esc := strings.NewReplacer("~", "~0", "/", "~1").Replace(route)
	ptr := "/paths/" + esc + "/post/responses/" + itoa(res.status) + "/content/application~1json/schema"
	api.mu.Lock()
	sch, err := api.compiler.Compile(openAPIURL + "#" + (&url.URL{Path: ptr}).EscapedPath())
	api.mu.Unlock()
	if err != nil {
		t.Fatalf("openapi.json documents no JSON response %d for POST %s: %v", res.status, route, err)
	}
	inst, err := sjs.UnmarshalJSON(bytes.NewReader(res.body))
	if err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, res.body)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("response %d of POST %s does not match openapi.json: %v\n%s", res.status, route, err, res.body)
	}
}

type batchItem struct {
	ID     string          `json:"id"`
	Status int             `json:"status"`
	Report json.RawMessage `json:"report"`
	Error  json.RawMessage `json:"error"`
}

type batchResponse struct {
	Country string      `json:"country"`
	Today   string      `json:"today"`
	Count   int         `json:"count"`
	Failed  int         `json:"failed"`
	Items   []batchItem `json:"items"`
}

// TestDeadlinesBatch: mixed valid, invalid and unknown identifiers, a
// repeat and a module failure, answered in order; every item holds the very
// bytes the single deadlines route sends for its identifier.
func TestDeadlinesBatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithRateLimit(0))
	ids := []string{"123456", "12345", "000000", "234 567", "123456", "501501", "XX-1"}
	body, _ := json.Marshal(map[string]any{"ids": ids, "today": "2026-01-15"})
	res := h.post(t, batchPath, string(body))
	if res.status != http.StatusOK {
		t.Fatalf("status %d\n%s", res.status, res.body)
	}
	if ct := res.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	h.checkPost(t, "/v1/{country}/deadlines:batch", res)
	golden(t, "batch/mixed.golden", indent(t, res.body))

	var got batchResponse
	if err := json.Unmarshal(res.body, &got); err != nil {
		t.Fatal(err)
	}
	if got.Country != "ZZ" || got.Today != "2026-01-15" || got.Count != len(ids) || got.Failed != 4 || len(got.Items) != len(ids) {
		t.Fatalf("country %q today %q count %d failed %d items %d", got.Country, got.Today, got.Count, got.Failed, len(got.Items))
	}
	for i, it := range got.Items {
		if it.ID != ids[i] {
			t.Errorf("item %d: id %q, want %q (request order)", i, it.ID, ids[i])
		}
		single := h.get(t, "/v1/ZZ/company/"+url.PathEscape(ids[i])+"/deadlines?today=2026-01-15")
		if it.Status != single.status {
			t.Errorf("item %d (%s): status %d, the single route says %d", i, ids[i], it.Status, single.status)
		}
		want := single.body
		if single.status == http.StatusOK {
			if string(it.Error) != "null" || !bytes.Equal(it.Report, want) {
				t.Errorf("item %d (%s): report\n%s\nerror %s\nwant the single route's\n%s", i, ids[i], it.Report, it.Error, want)
			}
			continue
		}
		if env := []byte(`{"error":` + string(it.Error) + `}`); string(it.Report) != "null" || !bytes.Equal(env, want) {
			t.Errorf("item %d (%s): envelope\n%s\nwant the single route's\n%s", i, ids[i], env, want)
		}
	}
}

func TestDeadlinesBatchDefaultToday(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithRateLimit(0))
	for _, body := range []string{`{"ids":["123456"]}`, `{"ids":["123456"],"today":null}`} {
		res := h.post(t, batchPath, body)
		var got batchResponse
		if err := json.Unmarshal(res.body, &got); err != nil || res.status != 200 {
			t.Fatalf("%s: status %d %v\n%s", body, res.status, err, res.body)
		}
		if got.Today != "2026-01-15" { // the fake clock's UTC date
			t.Errorf("%s: today %q, want the current UTC date", body, got.Today)
		}
	}
}

// TestDeadlinesBatchBadRequests: every body that is not a batch is a 400
// bad_request envelope with a hint (unsupported_country first for an
// unknown country, as on every route).
func TestDeadlinesBatchBadRequests(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithRateLimit(0))
	many := func(n int) string {
		ids := make([]string, n)
		for i := range ids {
			ids[i] = fmt.Sprintf("%06d", 100000+i)
		}
		b, _ := json.Marshal(map[string]any{"ids": ids})
		return string(b)
	}
	tests := []struct {
		name, path, body string
		status           int
		code             registry.Code
	}{
		{"empty body", batchPath, "", 400, registry.CodeBadRequest},
		{"blank body", batchPath, " \n", 400, registry.CodeBadRequest},
		{"malformed JSON", batchPath, `{"ids": ["123456"`, 400, registry.CodeBadRequest},
		{"trailing data", batchPath, `{"ids": ["123456"]} {}`, 400, registry.CodeBadRequest},
		{"array body", batchPath, `["123456"]`, 400, registry.CodeBadRequest},
		{"null body", batchPath, `null`, 400, registry.CodeBadRequest},
		{"ids missing", batchPath, `{"today": "2026-01-15"}`, 400, registry.CodeBadRequest},
		{"ids null", batchPath, `{"ids": null}`, 400, registry.CodeBadRequest},
		{"ids empty", batchPath, `{"ids": []}`, 400, registry.CodeBadRequest},
		{"ids not an array", batchPath, `{"ids": "123456"}`, 400, registry.CodeBadRequest},
		{"id a number", batchPath, `{"ids": [123456]}`, 400, registry.CodeBadRequest},
		{"id null", batchPath, `{"ids": ["123456", null]}`, 400, registry.CodeBadRequest},
		{"501 ids", batchPath, many(501), 400, registry.CodeBadRequest},
		{"unknown field", batchPath, `{"ids": ["123456"], "country": "NO"}`, 400, registry.CodeBadRequest},
		{"field in another case", batchPath, `{"IDS": ["123456"]}`, 400, registry.CodeBadRequest},
		{"today empty", batchPath, `{"ids": ["123456"], "today": ""}`, 400, registry.CodeBadRequest},
		{"today unparseable", batchPath, `{"ids": ["123456"], "today": "15.01.2026"}`, 400, registry.CodeBadRequest},
		{"today a number", batchPath, `{"ids": ["123456"], "today": 20260115}`, 400, registry.CodeBadRequest},
		{"body too large", batchPath, `{"ids": ["` + strings.Repeat("1", restserver.MaxBatchBodyBytes) + `"]}`, 400, registry.CodeBadRequest},
		{"unsupported country first", "/v1/XX/deadlines:batch", `{"idz": []}`, 404, registry.CodeUnsupportedCountry},
		{"unsupported country", "/v1/UK/deadlines:batch", `{"ids": ["123456"]}`, 404, registry.CodeUnsupportedCountry},
	}
	var all bytes.Buffer
	for _, tt := range tests {
		res := h.post(t, tt.path, tt.body)
		if res.status != tt.status {
			t.Errorf("%s: status %d, want %d\n%s", tt.name, res.status, tt.status, res.body)
			continue
		}
		e := errorOf(t, res.body)
		if e.Code != tt.code || e.Hint == "" {
			t.Errorf("%s: code %q hint %q, want %q and a hint", tt.name, e.Code, e.Hint, tt.code)
		}
		h.checkPost(t, "/v1/{country}/deadlines:batch", res)
		fmt.Fprintf(&all, "## %s\n%s\n", tt.name, res.body)
	}
	golden(t, "batch/bad_requests.golden", all.Bytes())
}

// TestDeadlinesBatchTakesTheLargestBatch: 500 identifiers, answered in
// order.
func TestDeadlinesBatchTakesTheLargestBatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithRateLimit(0))
	ids := make([]string, restserver.MaxBatchIDs)
	for i := range ids {
		ids[i] = fmt.Sprintf("%06d", 100000+i)
	}
	body, _ := json.Marshal(map[string]any{"ids": ids, "today": "2026-01-15"})
	res := h.post(t, batchPath, string(body))
	var got batchResponse
	if err := json.Unmarshal(res.body, &got); err != nil || res.status != 200 {
		t.Fatalf("status %d %v", res.status, err)
	}
	if got.Count != len(ids) || got.Failed != 0 {
		t.Fatalf("count %d failed %d", got.Count, got.Failed)
	}
	for i, it := range got.Items {
		if it.ID != ids[i] || it.Status != 200 {
			t.Fatalf("item %d: %q status %d", i, it.ID, it.Status)
		}
	}
}

func TestDeadlinesBatchWrongMethod(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete} {
		res := h.do(t, m, batchPath, nil)
		if res.status != http.StatusMethodNotAllowed || res.header.Get("Allow") != "POST" {
			t.Errorf("%s: status %d Allow %q, want 405 and POST", m, res.status, res.header.Get("Allow"))
		}
		if m != http.MethodHead {
			if e := errorOf(t, res.body); e.Code != registry.CodeBadRequest {
				t.Errorf("%s: code %q", m, e.Code)
			}
		}
	}
}

// TestDeadlinesBatchChargedByIDs: a batch of n identifiers costs n requests
// of the rate limit; one larger than the bucket needs a full bucket and
// leaves a debt that refills at the usual pace.
func TestDeadlinesBatchChargedByIDs(t *testing.T) {
	t.Parallel()
	h := newHarness(t, restserver.WithRateLimit(10)) // a token every 6 s
	ids := func(n int) string {
		s := make([]string, n)
		for i := range s {
			s[i] = "123456"
		}
		b, _ := json.Marshal(map[string]any{"ids": s, "today": "2026-01-15"})
		return string(b)
	}
	step := func(what string, res response, want int) {
		t.Helper()
		if res.status != want {
			t.Fatalf("%s: status %d, want %d\n%s", what, res.status, want, res.body)
		}
	}
	step("batch of 4 (10 tokens)", h.post(t, batchPath, ids(4)), 200)
	res := h.post(t, batchPath, ids(7))
	step("batch of 7 (6 tokens)", res, 429)
	if ra := res.header.Get("Retry-After"); ra != "6" {
		t.Errorf("Retry-After %q, want 6 (one token short)", ra)
	}
	step("batch of 6 (6 tokens)", h.post(t, batchPath, ids(6)), 200)
	step("lookup (0 tokens)", h.get(t, "/v1/ZZ/company/123456"), 429)
	step("malformed batch (0 tokens)", h.post(t, batchPath, "{"), 429)

	h.clock.Advance(time.Minute) // full again
	step("batch of 25 (10 tokens, the bucket's size)", h.post(t, batchPath, ids(25)), 200)
	h.clock.Advance(time.Minute) // -15 + 10 = -5
	res = h.get(t, "/v1/ZZ/company/123456")
	step("lookup a minute after the large batch", res, 429)
	if ra := res.header.Get("Retry-After"); ra != "36" {
		t.Errorf("Retry-After %q, want 36 (six tokens short)", ra)
	}
	h.clock.Advance(36 * time.Second)
	step("lookup once the debt is paid", h.get(t, "/v1/ZZ/company/123456"), 200)
	step("malformed batch (1 token is enough)", h.post(t, batchPath, "{"), 429)
	h.clock.Advance(6 * time.Second)
	step("malformed batch costs one request", h.post(t, batchPath, "{"), 400)
}

// TestDeadlinesBatchEndToEnd runs a batch through the real Norwegian module
// behind a faked register: a unit written two ways, an unknown number, a
// bad check digit and a failing register, each item pinned.
func TestDeadlinesBatchEndToEnd(t *testing.T) {
	t.Parallel()
	h := newE2E(t, chKey)
	res := h.post(t, "/v1/no/deadlines:batch",
		`{"ids": ["923609016", "NO 923 609 016 MVA", "100000008", "923609017", "974760673"], "today": "2026-01-15"}`)
	if res.status != 200 {
		t.Fatalf("status %d\n%s", res.status, res.body)
	}
	h.checkPost(t, "/v1/{country}/deadlines:batch", res)
	golden(t, "batch/e2e_no.golden", indent(t, res.body))
	var got batchResponse
	if err := json.Unmarshal(res.body, &got); err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, it := range got.Items {
		code := "ok"
		if string(it.Error) != "null" {
			code = string(errorOf(t, []byte(`{"error":`+string(it.Error)+`}`)).Code)
		}
		codes = append(codes, fmt.Sprintf("%d %s", it.Status, code))
	}
	want := []string{"200 ok", "200 ok", "404 not_found", "400 invalid_id", "502 upstream_error"}
	if fmt.Sprint(codes) != fmt.Sprint(want) || got.Country != "NO" || got.Failed != 3 {
		t.Errorf("items %v country %q failed %d, want %v, NO, 3", codes, got.Country, got.Failed, want)
	}
	// Equinor once (the second spelling is the same unit), the unknown
	// number under /enheter and /underenheter, the failing register twice
	// (one retry); the bad check digit never.
	if n := h.upstream.GetTotalCallCount(); n != 5 {
		t.Errorf("%d upstream calls, want 5: %v", n, h.upstream.GetCallCountInfo())
	}
}
