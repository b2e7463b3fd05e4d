//go:build linux

package mcpserver_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/mcpserver"
)

// osPair returns the two ends of a pipe (socket false), as Go and Python
// clients give the server they spawn, or of a Unix socketpair, as Node's
// do; the server reads r or writes w.
func osPair(t *testing.T, socket bool) (r, w *os.File) {
	t.Helper()
	if !socket {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		return r, w
	}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	return os.NewFile(uintptr(fds[0]), "r"), os.NewFile(uintptr(fds[1]), "w")
}

// pipeSession serves a session on two OS pipes or socketpairs, as a client
// that spawns the server gives it, and returns the client's ends and
// ServeIO's result.
func pipeSession(t *testing.T, socket bool, opts ...mcpserver.Option) (in, out *os.File, done chan error) {
	t.Helper()
	reg, _ := newRegistry(t)
	inR, inW := osPair(t, socket)
	outR, outW := osPair(t, socket)
	done = make(chan error, 1)
	go func() {
		done <- mcpserver.ServeIO(context.Background(), reg, inR, outW, opts...)
		_ = outW.Close()
	}()
	t.Cleanup(func() {
		_ = inW.Close()
		_ = outR.Close()
		<-done
	})
	return inW, outR, done
}

// noLookup is a call of lookup_company of the fake Norwegian company,
// with the call's id cid.
func noLookup(cid int) string { return lookupLine(strconv.Itoa(cid), "923609016") }

// TestStdioPipeClientNotReading: a client on OS pipes writes hundreds of
// cached calls, more than its stdin pipe holds and with more answers than
// its stdout pipe holds, before it reads any. ServeIO goes on reading (answers that would block wait for the
// output, they are not written on the reading goroutine), and every answer
// comes, in order, as the SDK alone writes it. Were an answer written where
// the write can block, the server would stop reading and the client stop
// writing: neither would finish.
func TestStdioPipeClientNotReading(t *testing.T) {
	t.Parallel()
	for _, socket := range []bool{false, true} {
		t.Run(map[bool]string{false: "pipe", true: "socketpair"}[socket], func(t *testing.T) {
			t.Parallel()
			clientNotReading(t, socket)
		})
	}
}

func clientNotReading(t *testing.T, socket bool) {
	// The SDK alone, one call at a time: what each answer must be.
	in, out, _ := pipeSession(t, socket, mcpserver.WithoutFastPath())
	r := bufio.NewReaderSize(out, 1<<16)
	send := func(w *os.File, msg string) {
		if _, err := w.WriteString(msg + "\n"); err != nil {
			t.Fatal(err)
		}
	}
	read := func(r *bufio.Reader) string {
		l, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading an answer: %v (after %q)", err, l)
		}
		return l
	}
	send(in, initialize)
	read(r)
	send(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(in, noLookup(1))
	read(r)
	send(in, noLookup(2))
	want2 := read(r)
	if !strings.Contains(want2, `\"cached\":true`) {
		t.Fatalf("the second call was not cached: %s", want2)
	}
	// Each call padded to 1 KB, so that the calls too are more than the
	// client's stdin pipe holds: its writes end only if ServeIO reads on.
	padded := func(id int) string {
		return strings.Replace(noLookup(id), "{", "{"+strings.Repeat(" ", 1000), 1)
	}
	// A socketpair takes more than a pipe before its writer waits.
	calls := 16*(64<<10)/min(len(want2), len(padded(2))) + 10

	in, out, _ = pipeSession(t, socket)
	r = bufio.NewReaderSize(out, 1<<16)
	send(in, initialize)
	read(r)
	send(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(in, noLookup(1))
	read(r)
	wrote := make(chan error, 1)
	go func() {
		var b strings.Builder
		for id := 2; id < 2+calls; id++ {
			b.WriteString(padded(id) + "\n")
		}
		_, err := in.WriteString(b.String())
		wrote <- err
	}()
	if err := testwait.Recv(t, wrote, "the client's writes of every call, none of its answers read"); err != nil {
		t.Fatal(err)
	}
	// A call whose line a read splits goes to the SDK, which answers
	// calls concurrently: the order of the answers is not defined.
	var got, want []string
	for id := 2; id < 2+calls; id++ {
		got = append(got, read(r))
		want = append(want, strings.Replace(want2, `"id":2,`, `"id":`+strconv.Itoa(id)+`,`, 1))
	}
	slices.Sort(got)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-SDK alone +ServeIO):\n%s", diff)
	}
}

// TestStdioPipeWriteErrorEndsSession: the client closes its end of the
// output pipe, then sends a cached call; the answer's write fails (EPIPE)
// and ServeIO returns that error without waiting for more input; the SDK
// alone too ends the session with an error (that of the input it closed,
// on these pipes).
func TestStdioPipeWriteErrorEndsSession(t *testing.T) {
	t.Parallel()
	for _, opts := range [][]mcpserver.Option{{mcpserver.WithoutFastPath()}, nil} {
		in, out, done := pipeSession(t, false, opts...)
		r := bufio.NewReader(out)
		for _, msg := range []string{initialize, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, noLookup(1)} {
			if _, err := in.WriteString(msg + "\n"); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(msg, "notifications") {
				if _, err := r.ReadString('\n'); err != nil {
					t.Fatal(err)
				}
			}
		}
		_ = out.Close()
		if _, err := in.WriteString(noLookup(2) + "\n"); err != nil {
			t.Fatal(err)
		}
		err := testwait.Recv(t, done, "ServeIO's end after the failed write, the input open")
		done <- err // for the cleanup
		switch {
		case opts != nil && err == nil: // the SDK alone: the write's or the closed input's error
			t.Error("the SDK alone: ServeIO returned nil after its write failed")
		case opts == nil && !errors.Is(err, syscall.EPIPE):
			t.Errorf("ServeIO returned %v, want the write's EPIPE", err)
		}
	}
}
