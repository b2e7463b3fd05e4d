package mcpserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/internal/cacheonly"
)

// stdioIn is the reader ServeIO gives the SDK's stdio transport in place
// of the input. It passes every byte on unchanged except one kind of line,
// which it answers itself, synchronously, before it reads the next one, and
// which the SDK never sees: a whole line holding a tools/call of one of the
// tools stdioFastTool names, with params of only name and arguments (the HTTP
// fast path's shape), in a session the SDK has initialized with a protocol
// version up to 2025-11-25, whose answer needs no register: the Registry
// answers it from its cache (a cache-only context, internal/cacheonly), or
// it needs none (validate_company_id, list_countries). On a miss the line
// goes to the SDK as it came. stdioIn answers only when the Registry's
// cache is the in-process memory cache itself (LocalCache), whose Get
// neither blocks nor fails: the cache read inside Read does not hold the
// stream, and a miss's read before the SDK's is seen by nothing. Otherwise
// (and with WithoutFastPath) it answers nothing and only passes the input
// on, counting the requests, so that at the end of the input it holds the
// end back from the SDK until the answers owed are written (drain).
//
// Each message costs the SDK five decodes with a 32 KiB buffer each, a
// goroutine and its encoder; for a cached lookup that was nearly all of the
// call's CPU (BENCHMARKS.md, Performance II). The answer is the one the
// SDK's path writes, byte for byte: the same tool function (its argument
// parse, panic recovery and logging) and the same result encoding
// (resultMemo, appendResponse) as the toolCalls middleware.
//
// No call of stdioIn's is ever in flight: it is answered inside Read before
// the next line is read, and its answer handed to stdioOut, which writes it
// at once on the same thread unless the client is not reading its output
// (then Read goes on, as the SDK's reader does). So the end of the input, a
// notifications/cancelled and the SDK's concurrency meet only calls the SDK
// runs, as without stdioIn; a slow call (a miss) runs in the SDK and does
// not hold the stream. An answer waiting for the output is not a call in
// flight: the SDK too takes a call out of those in flight before it waits
// to write its answer, and takes a new request with its id. At the end of
// the input, the SDK reads the end only once it has written the answers
// owed to the requests passed on (drain), and at the end of the session
// ServeIO waits until the answers queued are written; a failed write ends the
// session as a failed write of the SDK's does, and ServeIO returns what
// the SDK's Run would: the error, unless the caller had ended the session
// before the write failed, or the error is io.EOF or context.Canceled
// (stdioOut.fail).
//
// What makes removing a line safe is that the SDK would have decoded it as
// one message and answered it as stdioIn does:
//   - stdioIn only takes a line that starts at the start of the stream or
//     right after a newline it passed on and whose bytes arrived in one
//     read, and only while every line it passed on held JSON-RPC messages
//     or batches that the SDK's reader reads without an error (lineMsgs,
//     plainLine: objects or arrays of them, jsonrpc "2.0", a string method
//     or a response's id, an id the SDK reads) or was blank. The SDK's
//     decoder is then at the boundary between two values, or has ended the
//     session on the line (a value it refuses after another on one line)
//     and reads nothing more. On any other line (a value over several
//     lines, anything invalid or not UTF-8, a value over stdioLineKeep)
//     stdioIn stops answering and counting for the rest of the session and
//     only passes bytes on; after a batch or a method name written with an
//     escape it stops answering but counts on.
//   - The session state is the SDK's own: InitializeParams of its session,
//     read only once the SDK has written its answers to every initialize
//     request passed on (their ids counted by sdkIDs, which counts an
//     answer once it is written), as the SDK answers nothing after an
//     initialize before it has answered that initialize, whether it
//     accepts or refuses it. A method name written with an escape ends
//     stdioIn's answers (the SDK reads it decoded).
//   - Requests are counted by their id as the SDK writes it back (idKey),
//     which is how the SDK tells ids apart: 1, 1.0 and 1.5 are one id to
//     it, "a\u0062" and "ab" too. An id the fast paths take is its own key,
//     so the check below reads the same table.
//   - The SDK refuses (and does not answer) a request whose id is that of
//     a request it has in flight. stdioIn counts the ids of the requests it
//     passed on and the SDK's answers to them (sdkIDs, through the writer
//     it gives the SDK), and answers a call only when no request with its
//     id may be in flight in the SDK; otherwise the line goes to the SDK.
//   - A line split across reads, or without its newline yet, goes to the
//     SDK at once (the SDK answers a value as soon as it is complete); each
//     of its values is counted as the part that completes it is passed on,
//     before the SDK can read it (countParts), as a whole line is.
type stdioIn struct {
	r      io.Reader
	w      io.Writer // the markWriter the SDK's writer writes to
	srv    *mcp.Server
	tools  map[string]rawTool // those stdioFastTool names
	memo   *resultMemo
	ctx    context.Context    // ServeIO's, cancelled by a failed write of out's
	cancel context.CancelFunc // cancels ctx
	failed context.Context    // cancelled by a failed write of out's only
	ids    *sdkIDs
	out    *stdioOut
	// answers: stdioIn answers the calls it may; without, it only passes
	// the input on and counts the requests, for drain.
	answers bool
	// drainTimer starts the bound of drain (stdioDrainMax); its stop
	// function stops it.
	drainTimer func() (<-chan time.Time, func() bool)
	closed     chan struct{} // closed by Close
	closeOnce  sync.Once

	// Read's state: Read is called by the SDK's one reading goroutine.
	buf        []byte // buf[start:end] is read and not yet handled
	start, end int
	pass       int        // buf[start:start+pass] goes to the SDK next
	err        error      // of the last read; returned once buf is drained
	midLine    bool       // the SDK got part of a line, not yet its newline
	parts      partFramer // frames the values of a line passed on in parts
	off        bool       // a line stdioIn cannot vouch for went to the SDK
	noFront    bool       // a line after which stdioIn answers nothing more, but counts
	session    *mcp.ServerSession
	msgs       []lineMsg // lineMsgs' result, reused
	sawInit    bool      // an initialize request was passed on
	inits      []string  // slots of initialize requests the SDK may not have answered (addInit)
	drained    bool      // drain has run: the end of the input goes to the SDK
}

// stdioFastTool reports whether stdioIn answers calls of the tool name:
// those the Registry answers from its cache, or without a register at all.
// company_changes (a database query) and any other tool go to the SDK.
func stdioFastTool(name string) bool {
	switch name {
	case ToolLookupCompany, ToolCompanyRoles, ToolSearchCompany, ToolCompanyDeadlines,
		ToolValidateCompanyID, ToolListCountries:
		return true
	}
	return false
}

// stdioOutMax bounds the bytes of answers stdioIn keeps waiting for the
// output (a client that does not read its answers): beyond it, calls go to
// the SDK.
const stdioOutMax = 1 << 20

// stdioReadSize is the size of stdioIn's read buffer. A longer line
// arrives in parts: it goes to the SDK as it comes, its values are
// counted as they complete (countParts), and stdioIn goes on answering
// after it (it answers only a line whose bytes arrived in one read, of at
// most fastPathMaxBody).
const stdioReadSize = 64 << 10

// stdioLineMax is the SDK's bound on a message (mcp.DefaultMaxLineLength,
// which ServeIO's transport keeps): the SDK's reader (mcp
// frameLimitReader) ends the session when it has read more than that
// many bytes since the end of the previous value before the next value
// ends. It bounds the value, not the line: the whitespace after it (the
// newline) is read with the next one.
const stdioLineMax = mcp.DefaultMaxLineLength

// stdioLineKeep is the longest value of a line passed on in parts whose
// bytes stdioIn keeps to count it (partFramer): stdioLineMax, the most the
// SDK reads of a value since the end of the one before, and the most it
// may have read of it before that end, one read of stdioIn's
// (stdioReadSize). A longer value ends the counting: the SDK ends the
// session on it. Only the open value's bytes are kept, not the line's: a
// line of many values is counted however long. A value longer than
// stdioReadSize is kept only while it is passed on.
const stdioLineKeep = stdioLineMax + stdioReadSize

// stdioDrainMax bounds how long ServeIO, at the end of its input, waits for
// the answers it owes (stdioIn.drain): above the longest a call of one
// company takes with the Registry's default timeouts. company_roles of a
// company not cached is two fetches (the lookup, then the roles), each an
// upstream attempt of 10 s, a pause of 250 ms and one retry, after a wait
// of at most 10 s for an empty upstream budget: 60.5 s.
const stdioDrainMax = 65 * time.Second

// maxSDKIDs bounds the ids stdioIn counts as possibly in flight in the SDK;
// beyond it (a client that never waits for its answers) stdioIn stops
// counting. Ids counted only for duplicates the SDK refused make room
// (sdkIDs.makeRoom).
const maxSDKIDs = 4096

// newStdioIn returns the reader for r; w is the markWriter that the SDK's
// writer, ids.writer(w), also writes to; room, if not nil, tells when a
// write to the output under w cannot block (pipeRoom).
func newStdioIn(ctx context.Context, r io.Reader, w io.Writer, room func(n int) bool, srv *mcp.Server, tools map[string]rawTool, memo *resultMemo, ids *sdkIDs) *stdioIn {
	fast := make(map[string]rawTool, len(tools))
	for name, t := range tools {
		if stdioFastTool(name) {
			fast[name] = t
		}
	}
	s := &stdioIn{r: r, w: w, srv: srv, tools: fast, memo: memo, ids: ids, answers: true,
		out: &stdioOut{w: w}, buf: make([]byte, stdioReadSize), closed: make(chan struct{}),
		drainTimer: func() (<-chan time.Time, func() bool) {
			t := time.NewTimer(stdioDrainMax)
			return t.C, t.Stop
		}}
	if mw, ok := w.(*markWriter); ok && room != nil {
		s.out.direct = func(p []byte) (bool, error) { return mw.writeIf(p, room) }
	}
	s.out.callerDone = func() bool { return ctx.Err() != nil }
	s.ctx, s.cancel = context.WithCancel(ctx)
	failed, fail := context.WithCancel(context.Background())
	s.failed = failed
	s.out.onFail = func() {
		fail()
		s.cancel()
	}
	return s
}

// runContext is the context to run the SDK's session with: cancelled once
// a write of stdioOut's has failed (stdioOut.fail), which ends the session
// as the SDK ends it after a failed write of its own.
func (s *stdioIn) runContext() context.Context { return s.ctx }

// endOnFail is the receiving middleware that ends the context of each
// request the SDK handles once a write of stdioOut's has failed: the SDK,
// after a failed write of its own, cancels its calls in flight
// (jsonrpc2 Connection.write), whereas closing the session for stdioIn's
// waits for them (Connection.Close), which for a call waiting at a
// register could be its timeout. Only a failed write ends them: when the
// caller's context ends, the SDK alone lets its calls finish, and so do
// we. The lists, initialize and ping wait for nothing and are left alone.
func (s *stdioIn) endOnFail(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list", "resources/list", "resources/templates/list", "prompts/list", "initialize", "ping":
			return next(ctx, method, req)
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(s.failed, cancel)()
		return next(ctx, method, req)
	}
}

// Read gives the SDK the next bytes of the input that stdioIn does not
// answer itself.
func (s *stdioIn) Read(p []byte) (int, error) {
	for {
		if err := s.out.failure(); err != nil {
			return 0, err // see stdioOut.fail
		}
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
			if errors.Is(s.err, io.EOF) && !s.drained {
				s.drained = true
				s.drain()
				continue // a write may have failed meanwhile
			}
			return 0, s.err
		}
		n, err := s.r.Read(s.buf)
		s.start, s.end, s.err = 0, n, err
		if n == 0 && err == nil {
			return 0, nil
		}
	}
}

// drain holds the end of the input back from the SDK until it has written
// the answer of every request passed on to it (sdkIDs' owed ids; those
// stdioIn answered are queued in stdioOut, which ServeIO writes before it
// returns), so that a client that writes its requests and closes its end
// gets their answers: the SDK, once it has read the end, drops every
// answer not yet being written (jsonrpc2 readIncoming cancels the calls
// in flight and Connection.write refuses once shuttingDown). It waits at
// most stdioDrainMax (a call that never ends: a handler stuck or ignoring
// its cancel, a subscriptions/listen), and not after ServeIO's context
// ends, a write of stdioOut's fails (both cancel ctx) or the SDK closes the
// input (after a failed write of its own). The values of a last line
// without its newline were counted as their parts were passed on
// (countParts); a value it leaves incomplete the SDK never reads whole.
func (s *stdioIn) drain() {
	settled := s.ids.settled()
	select {
	case <-settled:
		return
	default:
	}
	bound, stop := s.drainTimer()
	defer stop()
	select {
	case <-settled:
	case <-bound:
	case <-s.ctx.Done():
	case <-s.closed:
	}
}

// Close closes the input when it is an io.Closer.
func (s *stdioIn) Close() error {
	s.closeOnce.Do(func() { close(s.closed) })
	if c, ok := s.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
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
	if s.answers && !s.off && !s.noFront && !s.midLine && s.answer(line) {
		s.start += len(line)
		return
	}
	s.passLine(line)
}

// passPart passes on the start of a line whose newline has not come,
// and counts the values it completes (countParts).
func (s *stdioIn) passPart(b []byte) {
	s.pass = len(b)
	s.midLine = true
	if !s.off {
		s.countParts(b, false)
	}
}

// passLine passes on the rest of a line, its newline included, and counts
// its values: the whole line's, when it came in one read (lineMsgs), or
// else those this last part completes (countParts). A line stdioIn cannot
// count ends its answers and counting; the values before the one it
// cannot count stay counted, as on a line in parts: the SDK reads them
// first (rev-parts9, TestReview_StdioWholeLineDropsValuesBeforeRefusedOne).
func (s *stdioIn) passLine(b []byte) {
	s.pass = len(b)
	if s.midLine {
		s.midLine = false
		if !s.off {
			s.countParts(b, true)
		}
		return
	}
	if s.off {
		return
	}
	msgs, ok := s.lineMsgs(b)
	n := s.countLine(msgs)
	for _, m := range msgs[:n] {
		s.passed(m)
	}
	if !ok || n < len(msgs) {
		s.off = true
	}
}

// countParts counts the values of a line passed on in parts that b, its
// next part (its last, with the newline, when last), completes, each as
// a line of its own is counted (count), before the SDK can read b: so no
// answer of the SDK's can precede the count of its request, as for a line
// that came whole. The SDK answers a value as soon as it is complete,
// before the line's newline (rev-last8's suggestion: stdioIn counted such
// a line at its newline and kept the answers written before it in a
// record of ids, which batches and reused ids defeated, rev-fin8b,
// rev-batch8). The values are framed as lineMsgs frames them
// (partFramer); a value stdioIn cannot count, or a value left open at the
// newline (over several lines), ends the counting: the values before it
// stay counted, since the SDK reads them first.
func (s *stdioIn) countParts(b []byte, last bool) {
	ok := s.parts.feed(b, last, func(m lineMsg) bool {
		if !s.count(m) {
			return false
		}
		s.passed(m)
		return true
	})
	if !ok {
		s.off = true
	}
	if !ok || last {
		s.parts.reset()
	}
}

// passed records what a value passed on and counted means for stdioIn's
// answers: after a batch or a method name with an escape it answers
// nothing more in front (noFront), and an initialize request is one the
// SDK must answer before stdioIn answers again (addInit).
func (s *stdioIn) passed(m lineMsg) {
	switch {
	case m.batch:
		s.noFront = true // see stdioIn.count
	case bytes.IndexByte(m.method, '\\') >= 0:
		s.noFront = true // an escaped method name: the SDK's, not read here
	case m.key != "" && string(m.method) == `"initialize"`:
		s.sawInit = true
		s.addInit(m.key)
	}
}

// lineMsgs returns what stdioIn counts of line (ending with its newline):
// each JSON value on it as plainLine reads a line of one (nothing for a
// blank line), or false when one is not a message or batch the SDK
// decodes. The SDK's reader (go-sdk v1.8.0 mcp newIOConnLimited) reads a
// line's values one by one: json.Decoder skips the whitespace before each
// (space, tab, CR, newline), and after a value it refuses a next byte
// other than CR or newline only when that byte is already in its buffer,
// that is when its read did not end right after the value. So
// `{..}\r\r\n`, `{..}\r \n` and `{..}\r{..}\n` are read whole, and
// `{..} {..}\n` or `{..}{..}\n` too when a read ends between the two.
// lineMsgs counts the values of all of them: where the SDK refuses one,
// it ends the session, so that counting it owes nothing at the end of the
// input (drain runs inside a Read the SDK no longer makes). On a line it
// refuses it returns the values before the one refused, which the SDK
// reads first, with false. The returned slice is stdioIn's, reused by the
// next call.
func (s *stdioIn) lineMsgs(line []byte) ([]lineMsg, bool) {
	if cap(s.msgs) > maxKeptLineMsgs {
		// A long line of many values left a large slice: let it go
		// (rev-last7), as partFramer.reset lets a long value's bytes go.
		s.msgs = nil
	}
	s.msgs = s.msgs[:0]
	b := line[:len(line)-1]
	for {
		b = skipSpace(b)
		if len(b) == 0 {
			return s.msgs, true
		}
		if b[0] != '{' && b[0] != '[' {
			return s.msgs, false // not a message: the SDK ends the session
		}
		v, rest, ok := scanValueExtent(b)
		if !ok {
			return s.msgs, false
		}
		m, ok := plainValue(v)
		if !ok {
			return s.msgs, false
		}
		s.msgs = append(s.msgs, m)
		b = rest
	}
}

// countLine counts the requests of msgs, the values of a line that came
// in one read (lineMsgs), in order, and returns how many of the values it
// counted: all of them, or those before the first that cannot be counted
// (see count).
func (s *stdioIn) countLine(msgs []lineMsg) int {
	if len(msgs) == 1 {
		if s.count(msgs[0]) {
			return 1
		}
		return 0
	}
	return s.ids.addValues(msgs)
}

// addInit records the id key of an initialize request passed on, by its
// slot (sdkIDs), and lets go of those the SDK has answered since: inits
// holds only ids still counted in sdkIDs, each once, so at most maxSDKIDs
// slots of at most maxSlotKey bytes, with or without the fast path
// (initialized, which trims it too, runs only for a call stdioIn may
// answer) (rev-ids7).
func (s *stdioIn) addInit(key string) {
	key = slot(key)
	s.inits = slices.DeleteFunc(s.inits, func(k string) bool { return !s.ids.busy(k) })
	if !slices.Contains(s.inits, key) {
		s.inits = append(s.inits, key)
	}
}

// maxKeptLineMsgs is the most values of one line whose slice lineMsgs
// keeps for the next line.
const maxKeptLineMsgs = 64

// partFramer frames the values of a line passed on in parts, part by
// part, as lineMsgs frames a whole line: whitespace (space, tab, CR)
// between values, each an object or an array found by its brackets
// outside strings (scanValueExtent; braces inside a string do not count,
// nor an escaped quote), read by plainValue once its closing bracket has
// come. It keeps only the bytes of a value not yet complete, from the
// parts before (held), up to stdioLineKeep: memory per line is bounded
// by the longest value the SDK reads, not by the line.
type partFramer struct {
	held     []byte // the start of the open value, from earlier parts
	open     bool   // a value has started and not ended
	depth    int    // brackets open in the value
	inString bool   // inside a string of the value
	escaped  bool   // right after a backslash in that string
}

// feed frames b, the next part of the line (the last, ending with the
// newline, when last), and gives each value it completes to counted, in
// order; it stops when counted returns false. False when the line cannot
// be counted from here: something other than a value or whitespace, a
// value plainValue refuses, a value longer than stdioLineKeep, a value
// still open at the newline, or counted's refusal. A lineMsg's method
// refers to b or to held: it is valid until the next feed or reset.
func (f *partFramer) feed(b []byte, last bool, counted func(lineMsg) bool) bool {
	if last {
		b = b[:len(b)-1]
	}
	start := 0 // of the open value in b, when it started in b
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !f.open {
			switch c {
			case ' ', '\t', '\r':
				continue
			case '{', '[':
				f.open, f.depth, start = true, 1, i
				continue
			}
			return false // not a message: the SDK ends the session
		}
		if f.inString {
			if f.escaped {
				f.escaped = false // the byte after a backslash
				continue
			}
			j := bytes.IndexAny(b[i:], `"\`)
			if j < 0 {
				break // the string goes on in the next part
			}
			i += j
			f.escaped = b[i] == '\\'
			f.inString = f.escaped
			continue
		}
		switch c {
		case '"':
			f.inString = true
		case '{', '[':
			f.depth++
		case '}', ']':
			f.depth--
			if f.depth > 0 {
				continue
			}
			v := b[start : i+1]
			if len(f.held) > 0 {
				if len(f.held)+len(v) > stdioLineKeep {
					return false
				}
				f.held = append(f.held, v...)
				v = f.held
			}
			f.open = false
			m, ok := plainValue(v)
			if !ok || !counted(m) {
				return false
			}
			f.held = f.held[:0]
		}
	}
	if !f.open {
		return true
	}
	if last || len(f.held)+len(b)-start > stdioLineKeep {
		return false // over several lines, or longer than the SDK reads
	}
	f.held = append(f.held, b[start:]...)
	return true
}

// reset empties the framer for the next line, and lets go of a buffer
// grown past stdioReadSize by a long value.
func (f *partFramer) reset() {
	held := f.held[:0]
	if cap(held) > stdioReadSize {
		held = nil
	}
	*f = partFramer{held: held}
}

// count counts the requests of m, one value of a line; false when they cannot be counted (the count is full, or a batch the
// SDK would not answer as it is counted, see sdkIDs.addBatch). After a
// batch stdioIn answers nothing more in front (noFront): the SDK refuses a
// batch once the session's protocol is 2025-06-18 or later (mcp ioConn.Read)
// and then ends the session, and its reader may already have read the next
// line from stdioIn.
func (s *stdioIn) count(m lineMsg) bool {
	switch {
	case m.over:
		return false // more requests than sdkIDs counts
	case m.batch:
		return s.ids.addBatch(m.keys, m.owes)
	case m.key == "":
		return true
	}
	return s.ids.add(m.key, owes(m.method))
}

// owes reports whether a request of method (as written) owes its answer
// at the end of the input: all but subscriptions/listen, which the SDK
// answers only once the client cancels it (ServerSession.handle parks it
// until its context ends) and whose answer, the SDK says, only marks the
// subscription's end.
func owes(method []byte) bool {
	if bytes.IndexByte(method, '\\') >= 0 {
		var m string
		return json.Unmarshal(method, &m) != nil || m != "subscriptions/listen"
	}
	return string(method) != `"subscriptions/listen"`
}

// lineMsg is what stdioIn counts of a line it passed on (plainLine).
type lineMsg struct {
	key    string // the request's id key (idKey), "" for none
	method []byte // the request's method as written, nil for none
	// batch: the line is a batch; keys are its requests' id keys, which
	// owe their answer when owes is set.
	batch bool
	keys  []string
	owes  bool
	// over: a batch of more requests than sdkIDs counts (maxSDKIDs),
	// not read to its end; keys is nil.
	over bool
}

// plainLine reports whether line (ending with its newline) is blank, or
// one JSON-RPC message (sdkMessage) or batch of them (sdkBatch) on its own
// line that the SDK's reader accepts as a single value and decodes without
// an error, and returns what the SDK will answer of it.
func plainLine(line []byte) (m lineMsg, ok bool) {
	b := bytes.TrimLeft(line[:len(line)-1], " \t\r")
	b = bytes.TrimSuffix(b, []byte{'\r'})
	if len(b) == 0 {
		return m, true
	}
	return plainValue(b)
}

// plainValue is plainLine for b, the value of a line without the
// whitespace around it.
func plainValue(b []byte) (m lineMsg, ok bool) {
	if b[0] == '[' && b[len(b)-1] == ']' {
		return sdkBatch(b)
	}
	if b[0] != '{' || b[len(b)-1] != '}' {
		return m, false
	}
	if !utf8.Valid(b) || !withinDepth(b, sdkMaxDepth) {
		return m, false
	}
	msg, ok := allMembers(b)
	if !ok || !everyCopy(b, msg, func(msg map[string]json.RawMessage) bool { _, _, ok := sdkMessage(msg); return ok }) {
		return m, false
	}
	m.key, m.method, ok = sdkMessage(msg)
	return m, ok
}

// sdkMessage reports whether the SDK decodes msg (a JSON object's top
// level) without an error (go-sdk v1.8.0 jsonrpc2.DecodeMessage): jsonrpc
// "2.0"; a method, a string or null (read as ""), makes it a request or a
// notification, and without one it is a response, which needs an id; the
// id is one the SDK reads (idKey), an error, if any, in its shape
// (sdkWireError). It returns a request's id key (idKey; "" for a
// notification or a response, which the SDK does not answer) and method
// as written (nil for a response).
func sdkMessage(msg map[string]json.RawMessage) (key string, method []byte, ok bool) {
	if v := msg["jsonrpc"]; string(v) != `"2.0"` {
		var tag string
		if bytes.IndexByte(v, '\\') < 0 || json.Unmarshal(v, &tag) != nil || tag != "2.0" {
			return "", nil, false
		}
	}
	if e, ok := msg["error"]; ok && !sdkWireError(e) {
		return "", nil, false
	}
	id, hasID := msg["id"]
	method, hasMethod := msg["method"]
	if !hasMethod { // a response of the client's
		if !hasID {
			return "", nil, false
		}
		if _, call, ok := idKey(id); !ok || !call {
			return "", nil, false
		}
		return "", nil, true
	}
	if string(method) == "null" {
		method = []byte(`""`)
	}
	if len(method) == 0 || method[0] != '"' {
		return "", nil, false
	}
	if !hasID {
		return "", method, true
	}
	key, _, ok = idKey(id)
	return key, method, ok
}

// sdkWireError reports whether the SDK decodes e, an error member, into
// its WireError without an error: null, or an object whose code, if any,
// is an integer (of up to 15 digits here) or null and message, if any, a
// string or null.
func sdkWireError(e json.RawMessage) bool {
	if string(e) == "null" {
		return true
	}
	if len(e) == 0 || e[0] != '{' {
		return false
	}
	fields, ok := allMembers(e)
	return ok && everyCopy(e, fields, func(fields map[string]json.RawMessage) bool {
		if c, ok := fields["code"]; ok && !isIntegerID(c) && string(c) != "null" {
			return false
		}
		if m, ok := fields["message"]; ok && (len(m) == 0 || m[0] != '"') && string(m) != "null" {
			return false
		}
		return true
	})
}

// sdkBatch is plainLine for a batch, b: a JSON array that the SDK reads
// without an error (mcp ioConn.Read, readBatch) when each element is a
// message it decodes (sdkMessage) and no two requests have one id: a
// notification counts as a request with the null id there, so a second
// one is an error too. The SDK writes the answers of a batch as one array
// once every request of the batch has one (msgBatch); a notification has
// none, so the requests of a batch with a notification, or with a
// subscriptions/listen (parked until cancelled), owe nothing.
//
// A batch of more than maxSDKIDs requests is not read past its first
// maxSDKIDs+1 (m.over): sdkIDs would refuse to count it anyway, and
// stdioIn stops counting on it (count). Its ids are checked for
// duplicates in a set, so the work is linear in the batch's length and
// bounded by maxSDKIDs requests (rev-ids7: a 16 MiB line holds ~450,000).
func sdkBatch(b []byte) (m lineMsg, ok bool) {
	m, _, ok = sdkBatchRead(b)
	return m, ok
}

// sdkBatchRead is sdkBatch, which also returns how many of the batch's
// elements it read.
func sdkBatchRead(b []byte) (m lineMsg, read int, ok bool) {
	if !utf8.Valid(b) || !withinDepth(b, sdkMaxDepth) {
		return m, 0, false
	}
	var raws []json.RawMessage
	if json.Unmarshal(b, &raws) != nil || len(raws) == 0 {
		return m, 0, false
	}
	m.batch, m.owes = true, true
	notified := false
	seen := make(map[string]struct{})
	for _, raw := range raws {
		if len(m.keys) > maxSDKIDs {
			m.over, m.keys = true, nil
			return m, read, true
		}
		read++
		if len(raw) == 0 || raw[0] != '{' {
			return m, read, false
		}
		msg, ok := parseMessage(raw)
		if !ok {
			return m, read, false
		}
		key, method, ok := sdkMessage(msg)
		switch {
		case !ok:
			return m, read, false
		case method == nil: // a response: not tracked
		case key == "":
			if notified {
				return m, read, false
			}
			notified, m.owes = true, false
		default:
			if _, dup := seen[key]; dup {
				return m, read, false
			}
			seen[key] = struct{}{}
			m.keys = append(m.keys, key)
			m.owes = m.owes && owes(method)
		}
	}
	return m, read, true
}

// answer answers line when stdioIn may and the answer needs no register
// (see stdioIn), and reports whether it did.
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
	if !ok || tool == nil || s.ctx.Err() != nil || !s.initialized() || s.ids.busy(string(id)) {
		return false
	}
	if s.out.full() {
		return false
	}
	out := tool(cacheonly.With(s.ctx), args)
	if out.miss {
		return false // the SDK runs it, and asks the register
	}
	buf := s.out.bufs.get()
	appendResponse(buf, id, out, s.memo)
	buf.WriteByte('\n')
	s.out.send(buf)
	return true
}

// initialized reports whether the SDK's session is initialized with a
// protocol version the fast paths answer, and the SDK has written its
// answer to the initialize request: the SDK handles initialize before the
// next request (ServerSession.handle), and sets the session's
// InitializeParams before it writes that answer, so a call read in between
// is answered after it by the SDK alone.
func (s *stdioIn) initialized() bool {
	for len(s.inits) > 0 {
		if s.ids.busy(s.inits[0]) {
			return false
		}
		s.inits = s.inits[1:]
	}
	if !s.sawInit {
		return false
	}
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

// sdkIDs counts, by id, the requests stdioIn passed to the SDK that the
// SDK may not have answered yet: one more when stdioIn passes a request
// on, one less when the SDK writes an answer with that id (never below
// zero). The SDK takes an id out of its own set of requests in flight
// before it writes the answer, and cannot take a request in before
// stdioIn has passed it on, so an id the SDK has in flight is always
// counted here; an id that stays counted (a duplicate the SDK refused and
// never answers) only sends later calls with that id to the SDK.
// Ids are kept by their slot (slot: the key, or the SHA-256 digest of a
// key longer than maxSlotKey), so the table holds at most maxSDKIDs ×
// maxSlotKey bytes of keys however long the ids.
//
// It also keeps, for the end of the input (stdioIn.drain), the answers
// owed: a request passed on while every request counted with its id (none,
// or only those whose answers are being written) is out of the SDK's set
// of requests in flight, which the SDK therefore takes and answers. Its
// answer settles it once written. The SDK drops an id before it writes the
// answer (jsonrpc2 processResult), so sdkWriter marks an answer as being
// written (answering) before its write and counts it (answered) after: a
// client that reads an answer and reuses its id before the write has
// returned is owed the second answer too. A request reusing an id counted
// and not being written owes nothing more: the SDK refuses it unanswered
// while the first is in flight (jsonrpc2 acceptRequest). Such a duplicate
// stays counted, as a duplicate (idCount.dups): once the first is
// answered, the next request with the id owes its answer, and a batch may
// reuse the id (rev-parts9).
type sdkIDs struct {
	mu   sync.Mutex
	n    map[string]idCount
	owed int           // answers owed: the ids' owed, and those being written that settle one
	idle chan struct{} // closed when owed comes to 0 (settled)
}

// idCount is sdkIDs' record of one id.
type idCount struct {
	n       int // requests passed on, less answers written
	writing int // answers being written (answering), at most n
	owed    int // requests owing their answer whose answer is not being written
	batch   int // of the n, those in a batch (addBatch), less batch answers written
	// dups: of the n, requests passed on alone while another request
	// with the id was in flight (not being answered): duplicates the SDK
	// refuses unanswered (jsonrpc2 acceptRequest), as far as stdioIn can
	// tell, so they do not keep the id in flight (addLocked,
	// addBatchLocked); an answer counts against them last (settle).
	dups int
}

// answerMark is what sdkIDs.answering did with an answer about to be
// written, for sdkIDs.answered once it is.
type answerMark uint8

const (
	// markNone: the id was not counted, or each request counted with it
	// had its answer being written; the answer is counted after its
	// write as any answer (answered).
	markNone answerMark = iota
	// markWriting: one request counted with the id has its answer
	// being written.
	markWriting
	// markSettles: as markWriting, and that answer is owed: its write
	// settles it.
	markSettles
)

// maxSlotKey is the longest id key sdkIDs keeps as it is: the longest id
// the fast paths take (isStringID: 64 characters and the quotes), so
// their duplicate check (busy) reads the table with the id as written.
// A longer key (any string id the SDK reads, up to its 16 MiB message) is
// kept as its SHA-256 digest (slot), so that the table holds at most
// maxSDKIDs keys of maxSlotKey bytes, as before stdio-ids (rev-ids7).
const maxSlotKey = 66

// slot returns the key under which sdkIDs keeps the id key key: key
// itself up to maxSlotKey bytes, otherwise '#' and its SHA-256 digest (33
// bytes), which no key as the SDK writes it (a JSON string or number)
// starts with. Two keys share a slot only if their digests collide.
// slot(slot(key)) is slot(key).
func slot(key string) string {
	if len(key) <= maxSlotKey {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return "#" + string(sum[:])
}

// slotBytes is slot for an id as the SDK wrote it (answerID).
func slotBytes(id []byte) []byte {
	if len(id) <= maxSlotKey {
		return id
	}
	sum := sha256.Sum256(id)
	return append([]byte{'#'}, sum[:]...)
}

// newSDKIDs returns an empty count.
func newSDKIDs() *sdkIDs { return &sdkIDs{n: map[string]idCount{}} }

// add counts a request with id passed on, which owes its answer when owe
// is set; false when the count is full.
func (c *sdkIDs) add(id string, owe bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.addLocked(id, owe)
}

// addLocked is add, under mu; the request owes an answer when owe is set.
// A request passed on while every request counted with its id has its
// answer being written, or is a duplicate the SDK refused (idCount.dups),
// is out of the SDK's requests in flight: the SDK takes it, and it owes
// its answer. Otherwise it is a duplicate the SDK refuses unanswered
// while the other is in flight: it owes nothing, and is counted as a
// duplicate, which stays counted (the SDK never answers it) but does not
// keep the next request with the id from owing its answer once the other
// is answered (rev-parts9,
// TestReview_StdioPartsRefusedDuplicateThenReuseLosesAnswer). Where
// stdioIn cannot tell (the SDK reads a request after it is counted, and
// the other's answer may begin in between), this errs towards a wait: a
// request counted as owed that the SDK refuses is settled by the answer
// of the one in flight (answering settles the id's owed answer, whichever
// request it is written for), and one that is never answered (a
// subscriptions/listen) holds the drain until stdioDrainMax.
func (c *sdkIDs) addLocked(id string, owe bool) bool {
	id = slot(id)
	e := c.n[id]
	if e.n == 0 && !c.makeRoom(1) {
		return false
	}
	switch {
	case e.n-e.dups > e.writing:
		e.dups++ // refused while the other is in flight
	case owe:
		e.owed++
		c.owed++
	}
	e.n++
	c.n[id] = e
	return true
}

// busy reports whether a request with id may be in flight in the SDK.
func (c *sdkIDs) busy(id string) bool {
	id = slot(id)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[id].n > 0
}

// answering marks an answer of the SDK with id as being written, before
// its write: the SDK has dropped the id from its requests in flight, so a
// request with id passed on from now owes its answer (addLocked). The
// answer settles the id's owed answer, if any, once written. An id not
// counted, or whose requests counted all have their answer being written,
// is not marked (markNone). Every request is counted before the SDK can
// read it, a value of a line passed on in parts too (stdioIn.countParts),
// so an answer never precedes its request's count (rev-end8,
// TestReview_StdioPartsIDReusedWhileItsAnswerWritten).
func (c *sdkIDs) answering(id []byte) answerMark {
	id = slotBytes(id)
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.n[string(id)]
	if !ok || e.n <= e.writing {
		return markNone
	}
	e.writing++
	m := markWriting
	if e.owed > 0 {
		e.owed--
		m = markSettles
	}
	c.n[string(id)] = e
	return m
}

// answered counts an answer of the SDK with id once written; m is what
// answering returned for it before the write. An answer not marked
// (markNone) counts against nothing: its id was not counted when its write
// began, and a request counted with the id since is another one, a reuse
// the SDK took, whose answer is still owed.
func (c *sdkIDs) answered(id []byte, m answerMark) { c.settle(id, m, false) }

// answeredBatch is answered for an answer written inside a batch's answer:
// it counts against a request of a batch (idCount.batch).
func (c *sdkIDs) answeredBatch(id []byte, m answerMark) { c.settle(id, m, true) }

// settle is answered, and answeredBatch when batch.
func (c *sdkIDs) settle(id []byte, m answerMark, batch bool) {
	if m == markNone {
		return
	}
	id = slotBytes(id)
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.n[string(id)]
	if !ok {
		return // not reached: a marked id stays counted until its answer
	}
	e.writing--
	if m == markSettles {
		c.owed--
		if c.owed == 0 && c.idle != nil {
			close(c.idle)
			c.idle = nil
		}
	}
	if e.n <= 1 {
		delete(c.n, string(id))
		return
	}
	// Which request the answer was for: a batch's answer, one of a
	// batch; a single answer, one taken alone, then a duplicate (taken
	// after all: the other's answer began before the SDK read it), then
	// (only after the counting stopped) one of a batch. Counting an
	// answer against a duplicate last keeps the next request with the
	// id owing its answer (addLocked) rather than not.
	switch alone := e.n - e.batch - e.dups; {
	case batch && e.batch > 0:
		e.batch--
	case alone > 0:
	case e.dups > 0:
		e.dups--
	default:
		e.batch--
	}
	e.n--
	c.n[string(id)] = e
}

// settled returns a channel closed once no answer is owed (at once when
// none is).
func (c *sdkIDs) settled() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.idle == nil {
		c.idle = make(chan struct{})
		if c.owed == 0 {
			close(c.idle)
			ch := c.idle
			c.idle = nil
			return ch
		}
	}
	return c.idle
}

// addBatch counts the requests of a batch passed on, with the id keys
// keys, which owe their answers when owe is set; false when the count is
// full or one of the ids is counted for a request not in a batch and not
// a duplicate the SDK refused (idCount.dups). The SDK would then hold the
// batch's answer for ever, and put the answer of the other request with
// that id into the batch (mcp ioConn: a request of the batch it refuses as
// a duplicate keeps the batch unresolved, and the batch tracks answers by
// id), which the count does not follow: stdioIn stops counting.
func (c *sdkIDs) addBatch(keys []string, owe bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.addBatchLocked(keys, owe)
}

// addBatchLocked is addBatch, under mu. An id counted only for requests
// of batches does not stop the counting, and the new request owes its
// answer (rev-batch8, TestReview_StdioPartsEarlierBatchAnswerTakenByLaterBatch):
// the SDK drops a batch's request from its requests in flight and from
// its batches once it has answered it, before the batch's answer is
// written, and then takes the new batch; while that request is in flight,
// the SDK refuses the new batch as a whole (mcp ioConn.addBatch: "batch
// contains previously seen request") and ends the session, which owes
// nothing more. Nor does an id counted otherwise only for duplicates the
// SDK refused (idCount.dups; rev-parts9,
// TestReview_StdioBatchReusingRefusedDuplicateIDStopsCounting): the SDK
// has no request with it in flight and takes the batch. Should one of them
// have been taken after all (read after the other's answer began) and be
// in flight still, the SDK puts its answer into the batch's, which then
// settles the batch's request: nothing is lost.
func (c *sdkIDs) addBatchLocked(keys []string, owe bool) bool {
	if !c.makeRoom(len(keys)) {
		return false
	}
	for _, k := range keys {
		if e := c.n[slot(k)]; e.n-e.dups > e.batch {
			return false
		}
	}
	for _, k := range keys {
		k = slot(k)
		e := c.n[k]
		if owe {
			e.owed++
			c.owed++
		}
		e.n++
		e.batch++
		c.n[k] = e
	}
	return true
}

// makeRoom reports whether the table has room for need more ids, first
// dropping, when it is full, entries counted only for duplicates the SDK
// refused (nothing with their id in flight as far as stdioIn can tell,
// none being written, none owed): such a count never goes otherwise, and
// 4,096 of them over a session would stop the counting with nothing in
// flight (rev-fix9, TestReview_RefusedDuplicatesEndCountingWithNothingInFlight).
// Dropping one costs what a wrong guess costs (addLocked): should that
// duplicate have been taken after all, its answer counts against nothing,
// and a reuse of its id while it runs owes its answer, which the running
// request's answer settles. The scan runs only when the table lacks room
// for need more ids: at most maxSDKIDs entries for a request, about 15 µs
// for a client that keeps 4,095 calls in flight and makes one such id at a
// time (BenchmarkReview_MakeRoomHostileFullTable). c.mu is held.
func (c *sdkIDs) makeRoom(need int) bool {
	if len(c.n)+need <= maxSDKIDs {
		return true
	}
	for k, e := range c.n {
		if e.n == e.dups && e.writing == 0 && e.owed == 0 {
			delete(c.n, k)
			if len(c.n)+need <= maxSDKIDs {
				return true
			}
		}
	}
	return false
}

// addValues counts the requests of msgs, the values of one line
// (stdioIn.lineMsgs), in order, as stdioIn.count counts one each, and
// returns how many values it counted: len(msgs), or those before the
// first it cannot count (the count is full, a batch addBatch refuses, a
// batch of more than maxSDKIDs requests), which the SDK reads first.
func (c *sdkIDs) addValues(msgs []lineMsg) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, m := range msgs {
		switch {
		case m.over:
			return i
		case m.batch:
			if !c.addBatchLocked(m.keys, m.owes) {
				return i
			}
		case m.key == "":
		default:
			if !c.addLocked(m.key, owes(m.method)) {
				return i
			}
		}
	}
	return len(msgs)
}

// writer returns the writer to give the SDK in place of w: it counts the
// SDK's answers, then writes them to w.
func (c *sdkIDs) writer(w io.Writer) io.Writer { return &sdkWriter{w: w, ids: c} }

// sdkWriter is sdkIDs.writer's writer.
type sdkWriter struct {
	w   io.Writer
	ids *sdkIDs
}

// responseHead is how the SDK's encoding of a message starts; an answer
// has "result" or "error" right after its id, a request of the server's
// "method".
const responseHead = `{"jsonrpc":"2.0","id":`

// Write writes p and counts it when it is an answer (one message: the SDK
// writes each in one call, its id written as idKey's key) or the answer of
// a batch (an array of them, ids re-encoded), in two steps. Before the
// write it marks the answer as being written (sdkIDs.answering): the SDK
// has dropped the id, and a client may read the answer and reuse the id
// before the write returns; the SDK takes that request, which so owes its
// answer. After the write it counts the answer (sdkIDs.answered): the id
// stays busy until then, a little longer than in the SDK, which only sends
// a call to the SDK (counted before, a call answered in front could
// overtake the SDK's answer to initialize), and the drain waits for the
// write of an answer owed.
func (sw *sdkWriter) Write(p []byte) (int, error) {
	if rest, ok := bytes.CutPrefix(p, []byte(responseHead)); ok {
		if id, ok := answerID(rest); ok {
			after := rest[len(id):]
			if bytes.HasPrefix(after, []byte(`,"result":`)) || bytes.HasPrefix(after, []byte(`,"error":`)) {
				m := sw.ids.answering(id)
				n, err := sw.w.Write(p)
				sw.ids.answered(id, m)
				return n, err
			}
		}
	} else if len(p) > 0 && p[0] == '[' {
		keys := batchAnswerIDs(p)
		marks := make([]answerMark, len(keys))
		for i, key := range keys {
			marks[i] = sw.ids.answering([]byte(key))
		}
		n, err := sw.w.Write(p)
		for i, key := range keys {
			sw.ids.answeredBatch([]byte(key), marks[i])
		}
		return n, err
	}
	return sw.w.Write(p)
}

// stdioOut writes stdioIn's answers, in order, on a goroutine of its own
// (started when there is one to write and none runs, as the SDK starts its
// handlers), so that Read never waits for the output: the SDK's reader
// goes on reading while its answers wait for a client that does not read
// them, and so does stdioIn. Read yields to the writer after each answer,
// so that it is written on the same thread before Read reads on. When the
// write cannot block (direct: the output is an empty pipe or an idle Unix
// stream socket with room for the answer, pipeRoom) and none is queued,
// Read writes it itself: handing
// it to another goroutine wakes another thread, which cost a sequential
// client half its calls a second.
type stdioOut struct {
	w      io.Writer                    // the markWriter: one Write per answer, under its lock
	direct func(p []byte) (bool, error) // writes p if that cannot block; nil: never
	bufs   bufferPool

	mu      sync.Mutex
	queue   []*bytes.Buffer
	bytes   int                   // in queue
	running bool                  // a writer goroutine runs
	stopped bool                  // ServeIO is done: no more answers are taken
	err     atomic.Pointer[error] // of the write that failed: the session is over
	wg      sync.WaitGroup
	onFail  func() // called once a write has failed: ends the session
	// callerDone reports whether ServeIO's caller has ended the session;
	// late records it at the failed write (under mu): a write failing
	// after that is not ServeIO's error, as with the SDK alone.
	callerDone func() bool
	late       bool
}

// send queues the answer buf (the writer's from now on) and yields to the
// writer.
func (o *stdioOut) send(buf *bytes.Buffer) {
	o.mu.Lock()
	if o.stopped || o.err.Load() != nil {
		o.mu.Unlock()
		o.bufs.put(buf)
		return
	}
	if o.direct != nil && !o.running {
		// Nothing is queued: the answer goes out now or after those
		// the SDK writes meanwhile, as from the writer. Under mu, so
		// that stop waits for it.
		wrote, err := o.direct(buf.Bytes())
		o.mu.Unlock()
		if wrote {
			o.bufs.put(buf)
			if err != nil {
				o.fail(err)
			}
			return
		}
		o.mu.Lock()
		if o.stopped || o.err.Load() != nil {
			o.mu.Unlock()
			o.bufs.put(buf)
			return
		}
	}
	o.queue = append(o.queue, buf)
	o.bytes += buf.Len()
	start := !o.running
	if start {
		o.running = true
		o.wg.Add(1)
	}
	o.mu.Unlock()
	if start {
		go o.write()
	}
	runtime.Gosched()
}

// write writes the queued answers until none is left.
func (o *stdioOut) write() {
	defer o.wg.Done()
	for {
		o.mu.Lock()
		if len(o.queue) == 0 {
			o.running = false
			o.mu.Unlock()
			return
		}
		buf := o.queue[0]
		o.queue[0] = nil
		o.queue = o.queue[1:]
		o.bytes -= buf.Len()
		o.mu.Unlock()
		_, err := o.w.Write(buf.Bytes())
		o.bufs.put(buf)
		if err != nil {
			o.fail(err)
		}
	}
}

// fail ends the session after a failed write, as the SDK ends it after a
// failed write of its own (jsonrpc2 Connection.write records the error,
// cancels the calls in flight and refuses every later write, then closes
// the stream; Run returns the error): the answers queued are dropped, no
// more are taken, stdioIn's Read returns err from then on, and onFail
// ends the contexts of the SDK's calls in flight (endOnFail) and cancels
// the context the SDK's session runs with, so Run closes the session
// without waiting for a Read blocked on the input (an *os.File in
// blocking mode, as os.Stdin often is, is not woken by its Close) and
// ServeIO returns err as the SDK's Run would return it: not when the
// caller had ended the session first (late, see sessionFailure), and
// io.EOF and context.Canceled as nil.
func (o *stdioOut) fail(err error) {
	o.mu.Lock()
	if o.err.Load() == nil {
		o.late = o.callerDone != nil && o.callerDone()
		o.err.Store(&err)
	}
	for _, buf := range o.queue {
		o.bufs.put(buf)
	}
	o.queue, o.bytes = nil, 0
	o.mu.Unlock()
	if o.onFail != nil {
		o.onFail()
	}
}

// sessionFailure returns the error of a write that failed before the
// caller ended the session, if any: ServeIO's error.
func (o *stdioOut) sessionFailure() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.late {
		return nil
	}
	return o.failure()
}

// failure returns the error of the failed write, if any.
func (o *stdioOut) failure() error {
	if p := o.err.Load(); p != nil {
		return *p
	}
	return nil
}

// full reports whether the answers waiting hold stdioOutMax bytes or more.
func (o *stdioOut) full() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.bytes >= stdioOutMax
}

// stop takes no more answers and waits until the writer has written every
// answer queued. Each was answered inside a Read before the one that ended
// the session, so its call was over and its answer due before the SDK saw
// the end: the SDK alone writes such an answer before its Run returns (the
// connection is not idle while a handler writes), and so ServeIO does
// before it returns. A write that never returns (nobody reads the output)
// holds ServeIO as it holds the SDK's Run. The writer's Add is made under
// mu while stopped is false, so it cannot race the Wait.
func (o *stdioOut) stop() {
	o.mu.Lock()
	o.stopped = true
	o.mu.Unlock()
	o.wg.Wait()
}

// stop is called by ServeIO once the SDK is done: see stdioOut.stop.
func (s *stdioIn) stop() { s.out.stop() }
