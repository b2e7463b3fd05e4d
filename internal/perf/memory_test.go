package perf

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/internal/seal"
)

// fill looks up ids through reg (two workers), failing t on any error.
func fill(t testing.TB, reg *registry.Registry, ids []string) {
	t.Helper()
	var wg sync.WaitGroup
	const workers = 2
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(ids); i += workers {
				if _, err := reg.Internal(seal.Key{}).LookupJSON(context.Background(), "NO", ids[i]); err != nil {
					t.Errorf("lookup %s: %v", ids[i], err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// heapInUse returns the live heap after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestCacheMemory caches distinct realistic reports (the Equinor recording
// under 100,000 organisation numbers, through the real Norwegian module and
// the Registry) in a cache with the default size bound. It asserts that the
// bound holds and that the live heap stays near it, and logs the heap per
// cached report and the total (go test -run TestCacheMemory -v).
//
// It takes some seconds, so it is skipped with -short and under the race
// detector.
func TestCacheMemory(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("heavy: skipped with -short and under -race")
	}
	const total = 100_000
	mem, err := cache.NewMemory() // the Registry's default: cache.DefaultMaxBytes
	if err != nil {
		t.Fatal(err)
	}
	up := newBrreg(t)
	reg := newNorway(t, fakeBase, &http.Client{Transport: up}, mem)
	ids := orgNrs(total)

	base := heapInUse()
	// First as many reports as fit well within the bound: the cost of one.
	const first = 10_000
	fill(t, reg, ids[:first])
	afterFirst := heapInUse()
	if mem.Len() != first {
		t.Fatalf("%d entries after %d lookups, want all of them", mem.Len(), first)
	}
	perReport := float64(afterFirst-base) / first
	accounted := float64(mem.Bytes()) / first
	value, _, _ := mem.Get(context.Background(), "NO/company/"+ids[0])

	fill(t, reg, ids[first:])
	afterAll := heapInUse()
	if got := up.requests.Load(); got != total {
		t.Errorf("the register got %d requests, want %d", got, total)
	}
	if mem.Bytes() > cache.DefaultMaxBytes {
		t.Errorf("cache holds %d bytes, over its bound of %d", mem.Bytes(), cache.DefaultMaxBytes)
	}
	if mem.Len() >= total {
		t.Errorf("cache holds all %d reports: the bound did not evict", mem.Len())
	}
	// The bound counts keys, values and a fixed overhead per entry; the
	// real heap must stay of the same order (generous: twice the bound).
	if grown := afterAll - base; grown > 2*cache.DefaultMaxBytes {
		t.Errorf("heap grew by %d bytes with a cache bound of %d", grown, cache.DefaultMaxBytes)
	}
	t.Logf("stored entry: %d bytes (tag byte + report JSON)", len(value))
	t.Logf("heap per cached report: %.0f bytes (cache accounts %.0f)", perReport, accounted)
	t.Logf("after %d distinct reports: %d entries kept, cache accounts %.1f MiB of %d MiB, live heap %.1f MiB above the %.1f MiB before",
		total, mem.Len(), mib(uint64(mem.Bytes())), cache.DefaultMaxBytes>>20, mib(afterAll-base), mib(base))
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }

// TestRSS measures the resident set size of a fresh process (this test
// binary re-run as a child) after caching 20,000 distinct reports with the
// default cache, and logs it (go test -run TestRSS -v). Linux only; skipped
// with -short and under the race detector.
func TestRSS(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("heavy: skipped with -short and under -race")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc/self/status on this system")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRSSChild$", "-test.v")
	cmd.Env = append(os.Environ(), "PERF_RSS_CHILD=20000")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "rss:") {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	if len(lines) == 0 {
		t.Fatalf("child reported nothing:\n%s", out)
	}
	for _, l := range lines {
		t.Log(l)
	}
}

// TestRSSChild is the child process of TestRSS; it does nothing unless
// PERF_RSS_CHILD is set to the number of reports to cache.
func TestRSSChild(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("PERF_RSS_CHILD"))
	if err != nil || n <= 0 {
		t.Skip("run by TestRSS")
	}
	reg := newNorway(t, fakeBase, &http.Client{Transport: newBrreg(t)}, nil)
	ids := orgNrs(n)
	runtime.GC()
	before := status(t)
	fill(t, reg, ids)
	runtime.GC()
	after := status(t)
	t.Logf("rss: before caching: VmRSS %d KiB", before["VmRSS"])
	t.Logf("rss: after caching %d distinct reports: VmRSS %d KiB (%.1f MiB), peak VmHWM %d KiB (%.1f MiB)",
		n, after["VmRSS"], float64(after["VmRSS"])/1024, after["VmHWM"], float64(after["VmHWM"])/1024)
}

// status reads the kB figures of /proc/self/status.
func status(t *testing.T) map[string]int64 {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]int64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || !strings.HasSuffix(v, " kB") {
			continue
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(v, " kB")), 10, 64); err == nil {
			out[k] = n
		}
	}
	return out
}
