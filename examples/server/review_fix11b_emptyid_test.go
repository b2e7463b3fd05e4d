package main

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReview_Fix11bEmptyIDPathKeepsTheBasePath (rev-fix11b): apiRouter's
// doc says a path the mux could redirect goes to the mux; emptyIDPath now
// sends /v1/{country}/company//{op} to the REST handler for any country
// segment, "watches" too. With change monitoring on, restserver gives
// /v1/watches/... to its own change mux, which redirects the unclean path
// itself, behind http.StripPrefix: under REGISTRY_BASE_PATH=/registry the
// Location loses the base path (/v1/watches/company/roles, off the
// service), where the program's mux redirected (before fix-doors11) to
// /registry/v1/watches/company/roles. Fix: emptyIDPath (or restserver's
// route) leaves a change route's path to the mux.
func TestReview_Fix11bEmptyIDPathKeepsTheBasePath(t *testing.T) {
	cfg, err := parseConfig(nil, env(map[string]string{"REGISTRY_BASE_PATH": "/registry", "BRREG_BASE_URL": "http://127.0.0.1:1",
		"REGISTRY_CHANGES": "on", "REGISTRY_DATA_DIR": t.TempDir()}), io.Discard)
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
	res, err := client.Get(srv.URL + "/registry/v1/watches/company//roles")
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	type answer struct {
		Status   int
		Location string
	}
	want := answer{http.StatusTemporaryRedirect, "/registry/v1/watches/company/roles"}
	if diff := cmp.Diff(want, answer{res.StatusCode, res.Header.Get("Location")}); diff != "" {
		t.Errorf("GET /registry/v1/watches/company//roles (-the mux's redirect +got):\n%s", diff)
	}
}
