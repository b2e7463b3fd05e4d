// Package testwait bounds the waits of tests by the test's own deadline
// (go test -timeout), never by a guess at how fast the machine is. A test
// that waits for a signal, a condition or a goroutine is slower on a loaded
// machine, never failing; a wait that runs out is a hang, reported with
// what was awaited a little before go test's own timeout would end the
// binary without saying which wait hung.
//
// Nothing here measures how long something took: a claim of speed belongs
// in a benchmark. Every function must be called from the test's goroutine
// (it may fail the test).
package testwait

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// Margin is how long before the test binary's deadline a wait gives up,
// so that the failure is reported and the cleanups run.
const Margin = 5 * time.Second

// poll is the pause between two looks at a condition.
const poll = 5 * time.Millisecond

// Deadline returns when a wait of t gives up: [Margin] before the test
// binary's deadline, at least a second from now. ok is false when t has no
// deadline (go test -timeout 0, or a benchmark or fuzz target), when a wait
// lasts until what it awaits happens.
func Deadline(t testing.TB) (deadline time.Time, ok bool) {
	d, ok := t.(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return time.Time{}, false
	}
	dl, ok := d.Deadline()
	if !ok {
		return time.Time{}, false
	}
	return later(dl.Add(-Margin), time.Now().Add(time.Second)), true
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// Expired returns a channel that receives when a wait of t gives up (see
// [Deadline]), for a select that waits on something else; it never
// receives when t has no deadline. Its timer is stopped when t ends.
func Expired(t testing.TB) <-chan time.Time {
	dl, ok := Deadline(t)
	if !ok {
		return nil
	}
	timer := time.NewTimer(time.Until(dl))
	t.Cleanup(func() { timer.Stop() })
	return timer.C
}

// Recv returns the next value of ch, and fails t, naming what, when none
// comes before the wait gives up.
func Recv[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-Expired(t):
		t.Fatalf("testwait: %s: nothing came before the test's deadline (a hang)", what)
	}
	var zero T
	return zero
}

// Until returns once cond is true, and fails t, naming what, when it is
// still false when the wait gives up. cond is called again every few
// milliseconds.
func Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	until(t, func() string { return what }, cond)
}

// until is Until with the failure's subject built when it fails.
func until(t testing.TB, what func() string, cond func() bool) {
	t.Helper()
	expired := Expired(t)
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for !cond() {
		select {
		case <-tick.C:
		case <-expired:
			if cond() {
				return
			}
			t.Fatalf("testwait: %s: still not true at the test's deadline (a hang)", what())
		}
	}
}

// Blocked returns once at least n goroutines are blocked (on a channel, a
// select, a lock, a condition or a sleep) directly in the function fn,
// named as a stack trace names it ("github.com/you/pkg.F", "pkg.(*T).M";
// a generic function without its type arguments). It is how a test knows
// that callers have reached a point where they wait, without a sleep. It
// counts the goroutines of the whole process: a test that runs in parallel
// with others waiting in fn (a library function every test calls, such as
// the Registry's shared fetch) counts theirs too, and should wait on a
// count of its own instead (the Registry's adapter.FetchCallers).
func Blocked(t testing.TB, fn string, n int) {
	t.Helper()
	var seen map[string]int
	until(t, func() string {
		// A renamed function leaves fn waiting for nothing: say where the
		// goroutines do wait.
		return fmt.Sprintf("%d goroutines blocked in %s (goroutines were blocked in: %v)", n, fn, seen)
	}, func() bool {
		seen = blockedFuncs()
		return seen[fn] >= n
	})
}

// blockedIn counts the goroutines whose innermost frame outside the
// runtime is fn and which wait rather than run.
func blockedIn(fn string) int { return blockedFuncs()[fn] }

// blockedFuncs counts the goroutines that wait rather than run by their
// innermost frame outside the runtime.
func blockedFuncs() map[string]int {
	buf := make([]byte, 1<<20)
	for {
		m := runtime.Stack(buf, true)
		if m < len(buf) {
			buf = buf[:m]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := make(map[string]int)
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		header, frames, _ := bytes.Cut(g, []byte("\n"))
		if !waiting(header) {
			continue
		}
		for len(frames) > 0 {
			var frame []byte
			frame, frames, _ = bytes.Cut(frames, []byte("\n"))
			if bytes.HasPrefix(frame, []byte("\t")) || bytes.HasPrefix(frame, []byte("runtime.")) ||
				bytes.HasPrefix(frame, []byte("internal/")) || bytes.HasPrefix(frame, []byte("sync.")) ||
				bytes.HasPrefix(frame, []byte("time.Sleep")) {
				continue // a file line, or a frame of the runtime or of a primitive the goroutine waits in
			}
			// "pkg.F(args)", "pkg.(*T).M(args)": the name ends at the
			// arguments' parenthesis, the last one.
			name := frame
			if i := bytes.LastIndexByte(frame, '('); i > 0 {
				name = frame[:i]
			}
			name = bytes.TrimSuffix(name, []byte("[...]"))
			count[string(name)]++
			break
		}
	}
	return count
}

// waiting reports whether the header of a goroutine's stack
// ("goroutine 7 [chan receive, 2 minutes]:") says it waits.
func waiting(header []byte) bool {
	_, state, ok := bytes.Cut(header, []byte(" ["))
	if !ok {
		return false
	}
	state, _, _ = bytes.Cut(state, []byte("]"))
	state, _, _ = bytes.Cut(state, []byte(","))
	switch string(state) {
	case "running", "runnable", "syscall", "dead", "idle", "copystack", "preempted":
		return false
	}
	return true
}
