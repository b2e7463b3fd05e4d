package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/httplog"
)

// lockedBuffer is a bytes.Buffer safe for the writer's goroutine and the
// test, which counts the writes it gets.
type lockedBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
	fail   error
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes++
	if l.fail != nil {
		return 0, l.fail
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestLogWriterKeepsEveryLineInOrder: lines written by concurrent writers
// all arrive, each writer's in its own order, whole (never interleaved
// within a line), by Close at the latest; a write after Close goes straight
// through.
func TestLogWriterKeepsEveryLineInOrder(t *testing.T) {
	var out lockedBuffer
	w := newLogWriter(&out)
	const writers, lines = 8, 500
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			for j := range lines {
				if n, err := fmt.Fprintf(w, "w%d line %d %s\n", i, j, strings.Repeat("x", j%50)); err != nil || n == 0 {
					t.Errorf("write: %d, %v", n, err)
				}
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	next := make([]int, writers)
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	for _, line := range got {
		var i, j int
		var rest string
		if _, err := fmt.Sscanf(line, "w%d line %d %s", &i, &j, &rest); err != nil && j%50 != 0 {
			t.Fatalf("line %q: %v", line, err)
		}
		if j != next[i] || len(rest) != j%50 {
			t.Fatalf("writer %d: line %q, want line %d", i, line, next[i])
		}
		next[i]++
	}
	if len(got) != writers*lines {
		t.Errorf("%d lines, want %d", len(got), writers*lines)
	}
	if _, err := w.Write([]byte("after close\n")); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), "after close\n") {
		t.Errorf("a write after Close did not go through")
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestLogWriterOverflowKeepsOrder: past maxPendingLog a writer writes
// everything itself, after what was gathered.
func TestLogWriterOverflowKeepsOrder(t *testing.T) {
	var out lockedBuffer
	w := newLogWriter(&out)
	w.mu.Lock() // hold the goroutine off, so that the lines pile up
	w.pending = append(w.pending, "first\n"...)
	w.mu.Unlock()
	big := strings.Repeat("y", maxPendingLog) + "\n"
	if _, err := w.Write([]byte(big)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("last\n")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("first\n"+big+"last\n", out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%.300s", diff)
	}
}

// TestLogWriterReportsError: a failing writer's first error comes back
// from Close; Write itself never fails.
func TestLogWriterReportsError(t *testing.T) {
	broken := errors.New("disk full")
	out := &lockedBuffer{fail: broken}
	w := newLogWriter(out)
	if _, err := w.Write([]byte("a line\n")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); !errors.Is(err, broken) {
		t.Errorf("Close: %v, want %v", err, broken)
	}
}

// TestNewLoggerFlushesWarnings: over a logWriter, a record at warn level or
// above is written, after every record before it, by the time Log returns,
// also through a logger made With attributes or a group; over another
// writer, newLogger is the plain JSON logger.
func TestNewLoggerFlushesWarnings(t *testing.T) {
	var out lockedBuffer
	w := newLogWriter(&out)
	t.Cleanup(func() { _ = w.Close() })
	log := newLogger(w, slog.LevelInfo)
	log.Info("first")
	log.Warn("second")
	if got := out.String(); !strings.Contains(got, `"msg":"first"`) || !strings.Contains(got, `"msg":"second"`) ||
		strings.Index(got, `"msg":"first"`) > strings.Index(got, `"msg":"second"`) {
		t.Fatalf("after Warn returned, the log is %q, want first then second", got)
	}
	log.With("k", "v").WithGroup("g").Error("third", "a", 1)
	if got := out.String(); !strings.Contains(got, `"msg":"third","k":"v","g":{"a":1}`) {
		t.Fatalf("after Error through With and WithGroup returned, the log is %q", got)
	}
	log.Debug("below the level")
	var plain bytes.Buffer
	newLogger(&plain, slog.LevelInfo).Info("plain")
	if got := plain.String(); !strings.Contains(got, `"level":"INFO","msg":"plain"}`) {
		t.Errorf("over a plain writer: %q", got)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "below the level") {
		t.Errorf("a debug record was written at level info: %q", out.String())
	}
}

// TestAccessRecordWithoutSlog: over a logWriter, the program's logger
// writes an access-log record itself (httplog.AccessWriter), the bytes
// that slog's JSON handler of newLogger over a plain writer writes for it
// (an error-level one flushed before WriteAccess returns); a logger made
// With attributes or a group leaves the record to slog, which adds them.
func TestAccessRecordWithoutSlog(t *testing.T) {
	var out lockedBuffer
	w := newLogWriter(&out)
	t.Cleanup(func() { _ = w.Close() })
	log := newLogger(w, slog.LevelInfo)
	aw, ok := log.Handler().(httplog.AccessWriter)
	if !ok {
		t.Fatalf("the logger over a logWriter is %T, not an httplog.AccessWriter", log.Handler())
	}
	rec := httplog.AccessRecord{Time: time.Date(2026, 11, 26, 19, 0, 1, 5, time.UTC), Level: slog.LevelError,
		Msg: "request", Method: "GET", Route: "/v1/{country}/company/{id}", Status: 503, Bytes: 9,
		Duration: time.Millisecond, ID: "a\u2028<b>", ClientIP: "::1", Aborted: true}
	if !aw.WriteAccess(context.Background(), rec) {
		t.Fatal("WriteAccess declined")
	}
	var plain bytes.Buffer
	r := slog.NewRecord(rec.Time, rec.Level, rec.Msg, 0)
	r.AddAttrs(slog.String("method", rec.Method), slog.String("route", rec.Route), slog.Int("status", rec.Status),
		slog.Int("bytes", rec.Bytes), slog.Duration("duration", rec.Duration), slog.String("request_id", rec.ID),
		slog.String("client_ip", rec.ClientIP), slog.Bool("aborted", true))
	if err := newLogger(&plain, slog.LevelInfo).Handler().Handle(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(plain.String(), out.String()); diff != "" {
		t.Errorf("WriteAccess wrote, before it returned (-slog +WriteAccess):\n%s", diff)
	}
	for name, l := range map[string]*slog.Logger{"With": log.With("k", "v"), "WithGroup": log.WithGroup("g")} {
		if aw, ok := l.Handler().(httplog.AccessWriter); ok && aw.WriteAccess(context.Background(), rec) {
			t.Errorf("through %s, WriteAccess wrote the record without the logger's attributes", name)
		}
	}
}
