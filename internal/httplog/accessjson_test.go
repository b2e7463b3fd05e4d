package httplog

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// slogLine is what slog's JSON handler (level option only, no attributes
// or groups) writes for rec, built as Access builds its record.
func slogLine(t testing.TB, rec AccessRecord) string {
	t.Helper()
	var buf bytes.Buffer
	h := slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})
	r := slog.NewRecord(rec.Time, rec.Level, rec.Msg, 0)
	r.AddAttrs(
		slog.String("method", rec.Method),
		slog.String("route", rec.Route),
		slog.Int("status", rec.Status),
		slog.Int("bytes", rec.Bytes),
		slog.Duration("duration", rec.Duration),
		slog.String("request_id", rec.ID),
		slog.String("client_ip", rec.ClientIP),
	)
	if rec.Aborted {
		r.AddAttrs(slog.Bool("aborted", true))
	}
	if err := h.Handle(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestAppendJSONIsSlogs: AppendJSON writes the bytes of slog's JSON
// handler for the same record, with strings that it escapes (quotes,
// backslashes, control characters, invalid UTF-8, U+2028 and U+2029) or
// keeps (<, >, &, other non-ASCII), times with and without a monotonic
// reading, zone or fraction, and levels with and without a name.
func TestAppendJSONIsSlogs(t *testing.T) {
	base := AccessRecord{
		Time: time.Date(2026, 11, 26, 19, 0, 1, 123456789, time.UTC), Level: slog.LevelInfo, Msg: "request",
		Method: "GET", Route: "/v1/{country}/company/{id}", Status: 200, Bytes: 3071, Duration: 12345 * time.Nanosecond,
		ID: "0123456789abcdef0123456789abcdef", ClientIP: "127.0.0.1",
	}
	odd := []string{"", `"`, `\`, "a\nb\rc\td", "\x00\x01\x1f\x7f", "\xff", "a\xc3", "<script>&amp;</script>",
		"\u2028\u2029", "søk é 日本", "\U0001F600", "\xed\xa0\x80", `{"k":"v"}`, "%2F/..", "\u00a0\u200b"}
	cases := map[string]AccessRecord{"cached lookup": base}
	for i, s := range odd {
		r := base
		r.Msg, r.Method, r.Route, r.ID, r.ClientIP = s, s+"x", "x"+s, s+s, s
		cases["odd "+string(rune('a'+i))] = r
	}
	more := []func(*AccessRecord){
		func(r *AccessRecord) { r.Level, r.Status, r.Aborted = slog.LevelError, 500, true },
		func(r *AccessRecord) { r.Level, r.Status, r.Aborted = slog.LevelError, 200, true },
		func(r *AccessRecord) { r.Level = slog.LevelInfo + 2 },
		func(r *AccessRecord) { r.Level = slog.LevelDebug - 3 },
		func(r *AccessRecord) { r.Time = time.Now() }, // a monotonic reading
		func(r *AccessRecord) { r.Time = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		func(r *AccessRecord) { r.Time = time.Date(2026, 1, 2, 3, 4, 5, 100, time.FixedZone("x", -3*3600-1800)) },
		func(r *AccessRecord) { r.Time = time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC) },
		func(r *AccessRecord) { r.Time = time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC) },
		func(r *AccessRecord) { r.Status, r.Bytes, r.Duration = 0, 0, 0 },
		func(r *AccessRecord) { r.Status, r.Bytes, r.Duration = -1, -7, -time.Second },
		func(r *AccessRecord) { r.Bytes, r.Duration = 1<<40, 1<<62 },
	}
	for i, f := range more {
		r := base
		f(&r)
		cases["field "+string(rune('a'+i))] = r
	}
	for name, rec := range cases {
		got, ok := rec.AppendJSON([]byte("kept"))
		if !ok {
			t.Errorf("%s: AppendJSON refused a time in range", name)
			continue
		}
		if diff := cmp.Diff("kept"+slogLine(t, rec), string(got)); diff != "" {
			t.Errorf("%s: AppendJSON differs from slog's JSON handler (-slog +AppendJSON):\n%s", name, diff)
		}
	}
}

// TestAppendJSONRefusesYearsOutOfRange: slog's JSON handler writes an
// error of its own for a year outside 0 to 9999; AppendJSON leaves such a
// record to it.
func TestAppendJSONRefusesYearsOutOfRange(t *testing.T) {
	for _, y := range []int{-1, 10000} {
		rec := AccessRecord{Time: time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)}
		if got, ok := rec.AppendJSON([]byte("kept")); ok || string(got) != "kept" {
			t.Errorf("year %d: AppendJSON = %q, %v; want kept, false", y, got, ok)
		}
	}
}

// FuzzAppendJSON: for any strings and numbers, AppendJSON writes what
// slog's JSON handler writes.
func FuzzAppendJSON(f *testing.F) {
	f.Add("request", "GET", "/v1/{country}/company/{id}", "abc", "127.0.0.1", 200, 3071, int64(12345), int64(1790000000123456789), 0, false)
	f.Add("\u2028<&>", "\xff\x00", "\"\\", "\t\n\r", "\xed\xa0\x80", 500, -1, int64(-5), int64(0), 8, true)
	f.Fuzz(func(t *testing.T, msg, method, route, id, ip string, status, n int, dur, unixNano int64, level int, aborted bool) {
		rec := AccessRecord{Time: time.Unix(0, unixNano).In(time.FixedZone("z", (level%1440)*60)), Level: slog.Level(level), Msg: msg,
			Method: method, Route: route, Status: status, Bytes: n, Duration: time.Duration(dur), ID: id, ClientIP: ip,
			Aborted: aborted}
		got, ok := rec.AppendJSON(nil)
		if !ok {
			t.Fatalf("a time of years 1677 to 2262 refused: %v", rec.Time)
		}
		if want := slogLine(t, rec); string(got) != want {
			t.Fatalf("AppendJSON = %q\nslog       %q", got, want)
		}
	})
}

// recordingWriter is a handler that is an AccessWriter: it keeps what it
// is given, and writes it when ok.
type recordingWriter struct {
	slog.Handler
	ok   bool
	recs []AccessRecord
}

func (h *recordingWriter) WriteAccess(_ context.Context, rec AccessRecord) bool {
	h.recs = append(h.recs, rec)
	return h.ok
}

// TestAccessWritesThroughAnAccessWriter: Access hands a record without
// extra fields to a handler that is an AccessWriter, with the fields it
// would give slog, and gives the record to Handle when the writer
// declines or when there are extra fields.
func TestAccessWritesThroughAnAccessWriter(t *testing.T) {
	r, _ := http.NewRequest(http.MethodGet, "/v1/NO/company/923609016", nil)
	r.Pattern = "/v1/{country}/company/{id}"
	w := &Writer{Status: 503, Bytes: 42, Aborted: true}
	w.SetIP(netip.MustParseAddr("192.0.2.7"))
	for _, tc := range []struct {
		name      string
		ok        bool
		extra     []slog.Attr
		wantSlog  bool
		wantCalls int
	}{
		{"written by the writer", true, nil, false, 1},
		{"declined", false, nil, true, 1},
		{"extra fields", true, []slog.Attr{slog.String("tool", "lookup_company")}, true, 0},
	} {
		var buf bytes.Buffer
		h := &recordingWriter{Handler: slog.NewJSONHandler(&buf, nil), ok: tc.ok}
		Access(context.Background(), slog.New(h), "request", r, w, "rid", time.Time{}, 7*time.Millisecond, tc.extra...)
		if len(h.recs) != tc.wantCalls {
			t.Fatalf("%s: WriteAccess called %d times, want %d", tc.name, len(h.recs), tc.wantCalls)
		}
		if tc.wantCalls == 1 {
			got := h.recs[0]
			if got.Time.IsZero() {
				t.Errorf("%s: no time", tc.name)
			}
			got.Time = time.Time{}
			want := AccessRecord{Level: slog.LevelError, Msg: "request", Method: "GET", Route: "/v1/{country}/company/{id}",
				Status: 503, Bytes: 42, Duration: 7 * time.Millisecond, ID: "rid", ClientIP: "192.0.2.7", Aborted: true}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: the record (-want +got):\n%s", tc.name, diff)
			}
		}
		if got := buf.Len() > 0; got != tc.wantSlog {
			t.Errorf("%s: slog wrote %q, want a record: %v", tc.name, buf.String(), tc.wantSlog)
		}
	}
}

// TestAccessAtTime: Access's record carries the time it is given, through
// slog and through an AccessWriter alike.
func TestAccessAtTime(t *testing.T) {
	r, _ := http.NewRequest(http.MethodGet, "/", nil)
	at := time.Date(2026, 11, 26, 19, 5, 0, 42, time.UTC)
	var buf bytes.Buffer
	Access(context.Background(), slog.New(slog.NewJSONHandler(&buf, nil)), "request", r, &Writer{}, "rid", at, time.Second)
	if want := `{"time":"2026-11-26T19:05:00.000000042Z",`; !bytes.HasPrefix(buf.Bytes(), []byte(want)) {
		t.Errorf("through slog: %q, want it to start %q", buf.String(), want)
	}
	h := &recordingWriter{Handler: slog.NewJSONHandler(&buf, nil), ok: true}
	Access(context.Background(), slog.New(h), "request", r, &Writer{}, "rid", at, time.Second)
	if len(h.recs) != 1 || !h.recs[0].Time.Equal(at) {
		t.Errorf("through an AccessWriter: %+v, want the time %v", h.recs, at)
	}
}
