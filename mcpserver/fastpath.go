package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/internal/httpmw"
)

// fastPath answers the hot request of a stateless deployment, a single
// tools/call POST of one of this server's tools, without the SDK's
// per-request session; everything else goes to the SDK handler next.
//
// It also answers the four list methods from the server's [listCache],
// once the SDK has answered each one.
//
// The SDK builds a temporary session for every stateless POST and decodes
// the message several times (each decode allocates a 32 KiB buffer), which
// caps a cached lookup at about a quarter of the REST throughput. The fast
// path covers only what it can answer exactly as the SDK would, byte for
// byte (TestFastPathMatchesSDK): protocol versions up to 2025-11-25, a
// request with an integer or plain string id, params with only name and
// arguments, and the headers the SDK requires. Anything else, including the
// 2026-07-28 protocol, batches, notifications and _meta, falls through.
type fastPath struct {
	tools map[string]rawTool
	lists *listCache // nil: lists go to the SDK
	next  http.Handler
	memo  *resultMemo
	bufs  bufferPool // request and response buffers, reused
}

func newFastPath(tools map[string]rawTool, lists *listCache, next http.Handler) *fastPath {
	return &fastPath{tools: tools, lists: lists, next: next, memo: newResultMemo()}
}

// fastPathMaxPooled is the largest buffer kept for reuse; a larger one (a
// long search result) is left to the garbage collector.
const fastPathMaxPooled = 64 << 10

// fastPathMaxBody bounds the body the fast path reads; a larger one is
// handed to the SDK, which applies its own limit.
const fastPathMaxBody = 16 << 10

// fastPathVersion reports whether a request with this MCP-Protocol-Version
// header gets a plain JSON-RPC result for tools/call. "" is a request
// without the header.
func fastPathVersion(v string) bool {
	switch v {
	case "", "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25":
		return true
	}
	return false
}

// isFastID reports whether id (a JSON-RPC id as written) is one the fast
// paths take: an integer (isIntegerID) or a plain string (isStringID).
func isFastID(id []byte) bool { return isIntegerID(id) || isStringID(id) }

// isIntegerID reports whether id is an integer id the fast paths take. The
// SDK decodes an integer id into a float64 and then an int64, so the fast
// paths take only the ids that survive that unchanged: no -0, and at most
// 15 digits (below 2^53). It is the regular expression
// ^(0|-?[1-9][0-9]{0,14})$ by hand (TestIDCheckersMatchRegexps): the id is
// checked on every call.
func isIntegerID(id []byte) bool {
	if len(id) > 0 && id[0] == '-' {
		id = id[1:]
		if len(id) == 1 && id[0] == '0' {
			return false
		}
	}
	if len(id) == 0 || len(id) > 15 || id[0] == '0' && len(id) > 1 {
		return false
	}
	for _, c := range id {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isStringID reports whether id (with its quotes) is a string id the fast
// paths take: up to 64 letters, digits and _.:- (the regular expression
// ^"[A-Za-z0-9_.:-]{0,64}"$ by hand).
func isStringID(id []byte) bool {
	if len(id) < 2 || len(id) > 66 || id[0] != '"' || id[len(id)-1] != '"' {
		return false
	}
	for _, c := range id[1 : len(id)-1] {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '.', c == ':', c == '-':
		default:
			return false
		}
	}
	return true
}

// bufferPool keeps buffers for reuse, each at most fastPathMaxPooled.
type bufferPool struct{ p sync.Pool }

func (bp *bufferPool) get() *bytes.Buffer {
	if b, ok := bp.p.Get().(*bytes.Buffer); ok {
		return b
	}
	return new(bytes.Buffer)
}

// put returns b, which its user no longer reads or writes.
func (bp *bufferPool) put(b *bytes.Buffer) {
	if b.Cap() <= fastPathMaxPooled {
		b.Reset()
		bp.p.Put(b)
	}
}

func (f *fastPath) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := r.Header
	if r.Method != http.MethodPost || !fastPathVersion(headerValue(h, "Mcp-Protocol-Version")) ||
		headerValue(h, "Mcp-Method") != "" || !isJSON(headerValue(h, "Content-Type")) || !acceptsBoth(h["Accept"]) {
		f.next.ServeHTTP(w, r)
		return
	}
	in := f.bufs.get()
	defer f.bufs.put(in) // after any fallBack: the SDK has read the body by then
	err := readAtMost(in, r.Body, fastPathMaxBody+1)
	body := in.Bytes()
	if err != nil || len(body) > fastPathMaxBody {
		f.fallBack(w, r, body)
		return
	}
	// The common tools/call by hand; anything else through encoding/json.
	id, name, args, ok := scanToolsCall(body)
	if !ok {
		msg, parsed := parseMessage(body)
		if !parsed {
			f.fallBack(w, r, body)
			return
		}
		if f.lists != nil {
			if id, method, ok := parseListRequest(msg); ok {
				if res := f.lists.get(method); res != nil {
					closeRead(r)
					f.writeRaw(w, r, id, res.raw)
					return
				}
				// The SDK answers the first one, and the cache keeps it.
				f.fallBack(w, r, body)
				return
			}
		}
		id, name, args, ok = parseToolsCall(msg)
	}
	tool := f.tools[name]
	if !ok || tool == nil {
		f.fallBack(w, r, body)
		return
	}
	closeRead(r)
	ctx := &toolContext{Context: r.Context(), info: requestInfo{req: httpmw.Of(w)}}
	out := tool(ctx, args)
	if req := ctx.info.req; req != nil {
		req.AddAttr(slog.String("tool", name))
	}
	// The response is written from a reused buffer (w.Write copies it): a
	// cached lookup answers some kilobytes on every call.
	buf := f.bufs.get()
	defer f.bufs.put(buf)
	appendResponse(buf, id, out, f.memo)
	writeJSON(w, r, buf.Bytes(), &ctx.header)
}

// toolContext is the context of a tool the fast path calls: the request's
// context with the requestInfo that infoFrom finds, and the room for the
// answer's header values, in one allocation (context.WithValue, a separate
// requestInfo and the header values took three on every call).
type toolContext struct {
	context.Context
	info   requestInfo
	header [3]string // the values of the answer's headers (writeJSON)
}

// Value returns the tool's requestInfo for requestInfoKey, and what the
// request's context holds for any other key.
func (c *toolContext) Value(key any) any {
	if _, ok := key.(requestInfoKey); ok {
		return &c.info
	}
	return c.Context.Value(key)
}

// readAtMost appends what r holds to buf, up to limit bytes, as
// buf.ReadFrom(io.LimitReader(r, limit)) does, without the LimitReader that
// allocated on every request; it returns the first error other than io.EOF.
func readAtMost(buf *bytes.Buffer, r io.Reader, limit int) error {
	for n := 0; n < limit; {
		buf.Grow(bytes.MinRead)
		b := buf.AvailableBuffer()
		b = b[:min(cap(b), limit-n)]
		m, err := r.Read(b)
		if m < 0 || m > len(b) {
			panic("mcpserver: reader returned a bad count")
		}
		buf.Write(b[:m]) // b is buf's own spare capacity: no copy
		n += m
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// appendResponse appends the JSON-RPC response to a tools/call with id
// whose tool answered out, as the SDK writes it; a result that cannot be
// encoded (cannot happen with this package's tools, whose documents are
// valid JSON) is answered with JSON-RPC's internal error.
func appendResponse(buf *bytes.Buffer, id json.RawMessage, out toolOutput, memo *resultMemo) {
	start := buf.Len()
	buf.WriteString(`{"jsonrpc":"2.0","id":`)
	buf.Write(id)
	buf.WriteString(`,"result":`)
	if !memo.append(buf, out) {
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out.result()); err != nil {
			buf.Truncate(start)
			buf.WriteString(`{"jsonrpc":"2.0","id":`)
			buf.Write(id)
			buf.WriteString(`,"error":{"code":-32603,"message":"internal error"}}`)
			return
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
	}
	buf.WriteByte('}')
}

// writeRaw answers a list request with the result stored in the cache.
func (f *fastPath) writeRaw(w http.ResponseWriter, r *http.Request, id json.RawMessage, result []byte) {
	const head, mid = `{"jsonrpc":"2.0","id":`, `,"result":`
	b := make([]byte, 0, len(head)+len(id)+len(mid)+len(result)+1)
	b = append(b, head...)
	b = append(b, id...)
	b = append(b, mid...)
	b = append(b, result...)
	b = append(b, '}')
	writeJSON(w, r, b, new([3]string))
}

// writeJSON writes a JSON-RPC response with the headers the SDK's
// stateless JSON responses carry. The values of Cache-Control,
// Content-Type and Content-Length are slices of capacity 1 of v, which the
// caller made for this response (a tool call's is in its toolContext: no
// allocation of its own), so that an Add makes a new slice. The answer is
// complete and its length known, so it goes out through
// httpmw.WriteAnswer: in one write where the server's connection gathers.
func writeJSON(w http.ResponseWriter, r *http.Request, b []byte, v *[3]string) {
	h := w.Header()
	// A known length spares both ends the chunked encoding that net/http
	// uses for bodies larger than its 4 KiB buffer.
	*v = [3]string{"no-cache, no-transform", "application/json", strconv.Itoa(len(b))}
	h["Cache-Control"], h["Content-Type"], h["Content-Length"] = v[0:1:1], v[1:2:2], v[2:3:3]
	httpmw.WriteAnswer(w, r, b)
}

// headerValue is h.Get(key) for a key in canonical form, without Get's
// check and canonicalisation of the key (four headers on every request).
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// closeRead closes the body of a request that the fast path answers, read
// to its end: net/http then knows the body is done and skips its own read
// of the rest before it writes the headers (an io.CopyN into io.Discard,
// with a reader and a pooled buffer, on every request). Nothing on the wire
// changes: the body was read to its end either way, and the connection
// stays open.
func closeRead(r *http.Request) { _ = r.Body.Close() }

// fallBack hands the request to the SDK with the part of the body already
// read put back in front of the rest.
func (f *fastPath) fallBack(w http.ResponseWriter, r *http.Request, read []byte) {
	r.Body = readCloser{io.MultiReader(bytes.NewReader(read), r.Body), r.Body}
	f.next.ServeHTTP(w, r)
}

// sdkMaxDepth is the deepest nesting of objects and arrays the SDK decodes;
// it refuses a deeper message, where encoding/json alone would go on to
// 10000 levels.
const sdkMaxDepth = 1000

// withinDepth reports whether body nests objects and arrays at most max
// levels deep, counted as the SDK counts them: every { and [ outside a
// string opens a level, every } and ] closes one.
func withinDepth(body []byte, limit int) bool {
	depth, inString, escaped := 0, false, false
	for _, b := range body {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > limit {
				return false
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return true
}

type readCloser struct {
	io.Reader
	io.Closer
}

// parseMessage decodes the top level of a JSON-RPC message in valid UTF-8
// (a batch or anything but an object is refused), nested no deeper than the
// SDK accepts.
func parseMessage(body []byte) (map[string]json.RawMessage, bool) {
	if !utf8.Valid(body) || !withinDepth(body, sdkMaxDepth) {
		return nil, false
	}
	return objectMembers(body)
}

// objectMembers decodes raw, a JSON object, into its members, and reports
// false for anything else (null included) and for an object that gives a
// member name twice (see memberCount): the one decoding of a message or
// of its params that the fast paths answer from.
func objectMembers(raw []byte) (map[string]json.RawMessage, bool) {
	m, ok := allMembers(raw)
	if !ok || memberCount(raw) != len(m) {
		return nil, false
	}
	return m, true
}

// allMembers decodes raw, a JSON object, into its members, the last of a
// name given twice winning, as the SDK's decoder keeps it.
func allMembers(raw []byte) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

// everyCopy reports whether check holds of m, the members of obj
// (allMembers), with each occurrence of a member name given twice in its
// place in turn: the SDK decodes every occurrence in order and refuses the
// message when any has the wrong type, so a message with a repeated name is
// read when every copy would be (rev-whole7). m is left as it was.
func everyCopy(obj []byte, m map[string]json.RawMessage, check func(map[string]json.RawMessage) bool) bool {
	if memberCount(obj) == len(m) {
		return check(m)
	}
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil { // {
		return false
	}
	for dec.More() {
		t, err := dec.Token()
		k, isKey := t.(string)
		var v json.RawMessage
		if err != nil || !isKey || dec.Decode(&v) != nil {
			return false
		}
		last := m[k]
		m[k] = v
		ok := check(m)
		m[k] = last
		if !ok {
			return false
		}
	}
	return true
}

// memberCount returns the number of members of obj, a valid JSON object,
// counting a name given twice twice: a map of it has fewer entries when a
// name repeats. A message with a repeated name is not vouched for: the
// SDK decodes each occurrence in order and refuses the message when an
// earlier one has the wrong type, where a map keeps only the last
// (rev-last7).
func memberCount(obj []byte) int {
	n, depth, inString, empty := 0, 0, false, true
	for i := 0; i < len(obj); i++ {
		c := obj[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			if depth == 1 {
				empty = false
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			if depth == 1 {
				n++
			}
		}
	}
	if empty {
		return 0
	}
	return n + 1
}

// parseToolsCall recognises {"jsonrpc":"2.0","id":ID,"method":"tools/call",
// "params":{"name":NAME,"arguments":ARGS}} with exactly these keys (arguments
// optional), and an id the SDK would echo unchanged.
func parseToolsCall(msg map[string]json.RawMessage) (id json.RawMessage, name string, args json.RawMessage, ok bool) {
	if len(msg) != 4 || string(msg["jsonrpc"]) != `"2.0"` || string(msg["method"]) != `"tools/call"` {
		return nil, "", nil, false
	}
	id = msg["id"]
	if !isFastID(id) {
		return nil, "", nil, false
	}
	params, ok := objectMembers(msg["params"])
	if !ok {
		return nil, "", nil, false
	}
	for k := range params {
		if k != "name" && k != "arguments" {
			return nil, "", nil, false
		}
	}
	if json.Unmarshal(params["name"], &name) != nil {
		return nil, "", nil, false
	}
	return id, name, params["arguments"], true
}

func isJSON(contentType string) bool {
	if contentType == "application/json" {
		return true
	}
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}

// acceptsBoth reports whether Accept admits both application/json and
// text/event-stream, as the SDK requires of a POST.
func acceptsBoth(values []string) bool {
	if len(values) == 1 && (values[0] == "application/json, text/event-stream" || values[0] == "text/event-stream, application/json") {
		return true
	}
	var jsonOK, streamOK bool
	for _, v := range values {
		for _, raw := range strings.Split(v, ",") {
			base, _, _ := strings.Cut(strings.TrimSpace(raw), ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK && streamOK
}

// appendResult appends the JSON of a result as this package's tools build
// it: one text content item whose text is compact JSON from encoding/json,
// and structuredContent holding the same bytes or nothing. The text then
// needs escaping only for quotes and backslashes. It reports false, having
// appended nothing, for any other result; the caller encodes that one
// generically.
func appendResult(buf *bytes.Buffer, res *mcp.CallToolResult) bool {
	if len(res.Content) != 1 || res.Meta != nil || res.InputRequests != nil || res.RequestState != "" {
		return false
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok || tc.Meta != nil || tc.Annotations != nil {
		return false
	}
	var sc json.RawMessage
	if res.StructuredContent != nil {
		if sc, ok = res.StructuredContent.(json.RawMessage); !ok || string(sc) != tc.Text {
			return false
		}
	}
	return appendTextResult(buf, tc.Text, sc, res.IsError)
}

// appendOutput appends the JSON of the tool result of o as the SDK encodes
// o.result(); it reports false, having appended nothing, as appendResult,
// and for a document that is not valid JSON (which the SDK's encoder
// refuses).
func appendOutput(buf *bytes.Buffer, o toolOutput) bool {
	if o.doc == nil {
		return appendTextResult(buf, string(o.envelope), nil, true)
	}
	return json.Valid(o.doc) && appendTextResult(buf, string(o.doc), o.doc, false)
}

// appendTextResult appends a result of one text content item and
// structuredContent sc (nil: none), which holds the text's own bytes.
func appendTextResult(buf *bytes.Buffer, text string, sc []byte, isError bool) bool {
	start := buf.Len()
	buf.WriteString(`{"content":[{"type":"text","text":"`)
	if !appendPlainText(buf, text) {
		buf.Truncate(start)
		return false
	}
	buf.WriteString(`"}]`)
	if sc != nil {
		buf.WriteString(`,"structuredContent":`)
		buf.Write(sc)
	}
	if isError {
		buf.WriteString(`,"isError":true`)
	}
	buf.WriteByte('}')
	return true
}

// appendPlainText appends s as encoding/json writes it inside a string,
// when s needs escaping only for quotes and backslashes: valid UTF-8
// without control characters, <, >, &, U+2028 or U+2029 (U+FFFD is refused
// too, as the replacement of invalid bytes). It reports false for any other
// s, having appended part of it; the caller truncates. One pass checks and
// copies: the text of a cached report is some kilobytes and is sent on
// every call.
func appendPlainText(buf *bytes.Buffer, s string) bool {
	b := buf.AvailableBuffer()
	done := 0 // s[:done] is in b
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				return false
			case c == '"' || c == '\\':
				b = append(b, s[done:i]...)
				b = append(b, '\\')
				done = i // the quote or backslash itself goes with the next chunk
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
			return false
		}
		i += size
	}
	b = append(b, s[done:]...)
	buf.Write(b) // b usually is buf's own spare capacity: no copy then
	return true
}
