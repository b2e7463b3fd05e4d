package httplog

import (
	"log/slog"
	"testing"
	"time"
)

// BenchmarkAppendJSON measures the access-log record of a cached lookup:
// "full" formats its time in full (AppendJSON), "cached" through a
// TimeCache that holds the record's second (AppendJSONCached), as the
// example server's log writes it.
func BenchmarkAppendJSON(b *testing.B) {
	rec := AccessRecord{Time: time.Now(), Level: slog.LevelInfo, Msg: "request", Method: "GET",
		Route: "GET /v1/{country}/company/{id}", Status: 200, Bytes: 3047, Duration: 23456,
		ID: "0123456789abcdef0123456789abcdef", ClientIP: "127.0.0.1"}
	buf := make([]byte, 0, 512)
	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			buf, _ = rec.AppendJSON(buf[:0])
		}
	})
	b.Run("cached", func(b *testing.B) {
		var c TimeCache
		for b.Loop() {
			buf, _ = rec.AppendJSONCached(buf[:0], &c)
		}
	})
}

// BenchmarkRequestID measures a fresh request ID.
func BenchmarkRequestID(b *testing.B) {
	for b.Loop() {
		_ = RequestID("")
	}
}
