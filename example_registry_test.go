package registry_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/no"
)

// ExampleRegistry_Lookup looks a company up by its organisation number in
// any of its usual spellings; the second call is answered from the cache.
func ExampleRegistry_Lookup() {
	// A stand-in for Brønnøysund's API, so that the example runs offline;
	// without no.WithBaseURL the module asks the real register.
	brreg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"organisasjonsnummer":"923609016","navn":"EKSEMPEL AS",
			"organisasjonsform":{"kode":"AS","beskrivelse":"Aksjeselskap"},"registrertIMvaregisteret":true}`)
	}))
	defer brreg.Close()
	nor, err := no.New(no.WithBaseURL(brreg.URL))
	if err != nil {
		log.Fatal(err)
	}
	reg, err := registry.New([]registry.Country{nor})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	rep, err := reg.Lookup(ctx, "no", "923 609 016")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rep.Name, rep.Status, *rep.VATNumber, rep.Cached)
	again, _ := reg.Lookup(ctx, "NO", "NO923609016MVA")
	fmt.Println(again.Cached, again.FetchedAt.Equal(*rep.FetchedAt))

	_, err = reg.Lookup(ctx, "NO", "923609017")
	fmt.Println(errors.Is(err, registry.ErrInvalidID))
	_, err = reg.Lookup(ctx, "UK", "00000006")
	fmt.Println(registry.AsError(err).Code)
	// Output:
	// EKSEMPEL AS active NO923609016MVA false
	// true true
	// true
	// unsupported_country
}

// ExampleRegistry_Deadlines computes the next filing deadline of each kind
// for a Norwegian AS, as of a fixed date; reg.Today(countries.NO) gives the
// current date in Oslo.
func ExampleRegistry_Deadlines() {
	brreg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"organisasjonsnummer":"923609016","navn":"EKSEMPEL AS",
			"organisasjonsform":{"kode":"AS","beskrivelse":"Aksjeselskap"},
			"registrertIMvaregisteret":true,"harRegistrertAntallAnsatte":true,"antallAnsatte":12,
			"stiftelsesdato":"2012-05-03"}`)
	}))
	defer brreg.Close()
	nor, err := no.New(no.WithBaseURL(brreg.URL))
	if err != nil {
		log.Fatal(err)
	}
	reg, err := registry.New([]registry.Country{nor})
	if err != nil {
		log.Fatal(err)
	}

	rep, err := reg.Deadlines(context.Background(), "NO", "923609016", registry.NewDate(2026, 3, 1))
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range rep.Deadlines {
		fmt.Println(d.DueDate, d.Kind, d.RolledForward)
	}
	// Output:
	// 2026-03-05 payroll_report false
	// 2026-04-10 vat_return false
	// 2026-06-01 tax_return true
	// 2026-06-30 general_meeting false
	// 2026-07-31 annual_accounts false
	// 2027-02-01 shareholder_register_statement true
}

// ExampleRegistry_DeadlinesBatch computes the deadlines of many companies
// in one call, at most four at a time, with one answer per identifier in
// the order given: one bad identifier does not fail the others.
func ExampleRegistry_DeadlinesBatch() {
	brreg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := strings.TrimPrefix(r.URL.Path, "/enheter/")
		if id != "923609016" && id != "974760673" {
			http.NotFound(w, r) // the register answers 404 for an unknown number
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"organisasjonsnummer":%q,"navn":"EKSEMPEL %s AS",
			"organisasjonsform":{"kode":"AS","beskrivelse":"Aksjeselskap"},"stiftelsesdato":"2012-05-03"}`, id, id[:3])
	}))
	defer brreg.Close()
	nor, err := no.New(no.WithBaseURL(brreg.URL))
	if err != nil {
		log.Fatal(err)
	}
	reg, err := registry.New([]registry.Country{nor}, registry.WithBatchConcurrency(4))
	if err != nil {
		log.Fatal(err)
	}

	ids := []string{"923 609 016", "923609017", "974760673", "987654325"}
	items, err := reg.DeadlinesBatch(context.Background(), "NO", ids, registry.NewDate(2026, 3, 1))
	if err != nil {
		log.Fatal(err) // the whole batch: an unknown country or a bad date
	}
	for _, it := range items {
		if it.Err != nil {
			fmt.Println(it.ID, registry.AsError(it.Err).Code)
			continue
		}
		next := it.Report.Deadlines[0]
		fmt.Println(it.ID, *it.Report.CompanyName, next.Kind, next.DueDate)
	}
	// Output:
	// 923 609 016 EKSEMPEL 923 AS tax_return 2026-06-01
	// 923609017 invalid_id
	// 974760673 EKSEMPEL 974 AS tax_return 2026-06-01
	// 987654325 not_found
}

// ExampleRegistry_Validate checks identifiers offline: an invalid one is a
// normal result, not an error.
func ExampleRegistry_Validate() {
	nor, err := no.New()
	if err != nil {
		log.Fatal(err)
	}
	reg, err := registry.New([]registry.Country{nor})
	if err != nil {
		log.Fatal(err)
	}
	for _, id := range []string{"NO 923 609 016 MVA", "934157150"} {
		v, err := reg.Validate("NO", id)
		if err != nil {
			log.Fatal(err)
		}
		if v.Valid {
			fmt.Println(*v.Normalized, *v.Formatted)
		} else {
			fmt.Println("invalid:", *v.Reason)
		}
	}
	// Output:
	// 923609016 923 609 016
	// invalid: The first eight digits give MOD11 check value 10, so no valid organisation number starts with them.
}

// mapCache is a minimal custom cache.Cache: a map without expiry, for the
// example. A real one would honour ttl and bound its size, as
// cache.NewMemory does, or keep the entries in a shared store.
type mapCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (c *mapCache) Get(_ context.Context, key string) ([]byte, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok, nil
}

func (c *mapCache) Set(_ context.Context, key string, value []byte, ttl time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ttl <= 0 {
		delete(c.m, key)
		return nil
	}
	c.m[key] = value
	return nil
}

func (c *mapCache) Delete(_ context.Context, key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, key)
	return nil
}

// ExampleWithCache plugs a cache of your own into a Registry: any
// cache.Cache works, and several Registries may share one. The keys carry a
// namespace and the format version of the entries.
func ExampleWithCache() {
	brreg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"organisasjonsnummer":"923609016","navn":"EKSEMPEL AS","organisasjonsform":{"kode":"AS"}}`)
	}))
	defer brreg.Close()
	nor, err := no.New(no.WithBaseURL(brreg.URL))
	if err != nil {
		log.Fatal(err)
	}
	shared := &mapCache{m: map[string][]byte{}}
	reg, err := registry.New([]registry.Country{nor}, registry.WithCache(shared))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := reg.Lookup(context.Background(), "NO", "923 609 016"); err != nil {
		log.Fatal(err)
	}
	for key := range shared.m {
		fmt.Println(key)
	}
	// A second Registry over the same cache answers without the register.
	other, err := registry.New([]registry.Country{nor}, registry.WithCache(shared))
	if err != nil {
		log.Fatal(err)
	}
	rep, err := other.Lookup(context.Background(), "NO", "923609016")
	fmt.Println(rep.Name, rep.Cached, err)
	// Output:
	// companyregistry/2/NO/company/923609016
	// EKSEMPEL AS true <nil>
}
