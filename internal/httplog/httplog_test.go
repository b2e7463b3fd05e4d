package httplog_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/httplog"
)

// TestAccess: one record with the route pattern (never the raw path), the
// request ID and client IP; error level for a 5xx; nothing when the level
// is off.
func TestAccess(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelError}))
	r := httptest.NewRequest(http.MethodGet, "/v1/NO/company/923609016", nil)
	r.Pattern = "GET /v1/{country}/company/{id}"
	w := &httplog.Writer{ResponseWriter: httptest.NewRecorder(), IP: netip.MustParseAddr("203.0.113.7")}
	_, _ = w.Write([]byte("{}"))
	httplog.Access(t.Context(), log, "request", r, w, "rid-1", time.Time{}, time.Second)
	if buf.Len() != 0 {
		t.Fatalf("an info record was written at level error: %s", buf.String())
	}
	w.Status = http.StatusBadGateway
	httplog.Access(t.Context(), log, "request", r, w, "rid-1", time.Time{}, time.Second, slog.String("tool", "x"))
	var got map[string]any
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	delete(got, "time")
	want := map[string]any{"level": "ERROR", "msg": "request", "method": "GET", "route": "GET /v1/{country}/company/{id}",
		"status": 502.0, "bytes": 2.0, "duration": float64(time.Second), "request_id": "rid-1", "client_ip": "203.0.113.7", "tool": "x"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("record (-want +got):\n%s", diff)
	}
}

// TestClientIPForwardedWithPort: X-Forwarded-For entries written with a
// port, as some balancers write them (issue 24, item 3), name the client;
// before, they were malformed and every client behind the proxy shared the
// proxy's address and so one rate-limit allowance.
func TestClientIPForwardedWithPort(t *testing.T) {
	t.Parallel()
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	for _, tc := range []struct{ xff, want string }{
		{"203.0.113.9:51234", "203.0.113.9"},
		{"[2001:db8::9]:443", "2001:db8::9"},
		{"[2001:db8::9]", "2001:db8::9"},
		{"198.51.100.1, 203.0.113.9:51234", "203.0.113.9"},
		{"198.51.100.1, 10.9.9.9:80", "198.51.100.1"},
		{"198.51.100.1, [fd00::1]:80", "198.51.100.1"},
		{"[::ffff:203.0.113.9]:1", "203.0.113.9"},
		// Still malformed: the peer is the client.
		{"203.0.113.9:", "10.1.2.3"},
		{"203.0.113.9:99999", "10.1.2.3"},
		{"[203.0.113.9]:80", "10.1.2.3"},
		{"[2001:db8::9", "10.1.2.3"},
		{"2001:db8::9]:443", "10.1.2.3"},
	} {
		r := &http.Request{RemoteAddr: "10.1.2.3:80", Header: http.Header{"X-Forwarded-For": {tc.xff}}}
		if got := httplog.ClientIP(r, trusted).String(); got != tc.want {
			t.Errorf("X-Forwarded-For %q: client %s, want %s", tc.xff, got, tc.want)
		}
	}
}
