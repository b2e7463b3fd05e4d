package nameindex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/companyregistry/registry/countries/se/internal/bulkfile"
)

// StoreConfig configures a [Store].
type StoreConfig struct {
	// File is the path of the bulk file (the zip or its text); URL is
	// where to download it from. Exactly one is set.
	File, URL string
	// Dir holds the index files, the manifest and the downloaded file.
	Dir string
	// HTTPClient downloads URL; nil means a zero client.
	HTTPClient *http.Client
	// UserAgent is sent with the download.
	UserAgent string
	// Refresh is how old a download may grow before it is fetched again
	// (the file is published weekly): 0 means 7 days. A File is checked
	// for a change (size or modification time) on every [Store.Refresh].
	Refresh time.Duration
	// MaxDownloadBytes bounds the download; 0 means 2 GiB. A larger
	// Content-Length is refused before the body is read.
	MaxDownloadBytes int64
	// DownloadTimeout bounds the whole download, a deadline on its
	// request; 0 means 2 hours (the file is a few hundred megabytes, so a
	// slow link needs far longer than any API call).
	DownloadTimeout time.Duration
	// DownloadIdle ends a download that receives nothing, neither the
	// answer's headers nor a byte of its body, for this long by Now; 0
	// means 2 minutes. It is checked four times in that period, so a
	// stalled download ends soon after and Refresh's lock is released.
	DownloadIdle time.Duration
	// Ticker starts the ticker of the idle check (the period is a quarter
	// of DownloadIdle), whose ticks carry the time of the check by Now's
	// clock; nil means time.NewTicker, the time being what Now gives at
	// each tick. Tests give one they drive, with Now.
	Ticker func(d time.Duration) (ticks <-chan time.Time, stop func())
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger receives one record per build or failure; nil discards.
	Logger *slog.Logger
}

// manifest is the Store's record of the index in use, kept in Dir.
type manifest struct {
	DB           string    `json:"db"`
	Source       string    `json:"source"`
	Size         int64     `json:"size"`
	ModTime      time.Time `json:"mod_time"`
	ETag         string    `json:"etag,omitempty"`
	LastModified string    `json:"last_modified,omitempty"`
	CheckedAt    time.Time `json:"checked_at"`
	BuiltAt      time.Time `json:"built_at"`
}

const manifestName = "se-bulk-manifest.json"

// Store keeps the current index of the bulk file in Dir: it opens the one
// a previous run built, and [Store.Refresh] builds a new one when the file
// has changed (or, for a URL, when the download is older than Refresh),
// swapping it in only once it is complete. A build that fails leaves the
// index in use as it is. Safe for concurrent use.
type Store struct {
	cfg StoreConfig

	refreshMu sync.Mutex // one Refresh at a time

	mu       sync.RWMutex // guards idx, man, lastErr, building, ended
	idx      *Index
	man      manifest
	lastErr  error
	building bool
	// ended is closed, and replaced by a new channel, when a Refresh
	// ends: [Store.Wait] waits on it.
	ended chan struct{}
}

// ErrNotReady is returned by [Store.With] before the first index exists.
var ErrNotReady = errors.New("nameindex: no index yet")

// ErrOpen and ErrDownload mark the failure of a [Store.Refresh] that could
// not open (or stat) the bulk file or download it from the URL; any other
// failure happened while reading the file or building the index. They let
// a caller say what the operator should check without repeating the
// error's text, which names the file's path or the URL.
var (
	ErrOpen     = errors.New("the bulk file cannot be opened")
	ErrDownload = errors.New("the bulk file cannot be downloaded")
)

// NewStore returns a Store for cfg and opens the index a previous run left
// in Dir, if any; it builds nothing (see [Store.Refresh]).
func NewStore(ctx context.Context, cfg StoreConfig) (*Store, error) {
	if (cfg.File == "") == (cfg.URL == "") {
		return nil, errors.New("nameindex: give a bulk file or a URL")
	}
	if cfg.Dir == "" {
		return nil, errors.New("nameindex: no data directory")
	}
	if err := os.MkdirAll(cfg.Dir, 0o750); err != nil {
		return nil, fmt.Errorf("nameindex: data directory: %w", err)
	}
	if cfg.Refresh <= 0 {
		cfg.Refresh = 7 * 24 * time.Hour
	}
	if cfg.MaxDownloadBytes <= 0 {
		cfg.MaxDownloadBytes = 2 << 30
	}
	if cfg.DownloadTimeout <= 0 {
		cfg.DownloadTimeout = 2 * time.Hour
	}
	if cfg.DownloadIdle <= 0 {
		cfg.DownloadIdle = 2 * time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Store{cfg: cfg, ended: make(chan struct{})}
	if b, err := os.ReadFile(filepath.Join(cfg.Dir, manifestName)); err == nil {
		var m manifest
		if json.Unmarshal(b, &m) == nil && m.DB != "" && m.Source == s.source() && filepath.Base(m.DB) == m.DB {
			// An index that does not open (another release's schema) is
			// remembered all the same, so that the next build removes it.
			s.man = m
			if x, err := Open(ctx, filepath.Join(cfg.Dir, m.DB)); err == nil {
				s.idx = x
			}
		}
	}
	return s, nil
}

func (s *Store) source() string {
	if s.cfg.File != "" {
		return "file:" + s.cfg.File
	}
	return s.cfg.URL
}

// With runs fn with the current index; the index is not closed while fn
// runs. Before the first index exists it returns [ErrNotReady] (see
// [Store.Status]).
func (s *Store) With(fn func(*Index) error) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.idx == nil {
		return ErrNotReady
	}
	return fn(s.idx)
}

// Status says whether an index is in use, whether one is being built, and
// the error of the last build or download that failed (nil after a
// success).
func (s *Store) Status() (ready, building bool, lastErr error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.idx != nil, s.building, s.lastErr
}

// Wait blocks until an index is in use (it returns nil), a Refresh has
// ended with an error and none is building (it returns that error), or ctx
// ends. It wakes when a Refresh ends, never by polling.
func (s *Store) Wait(ctx context.Context) error {
	for {
		s.mu.RLock()
		ready, building, lastErr, ended := s.idx != nil, s.building, s.lastErr, s.ended
		s.mu.RUnlock()
		switch {
		case ready:
			return nil
		case lastErr != nil && !building:
			return lastErr
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ended:
		}
	}
}

// Close closes the index in use.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.idx == nil {
		return nil
	}
	err := s.idx.Close()
	s.idx = nil
	return err
}

// Refresh builds a new index when the bulk file has changed, or for a URL
// when the last check is older than Refresh (a 304 Not Modified counts as
// a check), and swaps it in. It returns the build's error, which is also
// kept for [Store.Status]; the index in use stays.
func (s *Store) Refresh(ctx context.Context) error {
	s.refreshMu.Lock()
	defer s.refreshMu.Unlock()
	err := s.refresh(ctx)
	s.mu.Lock()
	s.building = false
	s.lastErr = err
	close(s.ended)
	s.ended = make(chan struct{})
	s.mu.Unlock()
	if err != nil {
		s.cfg.Logger.LogAttrs(ctx, slog.LevelError, "Swedish bulk file index not rebuilt", slog.String("error", err.Error()))
	}
	return err
}

func (s *Store) refresh(ctx context.Context) error {
	s.mu.RLock()
	m, have := s.man, s.idx != nil
	s.mu.RUnlock()
	now := s.cfg.Now()
	next := manifest{Source: s.source(), CheckedAt: now}
	var path string
	if s.cfg.File != "" {
		st, err := os.Stat(s.cfg.File)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrOpen, err)
		}
		if have && m.Size == st.Size() && m.ModTime.Equal(st.ModTime()) {
			return nil
		}
		next.Size, next.ModTime, path = st.Size(), st.ModTime(), s.cfg.File
	} else {
		if have && now.Sub(m.CheckedAt) < s.cfg.Refresh {
			return nil
		}
		p, changed, err := s.download(ctx, m, have, &next)
		if err != nil {
			return err
		}
		if !changed {
			m.CheckedAt = now
			s.mu.Lock()
			s.man = m
			s.mu.Unlock()
			return s.writeManifest(m)
		}
		defer os.Remove(p)
		path = p
	}
	s.mu.Lock()
	s.building = true
	s.mu.Unlock()
	f, err := bulkfile.Open(path)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrOpen, err)
	}
	defer f.Close()
	rd, err := bulkfile.NewReader(f)
	if err != nil {
		return err
	}
	next.DB = "se-bulk-" + strconv.FormatInt(now.UnixNano(), 10) + ".db"
	dbPath := filepath.Join(s.cfg.Dir, next.DB)
	started := time.Now()
	st, err := Build(ctx, rd, dbPath, map[string]string{"source": next.Source, "built_at": now.UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	x, err := Open(ctx, dbPath)
	if err != nil {
		_ = os.Remove(dbPath)
		return err
	}
	next.BuiltAt = now
	if err := s.writeManifest(next); err != nil {
		_ = x.Close()
		_ = os.Remove(dbPath)
		return err
	}
	s.mu.Lock()
	old, oldMan := s.idx, s.man
	s.idx, s.man = x, next
	s.mu.Unlock()
	if old != nil {
		_ = old.Close()
	}
	if oldMan.DB != "" && oldMan.DB != next.DB {
		_ = os.Remove(filepath.Join(s.cfg.Dir, oldMan.DB))
	}
	s.cfg.Logger.LogAttrs(ctx, slog.LevelInfo, "Swedish bulk file indexed",
		slog.Int("organisations", st.Records), slog.Int("personal_rows_skipped", st.Personal),
		slog.Int("invalid_rows_skipped", st.Invalid), slog.Duration("took", time.Since(started)))
	return nil
}

// errStalled is the cause of a download ended by the idle check.
var errStalled = errors.New("nothing was received for too long")

// watchdog cancels a download that has made no progress for the Store's
// DownloadIdle, by the Store's clock, checked at each tick of its Ticker.
type watchdog struct {
	now   func() time.Time
	last  atomic.Int64 // the clock's UnixNano at the last progress
	done  chan struct{}
	ended chan struct{}
}

// startWatchdog starts the check; the start counts as progress.
func (s *Store) startWatchdog(cancel context.CancelCauseFunc) *watchdog {
	w := &watchdog{now: s.cfg.Now, done: make(chan struct{}), ended: make(chan struct{})}
	w.progressed()
	period := max(s.cfg.DownloadIdle/4, time.Millisecond)
	var ticks <-chan time.Time
	var stopTicks func()
	if s.cfg.Ticker != nil {
		ticks, stopTicks = s.cfg.Ticker(period)
	} else {
		t := time.NewTicker(period)
		ticks, stopTicks = t.C, t.Stop
	}
	go func() {
		defer close(w.ended)
		defer stopTicks()
		for {
			select {
			case <-w.done:
				return
			case at := <-ticks:
				if s.cfg.Ticker == nil {
					at = w.now()
				}
				if at.UnixNano()-w.last.Load() >= int64(s.cfg.DownloadIdle) {
					cancel(errStalled)
					return
				}
			}
		}
	}()
	return w
}

// progressed records progress now.
func (w *watchdog) progressed() { w.last.Store(w.now().UnixNano()) }

// stop ends the check and waits for its goroutine.
func (w *watchdog) stop() {
	close(w.done)
	<-w.ended
}

// progressReader reports each read that returns bytes to its watchdog.
type progressReader struct {
	r io.Reader
	w *watchdog
}

func (p progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.w.progressed()
	}
	return n, err
}

// download fetches the URL into Dir, conditionally on the last ETag or
// Last-Modified when an index exists; changed is false for 304. It is
// bounded in size (MaxDownloadBytes), in time (DownloadTimeout) and in
// time without progress (DownloadIdle).
func (s *Store) download(ctx context.Context, m manifest, have bool, next *manifest) (path string, changed bool, err error) {
	ctx, cancelTimeout := context.WithTimeout(ctx, s.cfg.DownloadTimeout)
	defer cancelTimeout()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	w := s.startWatchdog(cancel)
	defer w.stop()
	defer func() {
		if err != nil && errors.Is(context.Cause(ctx), errStalled) {
			err = fmt.Errorf("%w: %w (%s)", ErrDownload, errStalled, s.cfg.DownloadIdle)
		}
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.cfg.URL, nil)
	if err != nil {
		return "", false, fmt.Errorf("%w: the request cannot be built", ErrDownload)
	}
	req.Header.Set("User-Agent", s.cfg.UserAgent)
	if have && m.ETag != "" {
		req.Header.Set("If-None-Match", m.ETag)
	}
	if have && m.LastModified != "" {
		req.Header.Set("If-Modified-Since", m.LastModified)
	}
	hc := s.cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", false, fmt.Errorf("%w: %w", ErrDownload, err)
	}
	defer resp.Body.Close()
	w.progressed()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotModified:
		if have {
			return "", false, nil
		}
		fallthrough
	default:
		return "", false, fmt.Errorf("%w: HTTP %d", ErrDownload, resp.StatusCode)
	}
	if resp.ContentLength > s.cfg.MaxDownloadBytes {
		return "", false, fmt.Errorf("%w: it is larger than %d bytes", ErrDownload, s.cfg.MaxDownloadBytes)
	}
	f, err := os.CreateTemp(s.cfg.Dir, "se-bulk-download-*.zip")
	if err != nil {
		return "", false, err
	}
	n, err := io.Copy(f, io.LimitReader(progressReader{r: resp.Body, w: w}, s.cfg.MaxDownloadBytes+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > s.cfg.MaxDownloadBytes {
		err = fmt.Errorf("it is larger than %d bytes", s.cfg.MaxDownloadBytes)
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return "", false, fmt.Errorf("%w: %w", ErrDownload, err)
	}
	next.Size, next.ETag, next.LastModified = n, resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	return f.Name(), true, nil
}

// writeManifest writes m to Dir atomically.
func (s *Store) writeManifest(m manifest) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.cfg.Dir, manifestName+".*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		_ = tmp.Close()
		_ = os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(s.cfg.Dir, manifestName))
}
