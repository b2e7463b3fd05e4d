package mcpserver_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/companyregistry/registry/mcpserver"
)

// TestServeIO drives the stdio framing over pipes: a client lists the tools
// and calls one; closing the client's end stops the server cleanly.
func TestServeIO(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	clientToServerR, clientToServerW := io.Pipe()
	serverToClientR, serverToClientW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- mcpserver.ServeIO(context.Background(), reg, clientToServerR, serverToClientW)
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).
		Connect(t.Context(), &mcp.IOTransport{Reader: serverToClientR, Writer: clientToServerW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil || len(tools.Tools) != 6 {
		t.Fatalf("ListTools: %v (%d tools)", err, len(tools.Tools))
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "lookup_company", Arguments: map[string]any{"id": idNotFound}})
	if err != nil || !res.IsError {
		t.Fatalf("CallTool: %v %+v", err, res)
	}
	if err := cs.Close(); err != nil {
		t.Logf("client close: %v", err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeIO returned %v after the client closed, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeIO did not return after the client closed")
	}
}

// TestServeIOCancel checks that cancelling the context stops the server.
func TestServeIOCancel(t *testing.T) {
	t.Parallel()
	reg, _ := newRegistry(t)
	r, _ := io.Pipe()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- mcpserver.ServeIO(ctx, reg, r, io.Discard) }()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeIO returned %v after cancel, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeIO did not return after cancel")
	}
}
