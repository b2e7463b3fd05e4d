package ingest

import (
	"net/http"
	"net/http/httptest"
	"testing"
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
// answer's headers nor a byte of its body"). Run with a -timeout: the
// proof fails when the wait below, for the idle check a connection should
// have, reaches the test's deadline (a hang guard, no timing).
// Suggested fix: start the idle check before Do (cancel cctx when it
// fires), as the Swedish watchdog does.
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
	// The flush and the idle check of the connection: with the check
	// running while the headers are awaited, the stream waits on two
	// timers, as it does once a connection has answered.
	clock.BlockUntil(t, 2)
	clock.Advance(DefaultIdleTimeout)
	recv(t, ended, "the end of the connection that never answered")
}
