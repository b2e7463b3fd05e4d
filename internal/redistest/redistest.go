// Package redistest helps the tests of the Redis-backed components: an
// in-process Redis (miniredis), a real redis-server started on a free
// loopback port and stopped by the test, a [Proxy] that cuts either off
// and brings it back without freeing the address the client dials, a
// client without timeouts, and a logger that counts records.
//
// The tests never measure how long a call took. A Redis that is up answers
// every call of a [Client], however slow a loaded machine makes it; a Redis
// that is down ([Server.Stop], [Proxy.Down]) fails every call at once, on
// its connection. A component that waited on Redis then would hang, which
// the test's wait (internal/testwait) reports.
package redistest

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/companyregistry/registry/internal/testwait"
)

// Mini starts an in-process Redis for t, its clock stopped (see runMini),
// and returns it with a [Client] on it; both are closed when t ends.
func Mini(t testing.TB) (*miniredis.Miniredis, *redis.Client) {
	t.Helper()
	mr := runMini(t)
	rdb := Client(mr.Addr())
	t.Cleanup(func() { _ = rdb.Close() })
	return mr, rdb
}

// runMini starts an in-process Redis whose clock (what its TIME command
// answers, the clock of the rate limiter's script) stays at a fixed
// instant until the test moves it with SetTime: how long a loaded machine
// takes between two calls changes nothing.
func runMini(t testing.TB) *miniredis.Miniredis {
	mr := miniredis.RunT(t)
	mr.SetTime(time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC))
	return mr
}

// Client returns a client on addr configured as a replica would be for
// tests (no retries, one dial per call), whose calls end only when Redis
// answers or the connection fails: it has no dial, read or write timeout,
// and it drops the deadline of each call's context, so that the timeout a
// component puts on each Redis call never fires in a test. A loaded
// machine then cannot make a Redis that is up look down, and a test that
// Redis down costs a caller no wait proves it without a stopwatch: a call
// that waited on Redis would never end. A test of the timeouts themselves
// builds a client of its own. The observers are hooks that see each call
// as the component made it, deadline included, before it is dropped: a
// test reads the deadline a component gave a call there, as a value.
func Client(addr string, observers ...redis.Hook) *redis.Client {
	rdb := redis.NewClient(&redis.Options{
		Addr:          addr,
		MaxRetries:    -1,
		DialerRetries: 1,
		DialTimeout:   untimed,
		ReadTimeout:   -1, // none
		WriteTimeout:  -1,
		PoolTimeout:   untimed,
		PoolSize:      8,

		ContextTimeoutEnabled: true,
	})
	for _, h := range observers {
		rdb.AddHook(h) // added first, so called first: before noDeadline
	}
	rdb.AddHook(noDeadline{})
	return rdb
}

// untimed stands for no timeout where go-redis needs a positive one: longer
// than any test may run.
const untimed = 24 * time.Hour

// noDeadline is a redis.Hook that runs every dial and command without the
// deadline (and the cancellation) of the caller's context.
type noDeadline struct{}

func (noDeadline) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		return next(context.WithoutCancel(ctx), network, addr)
	}
}

func (noDeadline) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		return next(context.WithoutCancel(ctx), cmd)
	}
}

func (noDeadline) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		return next(context.WithoutCancel(ctx), cmds)
	}
}

// Server is a redis-server process started by a test, behind a [Proxy]:
// clients dial the proxy, whose port stays the test's own while the
// server is stopped and started again (each start on a fresh port of its
// own).
type Server struct {
	t     testing.TB
	bin   string
	dir   string
	front *Proxy
	mu    sync.Mutex
	cmd   *exec.Cmd
	exit  chan struct{} // closed when cmd has exited
}

// StartServer starts redis-server on a free loopback port, without
// persistence, and stops it when t ends. Without the binary it skips t,
// unless the environment variable CI is set, when it fails t: CI installs
// redis-server, so its absence there is a defect.
func StartServer(t testing.TB) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("redis-server is not installed, and CI is set: .ci/run should have installed it (apt-get install -y redis-server)")
		}
		t.Skip("redis-server not found on PATH: install it (apt-get install -y redis-server) to run this test")
	}
	s := &Server{t: t, bin: bin, dir: t.TempDir(), front: NewProxy(t, "")}
	s.Start()
	t.Cleanup(s.Stop)
	return s
}

// Addr returns the host:port clients dial: the proxy's, the same for the
// server's whole life.
func (s *Server) Addr() string { return s.front.Addr() }

// Start starts the server (again), empty, and waits until it answers
// through the proxy's address.
func (s *Server) Start() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return
	}
	var last string
	for range 5 {
		addr, ok, why := s.startOnce()
		if ok {
			s.front.Up(addr)
			return
		}
		last = why
	}
	s.t.Fatalf("redis-server did not start: %s", last)
}

// startOnce starts redis-server on a fresh port and waits until the
// server answering there is this process (another test may have been
// given the same port between the check that it was free and the
// server's bind). It reports the address, or why it failed. The wait has
// no time limit of its own: a loaded machine starts the server later, and
// only the test's deadline ends the wait.
func (s *Server) startOnce() (addr string, ok bool, why string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", false, "free port: " + err.Error()
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	addr = "127.0.0.1:" + strconv.Itoa(port)
	cmd := exec.Command(s.bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", s.dir, "--protected-mode", "yes")
	var out Logs // the process output, safe to read while it writes
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("start redis-server: %v", err)
	}
	exit := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exit)
	}()
	// A probe of its own, with timeouts: whatever listens on the port may
	// never answer.
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialerRetries: 1, ContextTimeoutEnabled: true})
	defer c.Close()
	want := "process_id:" + strconv.Itoa(cmd.Process.Pid)
	give := func(why string) (string, bool, string) {
		_ = cmd.Process.Kill()
		<-exit
		return "", false, why + "\n" + out.String()
	}
	expired := testwait.Expired(s.t)
	// Each probe may take longer than the one before, so that a slow
	// machine is waited for rather than failed.
	for probe := 200 * time.Millisecond; ; probe = min(2*probe, 10*time.Second) {
		ctx, cancel := context.WithTimeout(context.Background(), probe)
		info, err := c.Info(ctx, "server").Result()
		cancel()
		switch {
		case err == nil && strings.Contains(info, want+"\r\n"):
			s.cmd, s.exit = cmd, exit
			return addr, true, ""
		case err == nil:
			return give("another server answers on " + addr)
		}
		why = err.Error()
		select {
		case <-exit:
			return "", false, "redis-server exited: " + out.String()
		case <-expired:
			return give("no answer before the test's deadline: " + why)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Stop kills the server, as a crash would, and waits for it to exit; the
// proxy cuts every connection and resets new ones until the next Start.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.front.Down()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.exit
	s.cmd, s.exit = nil, nil
}

// Logs is a logger whose records tests can count. It is safe for
// concurrent use.
type Logs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Logger returns a logger writing text records at debug level and above.
func (l *Logs) Logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// Write implements io.Writer.
func (l *Logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// String returns everything logged so far.
func (l *Logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// Count returns the number of records whose message is msg.
func (l *Logs) Count(msg string) int {
	return strings.Count(l.String(), "msg="+strconv.Quote(msg)) + strings.Count(l.String(), "msg="+msg+" ")
}

// String describes s for failure messages.
func (s *Server) String() string { return fmt.Sprintf("redis-server behind %s", s.Addr()) }
