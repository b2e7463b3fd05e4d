// Command fakebrreg is a fake Brønnøysund register (Enhetsregisteret) on
// loopback for the scale-out check (.ci/scale-out.sh): it answers
// GET <prefix>/enheter/{id} for any nine-digit id with a recorded unit
// (the -unit file, its own number replaced by id), counts those requests,
// and tells the count at GET /count as {"requests":N}. Anything else is 404.
//
//	fakebrreg -unit examples/server/testdata/brreg_enhet_923609016.json
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
	if err := fs.Parse(args); err != nil {
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
	srv := &http.Server{Handler: newHandler(body, *prefix), ReadHeaderTimeout: 5 * time.Second}
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

// newHandler serves body for every nine-digit unit under prefix and the
// count of those requests at /count.
func newHandler(body []byte, prefix string) http.Handler {
	var n atomic.Int64
	units := strings.TrimRight(prefix, "/") + "/enheter/"
	mux := http.NewServeMux()
	mux.HandleFunc("GET /count", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"requests":%d}`+"\n", n.Load())
	})
	mux.HandleFunc("GET "+units+"{id}", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if _, err := strconv.ParseUint(id, 10, 64); err != nil || len(id) != 9 {
			http.NotFound(w, r)
			return
		}
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(bytes.ReplaceAll(body, []byte(recordedID), []byte(id)))
	})
	return mux
}
