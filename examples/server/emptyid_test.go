package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/ops"
)

// TestEmptyIDIsTheOperationsError: at the host root and under a base path,
// the program answers an operation on one company with an empty identifier
// (/v1/NO/company//deadlines) with the Go API's error for "" (Norway's
// invalid_id), without the mux's redirect to the lookup of "deadlines"; an
// unknown operation there is the not_found envelope.
func TestEmptyIDIsTheOperationsError(t *testing.T) {
	t.Parallel()
	for _, base := range []string{"", "/registry"} {
		cfg, err := parseConfig(nil, env(map[string]string{"REGISTRY_BASE_PATH": base, "BRREG_BASE_URL": "http://127.0.0.1:1",
			"REGISTRY_CHANGES": "off"}), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		a, err := build(cfg, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(a.close)
		srv := httptest.NewServer(a.handler)
		t.Cleanup(srv.Close)
		client := *srv.Client()
		client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		type answer struct {
			Status int
			Body   string
		}
		get := func(path string) answer {
			res, err := client.Get(srv.URL + base + path)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return answer{res.StatusCode, string(b)}
		}
		today, _ := registry.ParseDate("2026-01-15")
		_, apiErr := a.reg.Deadlines(context.Background(), "NO", "", today)
		want, e := ops.EnvelopeJSON(apiErr)
		if diff := cmp.Diff(answer{e.HTTPStatus(), string(want)}, get("/v1/NO/company//deadlines?today=2026-01-15")); diff != "" {
			t.Errorf("base %q, empty id (-the Go API's error +got):\n%s", base, diff)
		}
		if got := get("/v1/NO/company//nope"); got.Status != http.StatusNotFound || envelope(t, got.Body).Code != registry.CodeNotFound {
			t.Errorf("base %q, unknown operation: %+v", base, got)
		}
	}
}
