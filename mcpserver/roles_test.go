package mcpserver_test

import (
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/companyregistry/registry/internal/moduletest"
	"github.com/companyregistry/registry/mcpserver"
)

// lockedBuffer is a bytes.Buffer safe for a logger's concurrent writes.
type lockedBuffer = moduletest.SyncBuffer

// TestRolesNoPersonalDataInLogs (issue 16): company_roles over HTTP, on the
// fast path and through the SDK, answers the holders' names but writes none
// of them, nor a birth date, to the log.

func TestRolesNoPersonalDataInLogs(t *testing.T) {
	t.Parallel()
	for _, opts := range [][]mcpserver.Option{nil, {mcpserver.WithoutFastPath()}} {
		logs := &lockedBuffer{}
		logger := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		srv, _ := newHTTPServer(t, append(opts, mcpserver.WithLogger(logger))...)
		for _, args := range []string{`{"id":"923609016"}`, `{"id":"974760673"}`, `{"id":"00445790","country":"GB"}`, `{"id":"910000039"}`} {
			status, body := post(t, srv.URL+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"company_roles","arguments":`+args+`}}`, nil)
			if status != http.StatusOK {
				t.Fatalf("status %d: %s", status, body)
			}
			if args == `{"id":"923609016"}` && !strings.Contains(string(body), "Kari Nordmann") {
				t.Errorf("the answer lacks the chair: %s", body)
			}
		}
		if logs.String() == "" {
			t.Fatal("nothing was logged")
		}
		for _, s := range []string{"Kari", "Nordmann", "Former Member"} {
			if strings.Contains(logs.String(), s) {
				t.Errorf("the log holds %q", s)
			}
		}
		// The birth year as a number of its own, not digits inside a
		// duration or an ID.
		if regexp.MustCompile(`(^|[^0-9.])1970([^0-9]|$)`).MatchString(logs.String()) {
			t.Errorf("the log holds the birth year 1970")
		}
	}
}
