package perf

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/cache"
	"github.com/companyregistry/registry/countries/no"
	"github.com/companyregistry/registry/mcpserver"
	"github.com/companyregistry/registry/restserver"
)

// equinorID is the organisation number in the recording.
const equinorID = "923609016"

// fakeBase is the base URL of the in-process fake register (see
// [brreg.RoundTrip]); no request to it leaves the process.
const fakeBase = "http://brreg.test/enhetsregisteret/api"

// orgNrs returns n distinct valid Norwegian organisation numbers, none of
// them Equinor's, counting up from 800000000 and skipping the bases whose
// MOD11 check digit would be 10.
func orgNrs(n int) []string {
	weights := [8]int{3, 2, 7, 6, 5, 4, 3, 2}
	out := make([]string, 0, n)
	for base := 80000000; len(out) < n; base++ {
		s := strconv.Itoa(base)
		sum := 0
		for i := range 8 {
			sum += int(s[i]-'0') * weights[i]
		}
		check := (11 - sum%11) % 11
		if check == 10 {
			continue
		}
		out = append(out, s+strconv.Itoa(check))
	}
	return out
}

// brreg is a fake Enhetsregisteret. GET .../enheter/{orgnr} answers the
// Equinor recording with its organisation number replaced by orgnr, after
// delay and, when release is not nil, after release is closed; every other
// request is a 404. It counts the requests it receives. It serves both as
// an http.Handler (behind httptest.Server) and as an http.RoundTripper (in
// process, without sockets).
type brreg struct {
	body     []byte
	delay    time.Duration
	release  chan struct{}
	requests atomic.Int64
}

func newBrreg(t testing.TB) *brreg {
	t.Helper()
	b, err := os.ReadFile("testdata/brreg_enhet_923609016.json")
	if err != nil {
		t.Fatal(err)
	}
	return &brreg{body: b}
}

func (u *brreg) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	u.requests.Add(1)
	if u.release != nil {
		<-u.release
	}
	if u.delay > 0 {
		time.Sleep(u.delay)
	}
	_, id, ok := strings.Cut(r.URL.Path, "/enheter/")
	if !ok || len(id) != 9 || strings.Contains(r.URL.Path, "/underenheter/") {
		http.NotFound(w, r)
		return
	}
	body := bytes.ReplaceAll(u.body, []byte(equinorID), []byte(id))
	w.Header().Set("Content-Type", "application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = w.Write(body)
}

// RoundTrip answers req in process.
func (u *brreg) RoundTrip(req *http.Request) (*http.Response, error) {
	w := httptest.NewRecorder()
	u.ServeHTTP(w, req)
	return w.Result(), nil
}

// newNorway builds a Registry over the real Norwegian module talking to the
// register at base through client, with the given cache (nil: the
// default).
func newNorway(t testing.TB, base string, client *http.Client, c cache.Cache, more ...registry.Option) *registry.Registry {
	t.Helper()
	nc, err := no.New(no.WithBaseURL(base), no.WithHTTPClient(client))
	if err != nil {
		t.Fatal(err)
	}
	// The longest attempt timeout: no answer of a fake register, however
	// loaded the machine, is cut short and retried.
	opts := []registry.Option{registry.WithRetryPause(0), registry.WithUpstreamTimeout(time.Minute)}
	if c != nil {
		opts = append(opts, registry.WithCache(c))
	}
	opts = append(opts, more...)
	reg, err := registry.New([]registry.Country{nc}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// newREST builds the REST handler as a deployment runs it: the default
// options, the rate limiter included but set so high that it never refuses.
func newREST(t testing.TB, reg *registry.Registry) http.Handler {
	t.Helper()
	h, err := restserver.New(reg, restserver.WithRateLimit(1<<30))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// newMCP builds the MCP Streamable HTTP handler with the default options.
func newMCP(t testing.TB, reg *registry.Registry) http.Handler {
	t.Helper()
	h, err := mcpserver.Handler(reg)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// lookupCall is the MCP tools/call of a Norwegian lookup of id.
func lookupCall(id string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_company","arguments":{"id":"` + id + `"}}}`
}

// mcpRequest builds the POST of body that an MCP client sends.
func mcpRequest(ctx context.Context, url, body string) *http.Request {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		panic(err) // a constant URL; a failure is a defect of the test
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	return req
}

// discard is a ResponseWriter that keeps the status and throws the body
// away, so that in-process benchmarks measure the handler, not a recorder.
type discard struct {
	h      http.Header
	status int
	n      int
}

func (d *discard) Header() http.Header { return d.h }

func (d *discard) WriteHeader(code int) {
	if d.status == 0 {
		d.status = code
	}
}

func (d *discard) Write(b []byte) (int, error) {
	if d.status == 0 {
		d.status = http.StatusOK
	}
	d.n += len(b)
	return len(b), nil
}

// reset readies d for the next request.
func (d *discard) reset() {
	clear(d.h)
	d.status, d.n = 0, 0
}

// readAll reads and closes a response body.
func readAll(t testing.TB, res *http.Response) []byte {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
