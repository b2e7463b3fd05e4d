package mcpserver_test

import (
	"context"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/mcpserver"
)

// clientInit is the initialize request of a script piping one message
// into the server (`printf '%s\n' … | server -stdio`).
const clientInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`

// serveClosedPipe runs ServeIO as a stdio server started by such a script
// runs: its stdin an OS pipe that already holds in and whose write end is
// closed, its stdout an OS pipe. It returns what ServeIO wrote.
func serveClosedPipe(t *testing.T, reg *registry.Registry, in string, opts ...mcpserver.Option) string {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer outR.Close()
	if _, err := io.WriteString(inW, in); err != nil {
		t.Fatal(err)
	}
	if err := inW.Close(); err != nil {
		t.Fatal(err)
	}
	out := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(outR)
		out <- string(b)
	}()
	err = mcpserver.ServeIO(context.Background(), reg, inR, outW, opts...)
	_ = outW.Close()
	if err != nil {
		t.Errorf("ServeIO: %v", err)
	}
	return testwait.Recv(t, out, "the output's end")
}

// TestStdioClosedStdinAnswers: a client that writes its request and
// closes stdin at once (the lead's measurement: a script piping an
// initialize into `server -stdio` got no answer 4 times in 5) gets the
// answer it would have got had stdin stayed open, byte for byte, with or
// without the request's last newline, with and without the fast paths.
// Run it with -count=50: before the fix it failed most runs.
func TestStdioClosedStdinAnswers(t *testing.T) {
	t.Parallel()
	for _, opts := range [][]mcpserver.Option{nil, {mcpserver.WithoutFastPath()}} {
		reg, _ := newRegistry(t)
		open := startStdioWith(t, reg, opts...)
		want := open.send(t, clientInit, true)
		if !strings.Contains(want, `"serverInfo"`) {
			t.Fatalf("the answer of an open session is not initialize's: %.200q", want)
		}
		for _, in := range []string{clientInit + "\n", clientInit} {
			reg, _ := newRegistry(t)
			if got := serveClosedPipe(t, reg, in, opts...); got != want {
				t.Errorf("fast paths %v, input %.20q…%q: wrote %.300q, want %.300q", opts == nil, in, in[len(in)-3:], got, want)
			}
		}
	}
}

// TestStdioDrainAnswersWhatWasRead: calls written at once and followed by
// the end of the input all get the answers an open session gives them:
// calls answered in front of the SDK (a cached lookup, list_countries),
// calls the SDK answers (ping, tools/list from the list cache, a lookup
// that misses the cache) and a lookup held at the register until after
// the end of the input. Not parallel: testwait.Blocked counts the
// goroutines of the process.
func TestStdioDrainAnswersWhatWasRead(t *testing.T) {
	calls := []string{
		lookupLine("5", idEquinor),
		callLine("6", "list_countries", ""),
		`{"jsonrpc":"2.0","id":7,"method":"ping"}`,
		list("8", ""),
		lookupLine("9", idHeld),
		lookupLine("10", idNotFound),
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		callLine("11", "validate_company_id", `,"arguments":{"id":"923609016"}`),
	}
	for _, opts := range [][]mcpserver.Option{nil, {mcpserver.WithoutFastPath()}} {
		// The answers of an open session, one call at a time.
		reg, no := newRegistry(t)
		no.held = make(chan struct{})
		close(no.held)
		open := startStdioWith(t, reg, opts...)
		open.handshake(t)
		open.send(t, lookupLine("4", idEquinor), true) // cached from now on
		var want []string
		for _, c := range calls {
			if l := open.send(t, c, !strings.Contains(c, "notifications/")); l != "" {
				want = append(want, l)
			}
		}
		slices.Sort(want)

		reg, no = newRegistry(t)
		no.held = make(chan struct{})
		p := startStdioWith(t, reg, opts...)
		p.handshake(t)
		p.send(t, lookupLine("4", idEquinor), true)
		if _, err := io.WriteString(p.in, lines(calls...)); err != nil {
			t.Fatal(err)
		}
		_ = p.in.Close()
		// The end of the input is read and held back: the held lookup
		// (at least) is owed.
		testwait.Blocked(t, "github.com/companyregistry/registry/mcpserver.(*stdioIn).drain", 1)
		close(no.held)
		var got []string
		for {
			l, err := p.out.ReadString('\n')
			if l != "" {
				got = append(got, l)
			}
			if err != nil {
				break
			}
		}
		slices.Sort(got) // the SDK answers concurrent calls in any order
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("fast paths %v: answers after the end of the input (-open session +closed):\n%s", opts == nil, diff)
		}
	}
}
