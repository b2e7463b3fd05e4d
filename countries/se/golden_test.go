package se

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/internal/moduletest"
)

func fixedNow() time.Time { return time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC) }

// TestGoldens looks every recording up through the Registry and compares
// the document both doors encode with its reviewed golden file: the test
// environment's AB, HB, BRF and EK, the documentation's struck-off AB and
// its partial failure (OTILLGANGLIG_UPPGIFTSKALLA), the production AB,
// the not-found 200 and the 400; then the bulk file's search and the
// basic report without a credential, and the rules.
func TestGoldens(t *testing.T) {
	t.Parallel()
	reg := newRegister(t)
	r := moduletest.NewRegistry(t, build(t, reg), registry.WithClock(fixedNow))
	for name, id := range map[string]string{
		"lookup_ab_5567223705": "556722-3705", "lookup_hb_9124001992": "9124001992", "lookup_brf_7164099017": "7164099017",
		"lookup_ek_7020008350": "7020008350", "lookup_docs_struck_off_ab": "5299999994", "lookup_production_ab_REDACTED": "5590852777",
		"lookup_partial_failure": "5561890038", "lookup_not_found_200": "5560160680", "lookup_400_not_on_allowlist": "5560360793",
		"lookup_personal_number": "19810103-2384",
	} {
		var v any
		rep, err := r.Lookup(t.Context(), "SE", id)
		v = rep
		if err != nil {
			v = registry.AsError(err)
		}
		checkGolden(t, name+".json", v)
	}
	dl, err := r.Deadlines(t.Context(), "SE", "5567223705", registry.NewDate(2026, 11, 24))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "deadlines_ab_5567223705_2026-11-24.json", dl)
	res, err := r.Search(t.Context(), "SE", "Exempel", 10)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "search_exempel.json", res)
	rules, err := r.Rules("SE")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "rules_SE.md", rules)

	// Only the bulk file: the basic report, and search.
	bulkOnly, err := New(WithBulkFile(sampleBulk()), WithDataDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bulkOnly.Close() })
	if err := bulkOnly.WaitIndexed(t.Context()); err != nil {
		t.Fatal(err)
	}
	rb := moduletest.NewRegistry(t, bulkOnly, registry.WithClock(fixedNow))
	rep, err := rb.Lookup(t.Context(), "SE", "5561112227")
	if err != nil {
		t.Fatal(err)
	}
	rep.Notes = stripIndexDate(rep.Notes)
	checkGolden(t, "lookup_bulk_only_5561112227.json", rep)
	if _, err := rb.Lookup(t.Context(), "SE", "5567223705"); registry.AsError(err).Code != registry.CodeNotFound {
		t.Errorf("bulk-only lookup of a number not in the file: %v", err)
	}

	// Neither: search is not_implemented with a hint; the module is not ready.
	apiOnly, err := New(WithBaseURL(testBase), WithTokenURL(testTokenURL), WithCredentials(testCreds), WithHTTPClient(&http.Client{Transport: reg}))
	if err != nil {
		t.Fatal(err)
	}
	ra := moduletest.NewRegistry(t, apiOnly, registry.WithClock(fixedNow))
	_, err = ra.Search(t.Context(), "SE", "exempel", 5)
	checkGolden(t, "search_without_bulk_file.json", registry.AsError(err))
	none, err := New()
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "not_ready.json", registry.AsError(none.Ready()))
}

// stripIndexDate removes the build time of the index from the bulk note.
func stripIndexDate(notes []string) []string {
	for i, n := range notes {
		if j := strings.Index(n, " (indexed "); j >= 0 {
			k := strings.Index(n[j:], ")")
			notes[i] = n[:j] + n[j+k+1:]
		}
	}
	return notes
}

// TestPersonalNumberNeverLeaves: a personal identity number is invalid_id
// whose message and hint do not repeat it; it is never sent to the
// register, never cached, never logged, and the bulk file's sole trader
// row never appears in a hit.
func TestPersonalNumberNeverLeaves(t *testing.T) {
	t.Parallel()
	reg := newRegister(t)
	var logs bytes.Buffer
	inner, err := cache.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	mem := &keyRecorder{Cache: inner}
	r := moduletest.NewRegistry(t, build(t, reg), registry.WithLogger(slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
		registry.WithCache(mem))
	for _, pn := range []string{"198101052382", "19810105-2382", "810105-2382", "810105+2382", "SE810105238201", "198101052383"} {
		_, err := r.Lookup(t.Context(), "SE", pn)
		e := registry.AsError(err)
		if e == nil || e.Code != registry.CodeInvalidID || !strings.Contains(e.Hint, "does not look up") {
			t.Errorf("%s: %v", pn, err)
			continue
		}
		if strings.Contains(e.Message+e.Hint, "8101052382") || strings.Contains(e.Message+e.Hint, "810105") {
			t.Errorf("%s: the error repeats the number: %+v", pn, e)
		}
		if _, err := r.Deadlines(t.Context(), "SE", pn, registry.NewDate(2026, 1, 1)); registry.AsError(err).Code != registry.CodeInvalidID {
			t.Errorf("%s deadlines: %v", pn, err)
		}
	}
	// Valid and invalid check digits get the same answer.
	a, b := r.Validate, r.Validate
	va, _ := a("SE", "198101052382")
	vb, _ := b("SE", "198101052383")
	if *va.Reason != *vb.Reason || *va.Hint != *vb.Hint || va.Valid || vb.Valid {
		t.Errorf("the answers differ by the check digit: %+v %+v", va, vb)
	}
	if _, err := r.Lookup(t.Context(), "SE", "5567223705"); err != nil {
		t.Fatal(err)
	}
	res, err := r.Search(t.Context(), "SE", "Sole Trader Name", 100)
	if err != nil || len(res.Hits) != 0 || res.Total != 0 {
		t.Errorf("search for the sole trader: %+v, %v", res, err)
	}
	for _, req := range reg.requests {
		if strings.Contains(req, "8101052382") {
			t.Errorf("a request carries the number: %s", req)
		}
	}
	if strings.Contains(logs.String(), "8101052382") || strings.Contains(logs.String(), "810105") {
		t.Errorf("a log record carries the number:\n%s", logs.String())
	}
	mem.mu.Lock()
	defer mem.mu.Unlock()
	if len(mem.keys) == 0 {
		t.Fatal("nothing was cached: the check proves nothing")
	}
	for _, key := range mem.keys {
		if strings.Contains(key, "8101052382") {
			t.Errorf("a cache key carries the number: %s", key)
		}
	}
}

// keyRecorder is a cache that records the keys it is given.
type keyRecorder struct {
	cache.Cache
	mu   sync.Mutex
	keys []string
}

func (k *keyRecorder) Get(ctx context.Context, key string) ([]byte, bool, error) {
	k.mu.Lock()
	k.keys = append(k.keys, key)
	k.mu.Unlock()
	return k.Cache.Get(ctx, key)
}

func (k *keyRecorder) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	k.mu.Lock()
	k.keys = append(k.keys, key)
	k.mu.Unlock()
	return k.Cache.Set(ctx, key, v, ttl)
}
