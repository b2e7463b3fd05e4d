package main

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAPIRouterSendsMCPStraight: with the MCP path set, as newHandlerWith
// sets it, apiRouter gives a request the handler and pattern the mux would
// give, and only the MCP endpoint's exact path (and clean REST paths)
// skips the mux.
func TestAPIRouterSendsMCPStraight(t *testing.T) {
	type seen struct {
		Handler, Pattern string
		Status           int
		Location         string
	}
	for _, base := range []string{"", "/registry"} {
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
		router := apiRouter{prefix: base + "/v1/", rest: rest, mux: counted, mcpPath: base + "/mcp", mcp: mcp}
		serve := func(h http.Handler, method, target string) seen {
			last = seen{}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(method, target, nil))
			last.Status, last.Location = w.Code, w.Header().Get("Location")
			return last
		}
		for _, c := range []struct {
			method, path string
			direct       bool // with the base path in front
		}{
			{"POST", "/mcp", true},
			{"GET", "/mcp", true},
			{"DELETE", "/mcp?x=1", true},
			{"OPTIONS", "/mcp", true},
			{"POST", "/mcp/", false},
			{"POST", "/mcp/x", false},
			{"POST", "/mcp//", false},
			{"POST", "/mcpx", false},
			{"POST", "/MCP", false},
			{"POST", "/%6Dcp", false},
			{"POST", "/x/../mcp", false},
			{"POST", "/./mcp", false},
			{"GET", "/v1/countries", true},
			{"GET", "/", false},
		} {
			for _, target := range []string{c.path, base + c.path} {
				want := serve(mux, c.method, target)
				before := muxOnly
				got := serve(router, c.method, target)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("base %q, %s %s: router and mux differ (-mux +router):\n%s", base, c.method, target, diff)
				}
				wantDirect := c.direct && target == base+c.path
				if direct := muxOnly == before; direct != wantDirect {
					t.Errorf("base %q, %s %s: straight to a handler %v, want %v", base, c.method, target, direct, wantDirect)
				}
			}
		}
	}
}
