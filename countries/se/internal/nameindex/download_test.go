package nameindex

import (
	"context"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/companyregistry/registry/internal/fakeclock"
)

// feedTransport answers every request 200 with a body the test feeds chunk
// by chunk (a closed chunks channel is the end of the body); with
// stallHeaders it never answers at all. Both give up when the request's
// context ends, as a real transport does.
type feedTransport struct {
	stallHeaders  bool
	contentLength int64
	chunks        chan string
}

func (f *feedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if f.stallHeaders {
		<-r.Context().Done()
		return nil, r.Context().Err()
	}
	cl := f.contentLength
	if cl == 0 {
		cl = -1
	}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, ContentLength: cl, Request: r,
		Body: &feedBody{ctx: r.Context(), chunks: f.chunks}}, nil
}

type feedBody struct {
	ctx    context.Context
	chunks chan string
	rest   string
}

func (b *feedBody) Read(p []byte) (int, error) {
	if b.rest == "" {
		select {
		case c, ok := <-b.chunks:
			if !ok {
				return 0, io.EOF
			}
			b.rest = c
		case <-b.ctx.Done():
			return 0, b.ctx.Err()
		}
	}
	n := copy(p, b.rest)
	b.rest = b.rest[n:]
	return n, nil
}

func (b *feedBody) Close() error { return nil }

// driven is a download setup whose clock and idle ticker the test drives.
type driven struct {
	clock *fakeclock.Clock
	ticks chan time.Time
	store *Store
}

func newDriven(t *testing.T, rt http.RoundTripper, maxBytes int64) *driven {
	t.Helper()
	d := &driven{clock: fakeclock.New(time.Date(2026, 11, 2, 3, 0, 0, 0, time.UTC)), ticks: make(chan time.Time)}
	s, err := NewStore(t.Context(), StoreConfig{URL: "https://bulk.test/bolagsverket_bulkfil.zip", Dir: t.TempDir(),
		HTTPClient: &http.Client{Transport: rt}, Now: d.clock.Now, DownloadIdle: time.Minute, MaxDownloadBytes: maxBytes,
		Ticker: func(time.Duration) (<-chan time.Time, func()) { return d.ticks, func() {} }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	d.store = s
	return d
}

// refresh starts a Refresh and returns the channel of its error.
func (d *driven) refresh(ctx context.Context) <-chan error {
	done := make(chan error, 1)
	go func() { done <- d.store.Refresh(ctx) }()
	return done
}

// TestDownloadStalls: a server that stops sending, before its headers or
// in the middle of the body, is given up once the clock shows a full idle
// period without a byte (one tick of the idle check after the clock moved
// on), with an error that says so; Refresh ends and releases its lock, so
// the next refresh downloads the file. No wall clock: the test moves the
// clock and sends the ticks; a tick the check no longer takes means it has
// ended the download.
func TestDownloadStalls(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		headers bool
	}{{"before the headers", true}, {"in the body", false}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rt := &feedTransport{stallHeaders: tt.headers, chunks: make(chan string)}
			d := newDriven(t, rt, 0)
			done := d.refresh(t.Context())
			d.ticks <- d.clock.Now() // taken once the check runs: its start counts as progress
			if !tt.headers {
				rt.chunks <- header + "\n" // the body starts, then stops
				rt.chunks <- ""            // taken by the next read, once the first was counted
			}
			d.clock.Advance(30 * time.Second)
			d.ticks <- d.clock.Now() // half the idle period: the download goes on
			d.clock.Advance(30 * time.Second)
			var err error
			for ticks := 0; ; ticks++ {
				select {
				case d.ticks <- d.clock.Now():
					if ticks > 0 {
						t.Fatal("the idle check took two ticks after a full idle period and the download goes on")
					}
					continue
				case err = <-done:
				}
				break
			}
			if !errors.Is(err, ErrDownload) || !errors.Is(err, errStalled) || !strings.Contains(err.Error(), "nothing was received for too long (1m0s)") {
				t.Fatalf("Refresh: %v", err)
			}
			if _, _, last := d.store.Status(); !errors.Is(last, errStalled) {
				t.Errorf("Status: %v", last)
			}
			// The lock is free and the next attempt downloads the file.
			rt.stallHeaders = false
			next := d.refresh(t.Context())
			rt.chunks <- header + "\n5560160680;Acme AB;AB;\n"
			close(rt.chunks)
			if err := <-next; err != nil {
				t.Fatal(err)
			}
			if n := count(t, d.store, "acme"); n != 1 {
				t.Errorf("after the next download: %d hits", n)
			}
		})
	}
}

// TestDownloadSlowButMoving: a download that keeps receiving bytes is not
// given up however long it takes in all, here six idle periods by the
// clock with a tick after every chunk.
func TestDownloadSlowButMoving(t *testing.T) {
	t.Parallel()
	rt := &feedTransport{chunks: make(chan string)}
	d := newDriven(t, rt, 0)
	done := d.refresh(t.Context())
	d.ticks <- d.clock.Now() // taken once the check runs: its start counts as progress
	body := header + "\n5560160680;Acme AB;AB;\n5560360793;Acme Two AB;AB;\n"
	for i := 0; i < len(body); i += len(body)/12 + 1 {
		d.clock.Advance(30 * time.Second)
		rt.chunks <- body[i:min(i+len(body)/12+1, len(body))]
		select {
		case d.ticks <- d.clock.Now():
		case err := <-done:
			t.Fatalf("the download ended at %d of %d bytes: %v", i, len(body), err)
		}
	}
	close(rt.chunks)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := count(t, d.store, "acme"); n != 2 {
		t.Errorf("%d hits", n)
	}
}

// TestDownloadTooLarge: a body announced (Content-Length) or found larger
// than MaxDownloadBytes is refused, and no file is left behind.
func TestDownloadTooLarge(t *testing.T) {
	t.Parallel()
	body := header + "\n5560160680;Acme AB;AB;\n"
	for _, tt := range []struct {
		name          string
		contentLength int64
	}{{"announced", int64(len(body))}, {"found", 0}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			chunks := make(chan string, 1)
			chunks <- body
			close(chunks)
			d := newDriven(t, &feedTransport{contentLength: tt.contentLength, chunks: chunks}, int64(len(body)-1))
			err := <-d.refresh(t.Context())
			if !errors.Is(err, ErrDownload) || !strings.Contains(err.Error(), "larger than") {
				t.Fatalf("Refresh: %v", err)
			}
			if left, _ := filepath.Glob(filepath.Join(d.store.cfg.Dir, "se-bulk-download-*")); len(left) != 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}
