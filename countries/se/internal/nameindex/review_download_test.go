package nameindex

import (
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
)

// deadlineRecorder records whether a request's context has a deadline and
// answers nothing.
type deadlineRecorder struct{ seen, hasDeadline atomic.Bool }

func (d *deadlineRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	_, ok := r.Context().Deadline()
	d.seen.Store(true)
	d.hasDeadline.Store(ok)
	return nil, errors.New("no network in tests")
}

// TestReview_SEBulkDownloadUnbounded: the weekly download of the bulk file
// runs with the refresh goroutine's context, which has no deadline, and
// with the module's HTTP client, which the example server and
// countries.New leave nil (a zero http.Client: no timeout). A download
// whose server stalls mid-body therefore never ends (until Close cancels
// it): Refresh holds refreshMu, and the index is never refreshed again. COMMON.md: "bounded bodies and timeouts". Nothing bounds the time
// of the download (nor an idle read): the request reaches the transport
// with no deadline.
func TestReview_SEBulkDownloadUnbounded(t *testing.T) {
	t.Parallel()
	rt := &deadlineRecorder{}
	s, err := NewStore(t.Context(), StoreConfig{URL: "https://bulk.test/bolagsverket_bulkfil.zip", Dir: t.TempDir(),
		HTTPClient: &http.Client{Transport: rt}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_ = s.Refresh(t.Context()) // t.Context() has no deadline, like the refresh goroutine's
	if !rt.seen.Load() {
		t.Fatal("no download was attempted")
	}
	if !rt.hasDeadline.Load() {
		t.Error("the bulk-file download has no deadline or timeout: a stalled server blocks every later refresh")
	}
}
