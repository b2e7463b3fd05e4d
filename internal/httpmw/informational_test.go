package httpmw_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/httpmw"
)

// TestInformationalStatusIsNotTheResponseStatus: an informational status
// (1xx, such as 103 Early Hints, which net/http sends at once and after
// which the handler still sends the real status) is interim (RFC 9110,
// section 15.2: the final response follows): the access log of a 200
// answer after a 103 says 200, and a handler that panics after a 103 is
// answered with the 500 envelope, not an aborted connection (before,
// httplog.Writer recorded the 103 as the response's status).
func TestInformationalStatusIsNotTheResponseStatus(t *testing.T) {
	t.Parallel()
	var l logs
	s := httpmw.New(httpmw.Config{Logger: l.logger()})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /hints", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", "</openapi.json>; rel=preload")
		w.WriteHeader(http.StatusEarlyHints)
		if r.URL.Query().Get("panic") != "" {
			panic("after the early hints")
		}
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("ok"))
	})
	srv := httptest.NewServer(httpmw.Chain(s.Begin, s.AccessLog("request"), s.Recover)(mux))
	defer srv.Close()

	type answer struct {
		Status int
		Err    bool
	}
	var got []answer
	for _, q := range []string{"", "?panic=1"} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/hints"+q, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			got = append(got, answer{Err: true})
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		got = append(got, answer{Status: resp.StatusCode})
	}
	var logged []any
	for _, r := range l.records(t) {
		if r["msg"] == "request" {
			logged = append(logged, r["status"])
		}
	}
	if diff := cmp.Diff([]answer{{Status: 200}, {Status: 500}}, got); diff != "" {
		t.Errorf("client answers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]any{200.0, 500.0}, logged); diff != "" {
		t.Errorf("access-log statuses (-want +got):\n%s", diff)
	}
}
