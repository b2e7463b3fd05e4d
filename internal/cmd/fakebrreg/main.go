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
// For change monitoring (the replicas script, .ci/changes-replicas.sh) it
// serves Brønnøysund's update feeds under the prefix (package
// internal/brregfeed): POST <prefix>/oppdateringer/enheter?organisasjonsnummer=N
// with a JSON object of fields (e.g. {"navn":"NEW NAME ASA"}) publishes
// an update of unit N, whose record answers those fields from then on.
// With -roles it answers GET <prefix>/enheter/{id}/roller with a recorded
// roles answer, its own number replaced by id.
//
// It listens on -addr (default 127.0.0.1:0, a free port) and prints
// "http://host:port" + -prefix, the base URL to give the server as
// BRREG_BASE_URL, as the first line on stdout. SIGINT or SIGTERM stops it.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/companyregistry/registry/internal/brregfeed"
	"github.com/companyregistry/registry/internal/command"
)

// recordedID is the number of the unit in the recording.
const recordedID = "923609016"

func main() { command.Main(run) }

// run is the program; it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fakebrreg", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	unit := fs.String("unit", "", "recorded GET /enheter/"+recordedID+" body (required)")
	prefix := fs.String("prefix", "/enhetsregisteret/api", "path prefix of the API, as in the real base URL")
	faults := fs.Bool("faults", false, "inject 5xx answers, timeouts, slow and broken bodies by unit number (see FaultOf)")
	rolesFile := fs.String("roles", "", "recorded GET /enheter/"+recordedID+"/roller body (default: roles are 404)")
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
	var roles []byte
	if *rolesFile != "" {
		if roles, err = os.ReadFile(*rolesFile); err != nil {
			fmt.Fprintf(stderr, "fakebrreg: -roles: %v\n", err)
			return 2
		}
	}
	h := newHandler(body, *prefix, *faults, *delay)
	h.roles = roles
	h.withFeed(brregfeed.New(nil))
	if err := command.Serve(ctx, *addr, strings.TrimRight(*prefix, "/"), h, stdout, 5*time.Second); err != nil {
		fmt.Fprintf(stderr, "fakebrreg: %v\n", err)
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

// handler is the fake register: [newHandler]'s routes, and with feed
// set the update feeds and their publications, which change the units'
// records; with roles set, the roles of every unit.
type handler struct {
	mux   *http.ServeMux
	api   string
	feed  *brregfeed.Feed
	feedH http.Handler // feed's routes
	roles []byte
}

// withFeed serves feed's update feeds and applies its publications to the
// units.
func (h *handler) withFeed(feed *brregfeed.Feed) {
	h.feed, h.feedH = feed, feed.Handler(h.api)
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.feed != nil && strings.HasPrefix(r.URL.Path, h.api+"/oppdateringer/") {
		h.feedH.ServeHTTP(w, r)
		return
	}
	if id, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, h.api+"/enheter/"), "/roller"); ok && h.roles != nil &&
		r.Method == http.MethodGet && len(id) == 9 && strings.Trim(id, "0123456789") == "" {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(bytes.ReplaceAll(h.roles, []byte(recordedID), []byte(id)))
		return
	}
	h.mux.ServeHTTP(w, r)
}

// newHandler serves body for every nine-digit unit under prefix, an empty
// search page, and the count of the unit requests at /count; with faults,
// the faults of [FaultOf]. A unit's answer waits delay first.
func newHandler(body []byte, prefix string, faults bool, delay time.Duration) *handler {
	var n atomic.Int64
	var held sync.Map // unit id -> time.Duration, with a delay
	api := strings.TrimRight(prefix, "/")
	h := &handler{api: api}
	mux := http.NewServeMux()
	h.mux = mux
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
		if h.feed != nil {
			var err error
			if unit, err = h.feed.Unit(id, unit); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
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
	return h
}
