// Command webhooksink is a webhook receiver on loopback for the
// change-monitoring replicas check (.ci/changes-replicas.sh). It verifies
// each webhook's Standard Webhooks signature with package
// changes/webhook, as a receiver would, and records every request: its
// webhook-id, when it arrived and when it was answered (or its sender went
// away), and what it was answered. From that record the script tells
// whether a webhook-id was ever received twice at the same time, and
// whether each repeat followed a failed attempt.
//
//	POST /hook                  the endpoint a watch sends to
//	POST /control/secret        the watch's signing secret (whsec_…) as the body
//	POST /control/fail?n=N      answer 500 to the next N webhooks (to force retries)
//	POST /control/hold?n=N      hold the next N webhooks open until their sender goes away
//	GET  /control/held          the webhook-ids held open now, one a line
//	GET  /control/log           the record, one request a line (see below)
//
// A webhook whose signature does not verify is answered 401; without a
// secret yet, 503. A held webhook is answered 503 if its sender is still
// there after -hold-bound (default 1m). Every other webhook is answered
// 204. The record's lines have tab-separated fields:
//
//	seq  webhook-id  type  data.id  arrived  answered  outcome  signature
//
// arrived and answered are Unix times in nanoseconds; outcome is the
// status answered, or "gone" when the sender closed the connection
// before the answer (it was killed, or it gave up); signature is "ok",
// "bad" or "nosecret"; type and data.id are read from the body ("-" when
// missing). A request not answered yet has answered "-" and outcome
// "open".
//
// It listens on -addr (default 127.0.0.1:0, a free port) and prints
// "http://host:port" as the first line on stdout. SIGINT or SIGTERM stops
// it.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/internal/command"
)

// maxBody bounds a webhook's body and the control requests' bodies.
const maxBody = 1 << 20

func main() { command.Main(run) }

// run is the program; it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("webhooksink", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	holdBound := fs.Duration("hold-bound", time.Minute, "answer a held webhook 503 after this long if its sender is still there")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *holdBound <= 0 {
		fmt.Fprintf(stderr, "webhooksink: -hold-bound %v is not positive\n", *holdBound)
		return 2
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "webhooksink: %v\n", err)
		return 1
	}
	srv := &http.Server{Handler: newSink(time.Now, *holdBound), ReadHeaderTimeout: 5 * time.Second}
	fmt.Fprintf(stdout, "http://%s\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "webhooksink: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	// Held requests end with the listener's connections.
	sctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	return 0
}

// receipt is one webhook request received.
type receipt struct {
	seq       int
	id, typ   string
	dataID    string
	arrived   time.Time
	answered  time.Time
	outcome   string
	signature string
}

// sink is the receiver's state; safe for concurrent use.
type sink struct {
	now       func() time.Time
	holdBound time.Duration
	mux       *http.ServeMux

	mu       sync.Mutex
	secret   string
	fail     int            // webhooks still to answer 500
	hold     int            // webhooks still to hold
	held     map[int]string // seq -> webhook-id of the requests held now
	receipts []*receipt     // in arrival order
}

func newSink(now func() time.Time, holdBound time.Duration) *sink {
	s := &sink{now: now, holdBound: holdBound, mux: http.NewServeMux(), held: map[int]string{}}
	s.mux.HandleFunc("POST /hook", s.hook)
	s.mux.HandleFunc("POST /control/secret", s.setSecret)
	s.mux.HandleFunc("POST /control/fail", s.setCount(func(n int) { s.fail = n }))
	s.mux.HandleFunc("POST /control/hold", s.setCount(func(n int) { s.hold = n }))
	s.mux.HandleFunc("GET /control/held", s.listHeld)
	s.mux.HandleFunc("GET /control/log", s.writeLog)
	return s
}

func (s *sink) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// hook receives a webhook.
func (s *sink) hook(w http.ResponseWriter, r *http.Request) {
	arrived := s.now()
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		http.Error(w, "body unreadable or too large", http.StatusBadRequest)
		return
	}
	rc := &receipt{id: dash(r.Header.Get(webhook.HeaderID)), arrived: arrived, typ: "-", dataID: "-"}
	var payload struct {
		Type string `json:"type"`
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &payload) == nil {
		rc.typ, rc.dataID = dash(payload.Type), dash(payload.Data.ID)
	}

	s.mu.Lock()
	rc.seq = len(s.receipts) + 1
	s.receipts = append(s.receipts, rc)
	secret := s.secret
	status, hold := http.StatusNoContent, false
	switch {
	case secret == "":
		rc.signature, status = "nosecret", http.StatusServiceUnavailable
	case webhook.Verify(secret, r.Header, body, arrived) != nil:
		rc.signature, status = "bad", http.StatusUnauthorized
	default:
		rc.signature = "ok"
		switch {
		case s.fail > 0:
			s.fail--
			status = http.StatusInternalServerError
		case s.hold > 0:
			s.hold--
			hold = true
			s.held[rc.seq] = rc.id
		}
	}
	s.mu.Unlock()

	if hold {
		status = s.holdOpen(r.Context())
		s.mu.Lock()
		delete(s.held, rc.seq)
		s.mu.Unlock()
	}
	if status != 0 {
		w.WriteHeader(status)
	}
	s.mu.Lock()
	rc.answered = s.now()
	rc.outcome = "gone"
	if status != 0 {
		rc.outcome = strconv.Itoa(status)
	}
	s.mu.Unlock()
}

// holdOpen waits until the sender goes away (it returns 0: nothing to
// answer) or the hold bound passes (503).
func (s *sink) holdOpen(ctx context.Context) int {
	t := time.NewTimer(s.holdBound)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return 0
	case <-t.C:
		return http.StatusServiceUnavailable
	}
}

func dash(v string) string {
	v = strings.Map(func(r rune) rune {
		if r < ' ' {
			return ' '
		}
		return r
	}, v)
	if v == "" {
		return "-"
	}
	return v
}

func (s *sink) setSecret(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	secret := strings.TrimSpace(string(b))
	if err == nil {
		_, err = webhook.ParseSecret(secret)
	}
	if err != nil {
		http.Error(w, "the body is not a whsec_ secret", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.secret = secret
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (s *sink) setCount(set func(int)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.URL.Query().Get("n"))
		if err != nil || n < 0 {
			http.Error(w, "n is not a count", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		set(n)
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}
}

func (s *sink) listHeld(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	var b strings.Builder
	for _, rc := range s.receipts {
		if id, ok := s.held[rc.seq]; ok {
			b.WriteString(id + "\n")
		}
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = io.WriteString(w, b.String())
}

func (s *sink) writeLog(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	var b strings.Builder
	for _, rc := range s.receipts {
		answered, outcome := "-", "open"
		if !rc.answered.IsZero() {
			answered, outcome = strconv.FormatInt(rc.answered.UnixNano(), 10), rc.outcome
		}
		fmt.Fprintf(&b, "%d\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", rc.seq, rc.id, rc.typ, rc.dataID,
			rc.arrived.UnixNano(), answered, outcome, rc.signature)
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/tab-separated-values; charset=utf-8")
	_, _ = io.WriteString(w, b.String())
}
