package dispatch_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/dispatch"
	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/internal/cputime"
	"github.com/companyregistry/registry/internal/memstore"
)

// benchReceiver is a local endpoint that answers 204 at once and notes
// when each webhook-id arrived.
type benchReceiver struct {
	srv     *httptest.Server
	mu      sync.Mutex
	arrived map[string]time.Time
	all     chan struct{}
	want    int
}

func newBenchReceiver(b *testing.B, want int) *benchReceiver {
	r := &benchReceiver{arrived: make(map[string]time.Time, want), all: make(chan struct{}), want: want}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, _ = io.Copy(io.Discard, req.Body)
		now := time.Now()
		r.mu.Lock()
		if _, dup := r.arrived[req.Header.Get(webhook.HeaderID)]; !dup {
			r.arrived[req.Header.Get(webhook.HeaderID)] = now
			if len(r.arrived) == r.want {
				close(r.all)
			}
		}
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	b.Cleanup(r.srv.Close)
	return r
}

// benchStores are the stores the delivery benchmarks run on: the tests'
// in-memory fake, SQLite in a temporary folder and a PostgreSQL database
// of pgtest's server (skipped without its binaries, outside CI).
var benchStores = []struct {
	name string
	open func(b *testing.B) changes.Store
}{
	{"memory", func(*testing.B) changes.Store { return memstore.New(time.Now) }},
	{"sqlite", func(b *testing.B) changes.Store {
		s, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(b.TempDir(), sqlstore.FileName))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = s.Close() })
		return s
	}},
	{"postgres", func(b *testing.B) changes.Store {
		s, err := sqlstore.OpenPostgres(context.Background(), pg.Database(b))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = s.Close() })
		return s
	}},
}

// benchSetup returns store with one watch of company 923609016 whose
// endpoint is r, and a running dispatcher with the default concurrency,
// lease and poll. With wake, the returned store wakes the dispatcher when
// it records a change (dispatch.WakeOnApply, as in a process that runs
// the ingesters and the dispatcher); without, the dispatcher finds the
// deliveries by its poll, as one in another process does.
func benchSetup(b *testing.B, store changes.Store, r *benchReceiver, wake bool) (changes.Store, func()) {
	key, _ := webhook.ParseSecret(secret)
	if err := store.CreateWatch(context.Background(), changes.Watch{ID: "wch_b", Owner: "acme", Country: "NO",
		IDs: []string{"923609016"}, URL: r.srv.URL + "/hook", CreatedAt: time.Now()}, key, nil); err != nil {
		b.Fatal(err)
	}
	client := webhook.NewClient(webhook.ClientOptions{Policy: webhook.Policy{AllowPrivate: true}})
	d, err := dispatch.New(dispatch.Config{Store: store, Client: client, Worker: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = d.Run(ctx); close(done) }()
	if wake {
		store = dispatch.WakeOnApply(store, d.Wake)
	}
	return store, func() { cancel(); <-done; client.CloseIdleConnections() }
}

func nameChange(i int, at time.Time) changes.Change {
	return changes.Change{Country: "NO", CompanyID: "923609016", Kind: changes.KindNameChanged,
		Old: json.RawMessage(`"OLD NAME AS"`), New: json.RawMessage(strconv.Quote("NEW NAME " + strconv.Itoa(i) + " AS")),
		DetectedAt: at}
}

// BenchmarkDeliverThroughput: b.N changes queued at once, delivered signed
// to a local receiver by one dispatcher; reports webhooks per second.
func BenchmarkDeliverThroughput(b *testing.B) {
	for _, st := range benchStores {
		b.Run(st.name, func(b *testing.B) { benchThroughput(b, st.open(b)) })
	}
}

func benchThroughput(b *testing.B, s changes.Store) {
	r := newBenchReceiver(b, b.N)
	store, stop := benchSetup(b, s, r, false)
	defer stop()
	batch := make([]changes.Change, b.N)
	now := time.Now()
	for i := range batch {
		batch[i] = nameChange(i, now)
	}
	b.ResetTimer()
	start, cpu := time.Now(), cputime.Process()
	if _, err := store.Apply(context.Background(), changes.Batch{Changes: batch}); err != nil {
		b.Fatal(err)
	}
	<-r.all
	elapsed, used := time.Since(start), cputime.Process()-cpu
	b.StopTimer()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "webhooks/s")
	// CPU of the whole process (dispatcher, store and receiver) per
	// webhook: unlike the rate, it does not drop when other processes
	// load the machine.
	b.ReportMetric(float64(used.Microseconds())/float64(b.N), "cpu-µs/webhook")
}

// BenchmarkDeliverLatency: changes queued at a steady 500 a second (5
// every 10 ms) while one dispatcher delivers them to a local receiver
// that keeps up; reports the 50th and 99th percentile of the time from
// queueing (the change's detected_at) to the receiver's arrival. In
// "poll" the dispatcher finds the deliveries by its poll, as one in
// another process than the ingester does; in "wake" the store that
// records the changes wakes it (dispatch.WakeOnApply), as in the process
// that runs the ingesters.
func BenchmarkDeliverLatency(b *testing.B) {
	for _, st := range benchStores {
		for _, wake := range []bool{false, true} {
			name := st.name + "/poll"
			if wake {
				name = st.name + "/wake"
			}
			b.Run(name, func(b *testing.B) { benchLatency(b, st.open(b), wake) })
		}
	}
}

func benchLatency(b *testing.B, s changes.Store, wake bool) {
	r := newBenchReceiver(b, b.N)
	store, stop := benchSetup(b, s, r, wake)
	defer stop()
	queued := make(map[string]time.Time, b.N)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	b.ResetTimer()
	for i := 0; i < b.N; {
		<-tick.C
		var batch []changes.Change
		now := time.Now()
		for j := 0; j < 5 && i < b.N; j, i = j+1, i+1 {
			batch = append(batch, nameChange(i, now))
		}
		out, err := store.Apply(context.Background(), changes.Batch{Changes: batch})
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range out {
			queued[c.ID] = c.DetectedAt
		}
	}
	<-r.all
	b.StopTimer()
	r.mu.Lock()
	lat := make([]time.Duration, 0, len(queued))
	for id, at := range queued {
		lat = append(lat, r.arrived[id].Sub(at))
	}
	r.mu.Unlock()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
