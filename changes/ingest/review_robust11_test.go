package ingest

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestReview_StreamHeadersNeverCome: a Companies House stream whose
// server takes the request and never sends the answer's headers is never
// given up: connect's idle check (WithIdleTimeout, "a stream that sends
// nothing") starts only once http.Client.Do has returned, and the client
// (WithHTTPClient's default, a zero client over http.DefaultTransport)
// has no timeout for the headers, so Run waits on that request until its
// context ends: the stream is neither reconnected nor reported, and the
// GB changes stop while the leader keeps its lease. The Swedish bulk
// download bounds the same wait (StoreConfig.DownloadIdle: "neither the
// answer's headers nor a byte of its body"). The proof waits until the
// stream's reader is blocked in the HTTP client's round trip and Run in
// its loop (its flush timer made), then counts the timers waiting on the
// stream's clock: the flush's only, no idle check. Suggested fix: start
// the idle check before Do (cancel cctx when it fires), as the Swedish
// watchdog does; the end of the proof then sees the connection given up.
func TestReview_StreamHeadersNeverCome(t *testing.T) {
	arrived, ended := make(chan struct{}, 4), make(chan struct{}, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-r.Context().Done() // no header, no byte: held until the client goes
		ended <- struct{}{}
	}))
	t.Cleanup(srv.Close)
	st, f, clock := newMemStore(), newFakeFetcher(), newFakeClock(t0)
	s, err := NewCompaniesHouseStream(st, f, testStreamKey, WithBaseURL(srv.URL), WithClock(clock), WithStreams("companies"))
	if err != nil {
		t.Fatal(err)
	}
	runStream(t, s)
	recv(t, arrived, "the stream's request")
	testwait.Blocked(t, "net/http.(*persistConn).roundTrip", 1)
	testwait.Blocked(t, "github.com/companyregistry/registry/changes/ingest.(*CompaniesHouseStream).Run", 1)
	clock.mu.Lock()
	waiting := len(clock.timers)
	clock.mu.Unlock()
	// The flush and the idle check of the connection, as once a
	// connection has answered.
	if waiting != 2 {
		t.Fatalf("%d timers wait on the stream's clock while the headers are awaited, want 2 (the flush and the idle check)", waiting)
	}
	clock.Advance(DefaultIdleTimeout)
	recv(t, ended, "the end of the connection that never answered")
}
