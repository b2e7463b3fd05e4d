package changes_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/idcheck"
)

const (
	equinor = "923609016"
	dnb     = "984851006"
	owner   = "acme"
)

func create(t *testing.T, f *fixture, req changes.WatchRequest) *changes.CreatedWatch {
	t.Helper()
	w, err := f.svc.CreateWatch(context.Background(), owner, req)
	if err != nil {
		t.Fatalf("CreateWatch: %v", err)
	}
	return w
}

// TestCreateWatch: identifiers are canonical with duplicates collapsed,
// kinds are in their order without repeats, the answer has the members of
// the issue in its order with a whsec_ secret, and a baseline of each
// company is stored.
func TestCreateWatch(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := create(t, f, changes.WatchRequest{Country: "no", IDs: []string{"923 609 016", equinor, "NO984851006MVA"},
		Kinds: []changes.Kind{changes.KindNameChanged, changes.KindStatusChanged, changes.KindNameChanged},
		URL:   "https://hooks.example.com/registry"})
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	var members []string
	dec := json.NewDecoder(strings.NewReader(string(b)))
	_, _ = dec.Token()
	for dec.More() {
		tok, _ := dec.Token()
		members = append(members, tok.(string))
		var skip json.RawMessage
		_ = dec.Decode(&skip)
	}
	wantMembers := []string{"id", "secret", "country", "ids", "kinds", "url", "created_at", "disabled", "disabled_reason",
		"disabled_at", "last_attempt_at", "last_status_code", "last_error", "baseline_pending"}
	if diff := cmp.Diff(wantMembers, members); diff != "" {
		t.Errorf("members (-want +got):\n%s", diff)
	}
	got := toMap(t, w)
	delete(got, "id")
	delete(got, "secret")
	want := map[string]any{"country": "NO", "ids": []any{equinor, dnb}, "kinds": []any{"status_changed", "name_changed"},
		"url": "https://hooks.example.com/registry", "created_at": "2026-01-15T09:00:00Z", "disabled": false,
		"disabled_reason": nil, "disabled_at": nil, "last_attempt_at": nil, "last_status_code": nil, "last_error": nil,
		"baseline_pending": []any{}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answer (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(w.Watch.ID, changes.PrefixWatch) || len(w.Watch.ID) != len(changes.PrefixWatch)+26 {
		t.Errorf("id %q", w.Watch.ID)
	}
	key, err := webhook.ParseSecret(w.Secret)
	if err != nil || len(key) != webhook.SecretBytes {
		t.Errorf("secret %q: %v", w.Secret, err)
	}
	stored, err := f.store.WatchSecret(context.Background(), owner, w.Watch.ID)
	if err != nil || string(stored) != string(key) {
		t.Errorf("the store keeps another key than the secret's: %v", err)
	}
	for _, id := range []string{equinor, dnb} {
		if _, err := f.store.Snapshot(context.Background(), "NO", id); err != nil {
			t.Errorf("no baseline of %s: %v", id, err)
		}
		if n := f.fetcher.count(id); n != 1 {
			t.Errorf("%s fetched %d times", id, n)
		}
	}
	// A second watch of a company that has a baseline does not fetch it
	// again; kinds absent is every kind ([]).
	w2 := create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: "https://hooks.example.com/2"})
	if n := f.fetcher.count(equinor); n != 1 {
		t.Errorf("fetched %d times after a second watch", n)
	}
	if got := toMap(t, w2)["kinds"]; !cmp.Equal(got, []any{}) {
		t.Errorf("kinds %v, want []", got)
	}
	if w2.Watch.ID == w.Watch.ID {
		t.Error("two watches have one id")
	}
}

// TestCreateWatchRefusals: each bad request gives its code, with a message
// and hint that say what to fix; nothing is stored.
func TestCreateWatchRefusals(t *testing.T) {
	t.Parallel()
	url := "https://hooks.example.com/registry"
	tests := []struct {
		name    string
		req     changes.WatchRequest
		code    registry.Code
		message string
	}{
		{"unsupported country", changes.WatchRequest{Country: "XX", IDs: []string{equinor}, URL: url}, registry.CodeUnsupportedCountry, "XX"},
		{"UK", changes.WatchRequest{Country: "UK", IDs: []string{"00445790"}, URL: url}, registry.CodeUnsupportedCountry, "GB"},
		{"no ids", changes.WatchRequest{Country: "NO", URL: url}, registry.CodeBadRequest, "ids is empty"},
		{"invalid id", changes.WatchRequest{Country: "NO", IDs: []string{equinor, "923609017", "12"}, URL: url},
			registry.CodeInvalidID, `2 of the 3 identifiers of ids are not valid; the first is ids[1] "923609017"`},
		{"unknown kind", changes.WatchRequest{Country: "NO", IDs: []string{equinor}, Kinds: []changes.Kind{"bankrupt"}, URL: url},
			registry.CodeBadRequest, `"bankrupt" is not a kind of change`},
		{"updated is no watch kind", changes.WatchRequest{Country: "NO", IDs: []string{equinor}, Kinds: []changes.Kind{"updated"}, URL: url},
			registry.CodeBadRequest, "not a kind"},
		{"http", changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: "http://hooks.example.com/x"},
			registry.CodeBadRequest, "The url is refused: it is not https"},
		{"metadata", changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: "https://169.254.169.254/"},
			registry.CodeBadRequest, "cloud metadata"},
		{"GB without its credential", changes.WatchRequest{Country: "GB", IDs: []string{"00445790"}, URL: url},
			registry.CodeUpstreamError, "cannot answer in this deployment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			_, err := f.svc.CreateWatch(context.Background(), owner, tt.req)
			e := asError(t, err)
			if e.Code != tt.code || !strings.Contains(e.Message, tt.message) || e.Hint == "" {
				t.Errorf("got %s %q (hint %q), want %s containing %q", e.Code, e.Message, e.Hint, tt.code, tt.message)
			}
			if n, _ := f.store.CountWatches(context.Background(), owner); n != 0 || f.fetcher.total() != 0 {
				t.Errorf("%d watches stored, %d fetches", n, f.fetcher.total())
			}
		})
	}
}

// TestCreateWatchInvalidDetails: details.invalid lists each invalid
// identifier with its index, as written, and the module's reason.
func TestCreateWatchInvalidDetails(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	_, err := f.svc.CreateWatch(context.Background(), owner, changes.WatchRequest{Country: "NO",
		IDs: []string{equinor, "923609017"}, URL: "https://hooks.example.com/x"})
	e := asError(t, err)
	got := toMap(t, e)["error"].(map[string]any)["details"]
	want := map[string]any{"invalid": []any{map[string]any{"index": 1.0, "id": "923609017",
		"reason": "The ninth digit is not the MOD11 check digit of the first eight digits."}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("details (-want +got):\n%s", diff)
	}
	if e.Country != "NO" || e.Registry == "" {
		t.Errorf("country %q registry %q", e.Country, e.Registry)
	}
}

// TestInvalidPersonalNumberNotQuoted: an invalid identifier that holds
// what has the form of a Swedish personal identity number is listed in
// details.invalid by its index and reason with a null id, and the message
// names it by its place, in any country's watch and in add_ids; any other
// invalid identifier is still quoted.
func TestInvalidPersonalNumberNotQuoted(t *testing.T) {
	t.Parallel()
	const seReason = "This has the form of a Swedish personal identity number (personnummer), not of an organisation number: " +
		"this service does not look people up, so it neither checks nor uses such a number."
	f := newFixture(t)
	_, err := f.svc.CreateWatch(context.Background(), owner, changes.WatchRequest{Country: "SE",
		IDs: []string{"5560160680", "19810105-2382", "12"}, URL: "https://hooks.example.com/x"})
	e := asError(t, err)
	wantMsg := "2 of the 3 identifiers of ids are not valid; the first is ids[1]: " + seReason
	got := map[string]any{"message": e.Message, "details": toMap(t, e)["error"].(map[string]any)["details"]}
	want := map[string]any{"message": wantMsg, "details": map[string]any{"invalid": []any{
		map[string]any{"index": 1.0, "id": nil, "reason": seReason},
		map[string]any{"index": 2.0, "id": "12", "reason": idcheck.SwedenReason(idcheck.ProblemLength)},
	}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SE watch (-want +got):\n%s", diff)
	}

	// A Norwegian watch given a personnummer: Norway's reason, no number.
	w, err := f.svc.CreateWatch(context.Background(), owner, changes.WatchRequest{Country: "NO", IDs: []string{equinor},
		URL: "https://hooks.example.com/x"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.UpdateWatch(context.Background(), owner, w.Watch.ID, changes.WatchPatch{AddIDs: []string{"x 198101052382"}})
	e = asError(t, err)
	inv := toMap(t, e)["error"].(map[string]any)["details"].(map[string]any)["invalid"].([]any)
	got = map[string]any{"message": strings.HasPrefix(e.Message, "1 of the 1 identifiers of add_ids are not valid; the first is add_ids[0]: "),
		"number": strings.Contains(e.Message, "198101052382"), "id": inv[0].(map[string]any)["id"]}
	want = map[string]any{"message": true, "number": false, "id": nil}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NO add_ids (-want +got):\n%s\nmessage: %s", diff, e.Message)
	}
}

// TestWatchLimits: a watch holds at most MaxIDsPerWatch distinct
// companies (duplicates do not count), and an owner has at most
// MaxWatchesPerOwner watches.
func TestWatchLimits(t *testing.T) {
	t.Parallel()
	ids := orgnrs(changes.MaxIDsPerWatch + 1)
	f := newFixture(t, func(c *changes.ServiceConfig) { c.MaxWatchesPerOwner = 2 })
	_, err := f.svc.CreateWatch(context.Background(), owner, changes.WatchRequest{Country: "NO", IDs: ids, URL: "https://h.example.com/x"})
	if e := asError(t, err); e.Code != registry.CodeBadRequest || !strings.Contains(e.Message, "10001 identifiers; a watch holds at most 10000") {
		t.Errorf("10,001 ids: %s %q", e.Code, e.Message)
	}
	if f.fetcher.total() != 0 {
		t.Errorf("%d fetches before the limit was checked", f.fetcher.total())
	}
	// 10,000 distinct ids written twice each are 10,000.
	w := create(t, f, changes.WatchRequest{Country: "NO", IDs: append(ids[:changes.MaxIDsPerWatch:changes.MaxIDsPerWatch], ids[:changes.MaxIDsPerWatch]...),
		URL: "https://h.example.com/x"})
	if len(w.Watch.IDs) != changes.MaxIDsPerWatch {
		t.Errorf("%d ids", len(w.Watch.IDs))
	}
	_, err = f.svc.UpdateWatch(context.Background(), owner, w.Watch.ID, changes.WatchPatch{AddIDs: ids[changes.MaxIDsPerWatch:]})
	if e := asError(t, err); e.Code != registry.CodeBadRequest || !strings.Contains(e.Message, "10001") {
		t.Errorf("adding the 10,001st: %s %q", e.Code, e.Message)
	}
	create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: "https://h.example.com/x"})
	_, err = f.svc.CreateWatch(context.Background(), owner, changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: "https://h.example.com/x"})
	if e := asError(t, err); e.Code != registry.CodeBadRequest || !strings.Contains(e.Message, "already has 2 watches") {
		t.Errorf("third watch: %s %q", e.Code, e.Message)
	}
	// Another owner has a quota of its own.
	if _, err := f.svc.CreateWatch(context.Background(), "other", changes.WatchRequest{Country: "NO", IDs: []string{equinor},
		URL: "https://h.example.com/x"}); err != nil {
		t.Errorf("another owner: %v", err)
	}
}

// TestBaselineFailures: a company the register does not know fails the
// creation and is named in details.not_found; a register that fails or
// whose budget is used up leaves the company pending, and the watch is
// created; TakeBaselines takes it later.
func TestBaselineFailures(t *testing.T) {
	t.Parallel()
	ids := orgnrs(6)
	f := newFixture(t, func(c *changes.ServiceConfig) { c.BaselineConcurrency = 1 })
	f.fetcher.setErr(ids[1], &registry.Error{Code: registry.CodeNotFound})
	_, err := f.svc.CreateWatch(context.Background(), owner, changes.WatchRequest{Country: "NO", IDs: ids[:3], URL: "https://h.example.com/x"})
	e := asError(t, err)
	if e.Code != registry.CodeNotFound || !cmp.Equal(e.Details["not_found"], []string{ids[1]}) {
		t.Fatalf("not found: %s %q %v", e.Code, e.Message, e.Details)
	}
	if n, _ := f.store.CountWatches(context.Background(), owner); n != 0 {
		t.Fatalf("%d watches after a not_found", n)
	}

	f.fetcher.setErr(ids[1], nil)
	f.fetcher.setErr(ids[3], &registry.Error{Code: registry.CodeUpstreamError})
	f.fetcher.setErr(ids[4], &registry.Error{Code: registry.CodeRateLimited})
	w := create(t, f, changes.WatchRequest{Country: "NO", IDs: ids, URL: "https://h.example.com/x"})
	// ids[3] failed; ids[4] found the budget used up, so ids[5] was not
	// tried (one at a time, in order).
	if diff := cmp.Diff([]string{ids[3], ids[4], ids[5]}, w.BaselinePending); diff != "" {
		t.Errorf("pending (-want +got):\n%s", diff)
	}
	if n := f.fetcher.count(ids[5]); n != 0 {
		t.Errorf("fetched %s after the budget ran out", ids[5])
	}

	f.fetcher.setErr(ids[3], nil)
	f.fetcher.setErr(ids[4], nil)
	taken, err := f.svc.TakeBaselines(context.Background())
	if err != nil || taken != 3 {
		t.Fatalf("TakeBaselines = %d, %v", taken, err)
	}
	for _, id := range ids {
		if _, err := f.store.Snapshot(context.Background(), "NO", id); err != nil {
			t.Errorf("%s has no baseline: %v", id, err)
		}
	}
	if taken, _ := f.svc.TakeBaselines(context.Background()); taken != 0 {
		t.Errorf("a second pass took %d", taken)
	}
}

// TestTakeBaselinesRescans: a watched company without a snapshot that this
// Service did not create (another replica, a restart) is found by the
// first pass, and after that once an hour.
func TestTakeBaselinesRescans(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if err := f.store.CreateWatch(context.Background(), changes.Watch{ID: "wch_x", Owner: owner, Country: "NO",
		IDs: []string{equinor}, URL: "https://h.example.com/x", CreatedAt: t0}, []byte("k"), nil); err != nil {
		t.Fatal(err)
	}
	if taken, err := f.svc.TakeBaselines(context.Background()); err != nil || taken != 1 {
		t.Fatalf("first pass took %d, %v", taken, err)
	}
	if err := f.store.CreateWatch(context.Background(), changes.Watch{ID: "wch_y", Owner: owner, Country: "FI",
		IDs: []string{"0112038-9"}, URL: "https://h.example.com/x", CreatedAt: t0}, []byte("k"), nil); err != nil {
		t.Fatal(err)
	}
	if taken, _ := f.svc.TakeBaselines(context.Background()); taken != 0 {
		t.Errorf("took %d before the hour", taken)
	}
	f.clock.Advance(time.Hour)
	if taken, _ := f.svc.TakeBaselines(context.Background()); taken != 1 {
		t.Errorf("took %d after the hour", taken)
	}
}

// TestBaselineTimeout: the request waits at most the baseline timeout; the
// companies not fetched by then are pending.
func TestBaselineTimeout(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(c *changes.ServiceConfig) { c.BaselineTimeout = time.Millisecond })
	f.fetcher.hold = make(chan struct{}) // never released: every fetch waits for its context
	w := create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{equinor, dnb}, URL: "https://h.example.com/x"})
	if diff := cmp.Diff([]string{equinor, dnb}, w.BaselinePending); diff != "" {
		t.Errorf("pending (-want +got):\n%s", diff)
	}
}

// TestOwnersAreSeparate: another owner sees none of a watch: get, change,
// delete, test, deliveries and redelivery are not_found.
func TestOwnersAreSeparate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: "https://h.example.com/x"})
	ctx := context.Background()
	id := w.Watch.ID
	calls := map[string]func() error{
		"get": func() error { _, err := f.svc.Watch(ctx, "other", id); return err },
		"patch": func() error {
			_, err := f.svc.UpdateWatch(ctx, "other", id, changes.WatchPatch{Enable: true})
			return err
		},
		"delete":      func() error { return f.svc.DeleteWatch(ctx, "other", id) },
		"test":        func() error { _, err := f.svc.TestWatch(ctx, "other", id); return err },
		"deliveries":  func() error { _, err := f.svc.Deliveries(ctx, "other", id, 10); return err },
		"redeliver":   func() error { _, err := f.svc.Redeliver(ctx, "other", id, "dlv_1"); return err },
		"unknown get": func() error { _, err := f.svc.Watch(ctx, owner, "wch_nope"); return err },
	}
	for name, call := range calls {
		if e := asError(t, call()); e.Code != registry.CodeNotFound {
			t.Errorf("%s: %s", name, e.Code)
		}
	}
	list, err := f.svc.Watches(ctx, "other")
	if err != nil || len(list.Watches) != 0 {
		t.Errorf("other's list: %+v, %v", list, err)
	}
	if b, _ := json.Marshal(list); string(b) != `{"watches":[]}` {
		t.Errorf("empty list %s", b)
	}
	if _, err := f.svc.Watch(ctx, owner, id); err != nil {
		t.Errorf("the owner's get: %v", err)
	}
}

// TestUpdateWatch: identifiers are added (with a baseline) and removed,
// kinds and URL change; a new URL or disabled false enables a disabled
// watch; refusals name the problem.
func TestUpdateWatch(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	w := create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: "https://h.example.com/x"})
	kinds := []changes.Kind{changes.KindDeleted, changes.KindRolesChanged}
	url := "https://new.example.com/y"
	u, err := f.svc.UpdateWatch(ctx, owner, w.Watch.ID, changes.WatchPatch{AddIDs: []string{"984 851 006"},
		RemoveIDs: []string{equinor}, Kinds: &kinds, URL: &url})
	if err != nil {
		t.Fatal(err)
	}
	got := toMap(t, u)
	for k, want := range map[string]any{"ids": []any{dnb}, "kinds": []any{"roles_changed", "deleted"}, "url": url,
		"baseline_pending": []any{}} {
		if !cmp.Equal(got[k], want) {
			t.Errorf("%s = %v, want %v", k, got[k], want)
		}
	}
	if _, err := f.store.Snapshot(ctx, "NO", dnb); err != nil {
		t.Errorf("no baseline of the added company: %v", err)
	}
	refusals := []struct {
		patch   changes.WatchPatch
		code    registry.Code
		message string
	}{
		{changes.WatchPatch{AddIDs: []string{equinor}, RemoveIDs: []string{"923 609 016"}}, registry.CodeBadRequest, "both added and removed"},
		// The first removed identifier that is also added is named; an
		// invalid one in remove_ids is reported first.
		{changes.WatchPatch{AddIDs: []string{equinor, dnb}, RemoveIDs: []string{dnb, equinor}}, registry.CodeBadRequest,
			"The identifier 984851006 is both added and removed."},
		{changes.WatchPatch{AddIDs: []string{equinor}, RemoveIDs: []string{equinor, "1"}}, registry.CodeInvalidID, "remove_ids[1]"},
		{changes.WatchPatch{RemoveIDs: []string{dnb}}, registry.CodeBadRequest, "without companies"},
		{changes.WatchPatch{AddIDs: []string{"1"}}, registry.CodeInvalidID, "add_ids"},
		{changes.WatchPatch{URL: ptr("https://10.0.0.1/")}, registry.CodeBadRequest, "private"},
		{changes.WatchPatch{Kinds: &[]changes.Kind{"x"}}, registry.CodeBadRequest, "not a kind"},
	}
	for _, r := range refusals {
		_, err := f.svc.UpdateWatch(ctx, owner, w.Watch.ID, r.patch)
		if e := asError(t, err); e.Code != r.code || !strings.Contains(e.Message, r.message) {
			t.Errorf("%+v: %s %q", r.patch, e.Code, e.Message)
		}
	}
	// Disabled by its endpoint, enabled by disabled false.
	disable(t, f, w.Watch.ID)
	u, err = f.svc.UpdateWatch(ctx, owner, w.Watch.ID, changes.WatchPatch{Enable: true})
	if err != nil || u.Watch.Disabled {
		t.Errorf("enable: %+v, %v", u, err)
	}
	// Kinds [] is every kind again.
	empty := []changes.Kind(nil)
	u, _ = f.svc.UpdateWatch(ctx, owner, w.Watch.ID, changes.WatchPatch{Kinds: &empty})
	if got := toMap(t, u)["kinds"]; !cmp.Equal(got, []any{}) {
		t.Errorf("kinds %v", got)
	}
}

func ptr[T any](v T) *T { return &v }

// disable makes the watch's endpoint fail for good: a change is applied,
// its delivery claimed and recorded as failed with Disable.
func disable(t *testing.T, f *fixture, watchID string) {
	t.Helper()
	ctx := context.Background()
	w, err := f.store.Watch(ctx, owner, watchID)
	if err != nil {
		t.Fatal(err)
	}
	kind := changes.KindNameChanged
	if len(w.Kinds) > 0 {
		kind = w.Kinds[0]
	}
	if _, err := f.store.Apply(ctx, changes.Batch{Changes: []changes.Change{{Country: w.Country, CompanyID: w.IDs[0],
		Kind: kind, DetectedAt: f.clock.Now()}}}); err != nil {
		t.Fatal(err)
	}
	claims, err := f.store.ClaimDeliveries(ctx, "w", f.clock.Now(), 10, time.Minute)
	if err != nil || len(claims) == 0 {
		t.Fatalf("claims %v, %v", claims, err)
	}
	for _, c := range claims {
		if err := f.store.RecordAttempt(ctx, c.Delivery.ID, changes.Attempt{At: f.clock.Now(), StatusCode: 410,
			Disable: true, Reason: "the endpoint answered 410 Gone"}); err != nil {
			t.Fatal(err)
		}
	}
	if w, _ := f.store.Watch(ctx, owner, watchID); !w.Disabled {
		t.Fatal("not disabled")
	}
}

// TestFeed: the owner's changes page by page with the cursor; an empty page
// keeps the cursor; an expired cursor is cursor_expired (410) with
// details.oldest_cursor; a malformed cursor or a limit out of range is
// bad_request.
func TestFeed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: "https://h.example.com/x"})
	var batch []changes.Change
	for i := range 5 {
		batch = append(batch, changes.Change{Country: "NO", CompanyID: equinor, Kind: changes.KindNameChanged,
			Old: json.RawMessage(`"A"`), New: json.RawMessage(`"B"`), DetectedAt: t0.Add(time.Duration(i) * time.Hour)})
	}
	// A change of a company nobody watches is in nobody's feed.
	batch = append(batch, changes.Change{Country: "NO", CompanyID: dnb, Kind: changes.KindDeleted, DetectedAt: t0.Add(10 * time.Hour)})
	if _, err := f.store.Apply(ctx, changes.Batch{Changes: batch}); err != nil {
		t.Fatal(err)
	}
	p1, err := f.svc.Feed(ctx, owner, "", 2)
	if err != nil || len(p1.Changes) != 2 {
		t.Fatalf("page 1: %+v, %v", p1, err)
	}
	p2, _ := f.svc.Feed(ctx, owner, p1.NextCursor, 2)
	p3, _ := f.svc.Feed(ctx, owner, p2.NextCursor, 2)
	p4, _ := f.svc.Feed(ctx, owner, p3.NextCursor, 2)
	if len(p2.Changes) != 2 || len(p3.Changes) != 1 || len(p4.Changes) != 0 || p4.NextCursor != p3.NextCursor {
		t.Errorf("pages %d %d %d, cursors %q %q", len(p2.Changes), len(p3.Changes), len(p4.Changes), p3.NextCursor, p4.NextCursor)
	}
	if b, _ := json.Marshal(p4); string(b) != `{"changes":[],"next_cursor":"`+p3.NextCursor+`"}` {
		t.Errorf("empty page %s", b)
	}
	other, _ := f.svc.Feed(ctx, "other", "", 10)
	if len(other.Changes) != 0 {
		t.Errorf("another owner sees %d changes", len(other.Changes))
	}

	if err := f.store.Prune(ctx, t0.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.Feed(ctx, owner, p1.NextCursor, 2)
	e := asError(t, err)
	if e.Code != registry.CodeCursorExpired || e.HTTPStatus() != http.StatusGone || e.Details["oldest_cursor"] != "3" {
		t.Errorf("expired: %s %d %v", e.Code, e.HTTPStatus(), e.Details)
	}
	for _, c := range []struct {
		cursor string
		limit  int
	}{{"a b", 10}, {strings.Repeat("1", changes.MaxCursorLength+1), 10}, {"", 0}, {"", changes.MaxFeedLimit + 1},
		{"999", 10}} { // the last well formed, but not a cursor the store gave out (changes.ErrInvalidCursor)
		if _, err := f.svc.Feed(ctx, owner, c.cursor, c.limit); asError(t, err).Code != registry.CodeBadRequest {
			t.Errorf("cursor %q limit %d: %v", c.cursor, c.limit, err)
		}
	}
}

// TestDeliveriesAndRedeliver: a change's delivery is listed; redelivery
// queues it again for now, tells the dispatcher, and an unknown delivery is
// not_found.
func TestDeliveriesAndRedeliver(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	w := create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: "https://h.example.com/x"})
	disable(t, f, w.Watch.ID)
	list, err := f.svc.Deliveries(ctx, owner, w.Watch.ID, changes.DefaultDeliveriesLimit)
	if err != nil || len(list.Deliveries) != 1 || list.Deliveries[0].Status != changes.DeliveryFailed {
		t.Fatalf("deliveries %+v, %v", list, err)
	}
	f.clock.Advance(time.Hour)
	// Disabled: nothing would be sent, so the redelivery is refused and
	// the delivery is left as it was (rev-changes10).
	_, err = f.svc.Redeliver(ctx, owner, w.Watch.ID, list.Deliveries[0].ID)
	wantErr := &registry.Error{Code: registry.CodeBadRequest,
		Message: "The watch is disabled, so nothing is sent to its endpoint; a redelivery would wait until it is enabled.",
		Hint:    `Enable the watch first (update it with "disabled": false, or give it a new url), then ask for the redelivery again.`}
	if diff := cmp.Diff(wantErr, asError(t, err)); diff != "" {
		t.Errorf("redelivery to a disabled watch (-want +got):\n%s", diff)
	}
	if after, _ := f.svc.Deliveries(ctx, owner, w.Watch.ID, changes.DefaultDeliveriesLimit); cmp.Diff(list, after) != "" {
		t.Errorf("the refused redelivery changed the deliveries (-before +after):\n%s", cmp.Diff(list, after))
	}
	if f.queuedCount() != 0 {
		t.Errorf("the dispatcher was told %d times of a refused redelivery", f.queuedCount())
	}
	if _, err := f.svc.UpdateWatch(ctx, owner, w.Watch.ID, changes.WatchPatch{Enable: true}); err != nil {
		t.Fatal(err)
	}
	d, err := f.svc.Redeliver(ctx, owner, w.Watch.ID, list.Deliveries[0].ID)
	if err != nil || d.Status != changes.DeliveryPending || !d.NextAttemptAt.Equal(t0.Add(time.Hour)) || d.ChangeID != list.Deliveries[0].ChangeID {
		t.Errorf("redelivered %+v, %v", d, err)
	}
	if f.queuedCount() != 1 {
		t.Errorf("the dispatcher was told %d times", f.queuedCount())
	}
	if _, err := f.svc.Redeliver(ctx, owner, w.Watch.ID, "dlv_nope"); asError(t, err).Code != registry.CodeNotFound {
		t.Errorf("unknown delivery: %v", err)
	}
	if _, err := f.svc.Deliveries(ctx, owner, w.Watch.ID, 0); asError(t, err).Code != registry.CodeBadRequest {
		t.Errorf("limit 0: %v", err)
	}
}

// TestDeleteWatch: a deleted watch is gone for its owner.
func TestDeleteWatch(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	w := create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: "https://h.example.com/x"})
	if err := f.svc.DeleteWatch(ctx, owner, w.Watch.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.DeleteWatch(ctx, owner, w.Watch.ID); asError(t, err).Code != registry.CodeNotFound {
		t.Errorf("second delete: %v", err)
	}
}

// TestCompanyChanges: a company's changes newest first, whoever watches
// it; the identifier is validated; an empty list carries a note; the
// limit is checked.
func TestCompanyChanges(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.store.Apply(ctx, changes.Batch{Changes: []changes.Change{
		{Country: "NO", CompanyID: equinor, Kind: changes.KindNameChanged, DetectedAt: t0},
		{Country: "NO", CompanyID: equinor, Kind: changes.KindStatusChanged, DetectedAt: t0.Add(time.Hour)},
		{Country: "NO", CompanyID: dnb, Kind: changes.KindDeleted, DetectedAt: t0},
	}}); err != nil {
		t.Fatal(err)
	}
	got, err := f.svc.CompanyChanges(ctx, "no", "923 609 016", 10)
	if err != nil {
		t.Fatal(err)
	}
	if got.Country != "NO" || got.CompanyID != equinor || len(got.Changes) != 2 ||
		got.Changes[0].Kind != changes.KindStatusChanged || len(got.Notes) != 0 {
		t.Errorf("changes %+v", got)
	}
	b, err := f.svc.CompanyChangesJSON(ctx, "NO", "974760673", changes.DefaultCompanyChangesLimit)
	if err != nil {
		t.Fatal(err)
	}
	var empty map[string]any
	_ = json.Unmarshal(b, &empty)
	if !cmp.Equal(empty["changes"], []any{}) || len(empty["notes"].([]any)) != 1 {
		t.Errorf("empty answer %s", b)
	}
	for _, c := range []struct {
		country, id string
		limit       int
		code        registry.Code
	}{
		{"NO", "923609017", 10, registry.CodeInvalidID},
		{"XX", equinor, 10, registry.CodeUnsupportedCountry},
		{"NO", equinor, 0, registry.CodeBadRequest},
		{"NO", equinor, changes.MaxCompanyChangesLimit + 1, registry.CodeBadRequest},
	} {
		_, err := f.svc.CompanyChanges(ctx, c.country, c.id, c.limit)
		if e := asError(t, err); e.Code != c.code {
			t.Errorf("%+v: %s", c, e.Code)
		} else if c.code != registry.CodeUnsupportedCountry && e.Country != "NO" {
			t.Errorf("%+v: country %q", c, e.Country)
		}
	}
}

// TestTestWatch: the test event reaches the endpoint signed with the
// watch's secret, type watch.test, a tst_ webhook-id; an endpoint that
// answers 500 or not at all is a normal answer with delivered false.
func TestTestWatch(t *testing.T) {
	t.Parallel()
	type got struct {
		h    http.Header
		body []byte
	}
	ch := make(chan got, 4)
	status := make(chan int, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		ch <- got{r.Header.Clone(), b}
		w.WriteHeader(<-status)
	}))
	defer srv.Close()
	policy := webhook.Policy{AllowPrivate: true}
	f := newFixture(t, func(c *changes.ServiceConfig) { c.Policy = policy })
	ctx := context.Background()
	w := create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: srv.URL + "/hook"})

	status <- http.StatusNoContent
	res, err := f.svc.TestWatch(ctx, owner, w.Watch.ID)
	if err != nil {
		t.Fatal(err)
	}
	r := <-ch
	if !res.Delivered || *res.StatusCode != 204 || res.Error != nil || !strings.HasPrefix(res.WebhookID, changes.PrefixTest) {
		t.Errorf("result %+v", res)
	}
	if err := webhook.Verify(w.Secret, r.h, r.body, t0); err != nil {
		t.Errorf("verify: %v", err)
	}
	if r.h.Get(webhook.HeaderID) != res.WebhookID {
		t.Errorf("webhook-id %q, result %q", r.h.Get(webhook.HeaderID), res.WebhookID)
	}
	want := `{"type":"watch.test","timestamp":"2026-01-15T09:00:00Z","data":{"watch_id":"` + w.Watch.ID +
		`","country":"NO","message":"A test event of this watch: verify its signature and answer 2xx."}}`
	if diff := cmp.Diff(want, string(r.body)); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}

	status <- http.StatusInternalServerError
	res, err = f.svc.TestWatch(ctx, owner, w.Watch.ID)
	<-ch
	if err != nil || res.Delivered || *res.StatusCode != 500 || *res.Error != "the endpoint answered 500, not 2xx" {
		t.Errorf("500: %+v, %v", res, err)
	}
	if b, _ := json.Marshal(res); !strings.Contains(string(b), `"delivered":false,"status_code":500`) {
		t.Errorf("json %s", b)
	}

	srv.Close()
	res, err = f.svc.TestWatch(ctx, owner, w.Watch.ID)
	if err != nil || res.Delivered || res.StatusCode != nil || res.Error == nil || strings.Contains(*res.Error, srv.URL) {
		t.Errorf("closed: %+v, %v", res, err)
	}
}

// TestNewService: a missing part is an error, not a panic later.
func TestNewService(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for name, c := range map[string]changes.ServiceConfig{
		"no store":    {Fetcher: f.fetcher, Registry: f.reg},
		"no fetcher":  {Store: f.store, Registry: f.reg},
		"no registry": {Store: f.store, Fetcher: f.fetcher},
		"negative":    {Store: f.store, Fetcher: f.fetcher, Registry: f.reg, MaxWatchesPerOwner: -1},
	} {
		if _, err := changes.NewService(c); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := f.svc.CreateWatch(context.Background(), "", changes.WatchRequest{}); err == nil || errors.As(err, new(*registry.Error)) {
		t.Errorf("no owner: %v", err)
	}
}

// TestParseLimit: absent is the default, a number is itself (the range
// is the operation's), anything else is bad_request.
func TestParseLimit(t *testing.T) {
	t.Parallel()
	if n, err := changes.ParseLimit("", false, 20); n != 20 || err != nil {
		t.Errorf("absent: %d %v", n, err)
	}
	if n, err := changes.ParseLimit("0", true, 20); n != 0 || err != nil {
		t.Errorf("0: %d %v", n, err)
	}
	for _, raw := range []string{"", "x", "1.5", " 3"} {
		if _, err := changes.ParseLimit(raw, true, 20); asError(t, err).Code != registry.CodeBadRequest {
			t.Errorf("%q: %v", raw, err)
		}
	}
}

// pruneSpy tells each Prune's limit and each lease taken or refused.
type pruneSpy struct {
	changes.Store
	limits chan time.Time
	leases chan bool
}

func (p pruneSpy) AcquireLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	held, err := p.Store.AcquireLease(ctx, name, holder, now, ttl)
	if p.leases != nil {
		p.leases <- held
	}
	return held, err
}

func (p pruneSpy) Prune(ctx context.Context, before time.Time) error {
	p.limits <- before
	return p.Store.Prune(ctx, before)
}

// TestRunPrune: RunPrune prunes at once, under the prune lease, with the
// limit now minus the age kept, returns when its context ends and gives
// the lease up; while another holder has the lease it prunes nothing.
func TestRunPrune(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	spy := pruneSpy{Store: f.store, limits: make(chan time.Time, 1)}
	svc, err := changes.NewService(changes.ServiceConfig{Store: spy, Fetcher: f.fetcher, Registry: f.reg, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	if err := svc.RunPrune(t.Context(), "a", 0, time.Hour); err == nil {
		t.Error("RunPrune with no interval: no error")
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- svc.RunPrune(ctx, "a", time.Hour, 30*24*time.Hour) }()
	if got := <-spy.limits; !got.Equal(t0.Add(-30 * 24 * time.Hour)) {
		t.Errorf("pruned before %v, want 30 days before %v", got, t0)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The lease was given up: another holder takes it at once.
	if held, err := f.store.AcquireLease(t.Context(), changes.PruneLease, "b", t0, time.Minute); err != nil || !held {
		t.Errorf("the prune lease after RunPrune returned: held %v, %v", held, err)
	}
	// b holds it now: a pass of a finds it taken and prunes nothing.
	spy.leases = make(chan bool, 1)
	svc, err = changes.NewService(changes.ServiceConfig{Store: spy, Fetcher: f.fetcher, Registry: f.reg, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithCancel(t.Context())
	defer cancel()
	go func() { done <- svc.RunPrune(ctx, "a", time.Hour, time.Hour) }()
	if held := <-spy.leases; held {
		t.Error("a took the lease b holds")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(spy.limits) != 0 {
		t.Errorf("pruned (before %v) without the lease", <-spy.limits)
	}
}

// TestCreateWatchReplacesStaleSnapshot (issue 28: "A baseline is taken
// when a company is added, so the first event is a real change"): a
// snapshot left from a watch deleted since (no ingester keeps it up to
// date; Prune has not removed it yet) is no baseline: a new watch fetches
// a fresh one. A snapshot of a company another watch holds is used.
func TestCreateWatchReplacesStaleSnapshot(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	old := changes.Snapshot{Country: "NO", CompanyID: equinor, Report: json.RawMessage(`{"country":"NO","id":"923609016","name":"STATOIL ASA","status":"active"}`),
		TakenAt: t0.Add(-20 * 24 * time.Hour)}
	if _, err := f.store.Apply(t.Context(), changes.Batch{Snapshots: []changes.Snapshot{old}}); err != nil {
		t.Fatal(err)
	}
	create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: "https://hooks.example.com/a"})
	snap, err := f.store.Snapshot(t.Context(), "NO", equinor)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(snap.Report), "COMPANY 923609016 AS") || !snap.TakenAt.Equal(t0) {
		t.Errorf("baseline %s taken %v; want a fresh one, not the stale snapshot", snap.Report, snap.TakenAt)
	}
	// Watched now: a second watch of it fetches nothing.
	n := f.fetcher.count(equinor)
	create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: "https://hooks.example.com/b"})
	if got := f.fetcher.count(equinor); got != n {
		t.Errorf("%d fetches for a second watch of a watched company, want none", got-n)
	}
}

// TestBaselineLostToPruneIsTakenAfterStoring: a company whose snapshot
// (held by another watch) served as the baseline loses it before the new
// watch is stored (the other watch deleted, then a prune). Once the watch
// is stored, the service takes the baseline (CreateWatch, UpdateWatch);
// when that fetch fails, the company is pending, and TakeBaselines takes it.
func TestBaselineLostToPruneIsTakenAfterStoring(t *testing.T) {
	t.Parallel()
	ids := orgnrs(3)
	for _, tc := range []struct {
		name        string
		fail        bool
		wantPending []string
	}{
		{"fetched", false, nil},
		{"fetch fails", true, []string{ids[0]}},
	} {
		for _, update := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/update=%v", tc.name, update), func(t *testing.T) {
				ctx := t.Context()
				f := newFixture(t)
				old := changes.Snapshot{Country: "NO", CompanyID: ids[0], Report: json.RawMessage(`{"name":"OLD"}`), TakenAt: t0.Add(-40 * 24 * time.Hour)}
				carol := changes.Watch{ID: "wch_carol", Owner: "carol", Country: "NO", IDs: []string{ids[0]}, URL: "https://hooks.example.com/c", CreatedAt: old.TakenAt}
				if err := f.store.CreateWatch(ctx, carol, []byte("s"), []changes.Snapshot{old}); err != nil {
					t.Fatal(err)
				}
				var w *changes.Watch
				if update {
					w = &create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{ids[2]}, URL: "https://hooks.example.com/a"}).Watch
				}
				// The other company's fetch pauses: meanwhile carol's watch goes and a prune runs.
				hold, called := make(chan struct{}), make(chan string, 4)
				f.fetcher.mu.Lock()
				f.fetcher.hold, f.fetcher.called = hold, called
				f.fetcher.mu.Unlock()
				type result struct {
					pending []string
					err     error
				}
				done := make(chan result, 1)
				go func() {
					if update {
						u, err := f.svc.UpdateWatch(ctx, owner, w.ID, changes.WatchPatch{AddIDs: []string{ids[0], ids[1]}})
						if err != nil {
							done <- result{nil, err}
							return
						}
						done <- result{u.BaselinePending, nil}
						return
					}
					c, err := f.svc.CreateWatch(ctx, owner, changes.WatchRequest{Country: "NO", IDs: []string{ids[0], ids[1]}, URL: "https://hooks.example.com/b"})
					if err != nil {
						done <- result{nil, err}
						return
					}
					done <- result{c.BaselinePending, nil}
				}()
				if got := <-called; got != ids[1] {
					close(hold)
					t.Fatalf("fetched %s first, want %s", got, ids[1])
				}
				if err := f.store.DeleteWatch(ctx, "carol", carol.ID); err != nil {
					close(hold)
					t.Fatal(err)
				}
				if err := f.store.Prune(ctx, t0.Add(-30*24*time.Hour)); err != nil {
					close(hold)
					t.Fatal(err)
				}
				if tc.fail {
					f.fetcher.setErr(ids[0], &registry.Error{Code: registry.CodeUpstreamError})
				}
				close(hold)
				r := <-done
				if r.err != nil {
					t.Fatal(r.err)
				}
				if diff := cmp.Diff(tc.wantPending, r.pending); diff != "" {
					t.Errorf("baseline_pending (-want +got)\n%s", diff)
				}
				f.fetcher.setErr(ids[0], nil)
				taken, err := f.svc.TakeBaselines(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(len(tc.wantPending), taken); diff != "" {
					t.Errorf("TakeBaselines took (-want +got)\n%s", diff)
				}
				snap, err := f.store.Snapshot(ctx, "NO", ids[0])
				if err != nil {
					t.Fatalf("the company has no baseline: %v", err)
				}
				if diff := cmp.Diff(fmt.Sprintf(`{"country":"NO","id":%q,"name":"COMPANY %s AS","status":"active"}`, ids[0], ids[0]), string(snap.Report)); diff != "" {
					t.Errorf("baseline (-want +got)\n%s", diff)
				}
			})
		}
	}
}
