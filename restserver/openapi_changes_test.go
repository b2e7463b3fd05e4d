package restserver_test

import (
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/apitoken"
	"github.com/companyregistry/registry/changes/dispatch"
	"github.com/companyregistry/registry/changes/ingest"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/brregfeed"
	"github.com/companyregistry/registry/internal/catalog"
	"github.com/companyregistry/registry/restserver"
)

// exampleToken is the API token of the example deployment's caller.
const exampleToken = "erp-example-token-0123456789"

// publicResolver answers every host name with a public address, so that
// the example endpoint https://hooks.example.com/registry passes the URL
// check without a DNS lookup.
type publicResolver struct{}

func (publicResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
}

// changeDeployment is the example deployment with change monitoring: the
// real country modules over the recorded register answers (see
// exampleUpstreams), Brønnøysund's update feed played by brregfeed (an
// update published there changes Equinor's recorded record), the real
// store (SQLite), service, Norwegian ingester and dispatcher, a fixed
// clock and seeded random sources, so that every id, secret and time is
// the same on every run.
type changeDeployment struct {
	*harness
	store    *sqlstore.Store
	feed     *brregfeed.Feed
	norway   *ingest.Norway
	disp     *dispatch.Dispatcher
	receiver *httptest.Server // answers every webhook 204
	hooks    chan []byte      // the bodies it received, buffered
}

func newChangeDeployment(t *testing.T, tokens string) *changeDeployment {
	t.Helper()
	clock := newFakeClock()
	mt := exampleUpstreams(t)
	feed := brregfeed.New(clock.Now)
	unit := upstreamFixture(t, "brreg_enhet_923609016.json")
	mt.RegisterResponder("GET", brregBase+"/enheter/923609016", func(*http.Request) (*http.Response, error) {
		b, err := feed.Unit("923609016", []byte(unit))
		if err != nil {
			return nil, err
		}
		res := httpmock.NewBytesResponse(200, b)
		res.Header.Set("Content-Type", "application/json")
		return res, nil
	})
	feeds := feed.Handler("/api")
	mt.RegisterRegexpResponder("GET", regexp.MustCompile(`^`+regexp.QuoteMeta(brregBase)+`/oppdateringer/`), func(r *http.Request) (*http.Response, error) {
		rec := httptest.NewRecorder()
		feeds.ServeHTTP(rec, r)
		res := rec.Result()
		res.Request = r
		return res, nil
	})
	client := &http.Client{Transport: mt}
	cs, err := countries.All(countries.Config{BrregBaseURL: brregBase, CompaniesHouseBaseURL: chBase, CompaniesHouseAPIKey: chKey,
		HTTPClient: client})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.New(cs, registry.WithClock(clock.Now), registry.WithUpstreamTimeout(roomyTimeout), // every call of the scenario must answer
		registry.WithRetryPause(0))
	if err != nil {
		t.Fatal(err)
	}
	store, err := sqlstore.OpenSQLite(t.Context(), filepath.Join(t.TempDir(), sqlstore.FileName),
		sqlstore.WithClock(clock.Now), sqlstore.WithRandom(rand.NewChaCha8([32]byte{'s', 't', 'o', 'r', 'e'})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	fetch, err := changes.NewRegistryFetcher(reg, clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	policy := webhook.Policy{AllowPrivate: true, Resolver: publicResolver{}}
	wc := webhook.NewClient(webhook.ClientOptions{Policy: policy})
	t.Cleanup(wc.CloseIdleConnections)
	disp, err := dispatch.New(dispatch.Config{Store: store, Client: wc, Worker: "example", Now: clock.Now,
		Jitter: func(time.Duration) time.Duration { return 0 }})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := changes.NewService(changes.ServiceConfig{Store: store, Fetcher: fetch, Registry: reg, Policy: policy, Client: wc,
		Now: clock.Now, Random: rand.NewChaCha8([32]byte{'s', 'e', 'r', 'v', 'i', 'c', 'e'})})
	if err != nil {
		t.Fatal(err)
	}
	norway, err := ingest.NewNorway(store, fetch, ingest.WithBaseURL(brregBase), ingest.WithHTTPClient(client))
	if err != nil {
		t.Fatal(err)
	}
	set, err := apitoken.Parse(tokens)
	if err != nil {
		t.Fatal(err)
	}
	hooks := make(chan []byte, 8)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		select {
		case hooks <- b:
		default:
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(receiver.Close)
	h := newHarnessWith(t, reg, clock, restserver.WithRateLimit(0), restserver.WithPublicURL(exampleBase),
		restserver.WithChanges(svc, set))
	return &changeDeployment{harness: h, store: store, feed: feed, norway: norway, disp: disp, receiver: receiver, hooks: hooks}
}

// call sends method path with body and the example token (none when
// token is false).
func (d *changeDeployment) call(t *testing.T, method, path, body string, token bool) response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, d.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token {
		req.Header.Set("Authorization", "Bearer "+exampleToken)
	}
	return send(t, d.srv.Client(), req)
}

// bankruptcy publishes Equinor's bankruptcy in Brønnøysund's feed an hour
// on, and runs the Norwegian ingester's sync, which reads it, fetches the
// report and records the change against the watch's baseline.
func (d *changeDeployment) bankruptcy(t *testing.T) {
	t.Helper()
	d.clock.Advance(time.Hour)
	if _, err := d.feed.Publish("923609016", map[string]any{"konkurs": true, "konkursdato": "2026-01-15"}); err != nil {
		t.Fatal(err)
	}
	d.clock.Advance(time.Minute)
	if err := d.norway.Sync(t.Context(), d.clock.Now()); err != nil {
		t.Fatal(err)
	}
}

// changeExamples runs the scenario whose answers are change monitoring's
// examples and returns them by operation name: a watch of Equinor's status
// is created; its endpoint is pointed at a local receiver for a test event
// and for the delivery of Equinor's bankruptcy, read from the register's
// feed, then back; the watch, the list, the deliveries, a redelivery, the
// feed and the company's changes are read; the watch is changed; its
// secret is rotated.
func changeExamples(t *testing.T) map[string]response {
	t.Helper()
	d := newChangeDeployment(t, "erp="+exampleToken)
	ops := map[string]catalog.Operation{}
	for _, op := range catalog.ChangeOperations() {
		ops[op.Name] = op
	}
	out := map[string]response{}
	record := func(name string) response {
		t.Helper()
		op := ops[name]
		res := d.call(t, op.Method, op.ExamplePath, op.BodyExample, op.Auth)
		if res.status != op.SuccessStatus() {
			t.Fatalf("%s %s: %d\n%s", op.Method, op.ExamplePath, res.status, res.body)
		}
		out[name] = res
		return res
	}
	setURL := func(u string) {
		t.Helper()
		b, _ := json.Marshal(map[string]string{"url": u})
		if res := d.call(t, "PATCH", "/v1/watches/"+catalog.ExampleWatchID, string(b), true); res.status != 200 {
			t.Fatalf("PATCH url: %d %s", res.status, res.body)
		}
	}
	// The Norwegian feed is read from now on (its first sync stores the
	// time as its cursor).
	if err := d.norway.Sync(t.Context(), d.clock.Now()); err != nil {
		t.Fatal(err)
	}
	created := record("createWatch")
	var w struct{ ID string }
	if err := json.Unmarshal(created.body, &w); err != nil || w.ID != catalog.ExampleWatchID {
		t.Fatalf("the example watch is %q (%v), the catalogue's catalog.ExampleWatchID %q: set it to the new id", w.ID, err,
			catalog.ExampleWatchID)
	}
	d.clock.Advance(time.Minute)
	setURL(d.receiver.URL + "/registry")
	record("testWatch")
	<-d.hooks // the test event's
	d.bankruptcy(t)
	if n, err := d.disp.Once(t.Context()); err != nil || n != 1 {
		t.Fatalf("dispatcher: sent %d, %v", n, err)
	}
	out["webhook"] = response{status: http.StatusOK, body: <-d.hooks}
	setURL("https://hooks.example.com/registry")
	d.clock.Advance(time.Minute)
	record("listWatches")
	record("getWatch")
	deliveries := record("listDeliveries")
	var dl changes.DeliveryList
	if err := json.Unmarshal(deliveries.body, &dl); err != nil || len(dl.Deliveries) != 1 || dl.Deliveries[0].ID != catalog.ExampleDeliveryID {
		t.Fatalf("the example delivery is %s (%v), the catalogue's catalog.ExampleDeliveryID %q: set it to the new id",
			deliveries.body, err, catalog.ExampleDeliveryID)
	}
	d.clock.Advance(time.Minute)
	record("redeliver")
	feed := record("changeFeed")
	var page changes.Feed
	if err := json.Unmarshal(feed.body, &page); err != nil || page.NextCursor != catalog.ExampleCursor {
		t.Fatalf("the example feed's next_cursor is %q (%v), the catalogue's catalog.ExampleCursor %q: set it to the new cursor",
			page.NextCursor, err, catalog.ExampleCursor)
	}
	record("companyChanges")
	d.clock.Advance(time.Minute)
	record("updateWatch")
	// Last, so that the secret it draws leaves every example above as it
	// was.
	d.clock.Advance(time.Minute)
	record("rotateWatchSecret")
	return out
}

// changeErrorExamples returns the answers whose envelopes are the
// examples of change monitoring's error codes: a request without a token
// (unauthorized), one to a deployment without tokens (forbidden), and a
// feed cursor older than the changes kept (cursor_expired).
func changeErrorExamples(t *testing.T) map[registry.Code]response {
	t.Helper()
	out := map[registry.Code]response{}
	d := newChangeDeployment(t, "erp="+exampleToken)
	out[registry.CodeUnauthorized] = d.call(t, "GET", "/v1/watches", "", false)
	out[registry.CodeForbidden] = newChangeDeployment(t, "").call(t, "GET", "/v1/watches", "", true)

	if err := d.norway.Sync(t.Context(), d.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if res := d.call(t, "POST", "/v1/watches", `{"country":"NO","ids":["923609016"],"url":"`+d.receiver.URL+`/registry"}`, true); res.status != 201 {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	var start changes.Feed
	if err := json.Unmarshal(d.call(t, "GET", "/v1/changes", "", true).body, &start); err != nil {
		t.Fatal(err)
	}
	d.bankruptcy(t)
	// The webhook is delivered (a pending delivery is never pruned), and
	// 31 days later the change is past the 30 days kept.
	if n, err := d.disp.Once(t.Context()); err != nil || n != 1 {
		t.Fatalf("dispatcher: sent %d, %v", n, err)
	}
	d.clock.Advance(31 * 24 * time.Hour)
	if err := d.store.Prune(t.Context(), d.clock.Now().Add(-sqlstore.DefaultRetention)); err != nil {
		t.Fatal(err)
	}
	out[registry.CodeCursorExpired] = d.call(t, "GET", "/v1/changes?cursor="+start.NextCursor, "", true)
	return out
}
