package onewrite

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeConn records each Write; failAfter >= 0 makes a write fail once that
// many bytes in all were accepted (the write that crosses it is short).
type fakeConn struct {
	net.Conn // nil: only the methods below are called
	writes   []string
	sent     int
	failAt   int // -1: never
	closed   bool
	closeW   bool
	readFrom bool
}

func newFake() *fakeConn { return &fakeConn{failAt: -1} }

func (f *fakeConn) Write(p []byte) (int, error) {
	if f.failAt >= 0 && f.sent+len(p) > f.failAt {
		n := max(0, f.failAt-f.sent)
		f.writes = append(f.writes, string(p[:n]))
		f.sent += n
		return n, syscall.EPIPE
	}
	f.writes = append(f.writes, string(p))
	f.sent += len(p)
	return len(p), nil
}

func (f *fakeConn) Close() error      { f.closed = true; return nil }
func (f *fakeConn) CloseWrite() error { f.closeW = true; return nil }
func (f *fakeConn) ReadFrom(r io.Reader) (int64, error) {
	f.readFrom = true
	b, err := io.ReadAll(r)
	f.writes = append(f.writes, string(b))
	return int64(len(b)), err
}

func wrap(f net.Conn, max int) *Conn {
	return &Conn{Conn: f, l: NewListener(nil, max)}
}

func write(t *testing.T, c *Conn, s string) {
	t.Helper()
	if n, err := c.Write([]byte(s)); n != len(s) || err != nil {
		t.Fatalf("Write(%q) = %d, %v", s, n, err)
	}
}

// TestGatherSendsOneWrite: what is written between Gather and the write
// after Release reaches the connection in one write, in order; before and
// after, writes go through one by one.
func TestGatherSendsOneWrite(t *testing.T) {
	f := newFake()
	c := wrap(f, 0)
	write(t, c, "before ")
	c.Gather()
	write(t, c, "HTTP/1.1 200 OK\r\n")
	write(t, c, "body one ")
	c.Release()
	write(t, c, "body two")
	write(t, c, " after")
	c.End()
	want := []string{"before ", "HTTP/1.1 200 OK\r\nbody one body two", " after"}
	if diff := cmp.Diff(want, f.writes); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	if c.Gathering() {
		t.Error("still gathering after the released write")
	}
}

// TestReleaseWithNothingHeldWritesThrough: an answer that stayed in
// net/http's buffer until the flush is one write anyway, not copied.
func TestReleaseWithNothingHeldWritesThrough(t *testing.T) {
	f := newFake()
	c := wrap(f, 0)
	c.Gather()
	c.Release()
	write(t, c, "whole answer")
	write(t, c, "next")
	if diff := cmp.Diff([]string{"whole answer", "next"}, f.writes); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
}

// TestGatherOverTheBoundWritesThrough: a gather that would hold more than
// the bound writes what it holds and the rest as it comes, and ends.
func TestGatherOverTheBoundWritesThrough(t *testing.T) {
	f := newFake()
	c := wrap(f, 8)
	c.Gather()
	write(t, c, "abcde")
	write(t, c, "fghij") // 10 > 8
	write(t, c, "k")
	c.Release() // no gather: nothing
	write(t, c, "l")
	c.End()
	if diff := cmp.Diff([]string{"abcde", "fghij", "k", "l"}, f.writes); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
}

// TestReleasedWriteOverTheBound: the released write that does not fit
// follows what is held in a write of its own.
func TestReleasedWriteOverTheBound(t *testing.T) {
	f := newFake()
	c := wrap(f, 8)
	c.Gather()
	write(t, c, "abcde")
	c.Release()
	write(t, c, "fghij")
	if diff := cmp.Diff([]string{"abcde", "fghij"}, f.writes); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
}

// TestReleasedWriteFails: the released write's error is returned with the
// number of its own bytes that went out, as net/http's buffer expects of a
// short write; a failure inside the held bytes counts none of them.
func TestReleasedWriteFails(t *testing.T) {
	for _, tc := range []struct {
		name   string
		failAt int
		wantN  int
	}{
		{"in the held bytes", 3, 0},
		{"in the released write's bytes", 7, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake()
			f.failAt = tc.failAt
			c := wrap(f, 0)
			c.Gather()
			write(t, c, "held!")
			c.Release()
			n, err := c.Write([]byte("tail"))
			if n != tc.wantN || !errors.Is(err, syscall.EPIPE) {
				t.Errorf("Write = %d, %v; want %d, EPIPE", n, err, tc.wantN)
			}
			if diff := cmp.Diff([]string{"held!tail"[:tc.failAt]}, f.writes); diff != "" {
				t.Errorf("writes (-want +got):\n%s", diff)
			}
			if c.Gathering() || f.closed {
				t.Errorf("gathering %v, closed %v; want neither (net/http closes it, knowing the error)", c.Gathering(), f.closed)
			}
		})
	}
}

// TestEndWritesWhatIsHeld: End (a panic, or a flush that never came)
// writes the held bytes in one write; if that write fails the connection
// is closed, since net/http believes them sent.
func TestEndWritesWhatIsHeld(t *testing.T) {
	f := newFake()
	c := wrap(f, 0)
	c.Gather()
	write(t, c, "head ")
	write(t, c, "part")
	c.End()
	c.End() // twice: nothing more
	if diff := cmp.Diff([]string{"head part"}, f.writes); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	if f.closed || c.Gathering() {
		t.Errorf("closed %v, gathering %v after a good End", f.closed, c.Gathering())
	}

	f = newFake()
	f.failAt = 2
	c = wrap(f, 0)
	c.Gather()
	write(t, c, "head")
	c.End()
	if !f.closed {
		t.Error("a failed End left the connection open")
	}
}

// TestCloseWriteAndReadFromEndTheGather: net/http's CloseWrite (before it
// closes a connection) and ReadFrom (a file's copy) send what is held
// first, and reach the wrapped connection's own methods.
func TestCloseWriteAndReadFromEndTheGather(t *testing.T) {
	f := newFake()
	c := wrap(f, 0)
	c.Gather()
	write(t, c, "held")
	if _, err := c.ReadFrom(strings.NewReader("file")); err != nil {
		t.Fatal(err)
	}
	c.Gather()
	write(t, c, "last")
	if err := c.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"held", "file", "last"}, f.writes); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	if !f.readFrom || !f.closeW {
		t.Errorf("wrapped ReadFrom called %v, CloseWrite %v; want both", f.readFrom, f.closeW)
	}
}

// TestWithoutCloseWriteOrReadFrom: over a connection without them,
// CloseWrite does nothing and ReadFrom copies.
func TestWithoutCloseWriteOrReadFrom(t *testing.T) {
	f := newFake()
	c := wrap(struct{ net.Conn }{f}, 0) // only net.Conn's methods
	if _, err := c.ReadFrom(strings.NewReader("copied")); err != nil {
		t.Fatal(err)
	}
	if err := c.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"copied"}, f.writes); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	if f.readFrom || f.closeW {
		t.Errorf("ReadFrom %v, CloseWrite %v reached a connection without them", f.readFrom, f.closeW)
	}
}

// TestNilConn: a caller without a gathering connection calls the methods
// on nil.
func TestNilConn(t *testing.T) {
	var c *Conn
	c.Gather()
	c.Release()
	c.End()
	if c.Gathering() {
		t.Error("a nil Conn gathers")
	}
}

type oneConnListener struct {
	net.Listener
	c net.Conn
}

func (l *oneConnListener) Accept() (net.Conn, error) { return l.c, nil }

type tlsLike struct{ net.Conn }

func (tlsLike) ConnectionState() tls.ConnectionState { return tls.ConnectionState{} }

// TestAcceptKeepsTLSConnections: net/http recognises TLS by the
// connection's type, so a connection with a TLS state is not wrapped.
func TestAcceptKeepsTLSConnections(t *testing.T) {
	tc := tlsLike{}
	c, err := NewListener(&oneConnListener{c: tc}, 0).Accept()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.(tlsLike); !ok {
		t.Errorf("a TLS connection came back as %T", c)
	}
	f := newFake()
	c, err = NewListener(&oneConnListener{c: f}, 0).Accept()
	if err != nil {
		t.Fatal(err)
	}
	if oc, ok := c.(*Conn); !ok || oc.Conn != f {
		t.Errorf("a plain connection came back as %T", c)
	}
}

// TestGatherAllocatesNothing: with the listener's pool warm, a gather
// and its release allocate nothing.
func TestGatherAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop buffers at random")
	}
	c := wrap(discardConn{}, 0)
	head, body := make([]byte, 4096), make([]byte, 2400)
	n := testing.AllocsPerRun(100, func() {
		c.Gather()
		_, _ = c.Write(head)
		c.Release()
		_, _ = c.Write(body)
		c.End()
	})
	if n != 0 {
		t.Errorf("a gather allocates %v times; want 0", n)
	}
}

type discardConn struct{ net.Conn }

func (discardConn) Write(p []byte) (int, error) { return len(p), nil }
