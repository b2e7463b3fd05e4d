package mcpserver

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteJSONHeaderValues: writeJSON sets the three headers from the
// caller's array, each a slice of capacity 1, so that a later Add (a
// middleware's, after the answer) makes a new slice and leaves the array,
// and the other headers, as they were.
func TestWriteJSONHeaderValues(t *testing.T) {
	t.Parallel()
	w := httptest.NewRecorder()
	var v [3]string
	writeJSON(w, httptest.NewRequest(http.MethodPost, "/mcp", nil), []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), &v)
	h := w.Header()
	for _, k := range []string{"Cache-Control", "Content-Type", "Content-Length"} {
		h.Add(k, "added")
	}
	want := [3]string{"no-cache, no-transform", "application/json", "36"}
	if diff := cmp.Diff(want, v); diff != "" {
		t.Errorf("the caller's values after Add (-want +got):\n%s", diff)
	}
	wantHeader := http.Header{
		"Cache-Control":  {"no-cache, no-transform", "added"},
		"Content-Type":   {"application/json", "added"},
		"Content-Length": {"36", "added"},
	}
	if diff := cmp.Diff(wantHeader, h); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(`{"jsonrpc":"2.0","id":1,"result":{}}`, w.Body.String()); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
}
