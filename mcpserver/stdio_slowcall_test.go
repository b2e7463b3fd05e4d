package mcpserver_test

import (
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
		p.send(t, initialize, true)
		p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, false)
		p.send(t, callLine("5", "lookup_company", `,"arguments":{"id":"`+idHeld+`"}`), false)
		var got []string
		// The lookup is held: the ping's answer comes first.
		got = append(got, p.send(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`, true))
		got = append(got, p.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`, true))
		close(no.held) // the Registry's fetch goes on without its caller: end it
		return got
	}
	want := run(mcpserver.WithoutFastPath())
	got := run()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-sdk +fast):\n%s", diff)
	}
}
