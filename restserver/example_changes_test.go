package restserver_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/apitoken"
	"github.com/companyregistry/registry/countries/no"
	"github.com/companyregistry/registry/internal/memstore"
	"github.com/companyregistry/registry/restserver"
)

// exampleFetcher stands for the fetcher of fresh reports a deployment
// uses for baselines.
type exampleFetcher struct{}

func (exampleFetcher) Fetch(_ context.Context, country, id string) (changes.Snapshot, error) {
	return changes.Snapshot{Country: country, CompanyID: id, Report: []byte(`{}`)}, nil
}

// ExampleWithChanges serves change monitoring beside the public routes:
// the watch and feed routes for the holders of API tokens. The in-memory
// store stands for a real one.
func ExampleWithChanges() {
	nor, _ := no.New()
	reg, _ := registry.New([]registry.Country{nor})
	svc, err := changes.NewService(changes.ServiceConfig{Store: memstore.New(time.Now), Fetcher: exampleFetcher{}, Registry: reg})
	if err != nil {
		panic(err)
	}
	tokens, err := apitoken.Parse("erp=3f9c1e0b7a2d4c6e8f1a3b5c7d9e0f2a")
	if err != nil {
		panic(err)
	}
	h, err := restserver.New(reg, restserver.WithChanges(svc, tokens))
	if err != nil {
		panic(err)
	}
	send := func(token, body string) int {
		req := httptest.NewRequest(http.MethodPost, "/v1/watches", strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	body := `{"country":"NO","ids":["923609016"],"url":"https://93.184.216.34/registry-hook"}`
	fmt.Println(send("", body))
	fmt.Println(send("3f9c1e0b7a2d4c6e8f1a3b5c7d9e0f2a", body))
	// Output:
	// 401
	// 201
}
