package httplog

import (
	"log/slog"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestTimeCacheIsAppendFormat: the cached text of a time is
// AppendFormat(time.RFC3339Nano)'s, for times in one second (a hit), in
// the next second, in the same second of another location and back
// (misses), with fractions with and without trailing zeros, without one,
// with a monotonic reading, before 1970 and at the ends of years 0 and
// 9999; a year outside them appends nothing.
func TestTimeCacheIsAppendFormat(t *testing.T) {
	t.Parallel()
	oslo := time.FixedZone("CET", 3600)
	west := time.FixedZone("x", -3*3600-1800)
	base := time.Date(2026, 11, 27, 7, 26, 20, 0, time.UTC)
	times := []time.Time{
		base, base.Add(1), base.Add(10), base.Add(120_000_000), base.Add(999_999_999), base.Add(time.Second),
		base.Add(time.Second + 5).In(oslo), base.Add(time.Second + 6), base.Add(time.Second + 7).In(west),
		base.Add(time.Second + 7).In(time.Local), time.Now(), time.Now().In(oslo),
		time.Date(1969, 12, 31, 23, 59, 59, 500, time.UTC), time.Date(1969, 12, 31, 23, 59, 59, 501, time.UTC),
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, west), base,
	}
	var c TimeCache
	for _, tm := range times {
		got, ok := c.appendRFC3339Nano([]byte("kept"), tm)
		if !ok {
			t.Errorf("%v refused", tm)
			continue
		}
		if diff := cmp.Diff("kept"+tm.Format(time.RFC3339Nano), string(got)); diff != "" {
			t.Errorf("%v (-AppendFormat +cached):\n%s", tm, diff)
		}
	}
	for _, tm := range []time.Time{time.Date(-1, 12, 31, 23, 59, 59, 0, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)} {
		if got, ok := c.appendRFC3339Nano([]byte("kept"), tm); ok || string(got) != "kept" {
			t.Errorf("%v: %q, %v; want kept, false", tm, got, ok)
		}
	}
}

// TestAppendJSONCachedIsSlogs: AppendJSONCached writes AppendJSON's bytes,
// slog's, and refuses what it refuses.
func TestAppendJSONCachedIsSlogs(t *testing.T) {
	t.Parallel()
	var c TimeCache
	base := AccessRecord{Level: slog.LevelInfo, Msg: "request", Method: "GET", Route: "GET /v1/{country}/company/{id}",
		Status: 200, Bytes: 3047, Duration: 1234, ID: "0123456789abcdef0123456789abcdef", ClientIP: "127.0.0.1"}
	start := time.Now()
	for i := range 3000 {
		rec := base
		// From now on, 0.7 ms apart: some 2 seconds of records, a few
		// hundred in each.
		rec.Time = start.Add(time.Duration(i) * 700 * time.Microsecond)
		rec.Status, rec.Aborted = 200+i%5*100, i%7 == 0
		got, ok := rec.AppendJSONCached([]byte("kept"), &c)
		if !ok {
			t.Fatalf("%v refused", rec.Time)
		}
		if diff := cmp.Diff("kept"+slogLine(t, rec), string(got)); diff != "" {
			t.Fatalf("record %d (-slog +cached):\n%s", i, diff)
		}
	}
	for _, y := range []int{-1, 10000} {
		rec := AccessRecord{Time: time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)}
		if got, ok := rec.AppendJSONCached([]byte("kept"), &c); ok || string(got) != "kept" {
			t.Errorf("year %d: AppendJSONCached = %q, %v; want kept, false", y, got, ok)
		}
	}
}

// FuzzTimeCache: for any two times, in any zones, made one after the
// other through one cache (a hit when they share a second and location),
// the text is AppendFormat(time.RFC3339Nano)'s, and the record is slog's.
func FuzzTimeCache(f *testing.F) {
	f.Add(int64(1790000000123456789), int64(1790000000123456000), 0, 0)
	f.Add(int64(1790000000000000000), int64(1790000000999999999), 60, 60)
	f.Add(int64(-1), int64(0), -90, 0)
	f.Fuzz(func(t *testing.T, a, b int64, zoneA, zoneB int) {
		var c TimeCache
		za, zb := time.FixedZone("a", (zoneA%1440)*60), time.FixedZone("b", (zoneB%1440)*60)
		if zoneA == zoneB {
			zb = za
		}
		for _, tm := range []time.Time{time.Unix(0, a).In(za), time.Unix(0, b).In(zb), time.Unix(0, a).In(za)} {
			got, ok := c.appendRFC3339Nano(nil, tm)
			if !ok {
				t.Fatalf("%v refused", tm)
			}
			if want := tm.Format(time.RFC3339Nano); string(got) != want {
				t.Fatalf("cached %q, AppendFormat %q", got, want)
			}
			rec := AccessRecord{Time: tm, Msg: "request"}
			line, _ := rec.AppendJSONCached(nil, &c)
			if want := slogLine(t, rec); string(line) != want {
				t.Fatalf("AppendJSONCached = %q\nslog             %q", line, want)
			}
		}
	})
}

// TestTimeCacheConcurrent: goroutines sharing one cache, each writing
// times of its own seconds and locations (so that they replace each
// other's second), always get AppendFormat's text; with -race, the cache
// is safe for concurrent use.
func TestTimeCacheConcurrent(t *testing.T) {
	t.Parallel()
	var c TimeCache
	base := time.Date(2026, 11, 27, 7, 0, 0, 0, time.UTC)
	errs := make(chan string, 4)
	for g := range 4 {
		go func() {
			loc := time.FixedZone("g", g*3600)
			for i := range 2000 {
				tm := base.Add(time.Duration(i%3)*time.Second + time.Duration(i*g)).In(loc)
				got, _ := c.appendRFC3339Nano(nil, tm)
				if want := tm.Format(time.RFC3339Nano); string(got) != want {
					errs <- string(got) + " want " + want
					return
				}
			}
			errs <- ""
		}()
	}
	for range 4 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}
