package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/internal/ops"
)

// quoteUnknownNames is a receiving middleware that rewrites the SDK's
// JSON-RPC error for an unknown tool or prompt ("unknown tool %q",
// "unknown prompt %q", which quote the caller's name whole), and the URI in
// the data of its "Resource not found" ([quoteResourceNotFound]), to quote the
// name as this server's errors quote any value a caller sent ([ops.Quote]:
// at most [ops.ShownMax] bytes of it, and not at all when it has the form
// of a personal identity number), so that an answer's size never follows a
// name's. The error's code and shape stay the SDK's; a name of at most
// ShownMax bytes gets the SDK's very message. Every MCP door asks the SDK
// for an unknown name (the fast paths answer only the tools they hold), so
// this one place covers them all.
func quoteUnknownNames(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err == nil {
			return res, nil
		}
		var what, name string
		switch r := req.(type) {
		case *mcp.ReadResourceRequest:
			if r.Params != nil {
				return res, quoteResourceNotFound(err, r.Params.URI)
			}
		case *mcp.CallToolRequest:
			if r.Params != nil {
				what, name = "tool", r.Params.Name
			}
		case *mcp.GetPromptRequest:
			if r.Params != nil {
				what, name = "prompt", r.Params.Name
			}
		}
		var je *jsonrpc.Error
		if what == "" || !errors.As(err, &je) || je.Message != fmt.Sprintf("unknown %s %q", what, name) {
			return res, err
		}
		quoted := *je
		quoted.Message = "unknown " + what + " " + ops.Quote(name)
		return res, &quoted
	}
}

// quoteResourceNotFound rewrites the SDK's "Resource not found" error for
// uri (mcp.ResourceNotFoundError, whose data holds the URI whole) so that
// its data.uri is the URI as [ops.Quotable] shows it, or [ops.NotQuoted];
// any other error is returned as it is. A URI of at most ShownMax bytes
// without a personal number's form keeps the SDK's very error.
func quoteResourceNotFound(err error, uri string) error {
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Message != "Resource not found" {
		return err
	}
	shown, ok := ops.Quotable(uri)
	if ok && shown == uri {
		return err
	}
	if !ok {
		shown = ops.NotQuoted
	}
	data, merr := json.Marshal(struct {
		URI string `json:"uri"`
	}{shown})
	if merr != nil {
		return err
	}
	quoted := *je
	quoted.Data = data
	return &quoted
}
