package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioIn is the reader ServeIO gives the SDK's stdio transport in place
// of the input: the SDK still reads, frames, decodes and dispatches the
// stream, and stdioIn only passes the bytes on, unchanged, except for one
// kind of line, which it answers itself and which the SDK never sees: a
// whole line that is a single tools/call of one of the server's tools with
// params of only name and arguments (the HTTP fast path's shape), in a
// session the SDK has initialized with a protocol version up to 2025-11-25.
//
// Each message costs the SDK five decodes with a 32 KiB buffer each, a
// goroutine, and its encoder; for a cached lookup that was nearly all of
// the call's CPU, half of it the garbage collector (BENCHMARKS.md,
// Performance II, second pass). The answer is the one the SDK writes, byte
// for byte: the same result encoding (the resultMemo, appendOutput) as the
// SDK path's toolCalls middleware and the HTTP fast path.
//
// What makes removing a line safe is that the SDK would have decoded it as
// one message and answered it as stdioIn does:
//   - stdioIn only takes a line whose bytes arrived in one read, starting at
//     the start of the stream or right after a newline it passed on, and
//     only while every line it passed on was itself one JSON-RPC message on
//     one line that the SDK's reader accepts (a single object with jsonrpc
//     "2.0", a string method, an id that is absent, an integer or a plain
//     string, no result or error) or blank. The SDK's decoder is then at the
//     boundary between two values, and has not ended the session. On any
//     other line (a value over several lines or several values on one, a
//     batch, a response, anything invalid) stdioIn stops answering for the
//     rest of the session and only passes bytes on.
//   - The session state is the SDK's own: InitializeParams of its session.
//   - A line split across reads, or without its newline yet, goes to the SDK
//     at once (the SDK answers a value as soon as it is complete).
//
// A call runs on stdioIn's worker goroutine (on a goroutine of its own
// when the worker is busy), and Read waits for it at most stdioWait before
// it reads on: a cached call is answered before the next line is read,
// with no hand-off to another thread, while a slow (uncached) call does not
// hold up the stream, as the SDK, which runs calls concurrently, does not.
// A notifications/cancelled for a call cancels its context, as the SDK
// would. ServeIO waits for the calls before it returns. The SDK's own
// tools/call path (toolCalls) stays for the calls stdioIn leaves to it.
type stdioIn struct {
	r     io.Reader
	w     *markWriter
	srv   *mcp.Server
	tools map[string]rawTool
	memo  *resultMemo
	ctx   context.Context

	// Read's state: Read is called by the SDK's one reading goroutine.
	buf        []byte // buf[start:end] is read and not yet handled
	start, end int
	pass       int    // buf[start:start+pass] goes to the SDK next
	err        error  // of the last read; returned once buf is drained
	midLine    bool   // the SDK got part of a line, not yet its newline
	line       []byte // the part of the current line passed on so far
	off        bool   // a line stdioIn cannot vouch for went to the SDK
	session    *mcp.ServerSession

	mu       sync.Mutex
	closed   bool                          // no call starts any more
	inflight map[string]context.CancelFunc // by the call's id (its JSON)
	calls    sync.WaitGroup
	bufs     bufferPool      // the answers' buffers
	timer    *time.Timer     // Read's, to wait for a call
	jobs     chan *stdioCall // to the worker; closed (and nil) after wait
	worked   chan struct{}   // closed when the worker has stopped
}

// stdioWait is how long Read waits for a call it started before it reads
// on: far above a cached call (tens of microseconds), far below a call
// that asks a register.
const stdioWait = 2 * time.Millisecond

// stdioReadSize is the size of stdioIn's read buffer, and the longest line
// it keeps to check (a longer one goes to the SDK and ends the fast path).
const stdioReadSize = 64 << 10

// newStdioIn returns the reader for r and starts its worker; call wait
// once the SDK is done with it.
func newStdioIn(ctx context.Context, r io.Reader, w *markWriter, srv *mcp.Server, tools map[string]rawTool, memo *resultMemo) *stdioIn {
	jobs := make(chan *stdioCall)
	s := &stdioIn{r: r, w: w, srv: srv, tools: tools, memo: memo, ctx: ctx,
		buf: make([]byte, stdioReadSize), timer: time.NewTimer(time.Hour),
		jobs: jobs, worked: make(chan struct{}), inflight: map[string]context.CancelFunc{}}
	go func() {
		defer close(s.worked)
		for j := range jobs {
			s.call(j)
		}
	}()
	return s
}

// Read gives the SDK the next bytes of the input that stdioIn does not
// answer itself.
func (s *stdioIn) Read(p []byte) (int, error) {
	for {
		if s.pass > 0 {
			n := copy(p, s.buf[s.start:s.start+s.pass])
			s.start += n
			s.pass -= n
			return n, nil
		}
		if s.start < s.end {
			s.next()
			continue
		}
		if s.err != nil {
			return 0, s.err
		}
		n, err := s.r.Read(s.buf)
		s.start, s.end, s.err = 0, n, err
		if n == 0 && err == nil {
			return 0, nil
		}
	}
}

// Close closes the input when it is an io.Closer; no call starts after it.
func (s *stdioIn) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	if c, ok := s.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// wait waits for the calls started, after stopping new ones.
func (s *stdioIn) wait() {
	s.mu.Lock()
	s.closed = true
	if s.jobs != nil {
		close(s.jobs)
		s.jobs = nil
	}
	s.mu.Unlock()
	<-s.worked
	s.calls.Wait()
}

// next decides what becomes of the next bytes of buf: a line answered
// here, or bytes passed to the SDK.
func (s *stdioIn) next() {
	rest := s.buf[s.start:s.end]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		s.passPart(rest)
		return
	}
	line := rest[:i+1]
	if !s.off && !s.midLine && s.answer(line) {
		s.start += len(line)
		return
	}
	s.passLine(line)
}

// passPart passes on the start of a line whose newline has not come.
func (s *stdioIn) passPart(b []byte) {
	s.pass = len(b)
	s.midLine = true
	if s.off {
		return
	}
	if len(s.line)+len(b) > stdioReadSize {
		s.off, s.line = true, nil
		return
	}
	s.line = append(s.line, b...)
}

// passLine passes on the rest of a line, its newline included, and checks
// the whole line.
func (s *stdioIn) passLine(b []byte) {
	s.pass = len(b)
	whole := b
	if s.midLine {
		s.midLine = false
		if !s.off && len(s.line)+len(b) > stdioReadSize {
			s.off = true
		}
		if s.off {
			s.line = nil
			return
		}
		s.line = append(s.line, b...)
		whole = s.line
		defer func() { s.line = s.line[:0] }()
	}
	if s.off {
		return
	}
	msg, ok := plainLine(whole)
	if !ok {
		s.off = true
		return
	}
	if msg != nil && string(msg["method"]) == `"notifications/cancelled"` {
		s.cancel(msg["params"])
	}
}

// plainLine reports whether line (ending with its newline) is blank, or
// one JSON-RPC request or notification on its own line that the SDK's
// reader accepts as a single message: one object (nothing but a CR after
// it) with jsonrpc "2.0", a string method, no id or an id the fast paths
// take, and no result or error. It returns the message's top level (nil
// for a blank line).
func plainLine(line []byte) (map[string]json.RawMessage, bool) {
	b := bytes.TrimLeft(line[:len(line)-1], " \t\r")
	b = bytes.TrimSuffix(b, []byte{'\r'})
	if len(b) == 0 {
		return nil, true
	}
	if b[0] != '{' || b[len(b)-1] != '}' {
		return nil, false
	}
	msg, ok := parseMessage(b)
	if !ok || string(msg["jsonrpc"]) != `"2.0"` {
		return nil, false
	}
	if _, ok := msg["result"]; ok {
		return nil, false
	}
	if _, ok := msg["error"]; ok {
		return nil, false
	}
	if m := msg["method"]; len(m) == 0 || m[0] != '"' {
		return nil, false
	}
	if id, ok := msg["id"]; ok && !integerID.Match(id) && !stringID.Match(id) {
		return nil, false
	}
	return msg, true
}

// cancel cancels the call of ours that a notifications/cancelled names.
func (s *stdioIn) cancel(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.inflight[string(p.RequestID)]; c != nil {
		c()
	}
}

// answer starts the call of line when stdioIn answers it (see stdioIn),
// and reports whether it does.
func (s *stdioIn) answer(line []byte) bool {
	b := bytes.TrimSuffix(line[:len(line)-1], []byte{'\r'})
	if len(b) == 0 || len(b) > fastPathMaxBody || b[0] != '{' || b[len(b)-1] != '}' {
		return false
	}
	id, name, args, ok := scanToolsCall(b)
	if !ok {
		msg, parsed := parseMessage(b)
		if !parsed {
			return false
		}
		id, name, args, ok = parseToolsCall(msg)
	}
	tool := s.tools[name]
	if !ok || tool == nil || !s.initialized() {
		return false
	}
	key := string(id)
	s.mu.Lock()
	if s.closed || s.inflight[key] != nil || s.ctx.Err() != nil {
		s.mu.Unlock()
		return false
	}
	ctx, cancel := context.WithCancel(s.ctx)
	s.inflight[key] = cancel
	s.calls.Add(1)
	// buf is read into again while the call runs.
	j := &stdioCall{ctx: ctx, key: key, id: bytes.Clone(id), tool: tool, args: bytes.Clone(args), done: make(chan struct{})}
	select {
	case s.jobs <- j: // the worker was idle
	default:
		go s.call(j)
	}
	s.mu.Unlock()
	s.timer.Reset(stdioWait)
	select {
	case <-j.done:
		s.timer.Stop()
	case <-s.timer.C:
	}
	return true
}

// stdioCall is a call stdioIn answers.
type stdioCall struct {
	ctx  context.Context
	key  string // the id, as a key of inflight
	id   json.RawMessage
	tool rawTool
	args json.RawMessage
	done chan struct{} // closed once the answer is written
}

// initialized reports whether the SDK's session is initialized with a
// protocol version the fast paths answer.
func (s *stdioIn) initialized() bool {
	if s.session == nil {
		for ss := range s.srv.Sessions() {
			s.session = ss
		}
		if s.session == nil {
			return false
		}
	}
	init := s.session.InitializeParams()
	return init != nil && init.ProtocolVersion != "" && fastPathVersion(init.ProtocolVersion)
}

// call runs a tool and writes its answer.
func (s *stdioIn) call(j *stdioCall) {
	defer s.calls.Done()
	defer close(j.done)
	out := j.tool(j.ctx, j.args)
	s.mu.Lock()
	cancel := s.inflight[j.key]
	delete(s.inflight, j.key)
	s.mu.Unlock()
	cancel()
	buf := s.bufs.get()
	defer s.bufs.put(buf)
	appendResponse(buf, j.id, out, s.memo)
	buf.WriteByte('\n')
	_ = s.w.writeLine(buf.Bytes())
}
