package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/ops"
)

// The SDK runs handlers on goroutines of its own, without a recover: a
// panic in one would end the process, and only the HTTP fast path sits
// inside the middleware stack's Recover. So every handler this package
// registers recovers by itself: a tool answers the internal_error tool
// result, a resource, prompt or completion the JSON-RPC internal error
// with the internal_error envelope. The panic is logged at error level
// with the stack and, over HTTP, the request ID.

// panicError is the error a recovered panic is answered with; its text
// never shows the panic's value.
func panicError() *registry.Error {
	return &registry.Error{Code: registry.CodeInternalError, Message: "An unexpected error occurred inside the service."}
}

// logPanic logs a recovered panic of the handler of kind and name.
func (h *handlers) logPanic(ctx context.Context, kind, name string, p any) {
	id := ""
	if ri := infoFrom(ctx); ri != nil && ri.req != nil {
		id = ri.req.ID
	}
	h.log.LogAttrs(ctx, slog.LevelError, "panic in mcp handler",
		slog.String("kind", kind), slog.String("name", name), slog.String("request_id", id),
		slog.String("panic", fmt.Sprint(p)), slog.String("stack", string(debug.Stack())))
}

// recoverTool answers a panic of th with the internal_error tool result.
func (h *handlers) recoverTool(name string, rt rawTool) rawTool {
	return func(ctx context.Context, args json.RawMessage) (out toolOutput) {
		defer func() {
			if p := recover(); p != nil {
				h.logPanic(ctx, "tool", name, p)
				b, _ := ops.EnvelopeJSON(panicError())
				out = toolOutput{envelope: b}
			}
		}()
		return rt(ctx, args)
	}
}

// recoverResource answers a panic of rh with the internal error.
func (h *handlers) recoverResource(rh mcp.ResourceHandler) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (res *mcp.ReadResourceResult, err error) {
		defer func() {
			if p := recover(); p != nil {
				name := ""
				if req != nil && req.Params != nil {
					name = req.Params.URI
				}
				h.logPanic(ctx, "resource", name, p)
				res, err = nil, envelopeError(panicError())
			}
		}()
		return rh(ctx, req)
	}
}

// recoverPrompt answers a panic of ph with the internal error.
func (h *handlers) recoverPrompt(name string, ph mcp.PromptHandler) mcp.PromptHandler {
	return func(ctx context.Context, req *mcp.GetPromptRequest) (res *mcp.GetPromptResult, err error) {
		defer func() {
			if p := recover(); p != nil {
				h.logPanic(ctx, "prompt", name, p)
				res, err = nil, envelopeError(panicError())
			}
		}()
		return ph(ctx, req)
	}
}

// recoverComplete answers a panic of ch with the internal error.
func (h *handlers) recoverComplete(ch func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error)) func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	return func(ctx context.Context, req *mcp.CompleteRequest) (res *mcp.CompleteResult, err error) {
		defer func() {
			if p := recover(); p != nil {
				h.logPanic(ctx, "completion", "", p)
				res, err = nil, envelopeError(panicError())
			}
		}()
		return ch(ctx, req)
	}
}
