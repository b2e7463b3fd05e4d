package restserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/apitoken"
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/internal/memstore"
	"github.com/companyregistry/registry/restserver"
)

const (
	erpToken = "erp-token-0123456789abcdef"
	crmToken = "crm-token-0123456789abcdef"
)

// snapFetcher answers every company of the fake register with a snapshot;
// 000000 is unknown to it.
type snapFetcher struct{ now func() time.Time }

func (f snapFetcher) Fetch(_ context.Context, country, id string) (changes.Snapshot, error) {
	if id == "000000" {
		return changes.Snapshot{}, &registry.Error{Code: registry.CodeNotFound, Message: "No unit with this number."}
	}
	return changes.Snapshot{Country: country, CompanyID: id, Report: json.RawMessage(`{"name":"FAKE"}`), TakenAt: f.now()}, nil
}

type changeHarness struct {
	*harness
	store *memstore.Store
	svc   *changes.Service
}

// newChangeHarness serves the fake registry with change monitoring over a
// memory store; tokens is the REGISTRY_API_TOKENS-style setting ("" for
// none). Endpoints may be loopback http (the test receivers).
func newChangeHarness(t *testing.T, tokens string, opts ...restserver.Option) *changeHarness {
	t.Helper()
	clock := newFakeClock()
	reg := newRegistry(t, clock)
	store := memstore.New(clock.Now)
	svc, err := changes.NewService(changes.ServiceConfig{Store: store, Fetcher: snapFetcher{clock.Now}, Registry: reg,
		Policy: webhook.Policy{AllowPrivate: true}, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	set, err := apitoken.Parse(tokens)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, reg, clock, append([]restserver.Option{restserver.WithRateLimit(0), restserver.WithChanges(svc, set)}, opts...)...)
	return &changeHarness{harness: h, store: store, svc: svc}
}

func bothTokens() string { return "erp=" + erpToken + ",crm=" + crmToken }

// call sends method path with body and the token (none when "").
func (h *changeHarness) call(t *testing.T, method, path, token, body string) response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, h.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return send(t, h.srv.Client(), req)
}

// checkDoc validates a JSON body against what /openapi.json documents for
// the route, method and status.
func (h *changeHarness) checkDoc(t *testing.T, method, route string, res response) {
	t.Helper()
	api := h.openAPI(t)
	esc := strings.NewReplacer("~", "~0", "/", "~1").Replace(route)
	ptr := "/paths/" + esc + "/" + strings.ToLower(method) + "/responses/" + itoa(res.status) + "/content/application~1json/schema"
	api.mu.Lock()
	sch, err := api.compiler.Compile(openAPIURL + "#" + (&url.URL{Path: ptr}).EscapedPath())
	api.mu.Unlock()
	if err != nil {
		t.Fatalf("openapi.json documents no JSON response %d for %s %s: %v", res.status, method, route, err)
	}
	inst, err := sjs.UnmarshalJSON(bytes.NewReader(res.body))
	if err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, res.body)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("%s %s %d does not match openapi.json: %v\n%s", method, route, res.status, err, res.body)
	}
}

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, b)
	}
	return m
}

// watchRoutes are the routes that need a token, with a method each.
func watchRoutes() [][2]string {
	return [][2]string{{"POST", "/v1/watches"}, {"GET", "/v1/watches"}, {"GET", "/v1/watches/wch_x"},
		{"PATCH", "/v1/watches/wch_x"}, {"DELETE", "/v1/watches/wch_x"}, {"POST", "/v1/watches/wch_x/test"},
		{"POST", "/v1/watches/wch_x/secret"}, {"GET", "/v1/watches/wch_x/deliveries"}, {"POST", "/v1/watches/wch_x/deliveries/dlv_x/redeliver"},
		{"GET", "/v1/changes"}}
}

// TestWatchRoutesNeedAToken: without a token, with an unknown one or
// another scheme, every watch and feed route is 401 unauthorized with a
// Bearer challenge; the company changes route needs none.
func TestWatchRoutesNeedAToken(t *testing.T) {
	t.Parallel()
	h := newChangeHarness(t, bothTokens())
	for _, r := range watchRoutes() {
		for _, auth := range []string{"", "Bearer nope-nope-nope-nope", "Basic " + erpToken, erpToken, "Bearer"} {
			req, _ := http.NewRequestWithContext(t.Context(), r[0], h.srv.URL+r[1], strings.NewReader("{}"))
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			res, err := h.srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			e := errorOf(t, b)
			want := `Bearer realm="companyregistry", error="invalid_token"`
			if auth == "" {
				want = `Bearer realm="companyregistry"`
			}
			if res.StatusCode != 401 || e.Code != registry.CodeUnauthorized || res.Header.Get("WWW-Authenticate") != want ||
				res.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("%s %s with %q: %d %s %q", r[0], r[1], auth, res.StatusCode, e.Code, res.Header.Get("WWW-Authenticate"))
			}
		}
	}
	if res := h.get(t, "/v1/ZZ/company/123456/changes"); res.status != 200 {
		t.Errorf("company changes without a token: %d %s", res.status, res.body)
	}
}

// TestWatchRoutesWithoutTokens: a deployment without tokens answers 403
// forbidden with a hint that says how to enable the routes.
func TestWatchRoutesWithoutTokens(t *testing.T) {
	t.Parallel()
	h := newChangeHarness(t, "")
	for _, r := range watchRoutes() {
		res := h.call(t, r[0], r[1], erpToken, "{}")
		e := errorOf(t, res.body)
		if res.status != 403 || e.Code != registry.CodeForbidden || !strings.Contains(e.Hint, "REGISTRY_API_TOKENS") {
			t.Errorf("%s %s: %d %s %q", r[0], r[1], res.status, e.Code, e.Hint)
		}
	}
	if res := h.get(t, "/v1/ZZ/company/123456/changes"); res.status != 200 {
		t.Errorf("company changes: %d", res.status)
	}
}

// TestNoChangeRoutesWithoutTheOption: a server built without WithChanges
// has none of the routes, and its texts do not mention them; the public
// routes are the same either way.
func TestNoChangeRoutesWithoutTheOption(t *testing.T) {
	t.Parallel()
	plain := newHarness(t)
	for _, r := range append(watchRoutes(), [2]string{"GET", "/v1/ZZ/company/123456/changes"}) {
		if res := plain.do(t, r[0], r[1], nil); res.status != 404 && res.status != 405 {
			t.Errorf("%s %s: %d", r[0], r[1], res.status)
		}
	}
	for _, text := range []string{"/openapi.json", "/llms.txt", "/llms-full.txt"} {
		if b := plain.get(t, text).body; bytes.Contains(b, []byte("/v1/watches")) || bytes.Contains(b, []byte("company_changes")) {
			t.Errorf("%s mentions change monitoring", text)
		}
	}
	with := newChangeHarness(t, bothTokens())
	for _, path := range []string{"/v1/countries", "/v1/ZZ/company/123456", "/v1/ZZ/search?q=fake", "/v1/ZZ/validate/123456",
		"/v1/ZZ/company/123456/deadlines?today=2026-01-15", "/v1/XX/company/1"} {
		a, b := plain.get(t, path), with.get(t, path)
		if a.status != b.status || !bytes.Equal(a.body, b.body) {
			t.Errorf("%s differs with change monitoring: %d %s / %d %s", path, a.status, a.body, b.status, b.body)
		}
	}
	openapi := string(with.get(t, "/openapi.json").body)
	for _, want := range []string{`"/v1/watches/{id}/deliveries/{delivery}/redeliver"`, `"apiToken"`, `"WebhookEvent"`, `"patch"`, `"delete"`} {
		if !strings.Contains(openapi, want) {
			t.Errorf("/openapi.json lacks %s", want)
		}
	}
}

// TestWatchLifecycle: create (201, the secret once), list, get, change,
// test event, deliveries and redelivery (202), delete (204) over HTTP,
// each answer as /openapi.json documents it; another token sees nothing.
func TestWatchLifecycle(t *testing.T) {
	t.Parallel()
	h := newChangeHarness(t, bothTokens())
	hooks := make(chan http.Header, 8)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hooks <- r.Header.Clone()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()

	res := h.call(t, "POST", "/v1/watches", erpToken,
		`{"country":"zz","ids":["123 456","123456","654321"],"kinds":["status_changed"],"url":"`+receiver.URL+`/hook"}`)
	if res.status != 201 || res.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	h.checkDoc(t, "POST", "/v1/watches", res)
	created := decode(t, res.body)
	id := created["id"].(string)
	if loc := res.header.Get("Location"); loc != "/v1/watches/"+id {
		t.Errorf("Location %q, want /v1/watches/%s", loc, id)
	}
	secret := created["secret"].(string)
	if !cmp.Equal(created["ids"], []any{"123456", "654321"}) || created["country"] != "ZZ" || !strings.HasPrefix(secret, "whsec_") {
		t.Errorf("created %v", created)
	}

	res = h.call(t, "GET", "/v1/watches", erpToken, "")
	h.checkDoc(t, "GET", "/v1/watches", res)
	if n := len(decode(t, res.body)["watches"].([]any)); res.status != 200 || n != 1 {
		t.Errorf("list: %d, %d watches", res.status, n)
	}
	res = h.call(t, "GET", "/v1/watches/"+id, erpToken, "")
	h.checkDoc(t, "GET", "/v1/watches/{id}", res)
	if got := decode(t, res.body); res.status != 200 || got["secret"] != nil || got["id"] != id {
		t.Errorf("get: %d %s", res.status, res.body)
	}
	// Another token sees none of it.
	for _, r := range [][2]string{{"GET", "/v1/watches/" + id}, {"DELETE", "/v1/watches/" + id}, {"POST", "/v1/watches/" + id + "/test"}} {
		if res := h.call(t, r[0], r[1], crmToken, ""); res.status != 404 {
			t.Errorf("crm %s %s: %d", r[0], r[1], res.status)
		}
	}
	if res := h.call(t, "GET", "/v1/watches", crmToken, ""); string(res.body) != `{"watches":[]}` {
		t.Errorf("crm's list: %s", res.body)
	}

	res = h.call(t, "PATCH", "/v1/watches/"+id, erpToken, `{"add_ids":["111111"],"remove_ids":["654321"],"kinds":[]}`)
	h.checkDoc(t, "PATCH", "/v1/watches/{id}", res)
	if got := decode(t, res.body); res.status != 200 || !cmp.Equal(got["ids"], []any{"123456", "111111"}) || !cmp.Equal(got["kinds"], []any{}) {
		t.Errorf("patch: %d %s", res.status, res.body)
	}

	res = h.call(t, "POST", "/v1/watches/"+id+"/test", erpToken, "")
	h.checkDoc(t, "POST", "/v1/watches/{id}/test", res)
	hook := <-hooks
	if got := decode(t, res.body); res.status != 200 || got["delivered"] != true || got["webhook_id"] != hook.Get("Webhook-Id") {
		t.Errorf("test: %d %s", res.status, res.body)
	}

	// A change is recorded and its delivery listed and queued again.
	if _, err := h.store.Apply(t.Context(), changes.Batch{Changes: []changes.Change{{Country: "ZZ", CompanyID: "123456",
		Kind: changes.KindNameChanged, DetectedAt: h.clock.Now()}}}); err != nil {
		t.Fatal(err)
	}
	res = h.call(t, "GET", "/v1/watches/"+id+"/deliveries?limit=5", erpToken, "")
	h.checkDoc(t, "GET", "/v1/watches/{id}/deliveries", res)
	ds := decode(t, res.body)["deliveries"].([]any)
	if res.status != 200 || len(ds) != 1 {
		t.Fatalf("deliveries: %d %s", res.status, res.body)
	}
	dlv := ds[0].(map[string]any)["id"].(string)
	res = h.call(t, "POST", "/v1/watches/"+id+"/deliveries/"+dlv+"/redeliver", erpToken, "")
	h.checkDoc(t, "POST", "/v1/watches/{id}/deliveries/{delivery}/redeliver", res)
	if res.status != 202 || decode(t, res.body)["status"] != "pending" {
		t.Errorf("redeliver: %d %s", res.status, res.body)
	}
	if res := h.call(t, "POST", "/v1/watches/"+id+"/deliveries/dlv_nope/redeliver", erpToken, ""); res.status != 404 {
		t.Errorf("redeliver unknown: %d", res.status)
	}

	res = h.call(t, "DELETE", "/v1/watches/"+id, erpToken, "")
	if res.status != 204 || len(res.body) != 0 || res.header.Get("Cache-Control") != "no-store" {
		t.Errorf("delete: %d %q", res.status, res.body)
	}
	if res := h.call(t, "GET", "/v1/watches/"+id, erpToken, ""); res.status != 404 {
		t.Errorf("get after delete: %d", res.status)
	}
}

// TestWatchBadRequests: malformed bodies, refused URLs, unknown ids and
// limits answer with their envelope and status, documented in
// /openapi.json.
func TestWatchBadRequests(t *testing.T) {
	t.Parallel()
	h := newChangeHarness(t, bothTokens())
	tests := []struct {
		method, path, body string
		status             int
		code               registry.Code
	}{
		{"POST", "/v1/watches", `{"country":"ZZ"`, 400, registry.CodeBadRequest},
		{"POST", "/v1/watches", `{"country":"ZZ","ids":["123456"],"url":"https://h.example/x","extra":1}`, 400, registry.CodeBadRequest},
		{"POST", "/v1/watches", `{"country":"ZZ","ids":["12"],"url":"https://h.example/x"}`, 400, registry.CodeInvalidID},
		{"POST", "/v1/watches", `{"country":"XX","ids":["123456"],"url":"https://h.example/x"}`, 404, registry.CodeUnsupportedCountry},
		{"POST", "/v1/watches", `{"country":"ZZ","ids":["000000"],"url":"http://127.0.0.1:1/x"}`, 404, registry.CodeNotFound},
		{"POST", "/v1/watches", `{"country":"ZZ","ids":["123456"],"url":"http://169.254.169.254/x"}`, 400, registry.CodeBadRequest},
		{"POST", "/v1/watches", `{"country":"ZY","ids":["123456"],"url":"http://127.0.0.1:1/x"}`, 502, registry.CodeUpstreamError},
		{"POST", "/v1/watches", `{"country":"ZZ","ids":["` + strings.Repeat("1", 1<<20) + `"],"url":"x"}`, 400, registry.CodeBadRequest},
		{"PATCH", "/v1/watches/wch_nope", `{"add_ids":["123456"]}`, 404, registry.CodeNotFound},
		{"GET", "/v1/changes?limit=0", "", 400, registry.CodeBadRequest},
		{"GET", "/v1/changes?limit=x", "", 400, registry.CodeBadRequest},
		{"GET", "/v1/changes?cursor=%zz", "", 400, registry.CodeBadRequest},
		{"GET", "/v1/changes?cursor=a%20b", "", 400, registry.CodeBadRequest},
		// Well formed, but not a cursor the store gave out.
		{"GET", "/v1/changes?cursor=abc", "", 400, registry.CodeBadRequest},
		{"GET", "/v1/changes?cursor=999", "", 400, registry.CodeBadRequest},
	}
	for _, tt := range tests {
		res := h.call(t, tt.method, tt.path, erpToken, tt.body)
		e := errorOf(t, res.body)
		if res.status != tt.status || e.Code != tt.code {
			t.Errorf("%s %s %.60s: %d %s %q", tt.method, tt.path, tt.body, res.status, e.Code, e.Message)
		}
		route, _, _ := strings.Cut(tt.path, "?")
		if strings.HasPrefix(route, "/v1/watches/") {
			route = "/v1/watches/{id}"
		}
		h.checkDoc(t, tt.method, route, res)
	}
}

// TestChangeFeedOverHTTP: the feed pages with next_cursor; an expired
// cursor is 410 cursor_expired with details.oldest_cursor.
func TestChangeFeedOverHTTP(t *testing.T) {
	t.Parallel()
	h := newChangeHarness(t, bothTokens())
	if res := h.call(t, "POST", "/v1/watches", erpToken, `{"country":"ZZ","ids":["123456"],"url":"https://93.184.216.34/x"}`); res.status != 201 {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	var batch []changes.Change
	for i := range 3 {
		batch = append(batch, changes.Change{Country: "ZZ", CompanyID: "123456", Kind: changes.KindNameChanged,
			Old: json.RawMessage(`"A"`), New: json.RawMessage(fmt.Sprintf(`"B%d"`, i)), DetectedAt: h.clock.Now().Add(time.Duration(i) * time.Hour)})
	}
	if _, err := h.store.Apply(t.Context(), changes.Batch{Changes: batch}); err != nil {
		t.Fatal(err)
	}
	res := h.call(t, "GET", "/v1/changes?limit=2", erpToken, "")
	h.checkDoc(t, "GET", "/v1/changes", res)
	page := decode(t, res.body)
	if res.status != 200 || len(page["changes"].([]any)) != 2 || res.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("page 1: %d %s", res.status, res.body)
	}
	first := page["changes"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "country", "company_id", "company_name", "kind", "old", "new", "registered_at", "detected_at", "source_url"} {
		if _, ok := first[k]; !ok {
			t.Errorf("a feed item lacks %s", k)
		}
	}
	res = h.call(t, "GET", "/v1/changes?limit=2&cursor="+page["next_cursor"].(string), erpToken, "")
	if n := len(decode(t, res.body)["changes"].([]any)); n != 1 {
		t.Errorf("page 2: %d changes", n)
	}
	if res := h.call(t, "GET", "/v1/changes", crmToken, ""); !strings.HasPrefix(string(res.body), `{"changes":[]`) {
		t.Errorf("crm's feed: %s", res.body)
	}
	if err := h.store.Prune(t.Context(), h.clock.Now().Add(90*time.Minute)); err != nil {
		t.Fatal(err)
	}
	res = h.call(t, "GET", "/v1/changes?cursor=0", erpToken, "")
	h.checkDoc(t, "GET", "/v1/changes", res)
	if e := errorOf(t, res.body); res.status != 410 || e.Code != registry.CodeCursorExpired || e.Details["oldest_cursor"] != "2" {
		t.Errorf("expired: %d %s", res.status, res.body)
	}
}

// TestWatchRoutesMethodNotAllowed: another method on a watch route is 405
// with the envelope and the route's methods in Allow.
func TestWatchRoutesMethodNotAllowed(t *testing.T) {
	t.Parallel()
	h := newChangeHarness(t, bothTokens())
	for path, allow := range map[string]string{
		"/v1/watches":                              "POST, GET, HEAD",
		"/v1/watches/wch_x":                        "GET, PATCH, DELETE, HEAD",
		"/v1/watches/wch_x/test":                   "POST",
		"/v1/watches/wch_x/secret":                 "POST",
		"/v1/watches/wch_x/deliveries/d/redeliver": "POST",
		"/v1/changes":                              "GET, HEAD",
	} {
		res := h.call(t, "PUT", path, erpToken, "")
		if e := errorOf(t, res.body); res.status != 405 || e.Code != registry.CodeBadRequest || res.header.Get("Allow") != allow {
			t.Errorf("PUT %s: %d %q", path, res.status, res.header.Get("Allow"))
		}
	}
	if res := h.call(t, "GET", "/v1/watches/wch_x/nope", erpToken, ""); res.status != 404 {
		t.Errorf("unknown watch route: %d", res.status)
	}
}

// TestTokensNeverLogged: the access log of requests with good and bad
// tokens holds neither.
func TestTokensNeverLogged(t *testing.T) {
	t.Parallel()
	h := newChangeHarness(t, bothTokens())
	h.call(t, "GET", "/v1/watches", erpToken, "")
	h.call(t, "GET", "/v1/changes?cursor=abc", crmToken+"x", "")
	h.call(t, "POST", "/v1/watches", erpToken, `{"country":"ZZ","ids":["123456"],"url":"https://93.184.216.34/x?token=receiver-secret"}`)
	logs := h.logs.String()
	if len(h.logs.lines(t)) < 3 {
		t.Fatalf("expected access-log records, got:\n%s", logs)
	}
	for _, secret := range []string{erpToken, crmToken, "erp-token", "receiver-secret", "Bearer"} {
		if strings.Contains(logs, secret) {
			t.Errorf("the log holds %q:\n%s", secret, logs)
		}
	}
}

// TestCompanyChangesOverHTTP: a company's changes, newest first, without a
// token; the identifier and limit are checked.
func TestCompanyChangesOverHTTP(t *testing.T) {
	t.Parallel()
	h := newChangeHarness(t, "")
	if _, err := h.store.Apply(t.Context(), changes.Batch{Changes: []changes.Change{
		{Country: "ZZ", CompanyID: "123456", Kind: changes.KindNameChanged, DetectedAt: h.clock.Now()},
		{Country: "ZZ", CompanyID: "123456", Kind: changes.KindDeleted, DetectedAt: h.clock.Now().Add(time.Hour)},
	}}); err != nil {
		t.Fatal(err)
	}
	res := h.get(t, "/v1/zz/company/123%20456/changes?limit=1")
	h.checkDoc(t, "GET", "/v1/{country}/company/{id}/changes", res)
	got := decode(t, res.body)
	if res.status != 200 || got["company_id"] != "123456" || len(got["changes"].([]any)) != 1 ||
		got["changes"].([]any)[0].(map[string]any)["kind"] != "deleted" || res.header.Get("Cache-Control") != "no-cache" {
		t.Errorf("changes: %d %s", res.status, res.body)
	}
	for path, code := range map[string]registry.Code{
		"/v1/ZZ/company/12/changes":                registry.CodeInvalidID,
		"/v1/ZZ/company/123456/changes?limit=0":    registry.CodeBadRequest,
		"/v1/ZZ/company/123456/changes?limit=many": registry.CodeBadRequest,
		"/v1/XX/company/123456/changes":            registry.CodeUnsupportedCountry,
	} {
		res := h.get(t, path)
		if e := errorOf(t, res.body); e.Code != code || res.status != code.HTTPStatus() {
			t.Errorf("%s: %d %s", path, res.status, e.Code)
		}
		h.checkDoc(t, "GET", "/v1/{country}/company/{id}/changes", res)
	}
}

// TestCreateWatchLocation: the 201 of a watch's creation says where the
// watch is, under the handler's base path.
func TestCreateWatchLocation(t *testing.T) {
	t.Parallel()
	h := newChangeHarness(t, bothTokens(), restserver.WithBasePath("/registry"))
	res := h.call(t, "POST", "/v1/watches", erpToken, `{"country":"ZZ","ids":["123456"],"url":"https://93.184.216.34/x"}`)
	if res.status != 201 {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	id := decode(t, res.body)["id"].(string)
	if loc := res.header.Get("Location"); loc != "/registry/v1/watches/"+id {
		t.Errorf("Location %q, want /registry/v1/watches/%s", loc, id)
	}
	if res := h.call(t, "POST", "/v1/watches", erpToken, `{"country":"ZZ","ids":["12"],"url":"https://93.184.216.34/x"}`); res.header.Get("Location") != "" {
		t.Errorf("a refused creation has Location %q", res.header.Get("Location"))
	}
}
