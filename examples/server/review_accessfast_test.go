package main

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/httplog"
)

// TestReview_AccessFastPathIsAccessSlogPath guards the one list of the
// access-log record's fields that is written twice (httplog.Access for
// slog, AccessRecord.AppendJSON by hand): the program's logger over its log
// writer (the hand-written line) and the same logger over a plain writer
// (Access's slog.Record through slog's JSON handler) write the same
// bytes for the same request, for every status and level, aborted or not,
// with odd strings. The package's own differential tests compare
// AppendJSON with a copy of the slog record made in the test, so a field
// added to Access and not to AppendJSON would pass them.
func TestReview_AccessFastPathIsAccessSlogPath(t *testing.T) {
	at := time.Date(2026, 11, 26, 19, 30, 0, 123, time.FixedZone("x", 3600))
	odd := []string{"", "GET", "\u2028<&>\"\\\x00\xff", "/v1/{country}/company/{id}"}
	for _, level := range []slog.Level{slog.LevelDebug, slog.LevelInfo, slog.LevelWarn, slog.LevelError} {
		for _, status := range []int{0, 200, 404, 500, 503} {
			for _, aborted := range []bool{false, true} {
				for _, s := range odd {
					var out lockedBuffer
					lw := newLogWriter(&out)
					var plain bytes.Buffer
					r := &http.Request{Method: s, Pattern: s}
					w := &httplog.Writer{Status: status, Bytes: 17, Aborted: aborted}
					w.SetIP(netip.MustParseAddr("2001:db8::7"))
					ctx := context.Background()
					httplog.Access(ctx, newLogger(lw, level), "request", r, w, s, at, 5*time.Millisecond)
					httplog.Access(ctx, newLogger(&plain, level), "request", r, w, s, at, 5*time.Millisecond)
					if err := lw.Close(); err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(plain.String(), out.String()); diff != "" {
						t.Errorf("level %v, status %d, aborted %v, %q (-slog +fast):\n%s", level, status, aborted, s, diff)
					}
				}
			}
		}
	}
}
