package mcpserver_test

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/mcpserver"
)

// TestStdioSlowCallDoesNotHoldTheStream checks that a tools/call that
// waits for the register (uncached) does not hold up the messages after
// it, and that a notifications/cancelled for it ends it, with the answers
// the SDK alone gives.
func TestStdioSlowCallDoesNotHoldTheStream(t *testing.T) {
	t.Parallel()
	run := func(opts ...mcpserver.Option) []string {
		reg, no := newRegistry(t)
		no.held = make(chan struct{})
		p := startStdioWith(t, reg, opts...)
		p.handshake(t)
		p.send(t, callLine("5", "lookup_company", `,"arguments":{"id":"`+idHeld+`"}`), false)
		var got []string
		// The lookup is held: the ping's answer comes first.
		got = append(got, p.send(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`, true))
		got = append(got, p.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`, true))
		close(no.held) // the Registry's fetch goes on without its caller: end it
		return got
	}
	sameAsSDK(t, run)
}

// TestStdioDuplicateIDOfHeldCall checks that a call answered from the
// cache whose id is that of a call the SDK still runs (a lookup held at
// the register) gets what the SDK alone gives: nothing (jsonrpc2 refuses
// an id in use and answers nothing), then the ping's answer; once the held
// call is answered, the id may be used again.
func TestStdioDuplicateIDOfHeldCall(t *testing.T) {
	t.Parallel()
	run := func(opts ...mcpserver.Option) []string {
		reg, no := newRegistry(t)
		no.held = make(chan struct{})
		p := startStdioWith(t, reg, opts...)
		p.handshake(t)
		var got []string
		got = append(got, p.send(t, lookupLine("4", idEquinor), true)) // cached from now on
		p.send(t, lookupLine("5", idHeld), false)
		p.send(t, lookupLine("5", idEquinor), false)
		got = append(got, p.send(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`, true))
		close(no.held)
		held, err := p.out.ReadString('\n') // the held call's answer
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, held)
		got = append(got, p.send(t, lookupLine("5", idEquinor), true))
		return got
	}
	sameAsSDK(t, run)
}

// TestStdioMissAskedOnce checks that a call the cache cannot answer asks
// the register once (the cache-only attempt in front of the SDK asks
// none) and logs nothing, with the SDK's answer.
func TestStdioMissAskedOnce(t *testing.T) {
	t.Parallel()
	run := func(opts ...mcpserver.Option) ([]string, int64, string) {
		reg, no := newRegistry(t)
		var logs lockedBuffer
		p := startStdioWith(t, reg, append(opts, mcpserver.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))))...)
		p.handshake(t)
		got := []string{p.send(t, lookupLine("5", idEquinor), true), p.send(t, lookupLine("6", idNotFound), true),
			p.send(t, callLine("7", "company_roles", `,"arguments":{"id":"`+idEquinor+`"}`), true),
			p.send(t, lookupLine("8", idEquinor), true)}
		return got, no.lookups.Load(), logs.String()
	}
	want, wantN, wantLog := run(mcpserver.WithoutFastPath())
	got, n, log := run()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-sdk +fast):\n%s", diff)
	}
	if n != 2 || wantN != 2 {
		t.Errorf("register lookups: %d (SDK alone %d), want 2 (one per identifier)", n, wantN)
	}
	if strings.Count(log, "\n") != strings.Count(wantLog, "\n") || strings.Contains(log, "mcp tool failed") {
		t.Errorf("logs:\n%s\nSDK alone:\n%s", log, wantLog)
	}
}

// sameAsSDK runs a stdio session twice, with the SDK alone and as ServeIO
// serves it, and compares the answers.
func sameAsSDK(t *testing.T, run func(...mcpserver.Option) []string) {
	t.Helper()
	want := run(mcpserver.WithoutFastPath())
	if diff := cmp.Diff(want, run()); diff != "" {
		t.Errorf("(-sdk +fast):\n%s", diff)
	}
}
