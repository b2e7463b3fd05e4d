// Package onewrite sends a whole HTTP answer in one write(2) when net/http
// would take two.
//
// net/http writes a response through a 4 KiB buffer per connection: an
// answer whose headers and body exceed it leaves in two writes, the full
// buffer while the handler writes and the rest when the handler returns.
// On a real socket each write runs the kernel's send path and wakes the
// client, and the second costs about as much as the first. A [Listener]
// wraps the server's TCP listener; its connections can gather: between
// [Conn.Gather] and the next write after [Conn.Release], what net/http
// writes is copied into a buffer, and the last write sends everything in
// one write to the socket. The bytes on the wire, and their order, are the
// same; the number of writes changes, and so does when the last bytes
// leave: a gathered answer leaves whole when the handler flushes it, before
// the handler returns, so a client can have it before the server's
// access-log record and metrics of the request are written (as with any
// handler that flushes).
//
// A handler does not call these methods itself: httpmw.WriteAnswer does,
// for an answer whose Content-Length it set, when the connection of the
// request is one of a Listener's (found through httpmw.ConnContext). On any
// other connection (an application's own server, httptest, TLS) nothing
// changes.
//
// A gather is bounded: one that would hold more than the listener's bound
// writes what it holds and passes the rest through, as without a gather.
// Its buffer comes from a pool of the listener and goes back when the
// gather ends, so an idle connection holds none.
package onewrite

import (
	"crypto/tls"
	"io"
	"net"
	"sync"
)

// DefaultMax is the bound of a gather in bytes: an answer larger than this
// is written as net/http writes it.
const DefaultMax = 64 << 10

// initialCap is the capacity of a new gather buffer: a cached lookup over
// MCP, about 6.5 KB with its headers, fits.
const initialCap = 8 << 10

// Listener is a net.Listener whose connections can gather their writes
// ([Conn]). Wrap the server's TCP listener, not a TLS one: a connection
// that has a TLS state (a *tls.Conn) is returned as it is, since net/http
// reads the TLS state from the connection's own type.
type Listener struct {
	net.Listener
	max  int
	pool sync.Pool // of *[]byte, capacity at most max
}

// NewListener returns ln with gathering connections, bounded by max bytes
// per gather (DefaultMax when max <= 0).
func NewListener(ln net.Listener, max int) *Listener {
	if max <= 0 {
		max = DefaultMax
	}
	return &Listener{Listener: ln, max: max}
}

// Accept returns the next connection, as a *[Conn] unless it has a TLS
// state.
func (l *Listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if _, ok := c.(interface{ ConnectionState() tls.ConnectionState }); ok {
		return c, nil
	}
	return &Conn{Conn: c, l: l}, nil
}

func (l *Listener) getBuf() *[]byte {
	if b, ok := l.pool.Get().(*[]byte); ok {
		return b
	}
	b := make([]byte, 0, min(initialCap, l.max))
	return &b
}

func (l *Listener) putBuf(b *[]byte) {
	if cap(*b) > l.max {
		return
	}
	*b = (*b)[:0]
	l.pool.Put(b)
}

// Conn is a connection of a [Listener]. Outside a gather it is the
// connection it wraps: its writes go straight through. It keeps the
// methods net/http looks for on a connection: deadlines (the embedded
// net.Conn), CloseWrite and ReadFrom; each ends a gather first.
type Conn struct {
	net.Conn
	l *Listener

	mu    sync.Mutex // guards the gather; never held while writing
	state state
	held  *[]byte // the gathered bytes while state != off; nil: none yet
}

type state uint8

const (
	off       state = iota // writes go through
	gathering              // writes are held
	releasing              // the next write sends the held bytes and itself
)

// Gather starts holding the connection's writes. It does nothing on a nil
// Conn, so that a caller without one needs no test.
func (c *Conn) Gather() {
	if c == nil {
		return
	}
	c.mu.Lock()
	if c.state == off {
		c.state = gathering
	}
	c.mu.Unlock()
}

// Release makes the next write send what is held and its own bytes in one
// write, and end the gather; its error is that write's, so that net/http
// sees a failed write as it would without the gather. It does nothing on
// a nil Conn or outside a gather.
func (c *Conn) Release() {
	if c == nil {
		return
	}
	c.mu.Lock()
	if c.state == gathering {
		c.state = releasing
	}
	c.mu.Unlock()
}

// End ends a gather: what is still held (no write came after Release, or
// the handler panicked) is written now, in one write. If that write fails
// the connection is closed, since net/http, which believes those bytes
// sent, must not answer another request on it. It does nothing on a nil
// Conn or outside a gather, and is meant to be deferred by whoever called
// Gather.
func (c *Conn) End() {
	if c == nil {
		return
	}
	c.mu.Lock()
	held := c.take()
	c.mu.Unlock()
	if held == nil {
		return
	}
	_, err := c.Conn.Write(*held)
	c.l.putBuf(held)
	if err != nil {
		_ = c.Close()
	}
}

// Gathering reports whether a gather is open (for tests and assertions).
func (c *Conn) Gathering() bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state != off
}

// take ends the gather and returns the held buffer, nil when it holds
// nothing (an empty one goes back to the pool). c.mu is held.
func (c *Conn) take() *[]byte {
	held := c.held
	c.state, c.held = off, nil
	if held != nil && len(*held) == 0 {
		c.l.putBuf(held)
		return nil
	}
	return held
}

// Write holds p during a gather and sends it otherwise (see [Conn.Release]).
func (c *Conn) Write(p []byte) (int, error) {
	c.mu.Lock()
	switch c.state {
	case off:
		c.mu.Unlock()
		return c.Conn.Write(p)
	case gathering:
		if c.held == nil {
			c.held = c.l.getBuf()
		}
		if len(*c.held)+len(p) <= c.l.max {
			*c.held = append(*c.held, p...)
			c.mu.Unlock()
			return len(p), nil
		}
	case releasing:
		if c.held != nil && len(*c.held)+len(p) <= c.l.max {
			held := c.held
			c.state, c.held = off, nil
			c.mu.Unlock()
			*held = append(*held, p...)
			n, err := c.Conn.Write(*held)
			n = max(0, n-(len(*held)-len(p))) // of p's bytes
			c.l.putBuf(held)
			return n, err
		}
	}
	// Over the bound, or released with nothing held: what is held first,
	// then p, as net/http would have written them.
	held := c.take()
	c.mu.Unlock()
	if held != nil {
		_, err := c.Conn.Write(*held)
		c.l.putBuf(held)
		if err != nil {
			return 0, err
		}
	}
	return c.Conn.Write(p)
}

// CloseWrite ends a gather (see [Conn.End]) and shuts down the writing
// side of the connection when it has one (a TCP connection does), as
// net/http does before it closes a connection.
func (c *Conn) CloseWrite() error {
	c.End()
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// ReadFrom ends a gather and copies r to the connection with the wrapped
// connection's own ReadFrom when it has one (sendfile or splice for a TCP
// connection), so that net/http's copy of a file keeps them.
func (c *Conn) ReadFrom(r io.Reader) (int64, error) {
	c.End()
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(writerOnly{c.Conn}, r)
}

// writerOnly hides a writer's ReadFrom from io.Copy.
type writerOnly struct{ io.Writer }
