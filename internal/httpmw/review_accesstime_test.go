package httpmw_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/companyregistry/registry/internal/httpmw"
)

// TestReview_AccessRecordTimeIsTheWallClocks guards doc/decisions.md, "One
// clock read for the duration and the record's time": with an injected
// clock the record's time is time.Now's reading (a fake clock never puts a
// fake time in a log line) and the duration is the fake clock's; without
// one the record's time is a time.Now reading made during the request
// (the end of its duration). Nothing else checks the record's time: the
// other tests drop it.
func TestReview_AccessRecordTimeIsTheWallClocks(t *testing.T) {
	t.Parallel()
	for _, injected := range []bool{true, false} {
		var l logs
		c := httpmw.Config{Logger: l.logger()}
		clock := newClock()
		if injected {
			c.Now = clock.Now
		}
		s := httpmw.New(c)
		h := httpmw.Chain(s.Begin, s.AccessLog("request"))(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
			clock.Advance(3 * time.Millisecond)
		}))
		before := time.Now()
		h.ServeHTTP(httptest.NewRecorder(), request("192.0.2.1:1", "rid-1"))
		after := time.Now()
		var rec struct {
			Time     time.Time `json:"time"`
			Duration int64     `json:"duration"`
		}
		if err := json.Unmarshal([]byte(strings.TrimSpace(l.buf.String())), &rec); err != nil {
			t.Fatalf("injected %v: %q: %v", injected, l.buf.String(), err)
		}
		if rec.Time.Before(before.Round(0)) || rec.Time.After(after.Round(0)) {
			t.Errorf("injected %v: the record's time %v is not a wall-clock reading of the request's (%v to %v)",
				injected, rec.Time, before, after)
		}
		if injected && rec.Duration != int64(3*time.Millisecond) {
			t.Errorf("injected: duration %d, want the fake clock's %d", rec.Duration, 3*time.Millisecond)
		}
		if !injected && (rec.Duration < 0 || rec.Duration > int64(after.Sub(before))) {
			t.Errorf("wall clock: duration %d, outside 0 to %d", rec.Duration, after.Sub(before))
		}
	}
}
