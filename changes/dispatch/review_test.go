package dispatch_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/companyregistry/registry/changes"
)

// TestReview_OneEndpointsBacklogStarvesOthers (issue 28: "a slow endpoint
// times out without holding a worker"; "p99 enqueue-to-send under 1 s"):
// claims are taken oldest-due first across every watch, with no share per
// endpoint, so one watch's backlog fills every slot of the dispatcher while
// another customer's webhook (a bankruptcy) waits behind all of it. With a
// slow or black-holed endpoint each of those attempts holds its slot for
// the client's 10-second timeout: 16 slots drain 1.6 deliveries a second,
// and a backlog of a thousand delays every other customer by ten minutes,
// again at each step of the retry schedule.
func TestReview_OneEndpointsBacklogStarvesOthers(t *testing.T) {
	f := newFixture(t, false)
	other := newReceiver(t, false)
	w2 := changes.Watch{ID: "wch_2", Owner: "other", Country: "NO", IDs: []string{"974760673"},
		URL: other.srv.URL + "/hook", CreatedAt: t0}
	if err := f.store.CreateWatch(context.Background(), w2, f.key, nil); err != nil {
		t.Fatal(err)
	}
	f.record(t, 16) // the first watch's backlog
	if _, err := f.store.Apply(context.Background(), changes.Batch{Changes: []changes.Change{{Country: "NO", CompanyID: "974760673",
		Kind: changes.KindStatusChanged, Old: json.RawMessage(`"active"`), New: json.RawMessage(`"bankrupt"`), DetectedAt: f.clock.Now()}}}); err != nil {
		t.Fatal(err)
	}
	once(t, f)
	if len(other.hits) == 0 {
		t.Errorf("a round of the dispatcher sent %d webhooks to one endpoint and none to another watch's due bankruptcy", len(f.rec.hits))
	}
}
