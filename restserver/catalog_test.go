package restserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/companyregistry/registry/internal/catalog"
	"github.com/companyregistry/registry/restserver"
)

// TestCatalogRoutes: every operation of the catalogue answers on its
// method and pattern (not the unknown-route 404), and draws from the rate
// limit exactly when the catalogue says it is limited.
func TestCatalogRoutes(t *testing.T) {
	t.Parallel()
	for _, op := range catalog.Operations() {
		t.Run(op.Name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, restserver.WithRateLimit(1))
			path := op.Pattern
			for _, p := range op.PathParams() {
				path = strings.Replace(path, "{"+p.Name+"}", "ZZ", 1)
			}
			call := func() (int, string) {
				req, err := http.NewRequestWithContext(t.Context(), op.Method, h.srv.URL+path, strings.NewReader(op.BodyExample))
				if err != nil {
					t.Fatal(err)
				}
				res := send(t, h.srv.Client(), req)
				return res.status, string(res.body)
			}
			first, body := call()
			second, _ := call()
			if strings.Contains(body, "There is no route at this path.") || first == http.StatusMethodNotAllowed {
				t.Errorf("%s %s: %d %s", op.Method, path, first, body)
			}
			if limited := second == http.StatusTooManyRequests; limited != op.Limited {
				t.Errorf("%s %s: statuses %d then %d; the catalogue says limited %v", op.Method, path, first, second, op.Limited)
			}
		})
	}
}
