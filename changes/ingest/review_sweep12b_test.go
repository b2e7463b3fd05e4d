package ingest

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// kindsDelivered lists, for each change of company in ms, its kind and
// source event, and the number of deliveries ms queued in all.
func kindsDelivered(ms *memStore, company string) ([]string, int) {
	var got []string
	for _, c := range ms.all() {
		if c.CompanyID == company {
			got = append(got, string(c.Kind)+" "+c.SourceEventID)
		}
	}
	return got, ms.deliveryCount()
}

// TestReview_Sweep12bRefusedRolesItemIsNeverReported: a roles item of noA
// is read while no watch holds noA; a watch of noA (baseline: the chair
// Kari Nordmann, taken before the item) is stored before the page's
// Apply. fix-sweep12b refuses the page's roles_changed (Batch.Unwatched)
// and makes it a retry; the recheck reads noA, whose board is now empty:
// refresh keeps a vanished group on its first answer (RolesMisses 1, no
// change) and, the retry being spent, nothing reads noA again. The watch
// never learns that the chair left, at the refusing sync, the recheck or
// the two syncs after; before d00658f the page's roles_changed reached it.
func TestReview_Sweep12bRefusedRolesItemIsNeverReported(t *testing.T) {
	t.Parallel()
	ms, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "roller", json.RawMessage(`{"specversion":"1.0","id":"2","source":"https://data.brreg.no/enhetsregisteret/api/enheter/`+noA+`/roller",
		"type":"no.brreg.enhetsregisteret.rolle.oppdatert","time":"2026-09-01T11:59:40.000Z","datacontenttype":"application/json",
		"data":{"organisasjonsnummer":"`+noA+`"}}`))
	setCursors(t, ms, "NO/enheter", "1", "NO/underenheter", "1", "NO/roller", "1")
	rep := report("NO", noA, "A AS")
	full := &registry.RolesReport{Country: "NO", Registry: "brreg", ID: noA, Name: "A AS", Roles: []registry.Role{
		{Group: registry.RoleBoard, RoleCode: "LEDE", Role: "Chair", Current: true, Holder: registry.RoleHolder{Kind: registry.HolderPerson, Name: "Kari Nordmann"}}}}
	empty := &registry.RolesReport{Country: "NO", Registry: "brreg", ID: noA, Name: "A AS", Roles: []registry.Role{}}
	f.set("NO", noA, answer{rep: rep, roles: empty}) // the chair left: what the item announced
	st := &watchingBeforeApply{memStore: ms, company: noA, baseline: snapshot(rep, full)}
	for i := range 4 {
		if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatalf("sync %d: %v", i, err)
		}
	}
	if st.err != nil {
		t.Fatal(st.err)
	}
	got, n := kindsDelivered(ms, noA)
	if diff := cmp.Diff([]string{"roles_changed roller/2"}, got); diff != "" || n != 1 {
		t.Errorf("noA's changes after four syncs (-want +got), %d deliveries (want 1): the chair's departure is lost\n%s", n, diff)
	}
}

// TestReview_Sweep12bRefusedDeletionItemIsNeverReported: the same story
// for a Sletting item (the unit deleted) whose lookup answers not_found:
// the recheck of the refused item's retry sends no "removed" signal, so
// the not_found is a first miss (Misses 1, no change), and no later item
// comes for a deleted unit. The helper's own admitted gap, proven: the
// watch stored after checkUnknown never gets the deletion, which it got
// before d00658f (the page's deleted change).
func TestReview_Sweep12bRefusedDeletionItemIsNeverReported(t *testing.T) {
	t.Parallel()
	ms, f, srv := newMemStore(), newFakeFetcher(), newFeedServer(t)
	srv.add(t, "enheter", json.RawMessage(`{"oppdateringsid":100,"dato":"2026-09-01T11:59:40.000Z","organisasjonsnummer":"`+noA+`","endringstype":"Sletting"}`))
	setCursors(t, ms, "NO/enheter", "100", "NO/underenheter", "1", "NO/roller", "1")
	f.set("NO", noA, answer{err: &registry.Error{Code: registry.CodeNotFound, Message: "no such company"}})
	st := &watchingBeforeApply{memStore: ms, company: noA, baseline: snapshot(report("NO", noA, "A AS"), nil)}
	for i := range 4 {
		if err := newTestNorway(t, st, f, srv).Sync(t.Context(), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatalf("sync %d: %v", i, err)
		}
	}
	if st.err != nil {
		t.Fatal(st.err)
	}
	got, n := kindsDelivered(ms, noA)
	if diff := cmp.Diff([]string{string(changes.KindDeleted) + " enheter/100"}, got); diff != "" || n != 1 {
		t.Errorf("noA's changes after four syncs (-want +got), %d deliveries (want 1): the deletion is lost\n%s", n, diff)
	}
}

// watchingBeforeApply stores a watch of company, with baseline, just
// before the first Apply that records a change of it: a CreateWatch that
// commits after Norway's page asked which of its companies are watched
// (checkUnknown) and before the page's Apply.
type watchingBeforeApply struct {
	*memStore
	company  string
	baseline changes.Snapshot
	once     sync.Once
	err      error
}

func (s *watchingBeforeApply) Apply(ctx context.Context, b changes.Batch) ([]changes.Change, error) {
	for _, c := range b.Changes {
		if c.CompanyID == s.company {
			s.once.Do(func() {
				s.err = s.CreateWatch(ctx, changes.Watch{ID: "wch_late", Owner: "late", Country: "NO", IDs: []string{s.company},
					URL: "https://example.test/hook", CreatedAt: t0}, []byte("secret"), []changes.Snapshot{s.baseline})
			})
		}
	}
	return s.memStore.Apply(ctx, b)
}
