package onewrite_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/httpmw"
	"github.com/companyregistry/registry/internal/leakcheck"
	"github.com/companyregistry/registry/internal/onewrite"
	"github.com/companyregistry/registry/internal/testwait"
)

func TestMain(m *testing.M) { leakcheck.Main(m) }

// countingConn counts the writes that reach the socket (before each
// starts, so that a client that has read an answer sees every write of it
// counted) and fails them with EPIPE once fail is set.
type countingConn struct {
	*net.TCPConn
	writes atomic.Int64
	fail   atomic.Bool
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	if c.fail.Load() {
		return 0, syscall.EPIPE
	}
	return c.TCPConn.Write(p)
}

type countingListener struct {
	net.Listener
	accepted chan *countingConn
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	cc := &countingConn{TCPConn: c.(*net.TCPConn)}
	l.accepted <- cc
	return cc, nil
}

// server serves h as the example server does (ConnContext), through an
// onewrite.Listener when gather is set; the socket's writes are counted.
type server struct {
	addr     string
	accepted chan *countingConn
	closed   chan struct{} // a connection reached StateClosed
}

func serve(t *testing.T, h http.Handler, gather bool) *server {
	t.Helper()
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &server{addr: tcp.Addr().String(), accepted: make(chan *countingConn, 16), closed: make(chan struct{}, 16)}
	var ln net.Listener = &countingListener{Listener: tcp, accepted: s.accepted}
	if gather {
		ln = onewrite.NewListener(ln, 0)
	}
	connContext := func(ctx context.Context, c net.Conn) context.Context {
		ctx = httpmw.ConnContext(ctx, c)
		if oc, ok := c.(*onewrite.Conn); ok {
			c = oc.Conn
		}
		return context.WithValue(ctx, socketKey{}, c.(*countingConn))
	}
	srv := &http.Server{Handler: h, ConnContext: connContext, ReadHeaderTimeout: time.Minute,
		ErrorLog: log.New(io.Discard, "", 0), ConnState: func(_ net.Conn, st http.ConnState) {
			if st == http.StateClosed {
				s.closed <- struct{}{}
			}
		}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	t.Cleanup(func() {
		_ = srv.Close()
		<-done
	})
	return s
}

type socketKey struct{}

// socket returns the counting connection under r's.
func socket(r *http.Request) *countingConn { return r.Context().Value(socketKey{}).(*countingConn) }

// exchange is one request on a fresh connection and the raw bytes of its
// answer, with the number of writes that carried them.
type exchange struct {
	raw    string
	writes int64
}

// send dials s, writes req on the new connection (closed when t ends)
// and returns it with the server's side of it.
func (s *server) send(t *testing.T, req string) (net.Conn, *countingConn) {
	t.Helper()
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if dl, ok := testwait.Deadline(t); ok {
		_ = c.SetDeadline(dl)
	}
	sc := testwait.Recv(t, s.accepted, "the server's connection")
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	return c, sc
}

// roundTrip sends req on a new connection, reads the answer with
// http.ReadResponse (all of it: the body to its end), and returns the bytes
// read, the Date header's value masked.
func (s *server) roundTrip(t *testing.T, req string) exchange {
	t.Helper()
	c, sc := s.send(t, req)
	var raw bytes.Buffer
	method, _, _ := strings.Cut(req, " ")
	res, err := http.ReadResponse(bufio.NewReader(io.TeeReader(c, &raw)), &http.Request{Method: method})
	if err != nil {
		t.Fatalf("reading the answer: %v (read %q)", err, raw.String())
	}
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		t.Fatalf("reading the body: %v", err)
	}
	return exchange{raw: maskDate(raw.String()), writes: sc.writes.Load()}
}

// readAll sends req on a new connection and reads until the server closes
// it; it also returns the server's connection.
func (s *server) readAll(t *testing.T, req string) (string, *countingConn) {
	t.Helper()
	c, sc := s.send(t, req)
	b, err := io.ReadAll(c)
	if err != nil && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("reading to the end: %v", err)
	}
	testwait.Recv(t, s.closed, "the server's connection closed")
	return maskDate(string(b)), sc
}

var dateLine = regexp.MustCompile(`(?m)^Date: [^\r]*\r$`)

func maskDate(s string) string { return dateLine.ReplaceAllString(s, "Date: (masked)\r") }

const get = "GET /x HTTP/1.1\r\nHost: example.test\r\nX-Request-Id: fixed-id\r\n\r\n"

// stack is the middleware as restserver and mcpserver have it: the
// flush goes through httpmw's writer.
func stack(h http.HandlerFunc) http.Handler {
	return httpmw.New(httpmw.Config{}).Handler("no-store", "request", h)
}

// answer writes body with WriteAnswer, with its Content-Length when
// withLength.
func answer(body []byte, withLength bool) http.Handler {
	return stack(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["Content-Type"] = []string{"application/json"}
		if withLength {
			h["Content-Length"] = []string{strconv.Itoa(len(body))}
		}
		httpmw.WriteAnswer(w, r, body)
	})
}

func body(n int) []byte { return bytes.Repeat([]byte("a"), n) }

// TestWriteAnswerSameBytesFewerWrites: for each answer, the bytes a client
// reads are the same with and without the gathering listener; an answer
// that net/http writes in two writes (headers and body over its 4 KiB
// buffer) leaves in one, the others in as many as before. Without a
// Content-Length, or for a stream, nothing changes: net/http computes the
// length of a small body as before, and chunks a larger one as before.
func TestWriteAnswerSameBytesFewerWrites(t *testing.T) {
	stream := stack(func(w http.ResponseWriter, _ *http.Request) {
		w.Header()["Content-Type"] = []string{"text/event-stream"}
		for i := range 3 {
			_, _ = w.Write(append([]byte("data: "), body(3000+i)...))
			http.NewResponseController(w).Flush() //nolint:errcheck // the test reads what arrived
		}
	})
	errorAnswer := stack(func(w http.ResponseWriter, _ *http.Request) {
		httpmw.WriteError(w, errors.New("boom"))
	})
	for _, tc := range []struct {
		name         string
		h            http.Handler
		req          string
		plain, gathr int64 // writes without and with the gathering listener
		chunked      bool
	}{
		{"6 KB answer with Content-Length", answer(body(6000), true), get, 2, 1, false},
		{"3.5 KB answer with Content-Length", answer(body(3500), true), get, 1, 1, false},
		{"1 KB answer with Content-Length", answer(body(1000), true), get, 1, 1, false},
		{"60 KB answer with Content-Length", answer(body(60000), true), get, 2, 1, false},
		{"100 KB answer over the bound", answer(body(100000), true), get, 2, 2, false},
		{"1 KB answer without Content-Length", answer(body(1000), false), get, 1, 1, false},
		{"3.5 KB answer without Content-Length", answer(body(3500), false), get, 1, 1, true},
		{"6 KB answer without Content-Length", answer(body(6000), false), get, 2, 2, true},
		{"HEAD of a 6 KB answer", answer(body(6000), true), strings.Replace(get, "GET", "HEAD", 1), 1, 1, false},
		{"stream", stream, get, 4, 4, true},
		{"error answer", errorAnswer, get, 1, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			plain := serve(t, tc.h, false).roundTrip(t, tc.req)
			gathered := serve(t, tc.h, true).roundTrip(t, tc.req)
			if diff := cmp.Diff(plain.raw, gathered.raw); diff != "" {
				t.Errorf("bytes on the wire (-plain +gathering):\n%s", diff)
			}
			if got := []int64{plain.writes, gathered.writes}; !cmp.Equal(got, []int64{tc.plain, tc.gathr}) {
				t.Errorf("writes plain, gathering = %v; want [%d %d]", got, tc.plain, tc.gathr)
			}
			if chunked := strings.Contains(gathered.raw, "Transfer-Encoding: chunked"); chunked != tc.chunked {
				t.Errorf("chunked %v, want %v:\n%.300s", chunked, tc.chunked, gathered.raw)
			}
		})
	}
}

// TestWriteAnswerKeepAlive: answers on one kept-alive connection, gathered
// and not, follow each other intact, one write each.
func TestWriteAnswerKeepAlive(t *testing.T) {
	s := serve(t, answer(body(6000), true), true)
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sc := testwait.Recv(t, s.accepted, "the server's connection")
	br := bufio.NewReader(c)
	for i := range 3 {
		if _, err := io.WriteString(c, get); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(res.Body)
		if err != nil || !bytes.Equal(b, body(6000)) {
			t.Fatalf("answer %d: %d bytes, %v", i, len(b), err)
		}
		if got := sc.writes.Load(); got != int64(i+1) {
			t.Errorf("after answer %d: %d writes; want %d", i, got, i+1)
		}
	}
}

// panicky is a middleware whose Write panics once it has passed the bytes
// on: under a gathering listener, the panic comes while the gather holds
// the first 4 KiB of the answer.
type panicky struct{ http.ResponseWriter }

func (p panicky) Write(b []byte) (int, error) {
	_, _ = p.ResponseWriter.Write(b)
	panic("after the write")
}

// TestWriteAnswerFaults: a panic inside a gather, a write deadline passed
// and a client gone mid-answer: the client reads what it reads without
// the gathering listener, the connection is closed, nothing stays held
// (End ran, or the failed write reached net/http) and no goroutine is left
// (TestMain).
func TestWriteAnswerFaults(t *testing.T) {
	big := body(6000)
	withLength := func(w http.ResponseWriter) {
		w.Header()["Content-Length"] = []string{strconv.Itoa(len(big))}
	}
	for _, tc := range []struct {
		name      string
		h         http.HandlerFunc
		maxWrites int64 // under the gathering listener
		started   bool  // the client reads a started answer
	}{
		// The gather's End writes the held 4 KiB, net/http's final flush
		// the rest it buffered: the whole answer, as without the gather.
		{"panic while gathering", func(w http.ResponseWriter, r *http.Request) {
			withLength(w)
			httpmw.WriteAnswer(panicky{w}, r, big)
		}, 2, true},
		{"write deadline passed", func(w http.ResponseWriter, r *http.Request) {
			withLength(w)
			_ = http.NewResponseController(w).SetWriteDeadline(time.Unix(1, 0))
			httpmw.WriteAnswer(w, r, big)
		}, 1, false},
		{"client gone", func(w http.ResponseWriter, r *http.Request) {
			withLength(w)
			socket(r).fail.Store(true)
			httpmw.WriteAnswer(w, r, big)
		}, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plain, _ := serve(t, tc.h, false).readAll(t, get)
			gathered, sc := serve(t, tc.h, true).readAll(t, get)
			if diff := cmp.Diff(plain, gathered); diff != "" {
				t.Errorf("bytes read (-plain +gathering):\n%s", diff)
			}
			if got := sc.writes.Load(); got > tc.maxWrites {
				t.Errorf("%d writes; want at most %d", got, tc.maxWrites)
			}
			if started := strings.HasPrefix(gathered, "HTTP/1.1 200 OK\r\n"); started != tc.started {
				t.Errorf("the answer started: %v, want %v (%d bytes read)", started, tc.started, len(gathered))
			}
		})
	}
}

// TestHijack: a hijacked connection of the gathering listener is the
// wrapped one, writes through, and works after a gathered answer on it.
func TestHijack(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/x", answer(body(6000), true))
	mux.HandleFunc("/hijack", func(w http.ResponseWriter, _ *http.Request) {
		c, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close()
		if oc, ok := c.(*onewrite.Conn); !ok || oc.Gathering() {
			t.Errorf("hijacked %T, gathering %v", c, ok && oc.Gathering())
		}
		_, _ = brw.WriteString("raw bytes")
		_ = brw.Flush()
	})
	s := serve(t, mux, true)
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if dl, ok := testwait.Deadline(t); ok {
		_ = c.SetDeadline(dl)
	}
	sc := testwait.Recv(t, s.accepted, "the server's connection")
	br := bufio.NewReader(c)
	if _, err := io.WriteString(c, get); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(c, strings.Replace(get, "/x", "/hijack", 1)); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(br)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("raw bytes", string(rest)); diff != "" {
		t.Errorf("after the hijack (-want +got):\n%s", diff)
	}
	if got := sc.writes.Load(); got != 2 {
		t.Errorf("%d writes; want 2 (the gathered answer, the hijacker's)", got)
	}
}

// TestWriteAnswerConcurrentConnections: many connections gathering at once
// share the listener's pool and each gets its own answer (run with -race).
func TestWriteAnswerConcurrentConnections(t *testing.T) {
	h := stack(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		b := bytes.Repeat([]byte{byte('a' + n%26)}, 5000+n)
		w.Header()["Content-Length"] = []string{strconv.Itoa(len(b))}
		httpmw.WriteAnswer(w, r, b)
	})
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ConnContext: httpmw.ConnContext, ReadHeaderTimeout: time.Minute}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(onewrite.NewListener(tcp, 0))
	}()
	defer func() {
		_ = srv.Close()
		<-done
	}()
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for g := range 8 {
		wg.Go(func() {
			for i := range 4 {
				n := g*4 + i
				res, err := client.Get("http://" + tcp.Addr().String() + "/?n=" + strconv.Itoa(n))
				if err != nil {
					errs <- err
					return
				}
				b, err := io.ReadAll(res.Body)
				_ = res.Body.Close()
				want := bytes.Repeat([]byte{byte('a' + n%26)}, 5000+n)
				if err != nil || !bytes.Equal(b, want) {
					errs <- errors.New("answer " + strconv.Itoa(n) + " differs")
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
