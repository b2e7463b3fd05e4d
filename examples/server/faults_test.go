package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/internal/seal"
	"github.com/companyregistry/registry/internal/testwait"
)

// faultUpstream is a register that answers its one entity according to a
// switchable fault mode.
type faultUpstream struct {
	path, contentType string
	good              []byte
	// static answers other paths 200 with their body (the lookup before
	// a roles call); every other path is 404.
	static map[string][]byte

	mu   sync.Mutex
	mode string
}

func (u *faultUpstream) set(mode string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.mode = mode
}

// requestCounter is an http.RoundTripper that counts the requests the
// modules send for one path, on the program's side: a request counts when
// an attempt sends it, whether or not it reaches the register before the
// attempt's deadline.
type requestCounter struct {
	path string
	next http.RoundTripper
	n    atomic.Int64
}

func (c *requestCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path == c.path {
		c.n.Add(1)
	}
	return c.next.RoundTrip(r)
}

func (c *requestCounter) count() int { return int(c.n.Load()) }

func (u *faultUpstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if b, ok := u.static[r.URL.Path]; ok && r.URL.Path != u.path {
		w.Header().Set("Content-Type", u.contentType)
		_, _ = w.Write(b)
		return
	}
	if r.URL.Path != u.path {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	u.mu.Lock()
	mode := u.mode
	u.mu.Unlock()
	answer := func(status int, contentType string, body []byte) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}
	switch mode {
	case "ok":
		answer(http.StatusOK, u.contentType, u.good)
	case "500", "502", "503":
		status, _ := strconv.Atoi(mode)
		answer(status, "text/plain", []byte("upstream trouble"))
	case "hang past the timeout":
		<-r.Context().Done() // the program gives up, or the test ends
	case "connection closed mid-body":
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", u.contentType, len(u.good))
		_, _ = buf.Write(u.good[:len(u.good)/2])
		_ = buf.Flush()
		_ = conn.Close()
	case "malformed JSON":
		answer(http.StatusOK, u.contentType, []byte(`{"navn": "EQUINOR ASA", "company_name": }`))
	case "truncated JSON":
		answer(http.StatusOK, u.contentType, u.good[:len(u.good)/2])
	case "body over 4 MiB":
		w.Header().Set("Content-Type", u.contentType)
		_, _ = io.WriteString(w, `{"navn":"`)
		chunk := strings.Repeat("A", 64<<10)
		for range (4<<20)/len(chunk) + 1 {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
		_, _ = io.WriteString(w, `"}`)
	case "HTML error page":
		answer(http.StatusOK, "text/html; charset=utf-8", []byte("<html><body><h1>502 Bad Gateway</h1></body></html>"))
	case "JSON sent as text/html":
		answer(http.StatusOK, "text/html", u.good)
	case "redirect loop":
		w.Header().Set("Location", r.URL.Path)
		w.WriteHeader(http.StatusFound)
	case "429":
		w.Header().Set("Retry-After", "7")
		answer(http.StatusTooManyRequests, "application/json", []byte(`{}`))
	default:
		panic("unknown mode " + mode)
	}
}

// TestFaultMatrix (issue #9): for each upstream fault, through the whole
// program (real modules, REST and MCP handlers, HTTP server), for lookups,
// searches and roles in Norway and the United Kingdom, the REST answer and the MCP tool result carry the right
// envelope, after exactly one retry where the fault is retryable and none
// where it is not, and the next good answer of the register is served, not
// a cached failure.
//
// No answer is timed. Every fault but the hang is answered without waiting
// for the attempt timeout: the timeout is a minute (the longest), and a
// failure that had waited for it would be upstream_timeout, not the
// expected code. The hang is answered because the timeout ends it: the
// register never answers, so only the attempt timeout can end the call.
func TestFaultMatrix(t *testing.T) {
	t.Parallel()
	type want struct {
		status int
		code   registry.Code
		calls  int // upstream requests for the failing call, the retry included
	}
	retried := func(code registry.Code) want { return want{status: code.HTTPStatus(), code: code, calls: 2} }
	cases := []struct {
		mode string
		want want
	}{
		{"500", retried(registry.CodeUpstreamError)},
		{"502", retried(registry.CodeUpstreamError)},
		{"503", retried(registry.CodeUpstreamError)},
		{"hang past the timeout", retried(registry.CodeUpstreamTimeout)},
		{"connection closed mid-body", retried(registry.CodeUpstreamError)},
		{"malformed JSON", retried(registry.CodeUpstreamError)},
		{"truncated JSON", retried(registry.CodeUpstreamError)},
		{"body over 4 MiB", retried(registry.CodeUpstreamError)},
		{"HTML error page", retried(registry.CodeUpstreamError)},
		{"JSON sent as text/html", retried(registry.CodeUpstreamError)},
		{"redirect loop", want{status: 502, code: registry.CodeUpstreamError, calls: 1}},
		{"429", want{status: 429, code: registry.CodeRateLimited, calls: 1}},
	}
	targets := []struct {
		name, country, registry string
		rest, upstream          string // the REST path, and the upstream path it calls
		contentType, fixture    string // the good answer
		want                    string // a substring of the good REST answer
		tool                    string
		args                    map[string]any
	}{
		{"NO lookup", "NO", "brreg", "/v1/NO/company/923609016", "/enheter/923609016",
			"application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8", "brreg_enhet_923609016.json", `"name":"EQUINOR ASA"`,
			"lookup_company", map[string]any{"country": "NO", "id": "923609016"}},
		{"NO search", "NO", "brreg", "/v1/NO/search?q=digitaliseringsdirektoratet&limit=1", "/enheter",
			"application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8", "brreg_search_digitaliseringsdirektoratet.json", `"hits":[{`,
			"search_company", map[string]any{"country": "NO", "name": "digitaliseringsdirektoratet", "limit": 1}},
		{"GB lookup", "GB", "companieshouse", "/v1/GB/company/08957400", "/company/08957400",
			"application/json", "ch_company_08957400.json", `"id":"08957400"`,
			"lookup_company", map[string]any{"country": "GB", "id": "08957400"}},
		{"GB search", "GB", "companieshouse", "/v1/GB/search?q=bbc&limit=3", "/search/companies",
			"application/json", "ch_search_bbc.json", `"hits":[{`,
			"search_company", map[string]any{"country": "GB", "name": "bbc", "limit": 3}},
		// Roles (issue 16): the lookup before the roles call answers well
		// (static below); the fault hits the roles list itself.
		{"NO roles", "NO", "brreg", "/v1/NO/company/923609016/roles", "/enheter/923609016/roller",
			"application/json", "brreg_roller_923609016_anonymised.json", `"role_code":"LEDE"`,
			"company_roles", map[string]any{"country": "NO", "id": "923609016"}},
		{"GB roles", "GB", "companieshouse", "/v1/GB/company/08957400/roles", "/company/08957400/officers",
			"application/json", "ch_officers_04475590.json", `"role_code":"director"`,
			"company_roles", map[string]any{"country": "GB", "id": "08957400"}},
	}
	static := map[string]map[string]string{
		"NO roles": {"/enheter/923609016": "brreg_enhet_923609016.json"},
		"GB roles": {"/company/08957400": "ch_company_08957400.json",
			"/company/08957400/persons-with-significant-control": "ch_psc_list_empty.json"},
	}
	for _, c := range targets {
		for _, tt := range cases {
			t.Run(c.name+"/"+tt.mode, func(t *testing.T) {
				t.Parallel()
				up := &faultUpstream{path: c.upstream, contentType: c.contentType, good: testdata(t, c.fixture), mode: tt.mode,
					static: map[string][]byte{}}
				for path, file := range static[c.name] {
					up.static[path] = testdata(t, file)
				}
				upstream := httptest.NewServer(up)
				t.Cleanup(upstream.Close)
				tr := http.DefaultTransport.(*http.Transport).Clone()
				t.Cleanup(tr.CloseIdleConnections)
				requests := &requestCounter{path: c.upstream, next: tr}
				pc := programConfig{brreg: upstream.URL, ch: upstream.URL, key: "fault-matrix-key", transport: requests}
				// p has the longest attempt timeout (startProgram's). Where
				// the fault is a hang, the failing calls go through a program
				// of its own with a short one, and the recovery call through
				// p on the same cache: it then shows that the hung program
				// cached no failure, and no loaded machine can make its good
				// answer look like a hang.
				p := startProgram(t, pc)
				failing := p
				if tt.want.code == registry.CodeUpstreamTimeout {
					shared, err := cache.NewMemory()
					if err != nil {
						t.Fatal(err)
					}
					hang := pc
					hang.regOpts = []registry.Option{registry.WithCache(shared), registry.WithUpstreamTimeout(100 * time.Millisecond)}
					failing = startProgram(t, hang)
					pc.regOpts = []registry.Option{registry.WithCache(shared)}
					p = startProgram(t, pc)
					if lookup, ok := strings.CutSuffix(c.rest, "/roles"); ok {
						// The lookup before the roles call is cached first, so
						// that the short timeout bounds only the roles call.
						if res := p.get(t, lookup); res.status != http.StatusOK {
							t.Fatalf("the lookup before roles: %d %.200s", res.status, res.body)
						}
					}
				}

				res := failing.get(t, c.rest)
				if res.status != tt.want.status {
					t.Errorf("status %d, want %d: %s", res.status, tt.want.status, res.body)
				}
				e := envelope(t, res.body)
				if e.Code != tt.want.code || e.Country != c.country || e.Registry != c.registry {
					t.Errorf("envelope %s/%s/%s, want %s/%s/%s", e.Code, e.Country, e.Registry, tt.want.code, c.country, c.registry)
				}
				if ct, cc := res.header.Get("Content-Type"), res.header.Get("Cache-Control"); ct != "application/json" || cc != "no-store" {
					t.Errorf("Content-Type %q, Cache-Control %q; want application/json, no-store", ct, cc)
				}
				if tt.want.code == registry.CodeRateLimited {
					if e.RetryAfter() != 7 || res.header.Get("Retry-After") != "7" {
						t.Errorf("retry_after %d, Retry-After %q; want 7 from the register", e.RetryAfter(), res.header.Get("Retry-After"))
					}
				}
				if got := requests.count(); got != tt.want.calls {
					t.Errorf("upstream requests %d, want %d", got, tt.want.calls)
				}

				// MCP: nothing was cached, so the tool call meets the same
				// fault and answers the same envelope as an isError result.
				res = failing.mcp(t, "tools/call", map[string]any{"name": c.tool, "arguments": c.args})
				var rpc struct {
					Result struct {
						IsError bool
						Content []struct{ Text string }
					}
				}
				if err := json.Unmarshal([]byte(res.body), &rpc); err != nil || !rpc.Result.IsError || len(rpc.Result.Content) != 1 {
					t.Fatalf("MCP %s: %d %.300s", c.tool, res.status, res.body)
				}
				if e := envelope(t, rpc.Result.Content[0].Text); e.Code != tt.want.code || e.Country != c.country {
					t.Errorf("MCP envelope %s/%s, want %s/%s", e.Code, e.Country, tt.want.code, c.country)
				}
				if got := requests.count(); got != 2*tt.want.calls {
					t.Errorf("upstream requests after the MCP call %d, want %d", got, 2*tt.want.calls)
				}

				// The register recovers: the next call reaches it and gets
				// the good answer; no failure was cached.
				up.set("ok")
				res = p.get(t, c.rest)
				if res.status != http.StatusOK || !strings.Contains(res.body, c.want) || !strings.Contains(res.body, `"cached":false`) {
					t.Errorf("after recovery: %d %.200s", res.status, res.body)
				}
				if got := requests.count(); got != 2*tt.want.calls+1 {
					t.Errorf("upstream requests after recovery %d, want %d", got, 2*tt.want.calls+1)
				}
			})
		}
	}
}

// TestDisconnectingClientKeepsSharedFetch (issue #9): two clients ask for
// the same unit while the register is slow. The first hangs up: the server
// stops waiting for it (its request ends with 504 in the access log while
// the fetch is still running), but the one shared upstream request goes on
// uncancelled and the second client gets the live answer (cached false,
// one upstream request in all).
func TestDisconnectingClientKeepsSharedFetch(t *testing.T) {
	t.Parallel()
	good := testdata(t, "brreg_enhet_923609016.json")
	started := make(chan struct{}, 4)
	release := make(chan struct{})
	releaseOnce := sync.OnceFunc(func() { close(release) })
	t.Cleanup(releaseOnce) // a failed test frees the handler
	upstreamCancelled := make(chan bool, 4)
	var mu sync.Mutex
	calls := 0
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		mu.Unlock()
		started <- struct{}{}
		<-release
		upstreamCancelled <- r.Context().Err() != nil
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(good)
	}))
	t.Cleanup(upstream.Close)
	// The longest attempt timeout (startProgram's): the shared fetch must
	// outlive the first client, however long a loaded machine takes.
	p := startProgram(t, programConfig{brreg: upstream.URL})

	path := "/v1/NO/company/923609016"
	ctxA, cancelA := context.WithCancel(t.Context())
	errA := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctxA, http.MethodGet, p.url+path, nil)
		res, err := p.client.Do(req)
		if err == nil {
			res.Body.Close()
		}
		errA <- err
	}()
	testwait.Recv(t, started, "the first request at the register")
	resB := make(chan response, 1)
	go func() { resB <- p.get(t, path) }()
	// B joins the fetch in flight: counted on this program's Registry (a
	// count of the goroutines waiting in any fetch of the process also
	// counted a parallel test's, and let B find the answer cached).
	testwait.Until(t, "the second client joins the fetch in flight", func() bool {
		return p.reg.Internal(seal.Key{}).FetchCallers() >= 2
	})

	cancelA()
	if err := testwait.Recv(t, errA, "the first client's end"); err == nil {
		t.Error("the first client's request succeeded after it hung up")
	}
	// The register still holds the fetch: the server ends the hung-up
	// request (499 in the access log) while the fetch runs.
	testwait.Until(t, "the server ends the hung-up request while the fetch runs", func() bool {
		return strings.Contains(p.log.String(), `"status":499`)
	})
	releaseOnce()
	if cancelled := testwait.Recv(t, upstreamCancelled, "the upstream request's end"); cancelled {
		t.Error("the shared upstream request was cancelled with the first client")
	}
	b := testwait.Recv(t, resB, "the second client's answer")
	if b.status != 200 || !strings.Contains(b.body, `"cached":false`) || !strings.Contains(b.body, "EQUINOR ASA") {
		t.Errorf("second client: %d %.200s; want the live answer of the shared fetch", b.status, b.body)
	}
	mu.Lock()
	defer mu.Unlock()
	if calls != 1 {
		t.Errorf("upstream requests %d, want 1 shared fetch", calls)
	}
}

// TestHugeRequestsRefused (issue #9): a request line or headers beyond the
// server's 16 KiB limit are refused with 431 before any handler runs; an
// oversized identifier or query inside the limit is a 400 envelope and
// never reaches the register; an MCP body over 1 MiB is refused with 413.
func TestHugeRequestsRefused(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	calls := 0
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		calls++
		mu.Unlock()
		w.WriteHeader(http.StatusInternalServerError)
	}))
	t.Cleanup(upstream.Close)
	p := startProgram(t, programConfig{brreg: upstream.URL})
	big := strings.Repeat("9", 20<<10)
	mid := strings.Repeat("9", 8<<10)
	for _, tt := range []struct {
		name, path string
		header     string // value of a large X-Padding header, if any
		want       int
		code       registry.Code
	}{
		{name: "huge path", path: "/v1/NO/company/" + big, want: http.StatusRequestHeaderFieldsTooLarge},
		{name: "huge query", path: "/v1/NO/search?q=" + big, want: http.StatusRequestHeaderFieldsTooLarge},
		{name: "huge header", path: "/health", header: big, want: http.StatusRequestHeaderFieldsTooLarge},
		{name: "long identifier", path: "/v1/NO/company/" + mid, want: 400, code: registry.CodeInvalidID},
		{name: "long query", path: "/v1/NO/search?q=" + mid, want: 400, code: registry.CodeBadRequest},
		{name: "long deadlines date", path: "/v1/NO/company/923609016/deadlines?today=" + mid, want: 400, code: registry.CodeBadRequest},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, p.url+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.header != "" {
				req.Header.Set("X-Padding", tt.header)
			}
			res := p.do(t, req)
			if res.status != tt.want {
				t.Fatalf("status %d, want %d: %.200s", res.status, tt.want, res.body)
			}
			if tt.code != "" {
				if e := envelope(t, res.body); e.Code != tt.code {
					t.Errorf("code %s, want %s", e.Code, tt.code)
				}
			}
		})
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, p.url+"/mcp",
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_company","arguments":{"q":"`+strings.Repeat("a", 2<<20)+`"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if res := p.do(t, req); res.status != http.StatusRequestEntityTooLarge {
		t.Errorf("MCP body of 2 MiB: status %d, want 413: %.200s", res.status, res.body)
	}
	mu.Lock()
	defer mu.Unlock()
	if calls != 0 {
		t.Errorf("%d requests reached the register", calls)
	}
}

// TestSlowHeadersCutOff (issue #9): through the program's HTTP server (with
// its timeouts shortened), a client that sends its request headers a byte
// at a time, slower than the read-header timeout, is disconnected without
// an answer, while another client is served meanwhile.
//
// Nothing is timed: the read-header timeout is the only short limit (300
// ms; the others are an hour), and the headers never end, so the
// connection can only end by that timeout; the wait for it is bounded only
// by the test's deadline.
func TestSlowHeadersCutOff(t *testing.T) {
	t.Parallel()
	l := defaultLimits()
	l.readHeader, l.read, l.write, l.idle = 300*time.Millisecond, time.Hour, time.Hour, time.Hour
	p := startProgram(t, programConfig{brreg: "http://127.0.0.1:1", limits: l})

	conn, err := net.Dial("tcp", strings.TrimPrefix(p.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	answer := make(chan int64, 1)
	go func() {
		// The reader sees the server close the connection.
		n, _ := io.Copy(io.Discard, bufio.NewReader(conn))
		answer <- n
	}()
	if _, err := io.WriteString(conn, "GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: s"); err != nil {
		t.Fatal(err)
	}
	// Meanwhile another client is served at once.
	if res := p.get(t, "/health"); res.status != 200 {
		t.Errorf("other client: status %d", res.status)
	}
	expired := testwait.Expired(t)
	for {
		select {
		case n := <-answer:
			if n != 0 {
				t.Errorf("the slow client got %d bytes of an answer, want none", n)
			}
			return
		case <-expired:
			t.Fatal("the slow client was never cut off")
		case <-time.After(50 * time.Millisecond):
		}
		if _, err := conn.Write([]byte("s")); err != nil {
			// Cut off; the reader reports the end.
			if n := testwait.Recv(t, answer, "the end of the slow connection"); n != 0 {
				t.Errorf("the slow client got %d bytes of an answer, want none", n)
			}
			return
		}
	}
}

// TestLoad (issue #9): 400 concurrent requests from 40 clients for five
// units (one failing, one unknown) through the program: every answer is
// the unit or the right envelope, and each good unit is fetched from the
// register once (shared fetches, then the cache).
func TestLoad(t *testing.T) {
	t.Parallel()
	good := testdata(t, "brreg_enhet_923609016.json")
	var mu sync.Mutex
	calls := map[string]int{}
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls[r.URL.Path]++
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		switch r.URL.Path {
		case "/enheter/923609016":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(good)
		case "/enheter/974760673":
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(upstream.Close)
	// The longest attempt timeout (startProgram's): however slowly a loaded
	// machine serves 400 requests, no fetch is cut short and retried, so the
	// counts below are exact.
	p := startProgram(t, programConfig{brreg: upstream.URL})
	type probe struct {
		path   string
		status int
		code   registry.Code
	}
	probes := []probe{
		{"/v1/NO/company/923609016", 200, ""},
		{"/v1/NO/company/974760673", 502, registry.CodeUpstreamError},
		{"/v1/NO/company/100000008", 404, registry.CodeNotFound},
		{"/v1/NO/company/923609017", 400, registry.CodeInvalidID},
		{"/v1/NO/search?q=", 400, registry.CodeBadRequest},
	}
	var wg sync.WaitGroup
	errs := make(chan string, 400)
	for client := range 40 {
		wg.Go(func() {
			for i := range 10 {
				pr := probes[(client+i)%len(probes)]
				req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, p.url+pr.path, nil)
				res, err := p.client.Do(req)
				if err != nil {
					errs <- err.Error()
					continue
				}
				b, err := io.ReadAll(res.Body)
				res.Body.Close()
				switch {
				case err != nil:
					errs <- err.Error()
				case res.StatusCode != pr.status:
					errs <- fmt.Sprintf("%s: status %d, want %d", pr.path, res.StatusCode, pr.status)
				case pr.code != "" && !strings.Contains(string(b), `"code":"`+string(pr.code)+`"`):
					errs <- fmt.Sprintf("%s: %.200s", pr.path, b)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	mu.Lock()
	defer mu.Unlock()
	if n := calls["/enheter/923609016"]; n != 1 {
		t.Errorf("the good unit was fetched %d times, want once", n)
	}
	if n := calls["/enheter/100000008"]; n != 1 {
		t.Errorf("the unknown unit was fetched %d times, want once (not_found is cached)", n)
	}
	if n := calls["/enheter/923609017"]; n != 0 {
		t.Errorf("an invalid number reached the register %d times", n)
	}
}

// TestSlowBodyCutOff (issue #9): a client that sends an MCP request body a
// byte at a time is cut off by the server's read timeout (shortened to
// 500 ms here; 10 s in production) instead of holding its handler.
//
// Nothing is timed: the read timeout is the only short limit (the others
// are an hour), and the body, 64 KiB at a byte per 50 ms, would take most
// of an hour, so the connection can only end by that timeout; the wait for
// it is bounded only by the test's deadline.
func TestSlowBodyCutOff(t *testing.T) {
	t.Parallel()
	l := defaultLimits()
	l.readHeader, l.read, l.write, l.idle = time.Hour, 500*time.Millisecond, time.Hour, time.Hour
	p := startProgram(t, programConfig{brreg: "http://127.0.0.1:1", limits: l})

	conn, err := net.Dial("tcp", strings.TrimPrefix(p.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_countries","arguments":{}}}`
	body := call + strings.Repeat(" ", 64<<10-len(call)) // JSON, well below the 1 MiB limit of an MCP body
	head := fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n", len(body))
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, conn)
		close(ended)
	}()
	expired := testwait.Expired(t)
	for i := 0; i < len(body); i++ {
		select {
		case <-ended:
			return
		case <-expired:
			t.Fatal("the slow client was never cut off")
		case <-time.After(50 * time.Millisecond):
		}
		if _, err := conn.Write([]byte{body[i]}); err != nil {
			break
		}
	}
	testwait.Recv(t, ended, "the end of the slow connection")
}
