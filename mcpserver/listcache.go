package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listCache answers tools/list, resources/list, resources/templates/list and
// prompts/list from bytes: the SDK's own first answer to each, encoded once
// as the SDK encodes a result. The four lists are constant for the life of
// a server that only this package can reach (the servers of [ServeIO] and
// [Handler]; [New] returns its server to the caller, who may add tools, so
// it has no cache).
//
// Without it the SDK re-encodes every tool's schemas on every call, about
// 20 KB of JSON through reflection, which made tools/list several times
// slower than a tools/call. Only a first-page request without _meta is
// served from the cache; a cursor, _meta (which also marks the 2026-07-28
// protocol, whose results carry per-request metadata) or anything else
// goes to the SDK. TestListCacheMatchesSDK compares the bytes.
//
// Over stdio (see [listCache.stdioWriter]) a cached list is answered with a
// marker, which the writer the SDK writes to replaces with the cached bytes,
// so that the SDK does not scan 20 KB twice per answer.
type listCache struct {
	mu  sync.RWMutex
	raw map[string]*rawResult // by method

	// marks, when set (before serving starts), are the results the
	// middleware answers a cached list with, by listIndex: `"TAG<i>"`.
	marks [4]*rawResult
	tag   []byte // `"` and a random text, unique to this server

	// Tool results waiting for the markWriter, by the number in their
	// marker `"TAGt<n>"` (see toolCalls).
	seq     atomic.Uint64
	pending sync.Map // uint64 -> []byte
}

func newListCache() *listCache {
	return &listCache{raw: make(map[string]*rawResult, 4)}
}

// isListMethod reports whether method is one of the constant lists.
func isListMethod(method string) bool {
	switch method {
	case "tools/list", "resources/list", "resources/templates/list", "prompts/list":
		return true
	}
	return false
}

// listIndex numbers the four lists (-1 for any other method).
func listIndex(method string) int {
	switch method {
	case "tools/list":
		return 0
	case "resources/list":
		return 1
	case "resources/templates/list":
		return 2
	case "prompts/list":
		return 3
	}
	return -1
}

// listMethod is the method of listIndex i.
func listMethod(i int) string {
	return [...]string{"tools/list", "resources/list", "resources/templates/list", "prompts/list"}[i]
}

// rawResult is a result already encoded. The SDK encodes it with
// encoding/json, which copies the bytes (after checking they are compact
// JSON), so they are sent exactly as stored.
type rawResult struct {
	mcp.ResultBase
	raw []byte
	// batch is raw as the SDK writes it inside a batch answer, which it
	// encodes with json.Marshal: <, > and & escaped.
	batch []byte
}

// MarshalJSON returns the stored bytes.
func (r *rawResult) MarshalJSON() ([]byte, error) { return r.raw, nil }

// get returns the stored answer to method, or nil before the first one.
func (c *listCache) get(method string) *rawResult {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.raw[method]
}

// store remembers the SDK's answer res to method, encoded as the SDK
// encodes results (encoding/json without HTML escaping, compact).
func (c *listCache) store(method string, res mcp.Result) {
	if res == nil || res.GetMeta() != nil {
		return
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(res) != nil {
		return // the SDK reports the failure itself
	}
	raw := bytes.TrimRight(buf.Bytes(), "\n")
	batch, err := json.Marshal(json.RawMessage(raw))
	if err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.raw[method] == nil {
		c.raw[method] = &rawResult{raw: raw, batch: batch}
	}
}

// middleware is a receiving middleware: the first page of a list without
// _meta is answered from the cache, filled from the SDK's own first answer.
func (c *listCache) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !isListMethod(method) || !plainFirstPage(req.GetParams()) {
			return next(ctx, method, req)
		}
		if r := c.get(method); r != nil {
			if m := c.marks[listIndex(method)]; m != nil {
				return m, nil
			}
			return r, nil
		}
		res, err := next(ctx, method, req)
		if err == nil {
			c.store(method, res)
		}
		return res, err
	}
}

// stdioWriter returns the writer to give the SDK's stdio transport in
// place of w, and makes the middleware answer a cached list with a marker
// that this writer replaces with the cached bytes. Call it before serving.
//
// The SDK still reads, decodes and dispatches every message, keeps the
// session state and writes every answer in its own order; only the bytes
// of a cached result go around its encoder, which would otherwise check
// the 20 KB of tools/list twice on every call (once as the result's
// MarshalJSON, once as the message's json.RawMessage) for the same output.
// The SDK writes each message, or each batch answer, in one Write call,
// under its own lock, so a marker is never split across writes. The tag is
// random per server and never leaves the process, so no other output (a
// tool result, an error echoing the client's input) can contain a marker.
func (c *listCache) stdioWriter(w io.Writer) io.Writer {
	c.tag = []byte(`"` + rand.Text())
	for i := range c.marks {
		c.marks[i] = &rawResult{raw: append(append(bytes.Clone(c.tag), byte('0'+i)), '"')}
	}
	return &markWriter{w: w, lists: c}
}

// markWriter replaces the markers of its list cache with the cached bytes.
type markWriter struct {
	w     io.Writer
	lists *listCache

	mu  sync.Mutex // the SDK serializes its writes; this guards buf anyway
	buf []byte
}

// maxKeptBuffer bounds the buffer a markWriter keeps between writes.
const maxKeptBuffer = 1 << 20

// Write writes p with every marker replaced. A message of the SDK starts
// with '{'; a batch answer, which the SDK encodes with json.Marshal, with
// '[' and gets the escaped form.
func (mw *markWriter) Write(p []byte) (int, error) {
	mw.mu.Lock()
	defer mw.mu.Unlock()
	return mw.write(p)
}

// writeIf writes p as Write does if the writer's lock is free and
// room(len(p)) holds under it (no other write can come between), and
// reports whether it did. It never waits for the lock: its holder may be
// a write blocked on a client that does not read.
func (mw *markWriter) writeIf(p []byte, room func(n int) bool) (bool, error) {
	if !mw.mu.TryLock() {
		return false, nil
	}
	defer mw.mu.Unlock()
	if !room(len(p)) {
		return false, nil
	}
	_, err := mw.write(p)
	return true, err
}

// write is Write under mw.mu.
func (mw *markWriter) write(p []byte) (int, error) {
	tag := mw.lists.tag
	i := indexTag(p, tag)
	if i < 0 {
		return mw.w.Write(p)
	}
	batch := p[0] == '['
	buf := mw.buf[:0]
	rest := p
	for ; i >= 0; i = indexTag(rest, tag) {
		after := rest[i+len(tag):]
		if res, n := mw.lists.toolMark(after); n > 0 {
			// A tool result: the same bytes in a batch (it holds no <, >
			// or &, see toolCalls).
			buf = append(buf, rest[:i]...)
			buf = append(buf, res...)
			rest = after[n:]
			continue
		}
		var r *rawResult
		if len(after) >= 2 && after[0] >= '0' && after[0] <= '3' && after[1] == '"' {
			r = mw.lists.get(listMethod(int(after[0] - '0')))
		}
		if r == nil { // not a marker (cannot happen): keep the bytes
			buf = append(buf, rest[:i+len(tag)]...)
			rest = after
			continue
		}
		buf = append(buf, rest[:i]...)
		if batch {
			buf = append(buf, r.batch...)
		} else {
			buf = append(buf, r.raw...)
		}
		rest = after[2:]
	}
	buf = append(buf, rest...)
	if cap(buf) <= maxKeptBuffer {
		mw.buf = buf
	}
	if _, err := mw.w.Write(buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// indexTag is bytes.Index(p, tag) for a tag of a quote and a random text:
// it looks for the text and then for the quote before it. JSON holds a
// quote every few bytes, and bytes.Index, finding its first byte so often,
// falls back to comparing the whole tag at every offset: for a 6.5 KB
// answer that was a tenth of a cached stdio call's CPU.
func indexTag(p, tag []byte) int {
	text := tag[1:]
	for off := 0; ; {
		i := bytes.Index(p[off:], text)
		if i < 0 {
			return -1
		}
		i += off
		if i > 0 && p[i-1] == tag[0] {
			return i - 1
		}
		off = i + 1
	}
}

// plainFirstPage reports whether the params of a list request ask for the
// first page and carry no _meta.
func plainFirstPage(p mcp.Params) bool {
	var meta mcp.Meta
	var cursor string
	switch p := p.(type) {
	case *mcp.ListToolsParams:
		if p == nil {
			return true
		}
		meta, cursor = p.Meta, p.Cursor
	case *mcp.ListResourcesParams:
		if p == nil {
			return true
		}
		meta, cursor = p.Meta, p.Cursor
	case *mcp.ListResourceTemplatesParams:
		if p == nil {
			return true
		}
		meta, cursor = p.Meta, p.Cursor
	case *mcp.ListPromptsParams:
		if p == nil {
			return true
		}
		meta, cursor = p.Meta, p.Cursor
	default:
		return false
	}
	return meta == nil && cursor == ""
}

// parseListRequest recognises {"jsonrpc":"2.0","id":ID,"method":LIST} with
// no params, or params that are {} or {"cursor":""}, and an id the SDK
// echoes unchanged.
func parseListRequest(msg map[string]json.RawMessage) (id json.RawMessage, method string, ok bool) {
	if string(msg["jsonrpc"]) != `"2.0"` {
		return nil, "", false
	}
	switch len(msg) {
	case 3:
	case 4:
		params, ok := objectMembers(msg["params"])
		if !ok {
			return nil, "", false
		}
		for k, v := range params {
			if k != "cursor" || string(v) != `""` {
				return nil, "", false
			}
		}
	default:
		return nil, "", false
	}
	if json.Unmarshal(msg["method"], &method) != nil || !isListMethod(method) {
		return nil, "", false
	}
	id = msg["id"]
	if !isFastID(id) {
		return nil, "", false
	}
	return id, method, true
}

// toolCalls is a receiving middleware for stdio (after stdioWriter): a
// tools/call of one of this server's tools, which the SDK has read,
// decoded and checked (the session is initialized), is answered by the
// tool's rawTool directly, and its result, encoded as the SDK encodes it
// (appendOutput, from memo for a document seen before), goes around the
// SDK's encoder as a marker `"TAGt<n>"` that the markWriter replaces. The
// SDK still reads every message, orders the answers and writes them.
//
// It covers what the HTTP fast path covers: a session of a protocol
// version up to 2025-11-25 (whose results carry no resultType) and params
// with only name and arguments; anything else, and a result appendOutput
// cannot write (text that needs more than quotes and backslashes escaped,
// so that the marker's bytes are also what the SDK writes inside a batch
// answer), goes the SDK's way.
func (c *listCache) toolCalls(tools map[string]rawTool, memo *resultMemo) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			r, ok := req.(*mcp.CallToolRequest)
			if method != "tools/call" || !ok || r.Params == nil || r.Params.Meta != nil || r.Params.InputResponses != nil ||
				r.Params.RequestState != "" || r.Session == nil {
				return next(ctx, method, req)
			}
			rt := tools[r.Params.Name]
			init := r.Session.InitializeParams()
			if rt == nil || init == nil || init.ProtocolVersion == "" || !fastPathVersion(init.ProtocolVersion) {
				return next(ctx, method, req)
			}
			out := rt(ctx, r.Params.Arguments)
			var buf bytes.Buffer
			if !memo.append(&buf, out) {
				return out.result(), nil // as the SDK's own handler answers
			}
			n := c.seq.Add(1)
			c.pending.Store(n, buf.Bytes())
			mark := append(bytes.Clone(c.tag), 't')
			mark = strconv.AppendUint(mark, n, 10)
			return &rawResult{raw: append(mark, '"')}, nil
		}
	}
}

// toolMark reads a tool marker's rest after the tag ("t<n>\""): the result
// it stands for, which it forgets, and the length of the rest; 0 when it
// is not one.
func (c *listCache) toolMark(after []byte) ([]byte, int) {
	if len(after) < 3 || after[0] != 't' {
		return nil, 0
	}
	end := bytes.IndexByte(after, '"')
	if end < 2 {
		return nil, 0
	}
	n, err := strconv.ParseUint(string(after[1:end]), 10, 64)
	if err != nil {
		return nil, 0
	}
	res, ok := c.pending.LoadAndDelete(n)
	if !ok {
		return nil, 0
	}
	return res.([]byte), end + 1
}
