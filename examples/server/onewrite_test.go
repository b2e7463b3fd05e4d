package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/onewrite"
	"github.com/companyregistry/registry/internal/testwait"
)

// writeCounter counts the writes that reach a socket, before each starts:
// once a client has read an answer, every write of it is counted.
type writeCounter struct {
	*net.TCPConn
	writes atomic.Int64
}

func (c *writeCounter) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.TCPConn.Write(p)
}

type countingListener struct {
	net.Listener
	accepted chan *writeCounter
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	wc := &writeCounter{TCPConn: c.(*net.TCPConn)}
	l.accepted <- wc
	return wc, nil
}

// wireServer serves h with the program's http.Server (newHTTPServer),
// through an onewrite.Listener as serve does when gather is set, else on
// the plain TCP listener; the socket's writes are counted.
func wireServer(t *testing.T, h http.Handler, gather bool) (addr string, accepted chan *writeCounter) {
	t.Helper()
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted = make(chan *writeCounter, 16)
	var ln net.Listener = &countingListener{Listener: tcp, accepted: accepted}
	if gather {
		ln = onewrite.NewListener(ln, onewrite.DefaultMax)
	}
	srv := newHTTPServer(h, slog.New(slog.DiscardHandler), defaultLimits())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	t.Cleanup(func() {
		_ = srv.Close()
		<-done
	})
	return tcp.Addr().String(), accepted
}

var wireDate = regexp.MustCompile(`(?m)^Date: [^\r]*\r$`)

// wireExchange sends req on a new connection to addr and returns the bytes
// of the answer as the client read them (the Date header's value masked)
// and the number of writes that carried them.
func wireExchange(t *testing.T, addr string, accepted chan *writeCounter, req string) (string, int64) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if dl, ok := testwait.Deadline(t); ok {
		_ = c.SetDeadline(dl)
	}
	sc := testwait.Recv(t, accepted, "the server's connection")
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	res, err := http.ReadResponse(bufio.NewReader(io.TeeReader(c, &raw)), nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		t.Fatal(err)
	}
	return wireDate.ReplaceAllString(raw.String(), "Date: (masked)\r"), sc.writes.Load()
}

// TestOneWriteSameWire: the program's answers read from a raw connection
// are the same bytes through serve's gathering listener as through a plain
// one, and a cached answer that net/http writes in two writes (the MCP
// lookup, 6.5 KB; the roles, over 4 KiB) leaves in one; the REST lookup
// (3 KB) and an error answer took one and still do.
func TestOneWriteSameWire(t *testing.T) {
	t.Parallel()
	unit, roles := testdata(t, "brreg_enhet_923609016.json"), manyRoles(t, 3)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/enheter/923609016":
			_, _ = w.Write(unit)
		case "/enheter/923609016/roller":
			_, _ = w.Write(roles)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(up.Close)
	p := startProgram(t, programConfig{brreg: up.URL})

	const mcpBody = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_company","arguments":{"country":"NO","id":"923609016"}}}`
	get := func(path string) string {
		return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: wire-test\r\n\r\n"
	}
	for _, tc := range []struct {
		name         string
		req          string
		plain, gathr int64 // writes
		minBody      int
	}{
		{"MCP cached tools/call", "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: wire-test\r\n" +
			"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-06-18\r\n" +
			"Content-Length: " + strconv.Itoa(len(mcpBody)) + "\r\n\r\n" + mcpBody, 2, 1, 6000},
		{"REST lookup under 4 KiB", get("/v1/NO/company/923609016"), 1, 1, 2500},
		{"REST roles over 4 KiB", get("/v1/NO/company/923609016/roles"), 2, 1, 4500},
		{"error answer", get("/v1/NO/company/123"), 1, 1, 100},
	} {
		// Filled through the program's own listener: both servers below
		// answer from the same cache.
		warm, err := http.ReadRequest(bufio.NewReader(strings.NewReader(tc.req)))
		if err != nil {
			t.Fatal(err)
		}
		warm.RequestURI, warm.URL.Scheme, warm.URL.Host = "", "http", strings.TrimPrefix(p.url, "http://")
		p.do(t, warm)

		plainAddr, plainAcc := wireServer(t, p.handler, false)
		gathAddr, gathAcc := wireServer(t, p.handler, true)
		plain, plainWrites := wireExchange(t, plainAddr, plainAcc, tc.req)
		gathered, gathWrites := wireExchange(t, gathAddr, gathAcc, tc.req)
		if diff := cmp.Diff(plain, gathered); diff != "" {
			t.Errorf("%s: bytes on the wire (-plain +gathering):\n%s", tc.name, diff)
		}
		if got := []int64{plainWrites, gathWrites}; !cmp.Equal(got, []int64{tc.plain, tc.gathr}) {
			t.Errorf("%s: writes plain, gathering = %v; want [%d %d]", tc.name, got, tc.plain, tc.gathr)
		}
		if _, b, _ := strings.Cut(gathered, "\r\n\r\n"); len(b) < tc.minBody {
			t.Errorf("%s: a body of %d bytes, want at least %d: %.200q", tc.name, len(b), tc.minBody, gathered)
		}
	}
}

// manyRoles is the recorded roles of 923609016 with each group's roles
// given n times: a board with many members, a REST answer over 4 KiB.
func manyRoles(t *testing.T, n int) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(testdata(t, "brreg_roller_923609016_anonymised.json"), &doc); err != nil {
		t.Fatal(err)
	}
	for _, g := range doc["rollegrupper"].([]any) {
		g := g.(map[string]any)
		roles := g["roller"].([]any)
		for range n - 1 {
			g["roller"] = append(g["roller"].([]any), roles...)
		}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestServeListensThroughOnewrite: the program's listener gathers (what
// that does to its answers: TestOneWriteSameWire).
func TestServeListensThroughOnewrite(t *testing.T) {
	t.Parallel()
	ln, err := listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if _, ok := ln.(*onewrite.Listener); !ok {
		t.Errorf("listen returns a %T, not an *onewrite.Listener", ln)
	}
}
