package openapiclient

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/apitoken"
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/catalog"
	"github.com/companyregistry/registry/internal/memstore"
	"github.com/companyregistry/registry/restserver"
)

var update = flag.Bool("update", false, "rewrite openapi.json from the served document")

const brregBase = "http://brreg.test/api"

// fakeBrreg answers Equinor's record for 923609016 and 404 for any other
// unit, as Brønnøysund does.
type fakeBrreg struct{ equinor []byte }

func (f fakeBrreg) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	if r.URL.Path == "/api/enheter/923609016" {
		rec.Header().Set("Content-Type", "application/json")
		_, _ = rec.Write(f.equinor)
	} else {
		rec.WriteHeader(http.StatusNotFound)
	}
	res := rec.Result()
	res.Request = r
	return res, nil
}

// apiToken is the test's API token of the watch routes.
const apiToken = "erp-token-0123456789abcdef"

// noFetch answers every company with an empty snapshot (a baseline).
type noFetch struct{}

func (noFetch) Fetch(_ context.Context, country, id string) (changes.Snapshot, error) {
	return changes.Snapshot{Country: country, CompanyID: id, Report: []byte(`{}`), TakenAt: time.Now()}, nil
}

// publicResolver answers every host with a public address: the watch's
// URL check looks nothing up.
type publicResolver struct{}

func (publicResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
}

// newServer is the real REST handler over the real country modules, with
// Brønnøysund answering from a recording.
func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	equinor, err := os.ReadFile("testdata/brreg_enhet_923609016.json")
	if err != nil {
		t.Fatal(err)
	}
	cs, err := countries.All(countries.Config{BrregBaseURL: brregBase, HTTPClient: &http.Client{Transport: fakeBrreg{equinor}}})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.New(cs, registry.WithRetryPause(0))
	if err != nil {
		t.Fatal(err)
	}
	// With change monitoring over a memory store, as the generator's
	// input is served, and one API token.
	svc, err := changes.NewService(changes.ServiceConfig{Store: memstore.New(time.Now), Fetcher: noFetch{}, Registry: reg,
		Policy: webhook.Policy{Resolver: publicResolver{}}})
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := apitoken.Parse("erp=" + apiToken)
	if err != nil {
		t.Fatal(err)
	}
	h, err := restserver.New(reg, restserver.WithRateLimit(0), restserver.WithChanges(svc, tokens))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// TestServedDocumentIsTheGeneratorsInput: openapi.json, from which
// client.gen.go is generated, is the document the service serves. When it
// fails, run this test with -update and go generate.
func TestServedDocumentIsTheGeneratorsInput(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	res, err := srv.Client().Get(srv.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	served, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("openapi.json", served, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	committed, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(committed), string(served)); diff != "" {
		t.Errorf("openapi.json is not the served document; run go test -run TestServedDocument -update && go generate (-committed +served):\n%s", diff)
	}
}

// TestGeneratedClient (issue 29): the client oapi-codegen generates from
// the served document looks a company up against the real handler and
// decodes the report, and decodes an error envelope.
func TestGeneratedClient(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	c, err := NewClientWithResponses(srv.URL, WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	ok, err := c.LookupCompanyWithResponse(ctx, "NO", "923609016")
	if err != nil {
		t.Fatal(err)
	}
	if ok.StatusCode() != http.StatusOK || ok.JSON200 == nil {
		t.Fatalf("lookup: %d %s", ok.StatusCode(), ok.Body)
	}
	got := struct {
		Country, ID, Name string
		Formatted         string
		Status            string
		Active            bool
	}{ok.JSON200.Country, ok.JSON200.Id, ok.JSON200.Name, deref(ok.JSON200.IdFormatted), string(ok.JSON200.Status), ok.JSON200.IsActive}
	want := got
	want.Country, want.ID, want.Name, want.Formatted, want.Status, want.Active = "NO", "923609016", "EQUINOR ASA", "923 609 016", "active", true
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}

	bad, err := c.LookupCompanyWithResponse(ctx, "NO", "923609017")
	if err != nil {
		t.Fatal(err)
	}
	if bad.StatusCode() != http.StatusBadRequest || bad.JSON400 == nil {
		t.Fatalf("invalid id: %d %s", bad.StatusCode(), bad.Body)
	}
	if e := bad.JSON400.Error; e.Code != "invalid_id" || e.Hint == "" || deref(e.Country) != "NO" {
		t.Errorf("envelope: %+v", e)
	}

	missing, err := c.LookupCompanyWithResponse(ctx, "NO", "100000008")
	if err != nil {
		t.Fatal(err)
	}
	if missing.StatusCode() != http.StatusNotFound || missing.JSON404 == nil || missing.JSON404.Error.Code != "not_found" {
		t.Errorf("not found: %d %s", missing.StatusCode(), missing.Body)
	}
}

// TestGeneratedClientWatches: the generated client creates a watch and
// reads it and the feed with an API token, and decodes a 401 without one.
func TestGeneratedClientWatches(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	bearer := func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+apiToken)
		return nil
	}
	c, err := NewClientWithResponses(srv.URL, WithHTTPClient(srv.Client()), WithRequestEditorFn(bearer))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	kinds := []WatchRequestKinds{WatchRequestKindsStatusChanged}
	created, err := c.CreateWatchWithResponse(ctx, CreateWatchJSONRequestBody{Country: "no", Ids: []string{"923 609 016"},
		Kinds: &kinds, Url: "https://hooks.example.com/registry"})
	if err != nil {
		t.Fatal(err)
	}
	if created.StatusCode() != http.StatusCreated || created.JSON201 == nil {
		t.Fatalf("create: %d %s", created.StatusCode(), created.Body)
	}
	w := created.JSON201
	if w.Country != "NO" || len(w.Ids) != 1 || w.Ids[0] != "923609016" || len(w.Secret) < 10 {
		t.Errorf("created %+v", w)
	}
	got, err := c.GetWatchWithResponse(ctx, w.Id)
	if err != nil || got.JSON200 == nil || got.JSON200.Url != "https://hooks.example.com/registry" {
		t.Fatalf("get: %v %s", err, got.Body)
	}
	feed, err := c.ChangeFeedWithResponse(ctx, &ChangeFeedParams{})
	if err != nil || feed.JSON200 == nil || len(feed.JSON200.Changes) != 0 || feed.JSON200.NextCursor == "" {
		t.Fatalf("feed: %v %s", err, feed.Body)
	}
	// A receiver decodes a webhook's body (the recorded one) as WebhookEvent.
	hook, err := catalog.WebhookExample()
	if err != nil {
		t.Fatal(err)
	}
	var ev WebhookEvent
	if err := json.Unmarshal(hook, &ev); err != nil || ev.Type != "company."+ev.Data.Kind || ev.Data.CompanyId != "923609016" {
		t.Errorf("the webhook as WebhookEvent: %+v, %v", ev, err)
	}
	anonymous, err := NewClientWithResponses(srv.URL, WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	denied, err := anonymous.ListWatchesWithResponse(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if denied.StatusCode() != http.StatusUnauthorized || denied.JSON401 == nil || denied.JSON401.Error.Code != "unauthorized" {
		t.Errorf("without a token: %d %s", denied.StatusCode(), denied.Body)
	}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
