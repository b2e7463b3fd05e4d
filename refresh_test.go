package registry_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// TestRefreshReadsTheRegisterNow: a refresh asks the register although
// the cache holds the report and the roles (a cached answer would hide a
// change), and stores what it read for the lookups that follow.
func TestRefreshReadsTheRegisterNow(t *testing.T) {
	t.Parallel()
	c := &rolesCountry{fakeCountry: fakeCountry{code: "NO"}, roles: []registry.Role{role(registry.RoleBoard, "LEDE", true)}}
	c.lookup = func(_ context.Context, id string, call int64) (*registry.CompanyReport, error) {
		name := "OLD NAME AS"
		if call > 1 {
			name = "NEW NAME AS"
		}
		return countrykit.NewReport("NO", "fake", id, name), nil
	}
	r, err := registry.New([]registry.Country{c}, registry.WithRetryPause(0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Roles(t.Context(), "NO", "123456"); err != nil { // caches report and roles
		t.Fatal(err)
	}
	rep, roles, err := r.Refresh(t.Context(), "no", "123 456")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Name != "NEW NAME AS" || rep.Cached || rep.ID != "123456" {
		t.Errorf("refreshed report %q cached %v id %q, want NEW NAME AS, false, 123456", rep.Name, rep.Cached, rep.ID)
	}
	if roles == nil || roles.Cached || roles.Name != "NEW NAME AS" || len(roles.Roles) != 1 {
		t.Errorf("refreshed roles %+v, want one live role of NEW NAME AS", roles)
	}
	if got := []int64{c.lookups.Load(), c.calls.Load()}; !cmp.Equal(got, []int64{2, 2}) {
		t.Errorf("lookups, roles calls = %v, want [2 2]", got)
	}
	// The lookup that follows reads what the refresh stored.
	again, err := r.Lookup(t.Context(), "NO", "123456")
	if err != nil {
		t.Fatal(err)
	}
	if again.Name != "NEW NAME AS" || !again.Cached || c.lookups.Load() != 2 {
		t.Errorf("lookup after refresh: %q cached %v after %d lookups, want the stored NEW NAME AS", again.Name, again.Cached, c.lookups.Load())
	}
}

// TestRefreshWithoutRoles: a module that does not answer roles gives a
// nil roles report, not an error.
func TestRefreshWithoutRoles(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "FI"}
	r := newRegistry(t, f)
	rep, roles, err := r.Refresh(t.Context(), "FI", "123456")
	if err != nil || rep == nil || roles != nil {
		t.Fatalf("Refresh = %v, %v, %v; want a report, nil roles, nil error", rep, roles, err)
	}
}

// TestRefreshErrors: the errors of Lookup, and a remembered not_found is
// asked again.
func TestRefreshErrors(t *testing.T) {
	t.Parallel()
	f := &fakeCountry{code: "NO"}
	r := newRegistry(t, f)
	for _, tc := range []struct {
		country, id string
		want        registry.Code
	}{
		{"XX", "123456", registry.CodeUnsupportedCountry},
		{"NO", "12", registry.CodeInvalidID},
		{"NO", "000000", registry.CodeNotFound},
	} {
		if _, _, err := r.Refresh(t.Context(), tc.country, tc.id); codeOf(err) != tc.want {
			t.Errorf("Refresh(%s, %s) = %v, want %s", tc.country, tc.id, err, tc.want)
		}
	}
	if _, err := r.Lookup(t.Context(), "NO", "000000"); codeOf(err) != registry.CodeNotFound {
		t.Fatal(err)
	}
	before := f.lookups.Load()
	if _, _, err := r.Refresh(t.Context(), "NO", "000000"); codeOf(err) != registry.CodeNotFound {
		t.Fatal(err)
	}
	if got := f.lookups.Load() - before; got != 1 {
		t.Errorf("a refresh after a remembered not_found asked the register %d times, want 1", got)
	}
}

// TestRefreshTakesTheBudget: each call of a refresh takes one call from
// the country's budget; an empty budget is rate_limited and the register
// is not called.
func TestRefreshTakesTheBudget(t *testing.T) {
	t.Parallel()
	c := &rolesCountry{fakeCountry: fakeCountry{code: "NO"}}
	b := &fakeBudget{allow: 2, wait: time.Second}
	r, err := registry.New([]registry.Country{c}, registry.WithRetryPause(0), registry.WithUpstreamBudget("NO", b))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Refresh(t.Context(), "NO", "123456"); err != nil {
		t.Fatal(err)
	}
	if b.count() != 2 {
		t.Errorf("%d budget takes for a report and roles, want 2", b.count())
	}
	if _, _, err := r.Refresh(t.Context(), "NO", "123456"); codeOf(err) != registry.CodeRateLimited {
		t.Errorf("Refresh with an empty budget = %v, want rate_limited", err)
	}
	if c.lookups.Load() != 1 {
		t.Errorf("register asked %d times, want 1", c.lookups.Load())
	}
}

// TestRefreshDoesNotJoinAnEarlierLookup: a lookup in flight when a
// refresh starts may carry the state from before a change, so the refresh
// asks the register itself.
func TestRefreshDoesNotJoinAnEarlierLookup(t *testing.T) {
	t.Parallel()
	entered, release := make(chan struct{}), make(chan struct{})
	f := &fakeCountry{code: "NO"}
	f.lookup = func(_ context.Context, id string, call int64) (*registry.CompanyReport, error) {
		if call == 1 {
			close(entered)
			<-release
			return countrykit.NewReport("NO", "fake", id, "BEFORE AS"), nil
		}
		return countrykit.NewReport("NO", "fake", id, "AFTER AS"), nil
	}
	r := newRegistry(t, f)
	done := make(chan error, 1)
	go func() {
		_, err := r.Lookup(t.Context(), "NO", "123456")
		done <- err
	}()
	<-entered
	rep, _, err := r.Refresh(t.Context(), "NO", "123456")
	close(release)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if rep.Name != "AFTER AS" || f.lookups.Load() != 2 {
		t.Errorf("refresh read %q in %d lookups, want AFTER AS in 2", rep.Name, f.lookups.Load())
	}
}
