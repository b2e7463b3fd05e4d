package main

import (
	"context"
	"io"
	"log/slog"
	"runtime"
	"sync"

	"github.com/companyregistry/registry/internal/httplog"
)

// logWriter hands what is written to it to a goroutine that writes it on,
// so that a request does not wait for the write system call of its
// access-log record: records written while the goroutine is writing are
// gathered and written together, in order. An idle server writes each
// record at once; a busy one makes one write for many records. Close
// writes what is left and stops the goroutine; writes after Close go
// straight through.
//
// Flush writes what is gathered before it returns. The program's logger
// (newLogger) calls it after every record at warn level or above, so that
// such a record, often the one that says why the process is about to die
// (an unrecovered panic in a goroutine ends it without Close), is written
// before Log returns. A crash that ends the process without Close (SIGKILL,
// a fatal runtime error, a panic) can lose only the info and debug records
// gathered since the last write, which under load is some milliseconds of
// them.
type logWriter struct {
	out  io.Writer
	wake chan struct{} // capacity 1: something is pending; closed by Close
	done chan struct{} // closed when the goroutine has stopped

	// mu guards pending and closed; outMu is held while out is written,
	// and guards err. Whoever takes both takes mu first.
	mu      sync.Mutex
	outMu   sync.Mutex
	pending []byte
	closed  bool
	err     error // the first error of out
}

// maxPendingLog is the most a logWriter gathers before a writer waits:
// past it, Write writes everything itself, in order.
const maxPendingLog = 1 << 20

// maxKeptLog is the largest buffer kept between writes.
const maxKeptLog = 256 << 10

func newLogWriter(out io.Writer) *logWriter {
	w := &logWriter{out: out, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go w.loop()
	return w
}

// Write gathers p. It never fails; an error of the underlying writer is
// reported by Close.
func (w *logWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || len(w.pending)+len(p) > maxPendingLog {
		// After Close, or when the goroutine cannot keep up: write here,
		// after a batch being written and what is pending.
		w.outMu.Lock()
		defer w.outMu.Unlock()
		w.writeOut(w.pending)
		w.pending = w.pending[:0]
		w.writeOut(p)
		return len(p), nil
	}
	w.pending = append(w.pending, p...)
	select {
	case w.wake <- struct{}{}:
	default:
	}
	return len(p), nil
}

// loop writes what is gathered, a batch at a time. It takes outMu before
// it lets go of mu, so that a batch it took is written before anything
// that Write writes itself.
func (w *logWriter) loop() {
	defer close(w.done)
	var spare []byte
	for range w.wake {
		// Let the goroutines that are ready run first: under load they
		// add their records to this batch (one write for many); on an
		// idle server nothing else is ready and this returns at once.
		runtime.Gosched()
		w.mu.Lock()
		b := w.pending
		w.pending = spare[:0]
		w.outMu.Lock()
		w.mu.Unlock()
		w.writeOut(b)
		w.outMu.Unlock()
		spare = nil
		if cap(b) <= maxKeptLog {
			spare = b
		}
	}
}

// writeOut writes b to out and keeps the first error. The caller holds
// outMu.
func (w *logWriter) writeOut(b []byte) {
	if len(b) == 0 {
		return
	}
	if _, err := w.out.Write(b); err != nil && w.err == nil {
		w.err = err
	}
}

// Flush writes what is gathered, after any batch being written, and
// returns once it is written.
func (w *logWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.outMu.Lock()
	defer w.outMu.Unlock()
	w.writeOut(w.pending)
	w.pending = w.pending[:0]
}

// Close writes what is pending, stops the goroutine and returns the first
// error of the underlying writer. It may be called more than once.
func (w *logWriter) Close() error {
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		close(w.wake)
	}
	w.mu.Unlock()
	<-w.done
	w.Flush()
	w.outMu.Lock()
	defer w.outMu.Unlock()
	return w.err
}

// flusher is a writer that gathers what is written to it, such as
// logWriter, and writes it on when Flush is called. Its Write is safe for
// concurrent use and writes each call's bytes whole (flushingHandler's
// WriteAccess writes without slog's lock).
type flusher interface {
	io.Writer
	Flush()
}

// newLogger returns the program's logger: JSON records at level and above,
// written to out. When out is a flusher, a record at warn level or above is
// flushed before Log returns (see logWriter), and an access-log record
// without extra fields is written without slog (see
// flushingHandler.WriteAccess).
func newLogger(out io.Writer, level slog.Leveler) *slog.Logger {
	h := slog.Handler(slog.NewJSONHandler(out, &slog.HandlerOptions{Level: level}))
	if f, ok := out.(flusher); ok {
		h = flushingHandler{Handler: h, flush: f.Flush, plain: f,
			bufs: &sync.Pool{New: func() any { return new([]byte) }}, times: new(httplog.TimeCache)}
	}
	return slog.New(h)
}

// flushingHandler calls flush after it has handled a record at warn level
// or above.
type flushingHandler struct {
	slog.Handler
	flush func()
	// plain, when set, is the writer of Handler, a JSON handler with no
	// options but the level and no attributes or groups: the handler
	// whose bytes httplog.AccessRecord.AppendJSON writes. WithAttrs and
	// WithGroup make handlers without it.
	plain io.Writer
	bufs  *sync.Pool         // of *[]byte, for WriteAccess
	times *httplog.TimeCache // the records' times, for WriteAccess
}

func (h flushingHandler) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		h.flush()
	}
	return err
}

// maxKeptRecord is the largest buffer WriteAccess keeps for the next record.
const maxKeptRecord = 4 << 10

// WriteAccess writes an access-log record as Handle would, the same bytes
// (httplog.AccessRecord.AppendJSON), without building a slog.Record and
// through slog's formatting of each field, and with the text of the
// current second kept (httplog.TimeCache): a quarter of the cost of the
// cached REST lookup's own work (BENCHMARKS.md, Performance II, third
// pass). The buffer goes back to the pool after Write, which copies it
// (logWriter.Write).
func (h flushingHandler) WriteAccess(_ context.Context, rec httplog.AccessRecord) bool {
	if h.plain == nil {
		return false
	}
	bp := h.bufs.Get().(*[]byte)
	b, ok := rec.AppendJSONCached((*bp)[:0], h.times)
	if ok {
		_, _ = h.plain.Write(b) // logWriter.Write never fails; Close reports out's errors
	}
	if cap(b) <= maxKeptRecord {
		*bp = b[:0]
		h.bufs.Put(bp)
	}
	if ok && rec.Level >= slog.LevelWarn {
		h.flush()
	}
	return ok
}

func (h flushingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return flushingHandler{Handler: h.Handler.WithAttrs(attrs), flush: h.flush}
}

func (h flushingHandler) WithGroup(name string) slog.Handler {
	return flushingHandler{Handler: h.Handler.WithGroup(name), flush: h.flush}
}
