package restserver_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/apitoken"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/internal/pgtest"
	"github.com/companyregistry/registry/restserver"
)

// TestReview_WatchPathNotUTF8Is500OnPostgres: with the PostgreSQL store
// (DATABASE_URL, the store for several replicas), a token holder's
// GET /v1/watches/%FF (or %00, or the same id on DELETE and
// /deliveries) is answered 500 internal_error, and logged as a server
// error, instead of 404 not_found: the id is passed to PostgreSQL
// unchecked, which refuses bytes that are not UTF-8 (or a NUL). The
// memory and SQLite stores answer 404 for the same request.
func TestReview_WatchPathNotUTF8Is500OnPostgres(t *testing.T) {
	pg := pgtest.New()
	t.Cleanup(pg.Stop)
	store, err := sqlstore.OpenPostgres(context.Background(), pg.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	clock := newFakeClock()
	reg := newRegistry(t, clock)
	svc, err := changes.NewService(changes.ServiceConfig{Store: store, Fetcher: snapFetcher{clock.Now}, Registry: reg,
		Policy: webhook.Policy{AllowPrivate: true}, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	set, err := apitoken.Parse(bothTokens())
	if err != nil {
		t.Fatal(err)
	}
	h := &changeHarness{harness: newHarnessWith(t, reg, clock, restserver.WithRateLimit(0), restserver.WithChanges(svc, set))}
	got, want := map[string]int{}, map[string]int{}
	for _, r := range [][2]string{
		{"GET", "/v1/watches/wch_x"}, // the control: an id that is text
		{"GET", "/v1/watches/%FF"}, {"GET", "/v1/watches/wch_%00"},
		{"DELETE", "/v1/watches/%FF"}, {"GET", "/v1/watches/%FF/deliveries"},
	} {
		got[r[0]+" "+r[1]] = h.call(t, r[0], r[1], erpToken, "").status
		want[r[0]+" "+r[1]] = 404
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
}
