package dispatch_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/dispatch"
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/internal/memstore"
)

// Every replica runs a Dispatcher over the shared store: it sends each
// recorded change to the endpoints of the watches that follow the company,
// signed with each watch's secret. Here the store is an in-memory one and
// the endpoint a local test server.
func ExampleDispatcher() {
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println("received", r.Header.Get(webhook.HeaderID)[:4], "signed", r.Header.Get(webhook.HeaderSignature) != "")
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()

	ctx := context.Background()
	store := memstore.New(time.Now)
	key, _ := webhook.ParseSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	_ = store.CreateWatch(ctx, changes.Watch{ID: "wch_1", Owner: "erp", Country: "NO", IDs: []string{"923609016"},
		URL: receiver.URL + "/hook", CreatedAt: time.Now()}, key, nil)
	_, _ = store.Apply(ctx, changes.Batch{Changes: []changes.Change{{Country: "NO", CompanyID: "923609016",
		Kind: changes.KindNameChanged, DetectedAt: time.Now()}}})

	// A local receiver needs the policy that allows private endpoints.
	client := webhook.NewClient(webhook.ClientOptions{Policy: webhook.Policy{AllowPrivate: true}})
	defer client.CloseIdleConnections()
	d, err := dispatch.New(dispatch.Config{Store: store, Client: client})
	if err != nil {
		panic(err)
	}
	// Run(ctx) loops until ctx ends; Once sends what is due now.
	n, err := d.Once(ctx)
	fmt.Println(n, err)
	// Output:
	// received chg_ signed true
	// 1 <nil>
}
