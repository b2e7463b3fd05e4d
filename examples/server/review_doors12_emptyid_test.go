package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/ops"
)

// TestReview_Doors12EscapedEmptyIDIsTheOperationsError (doors12 item 2):
// the spellings of an operation on one company with an empty or odd
// identifier get the operation's own answer for that identifier, as the
// Go API gives it, never the mux's redirect to another operation (the
// lookup of "roles", or of "%72oles" escaped twice) nor a 404 that no
// other identifier gets:
//   - several empty segments (company///roles) is the empty identifier;
//   - an escaped country, "company" or operation segment is the same
//     path to the routes (the mux matches segments unescaped);
//   - an identifier written %2F is "/" (the mux takes that segment for a
//     trailing slash and answers 404), as %2F%2F is "//";
//   - a trailing slash after an empty identifier is the not_found
//     envelope, as with any identifier (company/923609016/roles/).
//
// At the host root and under a base path. Dot segments (company/./roles)
// are left to the mux's cleaning: RFC 3986 makes them the cleaned path.
func TestReview_Doors12EscapedEmptyIDIsTheOperationsError(t *testing.T) {
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
			Status   int
			Location string
			Body     string
		}
		get := func(path string) answer {
			res, err := client.Get(srv.URL + base + path)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return answer{res.StatusCode, res.Header.Get("Location"), string(b)}
		}
		roles := func(id string) answer {
			_, apiErr := a.reg.Roles(context.Background(), "NO", id)
			b, e := ops.EnvelopeJSON(apiErr)
			return answer{Status: e.HTTPStatus(), Body: string(b)}
		}
		notFound := get("/v1/NO/company/923609016/roles/")
		if notFound.Status != http.StatusNotFound {
			t.Fatalf("base %q, /v1/NO/company/923609016/roles/: %+v", base, notFound)
		}
		for _, tc := range []struct {
			path string
			want answer
		}{
			{"/v1/NO/company//roles", roles("")},
			{"/v1/NO/company///roles", roles("")},
			{"/v1/NO/company////roles", roles("")},
			{"/v1/NO/company//%72oles", roles("")},
			{"/v1/N%4F/company//roles", roles("")},
			{"/v1/NO/%63ompany//roles", roles("")},
			{"/v1/NO/company/%2F/roles", roles("/")},
			{"/v1/NO/company/%2f/%72oles", roles("/")},
			{"/v1/NO/company/%2F%2F/roles", roles("//")},
			{"/v1/NO/company/%20/roles", roles(" ")},
			{"/v1/NO/company//roles/", notFound},
		} {
			if diff := cmp.Diff(tc.want, get(tc.path)); diff != "" {
				t.Errorf("base %q, GET %s (-the operation's answer +got):\n%s", base, tc.path, diff)
			}
		}
	}
}
