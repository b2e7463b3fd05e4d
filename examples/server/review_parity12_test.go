package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/fakeclock"
)

// TestReview_Parity12ProgramDoorsAgree asks the program as it runs (its
// HTTP server, router and stack) the same questions on REST and on /mcp,
// each program with registers faked from the recordings (Norway, the
// United Kingdom, France) and its own cache, and wants the same status
// (the code's, for MCP) and the same document or envelope, byte for byte.
func TestReview_Parity12ProgramDoorsAgree(t *testing.T) {
	t.Parallel()
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		p := r.URL.Path
		switch {
		case strings.HasPrefix(p, "/brreg/enheter/") && strings.HasSuffix(p, "/roller"):
			_, _ = w.Write(testdata(t, "brreg_roller_923609016_anonymised.json"))
		case strings.HasPrefix(p, "/brreg/enheter/"):
			_, _ = w.Write(testdata(t, "brreg_enhet_923609016.json"))
		case p == "/brreg/enheter":
			_, _ = w.Write(testdata(t, "brreg_search_digitaliseringsdirektoratet.json"))
		case p == "/ch/search/companies":
			_, _ = w.Write(testdata(t, "ch_search_bbc.json"))
		case strings.HasPrefix(p, "/ch/company/") && strings.Count(p, "/") == 3:
			_, _ = w.Write(testdata(t, "ch_company_08957400.json"))
		case strings.HasPrefix(p, "/ch/company/") && strings.HasSuffix(p, "/officers"):
			_, _ = w.Write(testdata(t, "ch_officers_04475590.json"))
		case strings.HasPrefix(p, "/ch/company/"):
			_, _ = w.Write(testdata(t, "ch_psc_list_empty.json"))
		case p == "/fr/search" && strings.Trim(r.URL.Query().Get("q"), "0123456789") == "":
			_, _ = w.Write(testdata(t, "recherche-entreprises_search_q-552032534_DANONE_SA-5599_active_body.json"))
		case p == "/fr/search":
			_, _ = w.Write(testdata(t, "recherche-entreprises_search_q-Kikou_page1_body.json"))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(upstream.Close)
	clock := fakeclock.New(time.Date(2026, time.January, 15, 9, 30, 0, 0, time.UTC))
	start := func() *program {
		return startProgram(t, programConfig{brreg: upstream.URL + "/brreg", ch: upstream.URL + "/ch", key: "k",
			recherche: upstream.URL + "/fr", regOpts: []registry.Option{registry.WithClock(clock.Now)}})
	}
	rest, mcp := start(), start()
	type question struct {
		tool, path string
		args       map[string]any
	}
	var qs []question
	for country, base := range map[string]string{"NO": "923609016", "GB": "08957400", "FR": "552032534"} {
		ids := []string{base, " " + base, base[:3] + " " + base[3:], base[:3] + "-" + base[3:], base[:3] + "." + base[3:], strings.ToLower(country) + base,
			base + "x", base[:5], "", " ", "é", strings.Repeat("9", 100), "a/b", "%", "198101052382", "\u00a0" + base, base + "\x00"}
		for _, id := range ids {
			if id == "" {
				continue // REST carries no empty identifier (a known item)
			}
			esc := "/v1/" + country + "/company/" + url.PathEscape(id)
			qs = append(qs,
				question{"lookup_company", esc, map[string]any{"id": id, "country": country}},
				question{"company_roles", esc + "/roles", map[string]any{"id": id, "country": country}},
				question{"validate_company_id", "/v1/" + country + "/validate/" + url.PathEscape(id), map[string]any{"id": id, "country": country}})
		}
		for _, today := range []string{"2026-01-15", "2026-2-3", "2026-02-30", "+2026-01-01", "0000-01-01", "9999-12-31", "2026-01-15T00:00:00Z", ""} {
			qs = append(qs, question{"company_deadlines", "/v1/" + country + "/company/" + base + "/deadlines?" + url.Values{"today": {today}}.Encode(),
				map[string]any{"id": base, "country": country, "today": today}})
		}
		for _, q := range []string{"equinor", "", " ", strings.Repeat("a", 257), "x\x00y", "19810105-2382"} {
			for _, limit := range []string{"0", "1", "100", "101", "-1", "abc", "1e2", "1.0"} {
				qs = append(qs, question{"search_company", "/v1/" + country + "/search?" + url.Values{"q": {q}, "limit": {limit}}.Encode(),
					map[string]any{"name": q, "limit": limit, "country": country}})
			}
		}
	}
	qs = append(qs, question{"list_countries", "/v1/countries", map[string]any{}})
	if len(qs) < 200 {
		t.Fatalf("%d questions", len(qs))
	}
	for _, q := range qs {
		r := rest.get(t, q.path)
		res := mcp.mcp(t, "tools/call", map[string]any{"name": q.tool, "arguments": q.args})
		var msg struct {
			Result struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(res.body), &msg); err != nil || len(msg.Result.Content) != 1 {
			t.Fatalf("%s %v: %d %.300s", q.tool, q.args, res.status, res.body)
		}
		status := http.StatusOK
		if msg.Result.IsError {
			status = envelope(t, msg.Result.Content[0].Text).Code.HTTPStatus()
		}
		type answer struct {
			Status int
			Body   string
		}
		if diff := cmp.Diff(answer{r.status, r.body}, answer{status, msg.Result.Content[0].Text}); diff != "" {
			t.Errorf("%s %+q (-REST +MCP):\n%s", q.tool, q.path, diff)
		}
	}
}
