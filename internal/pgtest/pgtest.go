// Package pgtest starts a throwaway PostgreSQL server for the tests of a
// package and gives each test its own empty database on it.
//
// One server serves a whole test binary: TestMain makes it with [New] and
// runs the tests with [Server.Main], which stops it after them (or calls
// [Server.Stop] itself); it starts on the first [Server.Database] call, so
// a run that selects no PostgreSQL test starts nothing:
//
//	var pg = pgtest.New() // in a _test.go file
//
//	func TestMain(m *testing.M) { pg.Main(m) }
//
//	func TestSomething(t *testing.T) {
//		db, err := sql.Open("pgx", pg.Database(t)) // or any client of a postgres:// URL
//		…
//	}
//
// The server is PostgreSQL's own initdb and postgres binaries (found on
// PATH, in /usr/local/bin or in /usr/lib/postgresql/*/bin, the newest
// version first) listening on a free loopback port, with its files in a
// temporary folder removed by Stop, no Unix socket, trust authentication
// and durability switched off (fsync, synchronous commit), which tests do
// not need. PostgreSQL refuses to run as root; as root, the server runs as
// the "postgres" user the Debian package creates (or "nobody").
//
// Without the binaries a test that asks for a database is skipped with a
// message saying how to install them, unless the environment variable CI
// is set: CI installs PostgreSQL (.ci/run), so there their absence fails
// the test.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/companyregistry/registry/internal/leakcheck"
)

// The superuser initdb creates; tests connect as it.
const superuser = "postgres"

// StartTimeout bounds how long starting the server may take (initdb and
// the first connection), generous for a loaded machine.
const StartTimeout = 60 * time.Second

// ErrMissing marks a server that could not start because the binaries are
// not installed: tests skip then, outside CI.
var ErrMissing = errors.New("pgtest: PostgreSQL's initdb and postgres binaries were not found (on PATH, in /usr/local/bin or in /usr/lib/postgresql/*/bin): install them (apt-get install -y postgresql) to run this test")

// Server is a PostgreSQL server for one test binary. Its methods are safe
// for concurrent use.
type Server struct {
	mu      sync.Mutex
	started bool
	err     error // why it did not start
	dir     string
	port    int
	proc    *process
}

// New returns a server that starts on its first Database call.
func New() *Server { return &Server{} }

// Database creates an empty database for t on the server (starting the
// server first if needed) and returns its postgres:// URL; the database is
// dropped when t ends. Without the binaries it skips t, or fails it when
// the environment variable CI is set.
func (s *Server) Database(t testing.TB) string {
	t.Helper()
	if err := s.Start(); err != nil {
		if errors.Is(err, ErrMissing) && os.Getenv("CI") == "" {
			t.Skip(err.Error())
		}
		if errors.Is(err, ErrMissing) {
			t.Fatalf("%v; CI is set, so .ci/run should have installed PostgreSQL", err)
		}
		t.Fatalf("pgtest: start PostgreSQL: %v", err)
	}
	name := "t_" + randomHex(8)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	u, err := s.CreateDatabase(ctx, name)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	return u
}

// Start starts the server if it has not started yet (Database does it
// for a test; a program such as internal/cmd/pgserver calls it). A
// failure is remembered and returned again; it wraps [ErrMissing] when
// the binaries are not installed.
func (s *Server) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return s.err
	}
	s.started = true
	s.err = s.startLocked()
	return s.err
}

// CreateDatabase creates the empty database name (lower-case letters,
// digits and underscores) on the started server and returns its
// postgres:// URL.
func (s *Server) CreateDatabase(ctx context.Context, name string) (string, error) {
	if name == "" || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
		return "", fmt.Errorf("create database: %q is not a name of lower-case letters, digits and underscores", name)
	}
	// FILE_COPY copies the template's files instead of writing them to the
	// WAL (PostgreSQL 15's default): faster, and the checkpoint it needs is
	// cheap without fsync.
	if err := s.exec(ctx, "CREATE DATABASE "+name+" STRATEGY FILE_COPY"); err != nil {
		return "", fmt.Errorf("create database: %w", err)
	}
	return s.URL(name), nil
}

// URL returns the postgres:// URL of the named database on the server
// (which must have started).
func (s *Server) URL(database string) string {
	u := url.URL{
		Scheme:   "postgres",
		User:     url.User(superuser),
		Host:     net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port())),
		Path:     "/" + database,
		RawQuery: "sslmode=disable",
	}
	return u.String()
}

// LogFile returns the path of the server's log (in the folder Stop
// removes), or "" before it started.
func (s *Server) LogFile() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.port == 0 {
		return ""
	}
	return logPath(s.dir, s.port)
}

// logPath is where the server on port writes its log.
func logPath(dir string, port int) string {
	return filepath.Join(dir, "postgres-"+strconv.Itoa(port)+".log")
}

// Port returns the server's loopback port, or 0 before it started.
func (s *Server) Port() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.port
}

// Stop stops the server, if it started, and removes its files. Call it
// from TestMain after the tests.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc != nil {
		s.proc.stop()
		s.proc = nil
	}
	if s.dir != "" {
		_ = os.RemoveAll(s.dir)
		s.dir = ""
	}
}

// Main is a TestMain for a test binary with this server: it runs the
// tests of m with the goroutine check of package internal/leakcheck,
// stops the server and exits with the tests' status.
func (s *Server) Main(m *testing.M) {
	code := leakcheck.Run(m)
	s.Stop()
	os.Exit(code)
}

// exec runs one statement in the server's maintenance database.
func (s *Server) exec(ctx context.Context, stmt string) error {
	conn, err := pgx.Connect(ctx, s.URL(superuser))
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(context.Background()) }()
	_, err = conn.Exec(ctx, stmt)
	return err
}

func (s *Server) startLocked() error {
	bin, err := findBinaries()
	if err != nil {
		return err
	}
	user, err := runAs()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return err
	}
	s.dir = dir
	if err := user.own(dir); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), StartTimeout)
	defer cancel()
	data := filepath.Join(dir, "data")
	initdb := exec.CommandContext(ctx, filepath.Join(bin, "initdb"), "-D", data, "-U", superuser,
		"--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync")
	initdb.Env = append(os.Environ(), "LC_ALL=C")
	user.apply(initdb)
	if out, err := initdb.CombinedOutput(); err != nil {
		return fmt.Errorf("initdb: %w\n%s", err, out)
	}
	// A port taken between choosing it and the server binding it makes the
	// server exit; choose another then.
	var last error
	for range 3 {
		port, err := freePort()
		if err != nil {
			return err
		}
		p, err := startPostgres(ctx, filepath.Join(bin, "postgres"), dir, data, port, user)
		if err == nil {
			s.port, s.proc = port, p
			return nil
		}
		last = err
	}
	return last
}

// startPostgres starts the server on port and waits until it accepts a
// connection.
func startPostgres(ctx context.Context, bin, dir, data string, port int, user *account) (*process, error) {
	logFile := logPath(dir, port)
	p, err := spawn(bin, []string{"-D", data, "-p", strconv.Itoa(port),
		"-c", "listen_addresses=127.0.0.1",
		"-c", "unix_socket_directories=",
		"-c", "fsync=off",
		"-c", "synchronous_commit=off",
		"-c", "full_page_writes=off",
		"-c", "max_connections=300",
		"-c", "shared_buffers=64MB",
		"-c", "max_wal_size=256MB",
	}, logFile, user)
	if err != nil {
		return nil, err
	}
	u := url.URL{Scheme: "postgres", User: url.User(superuser), Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
		Path: "/" + superuser, RawQuery: "sslmode=disable&connect_timeout=2"}
	for {
		conn, err := pgx.Connect(ctx, u.String())
		if err == nil {
			_ = conn.Close(context.Background())
			return p, nil
		}
		if p.exited() || ctx.Err() != nil {
			p.stop()
			log, _ := os.ReadFile(logFile)
			return nil, fmt.Errorf("postgres did not accept connections on port %d: %w\n%s", port, err, tail(log, 2000))
		}
		// Polling a starting server is how readiness is known; the tests
		// themselves never sleep to synchronise.
		time.Sleep(50 * time.Millisecond)
	}
}

// findBinaries returns the folder that holds both initdb and postgres.
func findBinaries() (string, error) {
	var dirs []string
	if p, err := exec.LookPath("initdb"); err == nil {
		dirs = append(dirs, filepath.Dir(p))
	}
	dirs = append(dirs, "/usr/local/bin")
	versions, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(versions, func(i, j int) bool { return versionOf(versions[i]) > versionOf(versions[j]) })
	dirs = append(dirs, versions...)
	for _, d := range dirs {
		if isExecutable(filepath.Join(d, "initdb")) && isExecutable(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	return "", ErrMissing
}

// versionOf reads the major version in /usr/lib/postgresql/<v>/bin.
func versionOf(dir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return v
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("free port: %w", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	return port, ln.Close()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return strings.TrimSpace(string(b))
}
