package se

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	registry "github.com/companyregistry/registry"
)

// TestReview_SEIndexErrorShowsServerPath: when the bulk file cannot be
// read, a search answers upstream_error whose message repeats the build
// error text, which holds the operator's file path (and for a URL, the
// transport error). SECURITY.md: "The Registry logs upstream failures by
// country, code and attempt, without identifiers or error text"; an error
// sent to a caller should not reveal the server's file system either.
func TestReview_SEIndexErrorShowsServerPath(t *testing.T) {
	t.Parallel()
	secret := filepath.Join(t.TempDir(), "operator-private-dir", "bolagsverket_bulkfil.zip")
	c, err := New(WithBaseURL(testBase), WithTokenURL(testTokenURL), WithHTTPClient(&http.Client{Transport: newRegister(t)}),
		WithBulkFile(secret), WithDataDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.WaitIndexed(t.Context()); err == nil {
		t.Fatal("the index was built from a missing file")
	}
	_, err = c.Search(t.Context(), "exempel", 5)
	e := registry.AsError(err)
	if e == nil {
		t.Fatalf("search: %v", err)
	}
	if strings.Contains(e.Message+e.Hint, "operator-private-dir") {
		t.Errorf("the caller's error shows the server's path: %q", e.Message)
	}
}
