package mcpserver_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/mcpserver"
)

// stdioPeer is a raw JSON-RPC client of [mcpserver.ServeIO] over pipes.
type stdioPeer struct {
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func startStdio(t testing.TB, opts ...mcpserver.Option) *stdioPeer {
	t.Helper()
	reg, _ := newRegistry(t)
	return startStdioWith(t, reg, opts...)
}

// startStdioWith is startStdio with the Registry reg.
func startStdioWith(t testing.TB, reg *registry.Registry, opts ...mcpserver.Option) *stdioPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &stdioPeer{in: inW, out: bufio.NewReaderSize(outR, 64<<10), done: make(chan error, 1)}
	go func() {
		p.done <- mcpserver.ServeIO(context.Background(), reg, inR, outW, opts...)
		_ = outW.Close()
	}()
	t.Cleanup(func() {
		_ = inW.Close()
		if err := <-p.done; err != nil {
			t.Errorf("ServeIO: %v", err)
		}
	})
	return p
}

// handshake initializes the session (protocol 2025-03-26) and reads the
// initialize answer.
func (p *stdioPeer) handshake(t testing.TB) {
	t.Helper()
	p.send(t, initialize, true)
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, false)
}

// send writes one message and, when answer is set, returns the next line.
func (p *stdioPeer) send(t testing.TB, msg string, answer bool) string {
	t.Helper()
	if _, err := io.WriteString(p.in, msg+"\n"); err != nil {
		t.Fatal(err)
	}
	if !answer {
		return ""
	}
	line, err := p.out.ReadString('\n')
	if err != nil {
		t.Fatalf("reading the answer to %s: %v", msg, err)
	}
	return line
}

// TestListCacheMatchesSDK checks over stdio that the four lists answered
// from the cache are byte for byte the SDK's own answers, for each protocol
// version before 2026-07-28, with and without params, a second time (from
// the cache) and with what the cache leaves to the SDK (a cursor, _meta).
func TestListCacheMatchesSDK(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			cached := startStdio(t)
			sdk := startStdio(t, mcpserver.WithoutFastPath())
			var msgs []string
			msgs = append(msgs, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+version+
				`","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
			id := 1
			for _, method := range []string{"tools/list", "resources/list", "resources/templates/list", "prompts/list"} {
				for _, params := range []string{"", `,"params":{}`, "", `,"params":{"cursor":""}`,
					`,"params":{"_meta":{"progressToken":7}}`, `,"params":{"cursor":"bm90IGEgY3Vyc29y"}`, `,"params":null`} {
					msgs = append(msgs, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q%s}`, id, method, params))
					id++
				}
				msgs = append(msgs, fmt.Sprintf(`{"jsonrpc":"2.0","id":"s-%d","method":%q}`, id, method))
				id++
			}
			// Framing a list request may come in: CRLF, a message over
			// several lines, and (before 2025-06-18, which refuses them)
			// batches, one of them written over several lines around a
			// line that alone is a list request.
			msgs = append(msgs, `{"jsonrpc":"2.0","id":90,"method":"tools/list"}`+"\r",
				"\t  "+`{"jsonrpc":"2.0","id":91,"method":"prompts/list"}`,
				`{"jsonrpc":"2.0",`+"\n"+`"id":92,"method":"tools/list"}`,
				// Ids the SDK does not echo unchanged (float64, then int64).
				`{"jsonrpc":"2.0","id":-0,"method":"tools/list"}`,
				`{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/list"}`)
			if version < "2025-06-18" {
				msgs = append(msgs, `[{"jsonrpc":"2.0","id":93,"method":"tools/list"}]`,
					"[\n"+`{"jsonrpc":"2.0","id":94,"method":"resources/list"}`+"\n]",
					`{"jsonrpc":"2.0","id":95,"method":"resources/list"}`)
			}
			for i, msg := range msgs {
				got := cached.send(t, msg, true)
				want := sdk.send(t, msg, true)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s (-sdk +cached):\n%s", msg, diff)
				}
				if i == 0 {
					cached.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, false)
					sdk.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, false)
				}
			}
		})
	}
}

// TestListCacheDepth checks over stdio that a list request nested deeper
// than the SDK decodes (1001 levels, in a params key given twice, the last
// of which alone is a plain list request) is left to the SDK, which ends the
// session on it, rather than answered from the cache.
func TestListCacheDepth(t *testing.T) {
	t.Parallel()
	deep := `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":` +
		strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `,"params":{}}`
	run := func(opts ...mcpserver.Option) (string, string) {
		reg, _ := newRegistry(t)
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan error, 1)
		go func() {
			done <- mcpserver.ServeIO(context.Background(), reg, inR, outW, opts...)
			_ = outW.Close()
		}()
		p := &stdioPeer{in: inW, out: bufio.NewReader(outR)}
		p.send(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`, true)
		p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, false)
		p.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, true) // fills the cache
		p.send(t, deep, false)
		_ = inW.Close()
		rest, _ := io.ReadAll(p.out)
		err := <-done
		return string(rest), fmt.Sprint(err)
	}
	gotOut, gotErr := run()
	wantOut, wantErr := run(mcpserver.WithoutFastPath())
	if diff := cmp.Diff([]string{wantOut, wantErr}, []string{gotOut, gotErr}); diff != "" {
		t.Errorf("after a list request 1001 levels deep (-sdk +cached):\n%s", diff)
	}
}
