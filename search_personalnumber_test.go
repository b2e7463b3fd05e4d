package registry_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries/se"
)

// TestSearchRefusesPersonalNumberAsSweden: a search query that holds what
// has the form of a Swedish personal identity number is refused in every
// country with the error the Swedish module gives (its code and message;
// the country and registry of the country asked; a hint that names no
// country's identifiers, in Sweden too, where the module's names its
// organisation numbers), before the cache
// (no key is even asked for) and the module's Search, ready or not; the
// error does not quote the number. A query whose digits are no date of
// birth (a telephone number) is searched as before.
func TestSearchRefusesPersonalNumberAsSweden(t *testing.T) {
	t.Parallel()
	sweden, err := se.New(se.WithDataDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sweden.Close() })
	queries := []string{"198101052382", "19810105-2382", " 810105-2382 ", "Anna (810105-2382)", "pnr:810105\u20102382", "SE198101052382"}
	for _, q := range queries {
		swedish := registry.AsError(sweden.CheckQuery(strings.TrimSpace(q)))
		if swedish == nil {
			t.Fatalf("the Swedish module accepts %q", q)
		}
		for _, tt := range []struct {
			code  string
			ready error
		}{{"NO", nil}, {"GB", nil}, {"FI", &registry.Error{Code: registry.CodeUpstreamError}}} {
			kc := &allKeysCache{Cache: mustMemory(t)}
			c := &fakeCountry{code: tt.code, ready: tt.ready}
			r := newRegistry(t, c, registry.WithCache(kc))
			_, err := r.Search(t.Context(), strings.ToLower(tt.code), q, 5)
			got := registry.AsError(err)
			if got == nil {
				t.Fatalf("%s searched %q", tt.code, q)
			}
			want := registry.Error{Code: swedish.Code, Country: tt.code, Registry: "fake", Message: swedish.Message,
				Hint: "Search by the name of a company, or look a company up by its identifier."}
			if diff := cmp.Diff(want, *got); diff != "" {
				t.Errorf("%s search %q (-Sweden's refusal +got):\n%s", tt.code, q, diff)
			}
			if strings.Contains(got.Message+got.Hint, "2382") {
				t.Errorf("%s search %q: the error quotes the number: %+v", tt.code, q, got)
			}
			kc.mu.Lock()
			keys := kc.keys
			kc.mu.Unlock()
			if len(keys) != 0 || c.searches.Load() != 0 {
				t.Errorf("%s search %q: cache keys %q and %d searches, want none", tt.code, q, keys, c.searches.Load())
			}
		}
		// The Swedish module behind the Registry: the same refusal, its
		// hint the Registry's (the module is not asked).
		r, err := registry.New([]registry.Country{sweden}, registry.WithRetryPause(0))
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Search(t.Context(), "SE", q, 5)
		want := *swedish
		want.Hint = "Search by the name of a company, or look a company up by its identifier."
		if diff := cmp.Diff(want, *registry.AsError(err)); diff != "" {
			t.Errorf("SE search %q (-want +got):\n%s", q, diff)
		}
	}
	c := &fakeCountry{code: "NO"}
	r := newRegistry(t, c)
	if _, err := r.Search(t.Context(), "NO", "Volvo 08-123 456 78", 5); err != nil || c.searches.Load() != 1 {
		t.Errorf("a telephone number: %v, %d searches; want one search", err, c.searches.Load())
	}
}
