package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAPIRouterAgreesWithTheMux: for every request, apiRouter gives the
// handler the mux of newHandlerWith would give, with the same pattern, or
// passes it to that mux (a redirect, a cleaned path, MCP, CONNECT); only a
// clean path under the base path's /v1/ skips the mux.
func TestAPIRouterAgreesWithTheMux(t *testing.T) {
	for _, base := range []string{"", "/registry"} {
		checkRouterAgainstMux(t, base, false, []routerCase{
			{"GET", "/v1/NO/company/923609016", true},
			{"HEAD", "/v1/NO/company/923609016?x=1", true},
			{"POST", "/v1/NO/deadlines:batch", true},
			{"GET", "/v1/countries", true},
			{"GET", "/v1/N%4F/company/923609016", true},
			{"GET", "/v1/", false},
			{"GET", "/v1", false},
			{"GET", "/v1/NO/company/923609016/", false},
			{"GET", "/v1//NO/company/923609016", false},
			{"GET", "/v1/NO/./company/923609016", false},
			{"GET", "/v1/NO/../company/923609016", false},
			{"GET", "/v1/NO/company/..", false},
			{"GET", "/v1/%2e%2e/x", true}, // an escaped dot is not a path element to the mux either
			{"GET", "/mcp", false},
			{"POST", "/mcp/", false},
			{"GET", "/mcp/../v1/countries", false},
			{"GET", "/llms.txt", false},
			{"GET", "/", false},
			{"GET", "/registry", false},
			{"GET", "/registry/v1/countries", true},
			{"GET", "/x/v1/countries", false},
		}, func(c routerCase, target string) bool { return c.direct && strings.HasPrefix(c.path, base+"/v1/") })
	}
}

// routerCase is a request for checkRouterAgainstMux and whether apiRouter
// should skip the mux for it.
type routerCase struct {
	method, path string
	direct       bool
}

// checkRouterAgainstMux sends each case's path, as it is (target), through
// the mux newHandlerWith builds under base and through apiRouter around it
// (with the MCP path set when withMCP), and requires the same handler,
// pattern, status and redirect from both, and the mux skipped exactly when
// direct(case, target) says so.
func checkRouterAgainstMux(t *testing.T, base string, withMCP bool, cases []routerCase, direct func(c routerCase, target string) bool,
	targets ...func(c routerCase) string) {
	t.Helper()
	type seen struct {
		Handler, Pattern string
		Status           int
		Location         string
	}
	var last seen
	record := func(name string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			last.Handler, last.Pattern = name, r.Pattern
		})
	}
	rest, mcp := record("rest"), record("mcp")
	mux := http.NewServeMux()
	mux.Handle(base+"/", rest)
	mux.Handle(base+"/mcp", mcp)
	mux.Handle(base+"/mcp/", mcp)
	muxOnly := 0
	counted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		muxOnly++
		mux.ServeHTTP(w, r)
	})
	router := apiRouter{prefix: base + "/v1/", rest: rest, mux: counted}
	if withMCP {
		router.mcpPath, router.mcp = base+"/mcp", mcp
	}
	serve := func(h http.Handler, method, target string) seen {
		last = seen{}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(method, target, nil))
		last.Status, last.Location = w.Code, w.Header().Get("Location")
		return last
	}
	if len(targets) == 0 {
		targets = append(targets, func(c routerCase) string { return c.path })
	}
	for _, c := range cases {
		for _, to := range targets {
			target := to(c)
			want := serve(mux, c.method, target)
			before := muxOnly
			got := serve(router, c.method, target)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("base %q, %s %s: router and mux differ (-mux +router):\n%s", base, c.method, target, diff)
			}
			if skipped, wantSkipped := muxOnly == before, direct(c, target); skipped != wantSkipped {
				t.Errorf("base %q, %s %s: straight to a handler %v, want %v", base, c.method, target, skipped, wantSkipped)
			}
		}
	}
}
