package dispatch_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/dispatch"
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/internal/memstore"
	"github.com/companyregistry/registry/internal/pgtest"
)

// pg is the PostgreSQL server of the benchmarks on PostgreSQL, started by
// the first that asks for a database.
var pg = pgtest.New()

func TestMain(m *testing.M) { pg.Main(m) }

var t0 = time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC)

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// hit is one request the test receiver got.
type hit struct {
	header http.Header
	body   []byte
}

// receiver is a test endpoint: each request is put on hits, then answered
// by the next reply (a status and headers), or 200 when replies is nil.
type receiver struct {
	srv     *httptest.Server
	hits    chan hit
	replies chan reply
}

type reply struct {
	status int
	header map[string]string
	hold   chan struct{} // when set, the answer waits for it
}

func newReceiver(t testing.TB, scripted bool) *receiver {
	t.Helper()
	r := &receiver{hits: make(chan hit, 1024)}
	if scripted {
		r.replies = make(chan reply, 1024)
	}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.hits <- hit{req.Header.Clone(), b}
		rep := reply{status: http.StatusOK}
		if r.replies != nil {
			rep = <-r.replies
		}
		if rep.hold != nil {
			<-rep.hold
		}
		for k, v := range rep.header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(rep.status)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) answer(status int, header ...string) {
	rep := reply{status: status, header: map[string]string{}}
	for i := 0; i+1 < len(header); i += 2 {
		rep.header[header[i]] = header[i+1]
	}
	r.replies <- rep
}

type fixture struct {
	store *memstore.Store
	clock *fakeclock.Clock
	key   []byte
	watch changes.Watch
	disp  *dispatch.Dispatcher
	rec   *receiver
	mu    sync.Mutex
	sent  []changes.Attempt
}

func (f *fixture) attempts() []changes.Attempt {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]changes.Attempt(nil), f.sent...)
}

// newFixture builds a store with one watch of 923609016 whose endpoint is
// a test receiver, and a dispatcher with a fake clock and a jitter of a
// twentieth of each delay.
func newFixture(t testing.TB, scripted bool, cfg ...func(*dispatch.Config)) *fixture {
	t.Helper()
	f := &fixture{clock: fakeclock.New(t0), rec: newReceiver(t, scripted)}
	f.store = memstore.New(f.clock.Now)
	var err error
	if f.key, err = webhook.ParseSecret(secret); err != nil {
		t.Fatal(err)
	}
	f.watch = changes.Watch{ID: "wch_1", Owner: "acme", Country: "NO", IDs: []string{"923609016"},
		URL: f.rec.srv.URL + "/hook", CreatedAt: t0}
	if err := f.store.CreateWatch(context.Background(), f.watch, f.key, nil); err != nil {
		t.Fatal(err)
	}
	client := webhook.NewClient(webhook.ClientOptions{Policy: webhook.Policy{AllowPrivate: true}})
	t.Cleanup(client.CloseIdleConnections)
	c := dispatch.Config{Store: f.store, Client: client, Worker: "test", Now: f.clock.Now,
		Jitter: func(d time.Duration) time.Duration { return d / 20 },
		Sent: func(_ changes.Claim, a changes.Attempt) {
			f.mu.Lock()
			f.sent = append(f.sent, a)
			f.mu.Unlock()
		}}
	for _, o := range cfg {
		o(&c)
	}
	if f.disp, err = dispatch.New(c); err != nil {
		t.Fatal(err)
	}
	return f
}

// record applies n name changes of the watched company, detected now.
func (f *fixture) record(t testing.TB, n int) []changes.Change {
	t.Helper()
	var batch []changes.Change
	for i := range n {
		batch = append(batch, changes.Change{Country: "NO", CompanyID: "923609016", Kind: changes.KindNameChanged,
			Old: json.RawMessage(`"A"`), New: json.RawMessage(strconv.Quote("B" + strconv.Itoa(i))), DetectedAt: f.clock.Now()})
	}
	out, err := f.store.Apply(context.Background(), changes.Batch{Changes: batch})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func (f *fixture) delivery(t testing.TB) changes.Delivery {
	t.Helper()
	ds, err := f.store.Deliveries(context.Background(), "acme", f.watch.ID, 10)
	if err != nil || len(ds) == 0 {
		t.Fatalf("deliveries %v, %v", ds, err)
	}
	return ds[0]
}

func once(t testing.TB, f *fixture) int {
	t.Helper()
	n, err := f.disp.Once(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestDeliverSigned: the receiver gets the change's webhook body, signed
// with the watch's secret, webhook-id the change's id; the delivery is
// succeeded after one attempt.
func TestDeliverSigned(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.record(t, 1)[0]
	if n := once(t, f); n != 1 {
		t.Fatalf("sent %d", n)
	}
	h := <-f.rec.hits
	want, _ := changes.WebhookBody(c)
	if diff := cmp.Diff(string(want), string(h.body)); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
	if h.header.Get(webhook.HeaderID) != c.ID || h.header.Get(webhook.HeaderTimestamp) != strconv.FormatInt(t0.Unix(), 10) {
		t.Errorf("headers %v", h.header)
	}
	if err := webhook.Verify(secret, h.header, h.body, t0); err != nil {
		t.Errorf("verify: %v", err)
	}
	d := f.delivery(t)
	if d.Status != changes.DeliverySucceeded || d.Attempts != 1 || *d.LastStatusCode != 200 || d.LastError != nil {
		t.Errorf("delivery %+v", d)
	}
	if n := once(t, f); n != 0 {
		t.Errorf("a delivered webhook was claimed again")
	}
}

// TestRetrySchedule: an endpoint that always answers 500 gets the ten
// attempts of the Standard Webhooks schedule (immediately, 5 s, 5 min,
// 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h after each failure, plus the
// injected jitter), none before it is due; after the tenth the delivery
// fails and the watch is disabled and says why. Source: Standard Webhooks
// 1.0, "Retry schedule" (standard-webhooks/standard-webhooks@bece768d960f09e242f5cd5686d859e475d6b478:spec/standard-webhooks.md).
func TestRetrySchedule(t *testing.T) {
	t.Parallel()
	f := newFixture(t, true)
	f.record(t, 1)
	var got []time.Duration
	start := f.clock.Now()
	for attempt := 1; attempt <= dispatch.MaxAttempts; attempt++ {
		f.rec.answer(http.StatusInternalServerError)
		if n := once(t, f); n != 1 {
			t.Fatalf("attempt %d: sent %d", attempt, n)
		}
		h := <-f.rec.hits
		if attempt == 1 {
			if h.header.Get(webhook.HeaderID) == "" {
				t.Fatal("no webhook-id")
			}
		}
		d := f.delivery(t)
		if d.Attempts != attempt || *d.LastStatusCode != 500 || *d.LastError != "the endpoint answered 500" {
			t.Fatalf("attempt %d: %+v", attempt, d)
		}
		if attempt == dispatch.MaxAttempts {
			if d.Status != changes.DeliveryFailed || d.NextAttemptAt != nil {
				t.Fatalf("after the last attempt: %+v", d)
			}
			break
		}
		delay := d.NextAttemptAt.Sub(f.clock.Now())
		got = append(got, delay)
		f.clock.Advance(delay - time.Second)
		if n := once(t, f); n != 0 {
			t.Fatalf("attempt %d sent a second early", attempt+1)
		}
		f.clock.Advance(time.Second)
	}
	var want []time.Duration
	var total time.Duration
	for _, d := range dispatch.Schedule() {
		want = append(want, d+d/10/20)
		total += d
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("delays (-want +got):\n%s", diff)
	}
	if total != 75*time.Hour+35*time.Minute+5*time.Second {
		t.Errorf("the schedule spans %v", total)
	}
	if elapsed := f.clock.Now().Sub(start); elapsed < 75*time.Hour {
		t.Errorf("gave up after %v", elapsed)
	}
	w, _ := f.store.Watch(context.Background(), "acme", f.watch.ID)
	if !w.Disabled || w.DisabledReason == nil || !strings.Contains(*w.DisabledReason, "all 10 attempts") || !w.DisabledAt.Equal(f.clock.Now()) {
		t.Errorf("watch %+v", w)
	}
}

// TestStatuses: what each answer does to a delivery after its first
// attempt. Standard Webhooks 1.0: 2xx succeeds, 410 disables the endpoint,
// 429/502/504 throttle (Retry-After honoured), everything else (3xx
// included) is a failure that is retried.
func TestStatuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		status   int
		header   []string
		status2  changes.DeliveryStatus
		retryIn  time.Duration // 0: no retry
		disabled bool
	}{
		{name: "200", status: 200, status2: changes.DeliverySucceeded},
		{name: "204", status: 204, status2: changes.DeliverySucceeded},
		{name: "410 disables", status: 410, status2: changes.DeliveryFailed, disabled: true},
		{name: "500 retried", status: 500, status2: changes.DeliveryPending, retryIn: 5*time.Second + 25*time.Millisecond},
		{name: "429 honours Retry-After", status: 429, header: []string{"Retry-After", "3600"}, status2: changes.DeliveryPending, retryIn: time.Hour},
		{name: "503 with a short Retry-After keeps the schedule", status: 503, header: []string{"Retry-After", "1"},
			status2: changes.DeliveryPending, retryIn: 5*time.Second + 25*time.Millisecond},
		{name: "502 honours Retry-After", status: 502, header: []string{"Retry-After", "60"}, status2: changes.DeliveryPending, retryIn: time.Minute},
		{name: "500 ignores Retry-After", status: 500, header: []string{"Retry-After", "3600"}, status2: changes.DeliveryPending,
			retryIn: 5*time.Second + 25*time.Millisecond},
		{name: "400 retried", status: 400, status2: changes.DeliveryPending, retryIn: 5*time.Second + 25*time.Millisecond},
		{name: "404 retried", status: 404, status2: changes.DeliveryPending, retryIn: 5*time.Second + 25*time.Millisecond},
		{name: "302 is a failure", status: 302, header: []string{"Location", "http://127.0.0.1:1/elsewhere"}, status2: changes.DeliveryPending,
			retryIn: 5*time.Second + 25*time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, true)
			f.record(t, 1)
			f.rec.answer(tt.status, tt.header...)
			once(t, f)
			<-f.rec.hits
			d := f.delivery(t)
			if d.Status != tt.status2 || *d.LastStatusCode != tt.status {
				t.Errorf("delivery %s, status %d", d.Status, *d.LastStatusCode)
			}
			if tt.retryIn == 0 && d.NextAttemptAt != nil {
				t.Errorf("next attempt %v", d.NextAttemptAt)
			}
			if tt.retryIn != 0 && (d.NextAttemptAt == nil || d.NextAttemptAt.Sub(t0) != tt.retryIn) {
				t.Errorf("next attempt %v, want in %v", d.NextAttemptAt, tt.retryIn)
			}
			w, _ := f.store.Watch(context.Background(), "acme", f.watch.ID)
			if w.Disabled != tt.disabled {
				t.Errorf("disabled %v", w.Disabled)
			}
			if tt.disabled && !strings.Contains(*w.DisabledReason, "410") {
				t.Errorf("reason %q", *w.DisabledReason)
			}
		})
	}
}

// TestGoneStopsTheWatch: after a 410 the watch's other deliveries are not
// sent.
func TestGoneStopsTheWatch(t *testing.T) {
	t.Parallel()
	f := newFixture(t, true, func(c *dispatch.Config) { c.Concurrency = 1 })
	f.record(t, 3)
	f.rec.answer(http.StatusGone)
	if n := once(t, f); n != 1 {
		t.Fatalf("sent %d", n)
	}
	<-f.rec.hits
	if n := once(t, f); n != 0 {
		t.Errorf("sent %d after the 410", n)
	}
}

// TestTransportFailures: a refused connection and an address the policy
// refuses are failures retried on the schedule, with a reason that never
// shows the URL.
func TestTransportFailures(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/hook?token=SECRET"
	ln.Close()
	tests := []struct {
		name, url string
		strict    bool
		reason    string
	}{
		{"refused", closed, false, "the endpoint refused the connection"},
		{"loopback refused by the policy", strings.Replace(closed, "http:", "https:", 1), true, "loopback"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, false, func(c *dispatch.Config) {
				c.Client = webhook.NewClient(webhook.ClientOptions{Policy: webhook.Policy{AllowPrivate: !tt.strict}})
			})
			u := tt.url
			if _, err := f.store.UpdateWatch(context.Background(), "acme", f.watch.ID, changes.WatchUpdate{URL: &u}, nil); err != nil {
				t.Fatal(err)
			}
			f.record(t, 1)
			once(t, f)
			d := f.delivery(t)
			if d.Status != changes.DeliveryPending || d.LastStatusCode != nil || !strings.Contains(*d.LastError, tt.reason) ||
				strings.Contains(*d.LastError, "SECRET") || d.NextAttemptAt.Sub(t0) != 5*time.Second+25*time.Millisecond {
				t.Errorf("delivery %+v (error %q)", d, *d.LastError)
			}
		})
	}
}

// failingRecords is a store whose RecordAttempt fails, as when the
// process dies between sending and recording.
type failingRecords struct{ changes.Store }

func (failingRecords) RecordAttempt(context.Context, string, changes.Attempt) error {
	return errors.New("the process died")
}

// TestAtLeastOnce: a claim held by a dispatcher that died is not sent by
// another before its lease expires, and after it the delivery is sent with
// the same webhook-id; a webhook sent whose attempt was never recorded is
// sent again with the same webhook-id.
func TestAtLeastOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.record(t, 1)[0]
	ctx := context.Background()

	// Worker "dead" claims the delivery and dies.
	if claims, err := f.store.ClaimDeliveries(ctx, "dead", f.clock.Now(), 10, dispatch.DefaultLease); err != nil || len(claims) != 1 {
		t.Fatalf("claims %v, %v", claims, err)
	}
	if n := once(t, f); n != 0 {
		t.Fatalf("sent %d while another worker holds the claim", n)
	}
	f.clock.Advance(dispatch.DefaultLease)
	if n := once(t, f); n != 1 {
		t.Fatalf("sent %d after the lease", n)
	}
	if h := <-f.rec.hits; h.header.Get(webhook.HeaderID) != c.ID {
		t.Errorf("webhook-id %q, want %q", h.header.Get(webhook.HeaderID), c.ID)
	}

	// Sent, then the record is lost.
	c2 := f.record(t, 1)[0]
	dying, err := dispatch.New(dispatch.Config{Store: failingRecords{f.store}, Client: webhook.NewClient(webhook.ClientOptions{
		Policy: webhook.Policy{AllowPrivate: true}}), Now: f.clock.Now, Worker: "dying"})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := dying.Once(ctx); n != 1 || err != nil {
		t.Fatalf("dying sent %d, %v", n, err)
	}
	first := <-f.rec.hits
	if n := once(t, f); n != 0 {
		t.Fatalf("sent again before the lease expired")
	}
	f.clock.Advance(dispatch.DefaultLease)
	if n := once(t, f); n != 1 {
		t.Fatalf("not sent again after the lease")
	}
	second := <-f.rec.hits
	if first.header.Get(webhook.HeaderID) != c2.ID || second.header.Get(webhook.HeaderID) != c2.ID {
		t.Errorf("webhook-ids %q and %q, want %q", first.header.Get(webhook.HeaderID), second.header.Get(webhook.HeaderID), c2.ID)
	}
}

// TestRedeliveryAfterTheSchedule: a delivery that used up its schedule and
// is queued again by hand gets one attempt; its failure does not disable
// the watch again.
func TestRedeliveryAfterTheSchedule(t *testing.T) {
	t.Parallel()
	f := newFixture(t, true)
	f.record(t, 1)
	for range dispatch.MaxAttempts {
		f.rec.answer(500)
		once(t, f)
		<-f.rec.hits
		if d := f.delivery(t); d.NextAttemptAt != nil {
			f.clock.Advance(d.NextAttemptAt.Sub(f.clock.Now()))
		}
	}
	ctx := context.Background()
	enable := changes.WatchUpdate{Enable: true}
	if _, err := f.store.UpdateWatch(ctx, "acme", f.watch.ID, enable, nil); err != nil {
		t.Fatal(err)
	}
	d := f.delivery(t)
	if _, err := f.store.Redeliver(ctx, "acme", f.watch.ID, d.ID); err != nil {
		t.Fatal(err)
	}
	f.rec.answer(500)
	once(t, f)
	<-f.rec.hits
	d = f.delivery(t)
	w, _ := f.store.Watch(ctx, "acme", f.watch.ID)
	if d.Status != changes.DeliveryFailed || d.Attempts != dispatch.MaxAttempts+1 || w.Disabled {
		t.Errorf("delivery %s after %d attempts, watch disabled %v", d.Status, d.Attempts, w.Disabled)
	}
}

// TestRunBoundsConcurrencyAndShutsDownCleanly: Run sends at most
// Concurrency webhooks at once (it claims no more while they are in
// flight), and when its context ends it waits for the attempts in flight,
// records them, and returns.
func TestRunBoundsConcurrencyAndShutsDownCleanly(t *testing.T) {
	t.Parallel()
	f := newFixture(t, true, func(c *dispatch.Config) { c.Concurrency = 3; c.Poll = time.Hour })
	f.record(t, 10)
	hold := make(chan struct{})
	for range 10 {
		f.rec.replies <- reply{status: 200, hold: hold}
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error)
	go func() { stopped <- f.disp.Run(ctx) }()
	for range 3 {
		<-f.rec.hits
	}
	if claims, _ := f.store.Counts(); claims != 3 {
		t.Errorf("%d claims with 3 attempts in flight", claims)
	}
	cancel()
	close(hold)
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	if _, attempts := f.store.Counts(); attempts != 3 {
		t.Errorf("%d attempts recorded after the shutdown, want the 3 in flight", attempts)
	}
	for _, a := range f.attempts() {
		if !a.Succeeded {
			t.Errorf("attempt %+v", a)
		}
	}
}

// TestRunWake: Wake makes a running dispatcher send at once, without
// waiting for its poll.
func TestRunWake(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false, func(c *dispatch.Config) { c.Poll = time.Hour })
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error)
	go func() { stopped <- f.disp.Run(ctx) }()
	c := f.record(t, 1)[0]
	f.disp.Wake()
	if h := <-f.rec.hits; h.header.Get(webhook.HeaderID) != c.ID {
		t.Errorf("webhook-id %q", h.header.Get(webhook.HeaderID))
	}
	cancel()
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
}

// TestNew: a missing store or client is an error.
func TestNew(t *testing.T) {
	t.Parallel()
	if _, err := dispatch.New(dispatch.Config{Client: webhook.NewClient(webhook.ClientOptions{})}); err == nil {
		t.Error("no store")
	}
	if _, err := dispatch.New(dispatch.Config{Store: memstore.New(time.Now)}); err == nil {
		t.Error("no client")
	}
	if _, err := dispatch.New(dispatch.Config{Store: memstore.New(time.Now), Client: webhook.NewClient(webhook.ClientOptions{}),
		Concurrency: -1}); err == nil {
		t.Error("negative concurrency")
	}
}

// TestDefaultLeaseOutlivesAnAttempt: a claim's default lease is at least
// twice the longest attempt (the client's timeout), so that no delivery is
// sent by two dispatchers at once while its first attempt is in flight,
// and at most half a minute, so that a delivery whose replica died
// mid-send is sent again that soon (.ci/changes-replicas.sh sees it).
func TestDefaultLeaseOutlivesAnAttempt(t *testing.T) {
	if dispatch.DefaultLease < 2*webhook.DefaultTimeout || dispatch.DefaultLease > 30*time.Second {
		t.Errorf("DefaultLease %v, want between %v and 30s", dispatch.DefaultLease, 2*webhook.DefaultTimeout)
	}
}

// leaseStore records the lease of each claim.
type leaseStore struct {
	changes.Store
	leases chan time.Duration
}

func (s leaseStore) ClaimDeliveries(ctx context.Context, worker string, now time.Time, n int, lease time.Duration) ([]changes.Claim, error) {
	select {
	case s.leases <- lease:
	default:
	}
	return s.Store.ClaimDeliveries(ctx, worker, now, n, lease)
}

// TestLeaseOutlastsTheClientsTimeout: a claim is held longer than one
// attempt may take, whatever the client's timeout: by default three times
// a timeout longer than DefaultLease allows (here 45 s → 135 s), and a
// Lease set no longer than the timeout is refused, since a delivery
// claimed again while its attempt still runs is sent twice at once.
func TestLeaseOutlastsTheClientsTimeout(t *testing.T) {
	t.Parallel()
	slow := webhook.NewClient(webhook.ClientOptions{Timeout: 45 * time.Second})
	if got := slow.Timeout(); got != 45*time.Second {
		t.Fatalf("Client.Timeout %v", got)
	}
	if got := webhook.NewClient(webhook.ClientOptions{}).Timeout(); got != webhook.DefaultTimeout {
		t.Errorf("default Client.Timeout %v", got)
	}
	for _, tt := range []struct {
		client *webhook.Client
		lease  time.Duration
		want   time.Duration // 0: refused
	}{
		{slow, 0, 135 * time.Second},
		{webhook.NewClient(webhook.ClientOptions{}), 0, dispatch.DefaultLease},
		{slow, 45 * time.Second, 0},
		{slow, 46 * time.Second, 46 * time.Second},
		{webhook.NewClient(webhook.ClientOptions{}), 5 * time.Second, 0},
	} {
		st := leaseStore{Store: memstore.New(time.Now), leases: make(chan time.Duration, 1)}
		d, err := dispatch.New(dispatch.Config{Store: st, Client: tt.client, Lease: tt.lease})
		if tt.want == 0 {
			if err == nil || !strings.Contains(err.Error(), "lease") {
				t.Errorf("lease %v with timeout %v: %v, want refused", tt.lease, tt.client.Timeout(), err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() { defer close(done); _ = d.Run(ctx) }()
		if got := <-st.leases; got != tt.want {
			t.Errorf("lease %v with timeout %v: claims held %v, want %v", tt.lease, tt.client.Timeout(), got, tt.want)
		}
		cancel()
		<-done
	}
}
