package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/internal/moduletest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

var t0 = time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)

func newTestNorway(t *testing.T, st changes.Store, f changes.Fetcher, srv *feedServer, opts ...Option) *Norway {
	t.Helper()
	n, err := NewNorway(st, f, append([]Option{WithBaseURL(srv.URL)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// setCursors stores cursors as an earlier run would have.
func setCursors(t *testing.T, st changes.Store, kv ...string) {
	t.Helper()
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	if _, err := st.Apply(t.Context(), changes.Batch{Cursors: m}); err != nil {
		t.Fatal(err)
	}
}

// recorded is a change as the golden files show it.
type recorded struct {
	Kind          changes.Kind    `json:"kind"`
	CompanyID     string          `json:"company_id"`
	CompanyName   *string         `json:"company_name"`
	Old           json.RawMessage `json:"old"`
	New           json.RawMessage `json:"new"`
	RegisteredAt  *time.Time      `json:"registered_at"`
	SourceURL     *string         `json:"source_url"`
	SourceEventID string          `json:"source_event_id"`
}

func recordedOf(cs []changes.Change) []recorded {
	out := []recorded{}
	for _, c := range cs {
		out = append(out, recorded{Kind: c.Kind, CompanyID: c.CompanyID, CompanyName: c.CompanyName, Old: c.Old, New: c.New,
			RegisteredAt: c.RegisteredAt, SourceURL: c.SourceURL, SourceEventID: c.SourceEventID})
	}
	return out
}

func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	moduletest.Golden(t, filepath.Join("testdata", "golden", name+".json"), moduletest.Indent(t, v, false), *update)
}

// TestNorwayStartsNowAndKeepsEveryItem (issue 28): a feed never read is
// read from now (dato, a minute before the sync: see
// TestNorwayFirstSyncReadsFromTheOldestBaseline), each feed once; every item of a company nobody
// watches is recorded as the register reported it: the kinds its JSON
// Patch paths touch (a new name, new addresses), "updated" when they touch
// none, old null, the register's operations as the new value; the cursor
// becomes the next oppdateringsid.
func TestNorwayStartsNowAndKeepsEveryItem(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.addRecording(t, "enheter", "oppdateringer_enheter_includeChanges_914375916_name-and-address-change_2026-09_ANONYMISED.json")
	srv.addRecording(t, "enheter", "oppdateringer_enheter_includeChanges_923609016_equinor_sort-id-desc_2026-09.json")
	now := time.Date(2026, 8, 15, 0, 0, 0, 0, time.UTC)
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), now); err != nil {
		t.Fatal(err)
	}
	want := []url.Values{{"dato": {"2026-08-14T23:59:00.000Z"}, "size": {"1000"}, "includeChanges": {"true"}}}
	if diff := cmp.Diff(want, srv.requestsOf("enheter")); diff != "" {
		t.Errorf("enheter requests (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]url.Values{{"afterTime": {"2026-08-14T23:59:00.000Z"}, "size": {"1000"}}}, srv.requestsOf("roller")); diff != "" {
		t.Errorf("roller requests (-want +got):\n%s", diff)
	}
	checkGolden(t, "feed_unwatched_2026-08-15", recordedOf(st.all()))
	if f.total() != 0 || st.deliveryCount() != 0 {
		t.Errorf("%d fetches and %d deliveries for companies nobody watches, want 0", f.total(), st.deliveryCount())
	}
	if got := cursor(t, st, "NO/enheter"); got != "25205461" {
		t.Errorf("cursor %q, want 25205461 (after the last item)", got)
	}
	if got := cursor(t, st, "NO/underenheter"); got != "time:2026-08-14T23:59:00.000Z" {
		t.Errorf("underenheter cursor %q, want the start time", got)
	}
	// The next sync reads on from the cursor and finds nothing new.
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	reqs := srv.requestsOf("enheter")
	if got := reqs[len(reqs)-1]; got.Get("oppdateringsid") != "25205461" || got.Has("page") || got.Has("dato") {
		t.Errorf("second request %v, want oppdateringsid=25205461 without page or dato", got)
	}
}

// TestNorwayWatchedCompanies (issue 28): on the recorded 2020 page, the
// watched companies are fetched and compared with their snapshots (a
// deletion and a new name), once each, with the item's id and time; the
// changes are delivered to the watch; the other 18 deletions are recorded
// as the register reported them; the snapshots and the cursor move in the
// same Apply. Reading the page again records nothing twice.
func TestNorwayWatchedCompanies(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.addRecording(t, "enheter", "oppdateringer_enheter_oppdateringsid-9400339_size20_page0_2020-10.json")
	watch(t, st, "NO", []string{"971421444", "987621370"},
		snapshot(report("NO", "971421444", "SLETTES AS"), nil), snapshot(report("NO", "987621370", "GAMMELT NAVN AS"), nil))
	f.set("NO", "971421444", ok(report("NO", "971421444", "SLETTES AS", withStatus(registry.StatusDeleted))))
	f.set("NO", "987621370", ok(report("NO", "987621370", "NYTT NAVN AS")))
	setCursors(t, st, "NO/enheter", "9400339", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	published := time.Date(2020, 10, 5, 4, 1, 22, 299e6, time.UTC)
	deleted := companyChanges(t, st, "NO", "971421444")
	if len(deleted) != 1 || deleted[0].Kind != changes.KindDeleted || string(deleted[0].Old) != `"active"` ||
		string(deleted[0].New) != `"deleted"` || deleted[0].SourceEventID != "enheter/9400339" ||
		deleted[0].RegisteredAt == nil || !deleted[0].RegisteredAt.Equal(published) || !deleted[0].DetectedAt.Equal(t0) {
		t.Errorf("watched deletion: %+v", recordedOf(deleted))
	}
	renamed := companyChanges(t, st, "NO", "987621370")
	if len(renamed) != 1 || renamed[0].Kind != changes.KindNameChanged || string(renamed[0].New) != `"NYTT NAVN AS"` ||
		renamed[0].SourceEventID != "enheter/9400372" {
		t.Errorf("watched rename: %+v", recordedOf(renamed))
	}
	if got := len(st.all()); got != 20 {
		t.Errorf("%d changes recorded, want 20 (2 watched, 18 reported deletions)", got)
	}
	other := companyChanges(t, st, "NO", "915735045")
	if len(other) != 1 || other[0].Kind != changes.KindDeleted || string(other[0].Old) != "null" ||
		string(other[0].New) != `{"feed":"enheter","update_id":9400341,"change_type":"Sletting","patch":[]}` {
		t.Errorf("unwatched deletion: %+v", recordedOf(other))
	}
	if st.deliveryCount() != 2 || f.total() != 2 {
		t.Errorf("%d deliveries and %d fetches, want 2 and 2", st.deliveryCount(), f.total())
	}
	snap, err := st.Snapshot(t.Context(), "NO", "987621370")
	if err != nil || !strings.Contains(string(snap.Report), "NYTT NAVN AS") {
		t.Errorf("snapshot %s, %v; want the new name", snap.Report, err)
	}
	if got := cursor(t, st, "NO/enheter"); got != "9400373" {
		t.Errorf("cursor %q, want 9400373", got)
	}
	applies := st.applyCount()

	// The same page again (a crash before the cursor was stored would do
	// this): fetched again, but nothing recorded or delivered twice.
	setCursors(t, st, "NO/enheter", "9400339")
	if err := n.Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := len(st.all()); got != 20 || st.deliveryCount() != 2 {
		t.Errorf("after reading the page again: %d changes, %d deliveries; want 20 and 2", got, st.deliveryCount())
	}
	if st.applyCount() != applies+2 { // the cursor reset, then the page
		t.Errorf("%d applies, want %d", st.applyCount(), applies+2)
	}
}

// TestNorwayOneFetchPerCompanyAndPage: four items of one watched company
// on a page cost one fetch, made for the last item (its id is the
// changes' source event).
func TestNorwayOneFetchPerCompanyAndPage(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.addRecording(t, "enheter", "oppdateringer_enheter_includeChanges_914375916_name-and-address-change_2026-09_ANONYMISED.json")
	watch(t, st, "NO", []string{"914375916"}, snapshot(report("NO", "914375916", "OPULENS NÆRING 4 AS"), nil))
	f.set("NO", "914375916", ok(report("NO", "914375916", "TOLLBUGATA 17 OSLO AS")))
	setCursors(t, st, "NO/enheter", "1", "NO/underenheter", "1", "NO/roller", "1")
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	cs := companyChanges(t, st, "NO", "914375916")
	if f.total() != 1 || len(cs) != 1 || cs[0].SourceEventID != "enheter/25152016" || string(cs[0].Old) != `"OPULENS NÆRING 4 AS"` {
		t.Errorf("%d fetches, changes %+v; want one fetch and the rename of item 25152016", f.total(), recordedOf(cs))
	}
}

// TestNorwayResumesAfterTheBudget: a fetch refused by the upstream budget
// ends the sync without an error; what came before is stored with the
// cursor at the refused item, and the next sync goes on from there
// without recording anything twice.
func TestNorwayResumesAfterTheBudget(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.addRecording(t, "enheter", "oppdateringer_enheter_oppdateringsid-9400339_size20_page0_2020-10.json")
	watch(t, st, "NO", []string{"915735045", "922175551"},
		snapshot(report("NO", "915735045", "A AS"), nil), snapshot(report("NO", "922175551", "B AS"), nil))
	f.set("NO", "915735045", ok(report("NO", "915735045", "A AS", withStatus(registry.StatusDeleted))))
	f.set("NO", "922175551", failing(registry.CodeRateLimited), ok(report("NO", "922175551", "B AS", withStatus(registry.StatusDeleted))))
	setCursors(t, st, "NO/enheter", "9400339", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatalf("Sync with the budget spent = %v, want nil", err)
	}
	// 922175551 is item 9400357, the 16th: 15 recorded, the cursor on it.
	if got := cursor(t, st, "NO/enheter"); got != "9400357" {
		t.Errorf("cursor %q, want 9400357", got)
	}
	if got := len(st.all()); got != 15 {
		t.Errorf("%d changes, want 15", got)
	}
	if srv.requestsOf("roller") != nil {
		t.Error("the other feeds were read after the budget was spent")
	}
	if err := n.Sync(t.Context(), t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := len(st.all()); got != 20 {
		t.Errorf("%d changes after the second sync, want 20", got)
	}
	if cs := companyChanges(t, st, "NO", "922175551"); len(cs) != 1 || cs[0].Kind != changes.KindDeleted {
		t.Errorf("the refused company: %+v", recordedOf(cs))
	}
	if got := cursor(t, st, "NO/enheter"); got != "9400373" {
		t.Errorf("cursor %q, want 9400373", got)
	}
}

// TestNorwayRemovedAndMissing: a unit removed from the open data (410,
// Gone) is deleted at once and its snapshot purged; a unit the register
// answers not_found for is deleted only at the second consecutive miss.
func TestNorwayRemovedAndMissing(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter",
		json.RawMessage(`{"oppdateringsid":100,"dato":"2026-09-01T10:00:00.000Z","organisasjonsnummer":"971421444","endringstype":"Fjernet"}`),
		json.RawMessage(`{"oppdateringsid":101,"dato":"2026-09-01T10:00:00.000Z","organisasjonsnummer":"915735045","endringstype":"Endring"}`))
	watch(t, st, "NO", []string{"971421444", "915735045"},
		snapshot(report("NO", "971421444", "FJERNES AS"), nil), snapshot(report("NO", "915735045", "BORTE AS"), nil))
	f.set("NO", "971421444", answer{err: &registry.Error{Code: registry.CodeNotFound, Gone: true}})
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	removed := companyChanges(t, st, "NO", "971421444")
	// The name is not kept: copies must remove the unit (research §1.3).
	if len(removed) != 1 || removed[0].Kind != changes.KindDeleted || string(removed[0].New) != "null" || removed[0].CompanyName != nil {
		t.Errorf("removed: %+v", recordedOf(removed))
	}
	snap, err := st.Snapshot(t.Context(), "NO", "971421444")
	if err != nil || string(snap.Report) != "null" || snap.Roles != nil {
		t.Errorf("removed company's snapshot %s %s, %v; want it purged", snap.Report, snap.Roles, err)
	}
	if cs := companyChanges(t, st, "NO", "915735045"); len(cs) != 0 {
		t.Errorf("first miss reported: %+v", recordedOf(cs))
	}
	if snap, _ := st.Snapshot(t.Context(), "NO", "915735045"); snap.Misses != 1 {
		t.Errorf("misses %d after one, want 1", snap.Misses)
	}
	srv.add(t, "enheter", json.RawMessage(`{"oppdateringsid":150,"dato":"2026-09-01T11:00:00.000Z","organisasjonsnummer":"915735045","endringstype":"Endring"}`))
	if err := n.Sync(t.Context(), t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if cs := companyChanges(t, st, "NO", "915735045"); len(cs) != 1 || cs[0].Kind != changes.KindDeleted || cs[0].SourceEventID != "enheter/150" {
		t.Errorf("second miss: %+v", recordedOf(cs))
	}
}

// TestNorwayRolesFeed (issue 28): the roles feed (CloudEvents; a synthetic
// body from the documented schema) names companies whose roles changed:
// a watched one is fetched and its roles compared, the others recorded as
// roles_changed as reported; the cursor is the last event id (afterId).
func TestNorwayRolesFeed(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.addRecording(t, "roller", "oppdateringer_roller_SYNTHETIC.json")
	role := func(name string) registry.Role {
		return registry.Role{Group: registry.RoleManagement, RoleCode: "DAGL", Role: "Chief executive", Current: true,
			Holder: registry.RoleHolder{Kind: registry.HolderPerson, Name: name}}
	}
	rep := report("NO", "923609016", "EQUINOR ASA")
	watch(t, st, "NO", []string{"923609016"}, snapshot(rep, &registry.RolesReport{ID: "923609016", Roles: []registry.Role{role("Kari Nordmann")}}))
	f.set("NO", "923609016", answer{rep: rep, roles: &registry.RolesReport{ID: "923609016", Roles: []registry.Role{role("Ola Nordmann")}}})
	setCursors(t, st, "NO/enheter", "1", "NO/underenheter", "1", "NO/roller", "5000000")
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]url.Values{{"afterId": {"5000000"}, "size": {"1000"}}}, srv.requestsOf("roller")); diff != "" {
		t.Errorf("roller requests (-want +got):\n%s", diff)
	}
	checkGolden(t, "feed_roller", recordedOf(st.all()))
	if got := cursor(t, st, "NO/roller"); got != "5000009" {
		t.Errorf("cursor %q, want 5000009", got)
	}
}

// TestNorwaySubunitsFeed: the sub-units' feed (a synthetic body from the
// documented schema) is read like the units' one; its source URLs name
// /underenheter.
func TestNorwaySubunitsFeed(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.addRecording(t, "underenheter", "oppdateringer_underenheter_SYNTHETIC.json")
	setCursors(t, st, "NO/enheter", "1", "NO/underenheter", "31000000", "NO/roller", "1")
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "feed_underenheter", recordedOf(st.all()))
	if got := cursor(t, st, "NO/underenheter"); got != "31000021" {
		t.Errorf("cursor %q, want 31000021", got)
	}
}

// TestNorwayPages: a full page is followed by the next one in the same
// sync (by id, never by page number), up to the page bound.
func TestNorwayPages(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.addRecording(t, "enheter", "oppdateringer_enheter_oppdateringsid-9400339_size20_page0_2020-10.json")
	setCursors(t, st, "NO/enheter", "9400339", "NO/underenheter", "1", "NO/roller", "1")
	if err := newTestNorway(t, st, f, srv, WithPageSize(8), WithMaxPages(2)).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, q := range srv.requestsOf("enheter") {
		ids = append(ids, q.Get("oppdateringsid"))
	}
	if diff := cmp.Diff([]string{"9400339", "9400350"}, ids); diff != "" {
		t.Errorf("pages asked (-want +got):\n%s", diff)
	}
	if got := cursor(t, st, "NO/enheter"); got != "9400358" {
		t.Errorf("cursor %q after two pages of 8, want 9400358", got)
	}
	if err := newTestNorway(t, st, f, srv, WithPageSize(8)).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	if got := cursor(t, st, "NO/enheter"); got != "9400373" || len(st.all()) != 20 {
		t.Errorf("cursor %q with %d changes, want 9400373 and 20", got, len(st.all()))
	}
}

// TestNorwayFeedFailures: a register error, a page that is not JSON or
// not a page, and an empty answer without _embedded; a failure leaves
// the cursor where it was and does not stop the other feeds.
func TestNorwayFeedFailures(t *testing.T) {
	t.Parallel()
	empty := moduletest.Recording(t, "brreg", "oppdateringer_enheter_includeChanges_984851006_no-changes_2026-09.json")
	for _, tc := range []struct {
		name   string
		status int
		body   []byte
		fails  bool
	}{
		{"503", 503, nil, true},
		{"not JSON", 0, []byte("<html>"), true},
		{"an array for a page", 0, []byte(`[{"oppdateringsid":1}]`), true},
		{"empty page", 0, empty, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
			srv.status, srv.body, srv.only = tc.status, tc.body, "enheter"
			setCursors(t, st, "NO/enheter", "42", "NO/underenheter", "43", "NO/roller", "44")
			err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0)
			if (err != nil) != tc.fails {
				t.Fatalf("Sync = %v, want failure %v", err, tc.fails)
			}
			if got := cursor(t, st, "NO/enheter"); got != "42" {
				t.Errorf("cursor %q, want 42 (unchanged)", got)
			}
			if len(srv.requestsOf("roller")) != 1 {
				t.Error("a failing feed stopped the others")
			}
		})
	}
}

// TestNorwayFeedBudget: with WithBudget, each feed read takes a call; an
// empty budget reads nothing until the next sync.
func TestNorwayFeedBudget(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	setCursors(t, st, "NO/enheter", "1", "NO/underenheter", "1", "NO/roller", "1")
	b := &countBudget{allow: 1}
	if err := newTestNorway(t, st, f, srv, WithBudget(b)).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	if got := len(srv.requestsOf("enheter")) + len(srv.requestsOf("underenheter")) + len(srv.requestsOf("roller")); got != 1 || b.takes != 2 {
		t.Errorf("%d requests and %d takes, want 1 and 2", got, b.takes)
	}
}

type countBudget struct{ allow, takes int }

func (b *countBudget) Take(context.Context) (bool, time.Duration, error) {
	b.takes++
	return b.takes <= b.allow, time.Second, nil
}

// TestNorwaySkipsWhatAFetchCannotMend: a watched company whose fetch fails
// for good (here an invalid_id) is skipped with a warning; the feed goes
// on. One whose fetch fails with internal_error is not dropped at once
// any more: the feed goes on past it too, and it is fetched again at the
// next sync (see internal_retry_test.go). A transient failure (a 5xx
// after the retry) stops the sync with an error and keeps the item.
func TestNorwaySkipsWhatAFetchCannotMend(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.addRecording(t, "enheter", "oppdateringer_enheter_oppdateringsid-9400339_size20_page0_2020-10.json")
	watch(t, st, "NO", []string{"971421444", "915735045", "922175551"},
		snapshot(report("NO", "971421444", "A AS"), nil), snapshot(report("NO", "915735045", "C AS"), nil),
		snapshot(report("NO", "922175551", "B AS"), nil))
	f.set("NO", "971421444", failing(registry.CodeInternalError))
	f.set("NO", "915735045", failing(registry.CodeInvalidID))
	f.set("NO", "922175551", failing(registry.CodeUpstreamError))
	setCursors(t, st, "NO/enheter", "9400339", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	err := n.Sync(t.Context(), t0)
	if !errors.Is(err, registry.ErrUpstream) {
		t.Errorf("Sync = %v, want the upstream error", err)
	}
	if got := cursor(t, st, "NO/enheter"); got != "9400357" {
		t.Errorf("cursor %q, want 9400357 (the failing item, past the skipped ones)", got)
	}
	if err := n.Sync(t.Context(), t0.Add(time.Minute)); !errors.Is(err, registry.ErrUpstream) {
		t.Errorf("second Sync = %v, want the upstream error", err)
	}
	want := map[string]int{"971421444": 2, "915735045": 1, "922175551": 2}
	if diff := cmp.Diff(want, fetches(f, "NO", "971421444", "915735045", "922175551")); diff != "" {
		t.Errorf("fetches after two syncs (-want +got): the internal_error is tried again, the invalid_id not:\n%s", diff)
	}
}

// TestNorwayWatchedSinceTheSyncStarted (issue 28, at-least-once): a
// company whose watch was stored after the sync loaded the watched set
// (here: a store whose WatchedIDs is stale) is found by the page's check
// of the store, fetched and compared with its baseline, not recorded as
// an unwatched company's item.
func TestNorwayWatchedSinceTheSyncStarted(t *testing.T) {
	t.Parallel()
	mem, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	st := staleWatchedStore{mem}
	srv.addRecording(t, "enheter", "oppdateringer_enheter_oppdateringsid-9400339_size20_page0_2020-10.json")
	watch(t, mem, "NO", []string{"987621370"}, snapshot(report("NO", "987621370", "GAMMELT NAVN AS"), nil))
	f.set("NO", "987621370", ok(report("NO", "987621370", "NYTT NAVN AS")))
	setCursors(t, mem, "NO/enheter", "9400339", "NO/underenheter", "1", "NO/roller", "1")
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	renamed := companyChanges(t, mem, "NO", "987621370")
	if len(renamed) != 1 || renamed[0].Kind != changes.KindNameChanged || string(renamed[0].New) != `"NYTT NAVN AS"` {
		t.Errorf("a company watched since the sync started: %+v; want its name_changed against the baseline", recordedOf(renamed))
	}
	if f.total() != 1 || mem.deliveryCount() != 1 {
		t.Errorf("%d fetches and %d deliveries, want 1 and 1", f.total(), mem.deliveryCount())
	}
}

// staleWatchedStore answers WatchedIDs with nothing: the set a sync
// loaded before a watch was stored.
type staleWatchedStore struct{ *memStore }

func (staleWatchedStore) WatchedIDs(context.Context, string) (map[string]struct{}, error) {
	return map[string]struct{}{}, nil
}

// TestNorwayRemovedWatchedUnitIsPurged (the /oppdateringer description of
// Fjernet: "Enheten har blitt fjernet fra Åpne Data. Eventuelle kopier
// skal også fjerne enheten"): a watched unit's rename recorded at one
// sync is purged when a later sync reads its removal; only the deletion
// stays, without the name, and the rename's delivery is gone.
func TestNorwayRemovedWatchedUnitIsPurged(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter", json.RawMessage(`{"oppdateringsid":100,"dato":"2026-09-01T10:00:00.000Z","organisasjonsnummer":"971421444","endringstype":"Endring"}`))
	watch(t, st, "NO", []string{"971421444"}, snapshot(report("NO", "971421444", "OLA NORDMANN AS"), nil))
	f.set("NO", "971421444", ok(report("NO", "971421444", "OLA NORDMANN HOLDING AS")),
		answer{err: &registry.Error{Code: registry.CodeNotFound, Gone: true}})
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	if cs := companyChanges(t, st, "NO", "971421444"); len(cs) != 1 || cs[0].Kind != changes.KindNameChanged {
		t.Fatalf("before the removal: %+v", recordedOf(cs))
	}
	srv.add(t, "enheter", json.RawMessage(`{"oppdateringsid":101,"dato":"2026-09-01T11:00:00.000Z","organisasjonsnummer":"971421444","endringstype":"Fjernet"}`))
	if err := n.Sync(t.Context(), t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	cs := companyChanges(t, st, "NO", "971421444")
	if len(cs) != 1 || cs[0].Kind != changes.KindDeleted || cs[0].CompanyName != nil || cs[0].SourceEventID != "enheter/101" ||
		strings.Contains(string(cs[0].Old)+string(cs[0].New), "NORDMANN") {
		t.Errorf("after the removal: %+v; want only the deletion, without the name", recordedOf(cs))
	}
	if got := st.deliveryCount(); got != 1 {
		t.Errorf("%d deliveries after the removal, want 1 (the deletion's)", got)
	}
}

// TestRolesGoneTwiceBeforeReported (issue 28: "a register outage or a
// 404 must not produce a false" change): a watched company whose roles
// answer is once without roles (Brønnøysund's module reads a 404 of the
// roles endpoint as none) keeps its known roles, and nothing is reported
// when they come back; two such answers in a row are roles_changed.
func TestRolesGoneTwiceBeforeReported(t *testing.T) {
	t.Parallel()
	st, f := newMemStore(), newFakeFetcher()
	full := &registry.RolesReport{Country: "NO", Registry: "brreg", ID: "923609016", Name: "EKSEMPEL AS", Roles: []registry.Role{
		{Group: registry.RoleBoard, RoleCode: "LEDE", Role: "Chair", Current: true, Holder: registry.RoleHolder{Kind: registry.HolderPerson, Name: "Kari Nordmann"}}}}
	empty := &registry.RolesReport{Country: "NO", Registry: "brreg", ID: "923609016", Name: "EKSEMPEL AS", Roles: []registry.Role{}}
	rep := report("NO", "923609016", "EKSEMPEL AS")
	watch(t, st, "NO", []string{"923609016"}, snapshot(rep, full))
	f.set("NO", "923609016", answer{rep: rep, roles: empty}, answer{rep: rep, roles: full},
		answer{rep: rep, roles: empty}, answer{rep: rep, roles: empty})
	r := refresher{store: st, fetch: f, log: slog.New(slog.DiscardHandler)}
	for i, want := range []int{0, 0, 0, 1} {
		var b changes.Batch
		if err := r.refreshInto(t.Context(), signal{country: "NO", id: "923609016", eventID: fmt.Sprint("roller/", i)}, t0, &b); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Apply(t.Context(), b); err != nil {
			t.Fatal(err)
		}
		cs := companyChanges(t, st, "NO", "923609016")
		if len(cs) != want {
			t.Errorf("answer %d: %d changes %+v, want %d", i+1, len(cs), recordedOf(cs), want)
		}
	}
	if cs := companyChanges(t, st, "NO", "923609016"); len(cs) == 1 && (cs[0].Kind != changes.KindRolesChanged || string(cs[0].New) != "[]") {
		t.Errorf("the change: %+v; want roles_changed to []", recordedOf(cs))
	}
	if snap, _ := st.Snapshot(t.Context(), "NO", "923609016"); snap.Misses != 0 || snap.RolesMisses != 0 {
		t.Errorf("misses %d, roles misses %d after the change was reported, want 0", snap.Misses, snap.RolesMisses)
	}
}

// TestNorwayFirstSyncReadsFromTheOldestBaseline: a watch created before
// the ingester's first sync (its baseline taken at 00:00) and a change the
// register published at 10:30, before that sync at 12:00: the first sync
// reads the feed from a minute before the baseline, not from now, and
// reports the rename
// (issue 28: "a baseline is taken when a company is added, so the first
// event is a real change"; reading from now lost it). Found by
// examples/server's TestChangeWiring, which failed when the first sync
// started after the test published.
func TestNorwayFirstSyncReadsFromTheOldestBaseline(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.addRecording(t, "enheter", "oppdateringer_enheter_includeChanges_914375916_name-and-address-change_2026-09_ANONYMISED.json")
	base := snapshot(report("NO", "914375916", "OPULENS NÆRING 4 AS"), nil)
	base.TakenAt = time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	watch(t, st, "NO", []string{"914375916"}, base)
	f.set("NO", "914375916", ok(report("NO", "914375916", "TOLLBUGATA 17 OSLO AS")))
	if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0); err != nil { // 2026-09-01 12:00
		t.Fatal(err)
	}
	// A minute before the baseline: its stamp is this machine's, taken when
	// the fetch ended; the register's time of a change it missed may be
	// a little earlier.
	want := []url.Values{{"dato": {"2026-08-31T23:59:00.000Z"}, "size": {"1000"}, "includeChanges": {"true"}}}
	if diff := cmp.Diff(want, srv.requestsOf("enheter")); diff != "" {
		t.Errorf("enheter requests (-want +got):\n%s", diff)
	}
	cs := companyChanges(t, st, "NO", "914375916")
	if len(cs) != 1 || cs[0].Kind != changes.KindNameChanged || cs[0].SourceEventID != "enheter/25152016" || st.deliveryCount() != 1 {
		t.Errorf("changes %+v, %d deliveries; want the rename of item 25152016, delivered", recordedOf(cs), st.deliveryCount())
	}
	// With no watched company, the feed is read from a minute before now
	// (a watch being created took its baselines before it is stored).
	st2 := newMemStore()
	srv2 := newFeedServer(t)
	if err := newTestNorway(t, st2, newFakeFetcher(), srv2).Sync(t.Context(), t0); err != nil {
		t.Fatal(err)
	}
	if got := cursor(t, st2, "NO/underenheter"); got != "time:2026-09-01T11:59:00.000Z" {
		t.Errorf("cursor %q with nothing watched, want a minute before now", got)
	}
}

// TestNorwayRechecksHeldItems: an item of a company no watch held is
// asked about again at the next syncs for a minute (a watch takes its
// baselines before it is stored, so its company's item may be read
// before it is): a company watched by then is fetched and compared with
// its baseline, and a fetch that fails for a reason that may pass is
// tried again at the next sync; a company watched only after the minute
// is not fetched for that item (its baseline is newer than the item).
func TestNorwayRechecksHeldItems(t *testing.T) {
	t.Parallel()
	st, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter",
		json.RawMessage(`{"oppdateringsid":100,"dato":"2026-09-01T11:59:40.000Z","organisasjonsnummer":"914375916","endringstype":"Endring",
		  "endringer":[{"op":"replace","path":"/navn","value":"TOLLBUGATA 17 OSLO AS"}]}`),
		json.RawMessage(`{"oppdateringsid":101,"dato":"2026-09-01T11:59:41.000Z","organisasjonsnummer":"923609016","endringstype":"Endring",
		  "endringer":[{"op":"replace","path":"/navn","value":"EQUINOR NY ASA"}]}`))
	setCursors(t, st, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	n := newTestNorway(t, st, f, srv)
	if err := n.Sync(t.Context(), t0); err != nil { // both read while unwatched
		t.Fatal(err)
	}
	base := snapshot(report("NO", "914375916", "OPULENS NÆRING 4 AS"), nil)
	base.TakenAt = time.Date(2026, 9, 1, 11, 59, 30, 0, time.UTC) // before the item: the watch was being created
	watch(t, st, "NO", []string{"914375916"}, base)
	f.set("NO", "914375916", answer{err: &registry.Error{Code: registry.CodeUpstreamError, Retryable: true}},
		ok(report("NO", "914375916", "TOLLBUGATA 17 OSLO AS")))
	if err := n.Sync(t.Context(), t0.Add(30*time.Second)); err == nil {
		t.Error("the failed fetch of the second look: no error")
	}
	if st.deliveryCount() != 0 {
		t.Fatalf("%d deliveries after a failed fetch", st.deliveryCount())
	}
	if err := n.Sync(t.Context(), t0.Add(2*time.Minute)); err != nil { // kept after its minute: the fetch failed
		t.Fatal(err)
	}
	var renamed []changes.Change
	for _, c := range companyChanges(t, st, "NO", "914375916") {
		if c.SourceEventID == "" {
			renamed = append(renamed, c)
		}
	}
	if len(renamed) != 1 || renamed[0].Kind != changes.KindNameChanged || string(renamed[0].Old) != `"OPULENS NÆRING 4 AS"` ||
		renamed[0].RegisteredAt == nil || !renamed[0].RegisteredAt.Equal(time.Date(2026, 9, 1, 11, 59, 40, 0, time.UTC)) ||
		st.deliveryCount() != 1 || f.count("NO", "914375916") != 2 {
		t.Errorf("changes %+v, %d deliveries, %d fetches; want the rename at the item's time, delivered, after two fetches",
			recordedOf(renamed), st.deliveryCount(), f.count("NO", "914375916"))
	}
	// 923609016's item is older than a minute now: a watch made later has
	// its own baseline, and the item is not asked about again.
	watch(t, st, "NO", []string{"923609016"}, snapshot(report("NO", "923609016", "EQUINOR NY ASA"), nil))
	if err := n.Sync(t.Context(), t0.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := f.count("NO", "923609016"); got != 0 {
		t.Errorf("%d fetches of a company watched after its item's minute, want 0", got)
	}
}
