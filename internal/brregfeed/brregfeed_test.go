package brregfeed_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/brregfeed"
	"github.com/companyregistry/registry/internal/leakcheck"
)

func TestMain(m *testing.M) { leakcheck.Main(m) }

// TestFeed: updates are read forwards by oppdateringsid (inclusive) or by
// dato, at most size at a time, and a unit's record answers the fields
// published for it, the last publication of a field winning.
func TestFeed(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
	f := brregfeed.New(func() time.Time { return at })
	srv := httptest.NewServer(f.Handler("/api"))
	defer srv.Close()
	ids := func(query string) []int64 {
		t.Helper()
		res, err := http.Get(srv.URL + "/api/oppdateringer/enheter?" + query)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var page struct {
			Embedded struct {
				Units []struct {
					ID int64 `json:"oppdateringsid"`
				} `json:"oppdaterteEnheter"`
			} `json:"_embedded"`
		}
		b, _ := io.ReadAll(res.Body)
		if err := json.Unmarshal(b, &page); err != nil || res.StatusCode != 200 {
			t.Fatalf("%s: %d %s", query, res.StatusCode, b)
		}
		var out []int64
		for _, u := range page.Embedded.Units {
			out = append(out, u.ID)
		}
		return out
	}
	if got := ids("dato=2026-09-01T00:00:00.000Z"); got != nil {
		t.Errorf("empty feed: %v", got)
	}
	for i, name := range []string{"A AS", "B AS", "C AS"} {
		if _, err := f.Publish("923609016", map[string]any{"navn": name}); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			at = at.Add(time.Hour)
		}
	}
	for _, tc := range []struct {
		query string
		want  []int64
	}{
		{"dato=2026-09-01T00:00:00.000Z", []int64{1001, 1002, 1003}},
		{"dato=2026-09-01T12:30:00.000Z", []int64{1002, 1003}},
		{"oppdateringsid=1002", []int64{1002, 1003}},
		{"oppdateringsid=1001&size=2", []int64{1001, 1002}},
		{"oppdateringsid=1004", nil},
	} {
		if diff := cmp.Diff(tc.want, ids(tc.query)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.query, diff)
		}
	}
	rec, err := f.Unit("923609016", []byte(`{"navn":"EQUINOR ASA","konkurs":false}`))
	if err != nil || string(rec) != `{"konkurs":false,"navn":"C AS"}` {
		t.Errorf("Unit: %s, %v", rec, err)
	}
	if rec, _ := f.Unit("914375916", []byte(`{"navn":"X"}`)); string(rec) != `{"navn":"X"}` {
		t.Errorf("another unit: %s", rec)
	}
	for _, bad := range []struct {
		orgnr  string
		fields map[string]any
	}{{"12345678", map[string]any{"navn": "X"}}, {"923609016", nil}, {"923609016", map[string]any{"a/b": 1}}} {
		if _, err := f.Publish(bad.orgnr, bad.fields); err == nil {
			t.Errorf("Publish(%q, %v) succeeded", bad.orgnr, bad.fields)
		}
	}
}
