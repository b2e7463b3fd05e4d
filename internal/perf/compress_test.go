package perf

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/cache"
)

// TestCompressedDistinctReports measures what the Registry's default cache
// (cache.WithCompression) keeps of real, different Norwegian reports (the
// goldens of countries/no, compacted, with the Registry's tag byte) when
// the first report stored, Equinor's, is the dictionary: the figure for
// reports that share only their keys and the country's boilerplate, unlike
// the performance tests' copies of one report. Each comes back
// byte-identical.
func TestCompressedDistinctReports(t *testing.T) {
	t.Parallel()
	c, err := cache.NewMemory(cache.WithCompression())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	read := func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile("testdata/report_" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := json.Compact(&out, b); err != nil {
			t.Fatal(err)
		}
		return append([]byte{'r'}, out.Bytes()...)
	}
	first := read("enhet_923609016_equinor_asa_2026-08")
	if err := c.Set(ctx, "first", first, time.Hour); err != nil {
		t.Fatal(err)
	}
	var plain, kept int64
	for _, name := range []string{"enhet_991825827_digdir_orgl_2025-02", "enhet_981566378_bekk_consulting_as_v1_2019",
		"enhet_enk_REDACTED_2026-09"} {
		v := read(name)
		before := c.Bytes()
		if err := c.Set(ctx, name, bytes.Clone(v), time.Hour); err != nil {
			t.Fatal(err)
		}
		size := c.Bytes() - before - int64(len(name)) - cache.EntryOverhead
		t.Logf("%s: %d bytes stored of %d (%.0f %%)", name, size, len(v), 100*float64(size)/float64(len(v)))
		plain += int64(len(v))
		kept += size
		got, ok, _ := c.Get(ctx, name)
		if diff := cmp.Diff(string(v), string(got)); !ok || diff != "" {
			t.Fatalf("%s comes back changed (-want +got):\n%s", name, diff)
		}
	}
	t.Logf("together: %d of %d bytes (%.0f %%)", kept, plain, 100*float64(kept)/float64(plain))
	if kept*2 > plain {
		t.Errorf("compressed reports take %d of %d bytes, want at most half", kept, plain)
	}
}
