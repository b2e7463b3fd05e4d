package se

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
)

// failingTransport fails every request with an error that names the URL.
type failingTransport struct{}

func (failingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, errors.New("dial " + r.URL.String() + ": connection refused")
}

// TestIndexFailureTellsOperatorWithoutPath: a search (and a lookup without
// the credential) after a failed index build says what failed and what the
// operator checks, never the server's path or the download URL
// (SECURITY.md: errors carry no server detail); the log and WaitIndexed,
// which are the operator's, keep the cause.
func TestIndexFailureTellsOperatorWithoutPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	private := filepath.Join(dir, "operator-private-dir")
	if err := os.MkdirAll(private, 0o750); err != nil {
		t.Fatal(err)
	}
	malformed := filepath.Join(private, "bolagsverket_bulkfil.txt")
	if err := os.WriteFile(malformed, []byte("not a bulk file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const url = "https://bulk.test/operator-private-dir/bolagsverket_bulkfil.zip"
	for _, tt := range []struct {
		name string
		opt  Option
		want registry.Error
	}{
		{"missing file", WithBulkFile(filepath.Join(private, "missing.zip")), registry.Error{
			Message: "The index of Bolagsverket's bulk file could not be built: the bulk file cannot be opened.",
			Hint: "The operator checks that BOLAGSVERKET_BULK_FILE names a file that exists and the service may read. The service's log " +
				"has the cause; the index is retried every hour.",
		}},
		{"malformed file", WithBulkFile(malformed), registry.Error{
			Message: "The index of Bolagsverket's bulk file could not be built: the bulk file could not be read or indexed.",
			Hint: "The operator checks that BOLAGSVERKET_BULK_FILE or BOLAGSVERKET_BULK_URL gives Bolagsverket's bulk file " +
				"(bolagsverket_bulkfil.zip or its text), and that the data directory (REGISTRY_DATA_DIR) is writable and has room. " +
				"The service's log has the cause; the index is retried every hour.",
		}},
		{"download", WithBulkURL(url), registry.Error{
			Message: "The index of Bolagsverket's bulk file could not be built: the bulk file cannot be downloaded.",
			Hint: "The operator checks that BOLAGSVERKET_BULK_URL answers Bolagsverket's bulk file (bolagsverket_bulkfil.zip) to this " +
				"server. The service's log has the cause; the index is retried every hour.",
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var log bytes.Buffer
			c, err := New(tt.opt, WithHTTPClient(&http.Client{Transport: failingTransport{}}), WithDataDir(t.TempDir()),
				WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = c.Close() })
			waitErr := c.WaitIndexed(t.Context())
			if waitErr == nil {
				t.Fatal("the index was built")
			}
			_, serr := c.Search(t.Context(), "exempel", 5)
			_, lerr := c.Lookup(t.Context(), "5560160680")
			for _, err := range []error{serr, lerr} {
				e := registry.AsError(err)
				if e == nil {
					t.Fatal("no error")
				}
				got := registry.Error{Message: e.Message, Hint: e.Hint}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
				if e.Code != registry.CodeUpstreamError {
					t.Errorf("code %s", e.Code)
				}
			}
			_ = c.Close() // waits for the build goroutine, which logs after WaitIndexed returns
			if !strings.Contains(log.String(), strings.ReplaceAll(waitErr.Error(), `"`, `\"`)) {
				t.Errorf("the log does not keep the cause %q: %s", waitErr, log.String())
			}
		})
	}
}
