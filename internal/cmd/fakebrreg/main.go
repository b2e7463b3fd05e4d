// Command fakebrreg is a fake Brønnøysund register (Enhetsregisteret) on
// loopback for the scale-out check (.ci/scale-out.sh): it answers
// GET <prefix>/enheter/{id} for any nine-digit id with a recorded unit
// (the -unit file, its own number replaced by id), counts those requests,
// and tells the count at GET /count as {"requests":N}. GET <prefix>/enheter
// (a search) answers an empty page. Anything else is 404.
//
//	fakebrreg -unit examples/server/testdata/brreg_enhet_923609016.json
//
// With -faults (for the soak test, .ci/soak.sh), a unit whose first eight
// digits end in 91 answers 503, in 92 never answers (until the client
// gives up, at most a minute), in 93 sends its body slowly (half, a pause
// of 300 ms, the rest) and in 94 breaks its body off halfway; see
// [FaultOf]. With -delay (for the cold-lookup benchmark,
// .ci/perf-bench.sh), every unit's answer is held that long, and
// GET /held/{id} tells how long the last request for unit id took in the
// handler, from its start to the end of writing the answer, as
// {"ns":N} (404 for a unit not asked for).
//
// It listens on -addr (default 127.0.0.1:0, a free port) and prints
// "http://host:port" + -prefix, the base URL to give the server as
// BRREG_BASE_URL, as the first line on stdout. SIGINT or SIGTERM stops it.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// recordedID is the number of the unit in the recording.
const recordedID = "923609016"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the program; it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fakebrreg", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	unit := fs.String("unit", "", "recorded GET /enheter/"+recordedID+" body (required)")
	prefix := fs.String("prefix", "/enhetsregisteret/api", "path prefix of the API, as in the real base URL")
	faults := fs.Bool("faults", false, "inject 5xx answers, timeouts, slow and broken bodies by unit number (see FaultOf)")
	delay := fs.Duration("delay", 0, "hold every unit's answer this long before sending it (the cold-lookup benchmark)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *delay < 0 || *delay > time.Minute {
		fmt.Fprintf(stderr, "fakebrreg: -delay %v is not between 0 and 1m\n", *delay)
		return 2
	}
	body, err := os.ReadFile(*unit)
	if err != nil || !bytes.Contains(body, []byte(recordedID)) {
		fmt.Fprintf(stderr, "fakebrreg: -unit must name a recorded unit %s: %v\n", recordedID, err)
		return 2
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "fakebrreg: %v\n", err)
		return 1
	}
	srv := &http.Server{Handler: newHandler(body, *prefix, *faults, *delay), ReadHeaderTimeout: 5 * time.Second}
	fmt.Fprintf(stdout, "http://%s%s\n", ln.Addr(), strings.TrimRight(*prefix, "/"))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "fakebrreg: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return 1
	}
	return 0
}

// Fault is what -faults makes the fake do for a unit.
type Fault int

// The faults, chosen by the unit number (see [FaultOf]).
const (
	FaultNone       Fault = iota
	Fault503              // answers 503 Service Unavailable
	FaultTimeout          // answers nothing until the client gives up
	FaultSlowBody         // sends half the body, pauses 300 ms, sends the rest
	FaultBrokenBody       // sends half the body and closes the connection
)

// How long the faults take: a timeout answers at most after a minute, a
// slow body pauses for 300 ms.
const (
	faultTimeoutBound = time.Minute
	slowBodyPause     = 300 * time.Millisecond
)

// FaultOf returns the fault of a nine-digit unit number: by the last two
// of its first eight digits (the ninth is a check digit), 91 to 94.
func FaultOf(id string) Fault {
	if len(id) != 9 {
		return FaultNone
	}
	switch id[6:8] {
	case "91":
		return Fault503
	case "92":
		return FaultTimeout
	case "93":
		return FaultSlowBody
	case "94":
		return FaultBrokenBody
	}
	return FaultNone
}

// emptySearch is an empty page of GET /enheter, as Brønnøysund answers it.
const emptySearch = `{"_links":{"self":{"href":"https://data.brreg.no/enhetsregisteret/api/enheter"}},` +
	`"page":{"size":0,"totalElements":0,"totalPages":0,"number":0}}`

// newHandler serves body for every nine-digit unit under prefix, an empty
// search page, and the count of the unit requests at /count; with faults,
// the faults of [FaultOf]. A unit's answer waits delay first.
func newHandler(body []byte, prefix string, faults bool, delay time.Duration) http.Handler {
	var n atomic.Int64
	var held sync.Map // unit id -> time.Duration, with a delay
	api := strings.TrimRight(prefix, "/")
	mux := http.NewServeMux()
	if delay > 0 {
		mux.HandleFunc("GET /held/{id}", func(w http.ResponseWriter, r *http.Request) {
			d, ok := held.Load(r.PathValue("id"))
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"ns":%d}`+"\n", d)
		})
	}
	mux.HandleFunc("GET /count", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"requests":%d}`+"\n", n.Load())
	})
	mux.HandleFunc("GET "+api+"/enheter", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, emptySearch)
	})
	mux.HandleFunc("GET "+api+"/enheter/{id}", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if _, err := strconv.ParseUint(id, 10, 64); err != nil || len(id) != 9 {
			http.NotFound(w, r)
			return
		}
		n.Add(1)
		if delay > 0 {
			start := time.Now()
			defer func() { held.Store(id, time.Since(start)) }()
			t := time.NewTimer(delay)
			select {
			case <-r.Context().Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
		unit := bytes.ReplaceAll(body, []byte(recordedID), []byte(id))
		fault := FaultNone
		if faults {
			fault = FaultOf(id)
		}
		switch fault {
		case Fault503:
			http.Error(w, "503 Service Unavailable", http.StatusServiceUnavailable)
			return
		case FaultTimeout:
			t := time.NewTimer(faultTimeoutBound)
			defer t.Stop()
			select {
			case <-r.Context().Done():
			case <-t.C:
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(unit)))
		half := len(unit) / 2
		switch fault {
		case FaultSlowBody:
			_, _ = w.Write(unit[:half])
			http.NewResponseController(w).Flush() //nolint:errcheck // best effort: the pause is what counts
			t := time.NewTimer(slowBodyPause)
			defer t.Stop()
			select {
			case <-r.Context().Done():
				return
			case <-t.C:
			}
			_, _ = w.Write(unit[half:])
		case FaultBrokenBody:
			_, _ = w.Write(unit[:half])
			http.NewResponseController(w).Flush() //nolint:errcheck // best effort
			panic(http.ErrAbortHandler)           // closes the connection mid-body
		default:
			_, _ = w.Write(unit)
		}
	})
	return mux
}
