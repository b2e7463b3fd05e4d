package nameindex

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/companyregistry/registry/countries/se/internal/bulkfile"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/internal/sqlitedb"
)

func count(t *testing.T, s *Store, q string) int {
	t.Helper()
	n := -1
	if err := s.With(func(x *Index) error {
		res, err := x.Search(t.Context(), q, 10)
		if err == nil {
			n = res.Total
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestStoreFile: a bulk file is indexed once, reused by the next run,
// rebuilt when it changes; a malformed new file keeps the index in use
// and says why.
func TestStoreFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "bulk.txt")
	write := func(text string, mod time.Time) {
		if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(file, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	write(header+"\n5560160680;Acme AB;AB;\n", t0)
	cfg := StoreConfig{File: file, Dir: filepath.Join(dir, "data")}
	s, err := NewStore(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.With(func(*Index) error { return nil }); !errors.Is(err, ErrNotReady) {
		t.Fatalf("before a build: %v", err)
	}
	if err := s.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, "acme"); n != 1 {
		t.Fatalf("acme: %d", n)
	}
	_ = s.Close()

	// The next run opens the index without building.
	s, err = NewStore(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if ready, _, _ := s.Status(); !ready {
		t.Fatal("the index of the previous run was not opened")
	}
	if err := s.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}

	write(header+"\n5560160680;Acme AB;AB;\n5560360793;Acme Two AB;AB;\n", t0.Add(time.Hour))
	if err := s.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, "acme"); n != 2 {
		t.Fatalf("after the change: %d", n)
	}
	write(header+"\n5560160680;Acme AB\n", t0.Add(2*time.Hour))
	if err := s.Refresh(t.Context()); err == nil {
		t.Fatal("a malformed file was indexed")
	}
	if n := count(t, s, "acme"); n != 2 {
		t.Errorf("the index in use was dropped: %d", n)
	}
	if _, _, lastErr := s.Status(); lastErr == nil {
		t.Error("Status has no error")
	}
	dbs, _ := filepath.Glob(filepath.Join(dir, "data", "*.db"))
	if len(dbs) != 1 {
		t.Errorf("index files %v, want one", dbs)
	}
}

// TestStoreURL: the file is downloaded, checked again after a week with
// its ETag (a 304 keeps the index), and rebuilt when it changed.
func TestStoreURL(t *testing.T) {
	t.Parallel()
	var gets, notModified atomic.Int32
	body := atomic.Value{}
	body.Store(header + "\n5560160680;Acme AB;AB;\n")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gets.Add(1)
		etag := `"` + time.Now().Format("x") + string(rune('a'+len(body.Load().(string))%26)) + `"`
		if r.Header.Get("If-None-Match") == etag {
			notModified.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		_, _ = w.Write([]byte(body.Load().(string)))
	}))
	defer srv.Close()
	clock := fakeclock.New(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	s, err := NewStore(t.Context(), StoreConfig{URL: srv.URL + "/bulk.zip", Dir: t.TempDir(), HTTPClient: srv.Client(), Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := s.Refresh(t.Context()); err != nil || gets.Load() != 1 {
		t.Fatalf("a second refresh within the week: %v, %d downloads", err, gets.Load())
	}
	clock.Advance(8 * 24 * time.Hour)
	if err := s.Refresh(t.Context()); err != nil || notModified.Load() != 1 {
		t.Fatalf("after a week: %v, %d not modified", err, notModified.Load())
	}
	body.Store(header + "\n5560160680;Acme AB;AB;\n5560360793;Acme Two AB;AB;\n")
	clock.Advance(8 * 24 * time.Hour)
	if err := s.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, "acme"); n != 2 {
		t.Errorf("after the new file: %d", n)
	}
	tmp, _ := filepath.Glob(filepath.Join(s.cfg.Dir, "se-bulk-download-*"))
	if len(tmp) != 0 {
		t.Errorf("downloads left behind: %v", tmp)
	}
}

// TestStoreWait: Wait returns when a Refresh ends (nil once an index is in
// use, the build's error when it failed and none is in use) and when its
// context ends; a waiter started before the Refresh is woken by it.
func TestStoreWait(t *testing.T) {
	t.Parallel()
	store := func(text string) *Store {
		dir := t.TempDir()
		file := filepath.Join(dir, "bulk.txt")
		if err := os.WriteFile(file, []byte(header+"\n"+text), 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := NewStore(t.Context(), StoreConfig{File: file, Dir: filepath.Join(dir, "data")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}

	bad := store("5560160680;Acme AB\n") // too few fields
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := bad.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait with an ended context before any Refresh: %v", err)
	}
	waited := make(chan error, 1)
	go func() { waited <- bad.Wait(t.Context()) }()
	refreshErr := bad.Refresh(t.Context())
	var fe *bulkfile.FormatError
	if !errors.As(refreshErr, &fe) {
		t.Fatalf("Refresh: %v, want a format error", refreshErr)
	}
	if err := <-waited; !errors.Is(err, refreshErr) {
		t.Fatalf("Wait after a failed build: %v, want %v", err, refreshErr)
	}

	good := store("5560160680;Acme AB;AB;\n")
	go func() { waited <- good.Wait(t.Context()) }()
	if err := good.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := <-waited; err != nil {
		t.Fatalf("Wait after a build: %v", err)
	}
	if err := good.Wait(t.Context()); err != nil {
		t.Fatalf("Wait with an index in use: %v", err)
	}
}

// TestStoreRebuildsOldSchema: an index another release built (another
// schema version) is not opened; the next Refresh builds a new one although
// the bulk file has not changed.
func TestStoreRebuildsOldSchema(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "bulk.txt")
	if err := os.WriteFile(file, []byte(header+"\n5560160680;Acme AB;AB;\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := StoreConfig{File: file, Dir: filepath.Join(dir, "data")}
	s, err := NewStore(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(cfg.Dir, s.man.DB)
	_ = s.Close()
	db, err := sqlitedb.Open(t.Context(), dbPath, sqlitedb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(t.Context(), `UPDATE meta SET value = '1' WHERE key = 'schema'`); err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	if _, err := Open(t.Context(), dbPath); err == nil || !strings.Contains(err.Error(), "schema version") {
		t.Fatalf("Open of an old index: %v", err)
	}

	s, err = NewStore(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if ready, _, _ := s.Status(); ready {
		t.Fatal("the old index was opened")
	}
	if err := s.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, "acme"); n != 1 {
		t.Errorf("acme: %d", n)
	}
	if dbs, _ := filepath.Glob(filepath.Join(cfg.Dir, "*.db")); len(dbs) != 1 {
		t.Errorf("index files %v, want the new one only", dbs)
	}
}
