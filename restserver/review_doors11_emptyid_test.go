package restserver_test

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/ops"
)

// TestReview_Doors11EmptyIDIsNotRedirectedToTheLookup (rev-doors11): an
// ERP that builds /v1/{country}/company/{id}/deadlines (or /roles) from an
// empty identifier sends /v1/ZZ/company//deadlines. The mux cleans the
// double slash and answers 307 text/html (not the error envelope) to
// /v1/ZZ/company/deadlines, so a client that follows redirects (Go's
// default client, curl -L, fetch) gets the LOOKUP of the identifier
// "deadlines" (or "roles"): a CompanyReport route's invalid_id about a
// word it never sent, where the Go API and both MCP doors answer the
// operation's invalid_id for the empty identifier. The package doc says the
// routes are registered "so that the mux never answers with its own
// plain-text 404 or 405"; this is its own plain redirect.
func TestReview_Doors11EmptyIDIsNotRedirectedToTheLookup(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	reg := newRegistry(t, clock)
	h := newHarnessWith(t, reg, clock)
	today, _ := registry.ParseDate("2026-01-15")
	for _, tc := range []struct {
		path string
		api  func() error
	}{
		{"/v1/ZZ/company//deadlines?today=2026-01-15", func() error {
			_, err := reg.Deadlines(t.Context(), "ZZ", "", today)
			return err
		}},
		{"/v1/ZZ/company//roles", func() error {
			_, err := reg.Roles(t.Context(), "ZZ", "")
			return err
		}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			// The status is the Go API error's own (fix-doors11): ZZ's
			// module does not answer roles, so the Go API's error for
			// Roles(ctx, "ZZ", "") is not_implemented, 501, not 400.
			want, apiErr := ops.EnvelopeJSON(tc.api())
			noFollow := *h.srv.Client()
			noFollow.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, h.srv.URL+tc.path, nil)
			first := send(t, &noFollow, req)
			got := h.get(t, tc.path) // as a client that follows redirects sees it
			type answer struct {
				FirstStatus      int
				FirstContentType string
				Status           int
				Body             string
			}
			wantA := answer{apiErr.HTTPStatus(), "application/json", apiErr.HTTPStatus(), string(want)}
			gotA := answer{first.status, first.header.Get("Content-Type"), got.status, string(got.body)}
			if diff := cmp.Diff(wantA, gotA); diff != "" {
				t.Errorf("GET %s (-want as the Go API answers +got):\n%s", tc.path, diff)
			}
		})
	}
}
