package cache_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/companyregistry/registry/cache"
)

// TestReview_InflatedValueCapacityUncounted: an entry inflated on its first
// hit is kept, and the bound counts only its length, so its capacity must
// be that length (rounded to a size class at most). It was the bytes.Buffer
// that inflate grew (Grow(3*len(packed)) then ReadFrom's doubling), about a
// third more than the length, and more than the Registry's stored values
// held before WithCompression (append([]byte{tag}, json...)).
func TestReview_InflatedValueCapacityUncounted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, err := cache.NewMemory(cache.WithCompression())
	if err != nil {
		t.Fatal(err)
	}
	report := func(i int) []byte {
		// About 2.5 KB of report-like JSON that differs per entry.
		var b bytes.Buffer
		b.WriteByte('r')
		b.WriteString(`{"country":"NO","registry":"brreg","id":"`)
		for j := range 9 {
			b.WriteByte('0' + byte((i>>j)%10))
		}
		b.WriteString(`","name":"COMPANY `)
		b.WriteString(string(rune('A' + i%26)))
		b.WriteString(` AS","status":"active",`)
		for j := range 40 {
			b.WriteString(`"field`)
			b.WriteByte('a' + byte(j%26))
			b.WriteString(`":"value `)
			b.WriteByte('0' + byte((i+j)%10))
			b.WriteString(` of the register",`)
		}
		b.WriteString(`"cached":true}`)
		return b.Bytes()
	}
	if err := m.Set(ctx, "first", report(0), time.Hour); err != nil {
		t.Fatal(err)
	}
	var lens, caps int
	for i := 1; i <= 100; i++ {
		v := report(i)
		k := "k" + string(rune('0'+i%10)) + string(rune('a'+i/10))
		if err := m.Set(ctx, k, bytes.Clone(v), time.Hour); err != nil {
			t.Fatal(err)
		}
		got, ok, _ := m.Get(ctx, k)
		if !ok || !bytes.Equal(got, v) {
			t.Fatalf("Get %s: %v", k, ok)
		}
		lens += len(got)
		caps += cap(got)
	}
	// A size class adds at most 12.5 %.
	if caps*8 > lens*9 {
		t.Errorf("inflated entries hold %d bytes of capacity for %d bytes counted (%.0f %% more)",
			caps, lens, 100*float64(caps-lens)/float64(lens))
	}
}
