package mcpserver

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type otherKey struct{}

// TestToolContext checks the context the fast path gives a tool: infoFrom
// finds its requestInfo, any other value and the cancellation are the
// request context's.
func TestToolContext(t *testing.T) {
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), otherKey{}, "parent's"))
	ctx := &toolContext{Context: parent, info: requestInfo{tool: "lookup_company"}}
	if infoFrom(ctx) != &ctx.info {
		t.Error("infoFrom does not find the tool context's requestInfo")
	}
	if infoFrom(parent) != nil {
		t.Error("the request context holds a requestInfo")
	}
	got := []any{ctx.Value(otherKey{}), infoFrom(ctx).tool, ctx.Err()}
	child, stop := context.WithCancel(ctx)
	defer stop()
	cancel()
	// A child of the tool context is cancelled with the request context at
	// once, as a child of a context.WithValue is: context finds the
	// request's cancelCtx through Value, and starts no goroutine.
	select {
	case <-child.Done():
	default:
		t.Error("a child of the tool context is not cancelled with the request's context")
	}
	got = append(got, ctx.Err(), child.Err())
	want := []any{"parent's", "lookup_company", nil, context.Canceled, context.Canceled}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return errors.Is(a, b) && errors.Is(b, a) })); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
