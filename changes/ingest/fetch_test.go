package ingest

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/countrykit"
)

// fakeFetcher answers each company from a script: the i-th fetch of a
// company gets its i-th answer, the last answer repeats. A company
// without a script is not_found.
type fakeFetcher struct {
	mu     sync.Mutex
	script map[string][]answer
	calls  map[string]int
}

type answer struct {
	rep   *registry.CompanyReport
	roles *registry.RolesReport
	err   error
}

func newFakeFetcher() *fakeFetcher {
	return &fakeFetcher{script: map[string][]answer{}, calls: map[string]int{}}
}

func (f *fakeFetcher) set(country, id string, as ...answer) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script[key(country, id)] = as
}

func (f *fakeFetcher) count(country, id string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[key(country, id)]
}

func (f *fakeFetcher) total() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		n += c
	}
	return n
}

func (f *fakeFetcher) Fetch(_ context.Context, country, id string) (changes.Snapshot, error) {
	f.mu.Lock()
	k := key(country, id)
	i := f.calls[k]
	f.calls[k]++
	as := f.script[k]
	f.mu.Unlock()
	if len(as) == 0 {
		return changes.Snapshot{}, &registry.Error{Code: registry.CodeNotFound, Message: "no such company"}
	}
	a := as[min(i, len(as)-1)]
	if a.err != nil {
		return changes.Snapshot{}, a.err
	}
	return snapshot(a.rep, a.roles), nil
}

// snapshot encodes a report and roles as a fetch does.
func snapshot(rep *registry.CompanyReport, roles *registry.RolesReport) changes.Snapshot {
	s := changes.Snapshot{Country: rep.Country, CompanyID: rep.ID, TakenAt: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)} // before every recorded item
	s.Report, _ = json.Marshal(rep)
	if roles != nil {
		s.Roles, _ = json.Marshal(roles)
	}
	return s
}

// report is an active company of country named name, edited by edits.
func report(country, id, name string, edits ...func(*registry.CompanyReport)) *registry.CompanyReport {
	r := countrykit.NewReport(country, "test", id, name)
	r.Status = registry.StatusActive
	r.SourceURL = countrykit.Ptr("https://register.test/" + id)
	for _, e := range edits {
		e(r)
	}
	return r
}

func withStatus(s registry.Status) func(*registry.CompanyReport) {
	return func(r *registry.CompanyReport) { r.Status = s }
}

func ok(rep *registry.CompanyReport) answer { return answer{rep: rep} }

func failing(code registry.Code) answer {
	return answer{err: &registry.Error{Code: code, Message: "scripted " + string(code), Retryable: code == registry.CodeUpstreamError}}
}
