package redistest

import (
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// Proxy is a loopback TCP forwarder between a client and a Redis server,
// so that a test can cut Redis off and bring it back while the address the
// client dials stays its own for the test's whole life.
//
// Why not close the server and start it again on its port: once a test
// frees a port, another test (of this package or of another package that
// `go test ./...` runs at the same time) may be given it and listen there,
// a redis-server of [StartServer] among them; the client then finds a
// Redis that should be down, and the restart finds its port taken. That
// was the cause of a rare failure of rediscache's TestCacheRedisDown.
type Proxy struct {
	ln net.Listener
	wg sync.WaitGroup

	mu     sync.Mutex
	target string // "": down
	conns  map[net.Conn]struct{}
}

// NewProxy starts a proxy on a free loopback port that forwards to target
// ("" starts it down) and closes it when t ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("redistest: proxy: %v", err)
	}
	p := &Proxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(p.close)
	return p
}

// Addr returns the host:port clients dial.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Down cuts every forwarded connection and resets every new one at once,
// as a crashed Redis host does: each call of a client fails without
// waiting.
func (p *Proxy) Down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.target = ""
	for c := range p.conns {
		reset(c)
	}
	clear(p.conns)
}

// Up forwards new connections to target.
func (p *Proxy) Up(target string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.target = target
}

func (p *Proxy) close() {
	_ = p.ln.Close()
	p.Down()
	p.wg.Wait()
}

func (p *Proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		target := p.target
		p.mu.Unlock()
		if target == "" {
			reset(c)
			continue
		}
		p.wg.Add(1)
		go p.forward(c, target)
	}
}

// forward copies between c and a new connection to target until either
// side ends or the proxy goes down.
func (p *Proxy) forward(c net.Conn, target string) {
	defer p.wg.Done()
	s, err := net.DialTimeout("tcp", target, 5*time.Second)
	if err != nil {
		reset(c)
		return
	}
	p.mu.Lock()
	if p.target != target {
		p.mu.Unlock()
		reset(c)
		reset(s)
		return
	}
	p.conns[c], p.conns[s] = struct{}{}, struct{}{}
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		done <- struct{}{}
	}
	go pipe(s, c)
	go pipe(c, s)
	<-done
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, s)
	p.mu.Unlock()
	_ = c.Close()
	_ = s.Close()
	<-done
}

// reset closes c with a TCP reset, so that its peer fails at once.
func reset(c net.Conn) {
	if t, ok := c.(*net.TCPConn); ok {
		_ = t.SetLinger(0)
	}
	_ = c.Close()
}

// MiniBehindProxy starts an in-process Redis for t, its clock stopped as
// [Mini]'s, behind a [Proxy] and returns both with a [Client] on the
// proxy; all are closed when t ends. Cut Redis off with the proxy's Down,
// never by closing the miniredis.
func MiniBehindProxy(t testing.TB) (*miniredis.Miniredis, *Proxy, *redis.Client) {
	t.Helper()
	mr := runMini(t)
	p := NewProxy(t, mr.Addr())
	rdb := Client(p.Addr())
	t.Cleanup(func() { _ = rdb.Close() })
	return mr, p, rdb
}
