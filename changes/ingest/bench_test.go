package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/cputime"
)

// dayOfUpdates generates a day of Brønnøysund's units feed as the tests'
// feed server plays it: n updates with ids from first, spread over the
// day, about one in eleven about a watched company (100,000 watched of
// the register's ~1.1 million units), the rest about others. The mix
// follows the recordings: most updates are employee-count and accounts
// noise, some rename or move a unit, some delete one, a few are new.
func dayOfUpdates(n int, first int64, watched []string, rng *rand.Rand) []json.RawMessage {
	day := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	out := make([]json.RawMessage, 0, n)
	id := first
	for i := range n {
		id += 1 + rng.Int64N(3) // the feed's ids have gaps
		orgnr := randomOrgNr(rng)
		if rng.IntN(11) == 0 {
			orgnr = watched[rng.IntN(len(watched))]
		}
		at := day.Add(time.Duration(i) * 24 * time.Hour / time.Duration(n)).Format(timeLayout)
		kind, patch := "Endring", `[{"op":"replace","path":"/antallAnsatte","value":`+strconv.Itoa(rng.IntN(500))+`},`+
			`{"op":"replace","path":"/registreringsdatoAntallAnsatteEnhetsregisteret","value":"2026-09-01"}]`
		switch r := rng.IntN(100); {
		case r < 5:
			kind, patch = "Ny", ""
		case r < 12:
			kind, patch = "Sletting", ""
		case r < 17:
			patch = `[{"op":"replace","path":"/navn","value":"NYTT NAVN ` + strconv.Itoa(i) + ` AS"},` +
				`{"op":"add","path":"/historiskeNavn/-","value":{"navn":"GAMMELT NAVN AS","fraDato":"2014-10-29 14:14:38","tilDato":"2026-09-01 12:29:08"}}]`
		case r < 22:
			patch = `[{"op":"add","path":"/postadresse","value":{"land":"Norge","landkode":"NO","postnummer":"0201","poststed":"OSLO","adresse":["Postboks 1 Solli"],"kommune":"OSLO","kommunenummer":"0301"}},` +
				`{"op":"replace","path":"/forretningsadresse/postnummer","value":"0256"}]`
		}
		item := `{"oppdateringsid":` + strconv.FormatInt(id, 10) + `,"dato":"` + at + `","organisasjonsnummer":"` + orgnr +
			`","endringstype":"` + kind + `"`
		if patch != "" {
			item += `,"endringer":` + patch
		}
		item += `,"_links":{"enhet":{"href":"https://data.brreg.no/enhetsregisteret/api/enheter/` + orgnr + `"}}}`
		out = append(out, json.RawMessage(item))
	}
	return out
}

// randomOrgNr returns a valid organisation number (MOD11, weights
// 3 2 7 6 5 4 3 2).
func randomOrgNr(rng *rand.Rand) string {
	for {
		d := make([]byte, 9)
		d[0] = byte('8' + rng.IntN(2))
		sum := int(d[0]-'0') * 3
		weights := []int{3, 2, 7, 6, 5, 4, 3, 2}
		for i := 1; i < 8; i++ {
			d[i] = byte('0' + rng.IntN(10))
			sum += int(d[i]-'0') * weights[i]
		}
		c := 11 - sum%11
		if c == 10 {
			continue
		}
		if c == 11 {
			c = 0
		}
		d[8] = byte('0' + c)
		return string(d)
	}
}

// benchFetcher answers every watched company at once from prepared
// reports; one in three has a new name.
type benchFetcher struct {
	base, renamed json.RawMessage
	calls         atomic.Int64
}

func (f *benchFetcher) Fetch(_ context.Context, country, id string) (changes.Snapshot, error) {
	n := f.calls.Add(1)
	rep := f.base
	if n%3 == 0 {
		rep = f.renamed
	}
	return changes.Snapshot{Country: country, CompanyID: id, Report: rep, TakenAt: t0}, nil
}

func benchReport(name string) json.RawMessage {
	r := countrykit.NewReport("NO", "brreg", "923609016", name)
	r.Status = registry.StatusActive
	r.LegalFormCode, r.LegalForm = countrykit.Ptr("AS"), countrykit.Ptr("Private limited company")
	r.BusinessAddress = &registry.Address{Lines: []string{"Forusbeen 50"}, PostalCode: countrykit.Ptr("4035"), City: countrykit.Ptr("STAVANGER")}
	r.PostalAddress = &registry.Address{Lines: []string{"Postboks 8500"}, PostalCode: countrykit.Ptr("4035"), City: countrykit.Ptr("STAVANGER")}
	r.VATRegistered, r.VATNumber = countrykit.Ptr(true), countrykit.Ptr("NO923609016MVA")
	r.Purpose = countrykit.Ptr(strings.Repeat("Å utvikle, produsere og markedsføre ulike former for energi. ", 5))
	b, _ := json.Marshal(r)
	return b
}

// inProcess is an http.RoundTripper that serves a handler without a
// network.
type inProcess struct{ h http.Handler }

func (t inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

// BenchmarkNorwayDay (issue 28): one day of Brønnøysund's units feed
// (7,300 generated updates, pages of 1,000 through the upstream client)
// against 100,000 watched companies, with the fetches faked. Each
// iteration reads the whole day in one Sync into a fresh store. Besides
// the time and allocations per day it reports the CPU time of the sync
// (user and system, from getrusage, the store's and the feed server's
// work included) and the peak of the live heap while it ran (sampled
// every 2 ms from runtime/metrics; it includes the store's 100,000
// watched ids).
func BenchmarkNorwayDay(b *testing.B) {
	const updates, watchedN = 7300, 100000
	rng := rand.New(rand.NewPCG(28, 2026))
	watched := make([]string, 0, watchedN)
	seen := map[string]bool{}
	for len(watched) < watchedN {
		if id := randomOrgNr(rng); !seen[id] {
			seen[id] = true
			watched = append(watched, id)
		}
	}
	items := dayOfUpdates(updates, 25000000, watched, rng)
	var firstID struct {
		ID int64 `json:"oppdateringsid"`
	}
	_ = json.Unmarshal(items[0], &firstID)

	srv := &feedServer{items: map[string][]feedRaw{}}
	srv.add(b, "enheter", items...)
	client := &http.Client{Transport: inProcess{http.HandlerFunc(srv.serve)}}
	base := benchReport("EKSEMPEL AS")
	fetch := &benchFetcher{base: base, renamed: benchReport("NYTT NAVN AS")}

	var cpu time.Duration
	var peak, before uint64
	var recorded, fetched int64
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		st := newMemStore()
		for w := range watchedN / 10000 {
			ids := watched[w*10000 : (w+1)*10000]
			if err := st.CreateWatch(context.Background(), changes.Watch{ID: fmt.Sprint("wch_", w), Country: "NO", IDs: ids}, nil, nil); err != nil {
				b.Fatal(err)
			}
		}
		// Every watched company has a baseline: a snapshot for those the
		// day names (the others are never read).
		for _, raw := range items {
			var it struct {
				OrgNr string `json:"organisasjonsnummer"`
			}
			_ = json.Unmarshal(raw, &it)
			if seen[it.OrgNr] {
				st.snapshots[key("NO", it.OrgNr)] = changes.Snapshot{Country: "NO", CompanyID: it.OrgNr, Report: base}
			}
		}
		st.cursors["NO/enheter"] = strconv.FormatInt(firstID.ID, 10)
		st.cursors["NO/underenheter"], st.cursors["NO/roller"] = "1", "1"
		n, err := NewNorway(st, fetch, WithBaseURL("http://brreg.invalid"), WithHTTPClient(client))
		if err != nil {
			b.Fatal(err)
		}
		fetch.calls.Store(0)
		runtime.GC() // the sample before is the live heap: the store's watched ids and the day's items
		stopSampling, peakOf, first := sampleHeap()
		before = max(before, first)
		cpuBefore := cputime.Process()
		b.StartTimer()

		if err := n.Sync(context.Background(), t0); err != nil {
			b.Fatal(err)
		}

		b.StopTimer()
		cpu += cputime.Process() - cpuBefore
		stopSampling()
		peak = max(peak, peakOf())
		recorded, fetched = int64(len(st.log)), fetch.calls.Load()
		if got := st.cursors["NO/enheter"]; got == strconv.FormatInt(firstID.ID, 10) {
			b.Fatalf("the day was not read (cursor %s)", got)
		}
		b.StartTimer()
	}
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/day")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(before)/(1<<20), "heap-before-MiB")
	b.ReportMetric(float64(recorded), "changes/day")
	b.ReportMetric(float64(fetched), "fetches/day")
}

// sampleHeap samples the live heap every 2 ms until stop is called; peak
// returns the largest sample and first the one taken at the start.
func sampleHeap() (stop func(), peak func() uint64, first uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var mu sync.Mutex
	var top uint64
	read := func() {
		metrics.Read(sample)
		mu.Lock()
		top = max(top, sample[0].Value.Uint64())
		mu.Unlock()
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	read()
	first = top
	wg.Go(func() {
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				read()
			}
		}
	})
	return func() { close(done); wg.Wait(); read() }, func() uint64 { mu.Lock(); defer mu.Unlock(); return top }, first
}
