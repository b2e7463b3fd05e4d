package countrytest

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

// Answer is one recorded answer of a fake register.
type Answer struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// Header holds the response headers. A Content-Type of
	// application/json is added when Body is not empty and Header sets
	// none.
	Header http.Header
	// Body is the response body.
	Body []byte
}

// Replay is an [http.RoundTripper] that answers from recorded answers, for
// building a module over a fake register without a network. Build one with
// [NewReplay] and give it to the module as the transport of its HTTP client
// (for example no.WithHTTPClient(&http.Client{Transport: r})). A Replay is
// safe for concurrent use.
//
// A request is answered by the answer recorded under its path and query
// ("/enheter?navn=equinor&size=5"), else under its path alone
// ("/enheter/923609016"), else with 404 and an empty body. A request with a
// body, such as the POST of a register searched with a query document, is
// first looked up under its path, a space and its body exactly
// (`/virksomhed/_search {"query":{...}}`), so that two queries to one
// path get their own answers; the body is read up to [MaxReplayBody]
// bytes. The path is the
// request URL's path, so the module's base URL may have any host; its own
// path prefix is part of the key. A request whose context is done gets the
// context's error, as from a real transport.
type Replay struct {
	mu      sync.Mutex
	answers map[string]Answer
	calls   int
}

// NewReplay returns a Replay that serves answers, keyed by path or by path
// and query. The map is copied.
func NewReplay(answers map[string]Answer) *Replay {
	r := &Replay{answers: make(map[string]Answer, len(answers))}
	for k, a := range answers {
		r.answers[k] = a
	}
	return r
}

// MaxReplayBody bounds the part of a request body a [Replay] reads to
// find its answer.
const MaxReplayBody = 1 << 20

// RoundTrip implements [http.RoundTripper].
func (r *Replay) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(io.LimitReader(req.Body, MaxReplayBody))
		_ = req.Body.Close()
	}
	r.mu.Lock()
	r.calls++
	a, ok := Answer{}, false
	if len(body) > 0 {
		a, ok = r.answers[req.URL.Path+" "+string(body)]
	}
	if !ok {
		a, ok = r.answers[req.URL.Path+"?"+req.URL.RawQuery]
	}
	if !ok {
		a, ok = r.answers[req.URL.Path]
	}
	r.mu.Unlock()
	if !ok {
		a = Answer{Status: http.StatusNotFound}
	}
	return a.response(req), nil
}

// Calls returns the number of requests answered so far, including those
// answered with 404.
func (r *Replay) Calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls
}

// response builds the *http.Response of a for req.
func (a Answer) response(req *http.Request) *http.Response {
	status := a.Status
	if status == 0 {
		status = http.StatusOK
	}
	h := a.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	if len(a.Body) > 0 && h.Get("Content-Type") == "" {
		h.Set("Content-Type", "application/json")
	}
	return &http.Response{
		Status:        http.StatusText(status),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(a.Body)),
		ContentLength: int64(len(a.Body)),
		Request:       req,
	}
}
