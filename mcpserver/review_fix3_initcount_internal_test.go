package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/internal/testwait"
)

// stallInitAnswer passes the SDK's writes on to w, but holds the answer
// to the initialize request with id 0 until release is closed, after
// saying so on stalled.
type stallInitAnswer struct {
	w        io.Writer
	stalled  chan struct{}
	release  chan struct{}
	initHead []byte
}

func (s *stallInitAnswer) Write(p []byte) (int, error) {
	if bytes.HasPrefix(p, s.initHead) {
		s.stalled <- struct{}{}
		<-s.release
	}
	return s.w.Write(p)
}

// TestReview_StdioInitAnswerCountedBeforeWritten: 4a35fd7 answers in front
// "only once the SDK has written its answer to the first initialize", but
// sdkWriter.Write counts the answer (sdkIDs.answered) before it writes it
// to the markWriter: between the two the SDK's goroutine may be
// descheduled, stdioIn finds the initialize id no longer busy, answers a
// cached call and its writer takes the markWriter's lock first, so the
// call's answer goes out before the answer to initialize, which the SDK
// alone always writes first (initialize is handled synchronously). Here a
// writer between sdkWriter and the markWriter holds the initialize answer
// after it was counted, as a descheduled goroutine would.
func TestReview_StdioInitAnswerCountedBeforeWritten(t *testing.T) {
	t.Parallel()
	order := func(front bool) []string {
		srv, th, lists := newStdioServer(t)
		// ServeIO's wiring (wireStdio) by hand: a staller between the
		// SDK's counting writer and the list cache's.
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		mw := lists.stdioWriter(outW)
		memo := newResultMemo()
		srv.AddReceivingMiddleware(lists.toolCalls(th.tools, memo))
		ids := newSDKIDs()
		stall := &stallInitAnswer{w: mw, stalled: make(chan struct{}, 1), release: make(chan struct{}),
			initHead: []byte(`{"jsonrpc":"2.0","id":0,"result":`)}
		var in io.ReadCloser = inR
		var stdio *stdioIn
		if front {
			stdio = newStdioIn(context.Background(), inR, mw, nil, srv, th.tools, memo, ids)
			in = stdio
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = srv.Run(context.Background(), &mcp.IOTransport{Reader: in, Writer: nopWriteCloser{ids.writer(stall)}})
			if stdio != nil {
				stdio.stop()
			}
			_ = outW.Close()
		}()
		lines := make(chan string, 8)
		go func() {
			out := bufio.NewReader(outR)
			for {
				l, err := out.ReadString('\n')
				if err != nil {
					close(lines)
					return
				}
				lines <- l
			}
		}()
		defer func() {
			_ = inW.Close()
			testwait.Recv(t, done, "the end of the session")
		}()
		send := func(msg string) {
			if _, err := io.WriteString(inW, msg+"\n"); err != nil {
				t.Fatal(err)
			}
		}
		send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
		testwait.Recv(t, stall.stalled, "the answer to initialize, counted")
		send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_countries"}}`)
		// stdioIn reads this line only once it is done with the call.
		send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		if front {
			testwait.Until(t, "the call passed on to the SDK, or answered", func() bool {
				return ids.busy("1") || len(lines) > 0
			})
		}
		close(stall.release)
		var got []string
		for range 2 {
			l := testwait.Recv(t, lines, "an answer")
			id, _, _ := strings.Cut(strings.TrimPrefix(l, `{"jsonrpc":"2.0","id":`), ",")
			got = append(got, id)
		}
		return got
	}
	want := order(false)
	if diff := cmp.Diff(want, order(true)); diff != "" {
		t.Errorf("ids of the answers, in order (-sdk +stdioIn):\n%s", diff)
	}
}
