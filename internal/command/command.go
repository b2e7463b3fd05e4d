// Package command is the boilerplate of the module's small programs
// (internal/cmd/...): a main that stops on SIGINT or SIGTERM, and an HTTP
// server on a free loopback port that prints its URL for the script that
// started it.
package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Main is a program's main: it calls run with the program's arguments,
// stdout and stderr and a context that ends on SIGINT or SIGTERM, then
// exits with the status run returns.
func Main(run func(ctx context.Context, args []string, stdout, stderr io.Writer) int) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Serve listens on addr (host:0 for a free port), writes the line
// "http://" + the address it listens on + suffix to stdout, and serves h
// until ctx ends. Then it shuts the server down, giving requests in flight
// up to grace, and closes every connection still open after that. It
// returns the error of listening or serving, or that of a shutdown that
// did not finish within grace; nil after a clean shutdown.
func Serve(ctx context.Context, addr, suffix string, h http.Handler, stdout io.Writer, grace time.Duration) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	if _, err := fmt.Fprintf(stdout, "http://%s%s\n", ln.Addr(), suffix); err != nil {
		_ = ln.Close()
		return err
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err = srv.Shutdown(sctx)
	if err != nil {
		_ = srv.Close()
	}
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) {
		return errors.Join(err, serr)
	}
	return err
}
