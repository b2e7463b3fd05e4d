package main

import "testing"

// TestAPIRouterSendsMCPStraight: with the MCP path set, as newHandlerWith
// sets it, apiRouter gives a request the handler and pattern the mux would
// give, and only the MCP endpoint's exact path (and clean REST paths)
// skips the mux.
func TestAPIRouterSendsMCPStraight(t *testing.T) {
	for _, base := range []string{"", "/registry"} {
		checkRouterAgainstMux(t, base, true, []routerCase{
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
			{"CONNECT", "/mcp", false},
			{"GET", "/v1/countries", true},
			{"GET", "/", false},
		}, func(c routerCase, target string) bool { return c.direct && target == base+c.path },
			func(c routerCase) string { return c.path },
			func(c routerCase) string { return base + c.path })
	}
}
