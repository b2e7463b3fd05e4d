package changes_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/budget"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/countries/no"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/internal/moduletest"
	"github.com/companyregistry/registry/ratelimit"
)

const testBase = "https://brreg.test/enhetsregisteret/api"

// norway returns a Registry over the Norwegian module talking to mt, with
// the default in-memory cache, and a fetcher over it on clock.
func norway(t *testing.T, mt *httpmock.MockTransport, clock *fakeclock.Clock, opts ...registry.Option) *changes.RegistryFetcher {
	t.Helper()
	m := moduletest.Build(t, no.New, no.WithBaseURL(testBase), no.WithHTTPClient(&http.Client{Transport: mt}))
	reg := moduletest.NewRegistry(t, m, append([]registry.Option{registry.WithClock(clock.Now)}, opts...)...)
	f, err := changes.NewRegistryFetcher(reg, clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// patched applies the JSON Patch of the newest item of a recorded
// oppdateringer answer to a recorded unit body.
func patched(t *testing.T, body []byte, feed string) []byte {
	t.Helper()
	var page struct {
		Embedded struct {
			Items []struct {
				Endringer []patchOp `json:"endringer"`
			} `json:"oppdaterteEnheter"`
		} `json:"_embedded"`
	}
	if err := json.Unmarshal(moduletest.Recording(t, "brreg", feed), &page); err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	for _, op := range page.Embedded.Items[0].Endringer {
		doc = applyOp(t, doc, strings.Split(op.Path, "/")[1:], op)
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type patchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value"`
}

// applyOp applies one add, replace or remove at the pointer's tokens
// (RFC 6902 for the shapes the recordings use: object members, array
// indexes and "-").
func applyOp(t *testing.T, doc any, tokens []string, op patchOp) any {
	t.Helper()
	if len(tokens) == 0 {
		if op.Op == "remove" {
			return nil
		}
		var v any
		if err := json.Unmarshal(op.Value, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	key, last := tokens[0], len(tokens) == 1
	switch d := doc.(type) {
	case map[string]any:
		if last && op.Op == "remove" {
			delete(d, key)
			return d
		}
		d[key] = applyOp(t, d[key], tokens[1:], op)
		return d
	case []any:
		if key == "-" {
			return append(d, applyOp(t, nil, nil, op))
		}
		i, err := strconv.Atoi(key)
		if err != nil || i >= len(d) {
			t.Fatalf("bad index %q", key)
		}
		d[i] = applyOp(t, d[i], tokens[1:], op)
		return d
	case nil:
		return applyOp(t, map[string]any{}, tokens, op)
	}
	t.Fatalf("cannot apply %s at %q", op.Op, key)
	return nil
}

// TestRegistryFetcherReadsTheRegister (issue 28): a fetch reads the unit
// and its roles from the register although the Registry has them cached;
// the snapshot holds the neutral documents with the cache fields cleared;
// and a diff of two fetches shows what the register changed: the new name
// and addresses of a recorded patch, and the roles of a later recording.
func TestRegistryFetcherReadsTheRegister(t *testing.T) {
	t.Parallel()
	clock := fakeclock.New(now)
	unit := moduletest.Recording(t, "brreg", "enhet_923609016_equinor_asa_2026-08.json")
	after := patched(t, unit, "oppdateringer_enheter_includeChanges_914375916_name-and-address-change_2026-09_ANONYMISED.json")
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder("GET", testBase+"/enheter/923609016", moduletest.Sequence(
		moduletest.JSONResponder(200, unit), moduletest.JSONResponder(200, after)))
	mt.RegisterResponder("GET", testBase+"/enheter/923609016/roller", moduletest.Sequence(
		moduletest.JSONResponder(200, moduletest.Recording(t, "brreg", "roller_923609016_equinor_asa_2026-03_REDACTED-birth-day.json")),
		moduletest.JSONResponder(200, moduletest.Recording(t, "brreg", "roller_923609016_equinor_asa_2026-09_ANONYMISED-TRIMMED.json"))))
	f := norway(t, mt, clock)

	first, err := f.Fetch(t.Context(), "no", "923 609 016")
	if err != nil {
		t.Fatal(err)
	}
	if first.Country != "NO" || first.CompanyID != "923609016" || !first.TakenAt.Equal(now) || first.Misses != 0 {
		t.Errorf("snapshot %s/%s taken %v misses %d", first.Country, first.CompanyID, first.TakenAt, first.Misses)
	}
	var rep map[string]any
	if err := json.Unmarshal(first.Report, &rep); err != nil {
		t.Fatal(err)
	}
	if rep["name"] != "EQUINOR ASA" || rep["cached"] != false || rep["fetched_at"] != nil {
		t.Errorf("report name %v cached %v fetched_at %v; want EQUINOR ASA, false, null", rep["name"], rep["cached"], rep["fetched_at"])
	}
	var roles registry.RolesReport
	if err := json.Unmarshal(first.Roles, &roles); err != nil || len(roles.Roles) == 0 || roles.Cached || roles.FetchedAt != nil {
		t.Fatalf("roles %+v, %v; want live roles without fetched_at", roles, err)
	}

	clock.Advance(time.Hour)
	second, err := f.Fetch(t.Context(), "NO", "923609016")
	if err != nil {
		t.Fatal(err)
	}
	if n := mt.GetTotalCallCount(); n != 4 {
		t.Errorf("%d upstream calls, want 4 (the second fetch must not read the cache)", n)
	}
	got, err := changes.Diff(first, second, clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	var kinds []changes.Kind
	for _, c := range got {
		kinds = append(kinds, c.Kind)
	}
	if diff := cmp.Diff([]changes.Kind{changes.KindNameChanged, changes.KindAddressChanged, changes.KindRolesChanged}, kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	if string(got[0].Old) != `"EQUINOR ASA"` || string(got[0].New) != `"TOLLBUGATA 17 OSLO AS"` {
		t.Errorf("name change %s -> %s", got[0].Old, got[0].New)
	}
	var addr struct {
		Business, Postal *registry.Address
	}
	if err := json.Unmarshal(got[1].New, &struct {
		B **registry.Address `json:"business_address"`
		P **registry.Address `json:"postal_address"`
	}{&addr.Business, &addr.Postal}); err != nil {
		t.Fatal(err)
	}
	if addr.Business == nil || *addr.Business.PostalCode != "0256" || addr.Business.Lines[0] != "Eksempelveien 2" ||
		addr.Postal == nil || *addr.Postal.PostalCode != "0201" {
		t.Errorf("new addresses %s", got[1].New)
	}
	if strings.Contains(string(got[2].Old)+string(got[2].New), "birth") {
		t.Errorf("the roles change carries birth data: %s", got[2].New)
	}
}

// TestRegistryFetcherGone: a unit removed from the open data (410) is
// not_found with Gone set.
func TestRegistryFetcherGone(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder("GET", testBase+"/enheter/923609016",
		moduletest.JSONResponder(410, moduletest.Recording(t, "brreg", "enhet_410_gone_SYNTHETIC.json")))
	_, err := norway(t, mt, fakeclock.New(now)).Fetch(t.Context(), "NO", "923609016")
	var e *registry.Error
	if !errors.As(err, &e) || e.Code != registry.CodeNotFound || !e.Gone {
		t.Errorf("Fetch = %v, want not_found with Gone", err)
	}
}

// TestRegistryFetcherBudget: a fetch takes its calls from the country's
// budget; when the budget is empty it is rate_limited and the register is
// not called.
func TestRegistryFetcherBudget(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder("GET", testBase+"/enheter/923609016",
		moduletest.JSONResponder(200, moduletest.Recording(t, "brreg", "enhet_923609016_equinor_asa_2026-08.json")))
	mt.RegisterResponder("GET", testBase+"/enheter/923609016/roller",
		moduletest.JSONResponder(200, moduletest.Recording(t, "brreg", "roller_923609016_equinor_asa_2026-03_REDACTED-birth-day.json")))
	b, err := budget.Local(ratelimit.Rate{Limit: 1, Period: time.Hour, Burst: 2})
	if err != nil {
		t.Fatal(err)
	}
	f := norway(t, mt, fakeclock.New(now), registry.WithUpstreamBudget("NO", b))
	if _, err := f.Fetch(t.Context(), "NO", "923609016"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Fetch(t.Context(), "NO", "923609016"); !errors.Is(err, registry.ErrRateLimited) {
		t.Errorf("Fetch with the budget spent = %v, want rate_limited", err)
	}
	if n := mt.GetTotalCallCount(); n != 2 {
		t.Errorf("%d upstream calls, want 2", n)
	}
}

func TestNewRegistryFetcherNil(t *testing.T) {
	t.Parallel()
	if _, err := changes.NewRegistryFetcher(nil, nil); err == nil {
		t.Error("NewRegistryFetcher(nil) succeeded")
	}
}
