package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

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
// 16 KB of JSON through reflection, which made tools/list several times
// slower than a tools/call. Only a first-page request without _meta is
// served from the cache; a cursor, _meta (which also marks the 2026-07-28
// protocol, whose results carry per-request metadata) or anything else
// goes to the SDK. TestListCacheMatchesSDK compares the bytes.
type listCache struct {
	mu  sync.RWMutex
	raw map[string]*rawResult // by method
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

// rawResult is a result already encoded. The SDK encodes it with
// encoding/json, which copies the bytes (after checking they are compact
// JSON), so they are sent exactly as stored.
type rawResult struct {
	mcp.ResultBase
	raw []byte
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
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.raw[method] == nil {
		c.raw[method] = &rawResult{raw: raw}
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
			return r, nil
		}
		res, err := next(ctx, method, req)
		if err == nil {
			c.store(method, res)
		}
		return res, err
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
		var params map[string]json.RawMessage
		if json.Unmarshal(msg["params"], &params) != nil || params == nil {
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
	if !integerID.Match(id) && !stringID.Match(id) {
		return nil, "", false
	}
	return id, method, true
}
