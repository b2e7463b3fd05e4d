package countries_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/companyregistry/registry/countries"
)

// TestCheck: Check refuses what All refuses, with the same error, and
// accepts a Swedish bulk URL without creating the data directory or
// downloading anything (All would start both).
func TestCheck(t *testing.T) {
	t.Parallel()
	for name, cfg := range map[string]countries.Config{
		"brreg URL":         {BrregBaseURL: "ftp://x"},
		"ch URL":            {CompaniesHouseBaseURL: "::"},
		"prh URL":           {PRHBaseURL: "prh.test/v3"},
		"email":             {ContactEmail: "a\nb"},
		"bolagsverket URL":  {BolagsverketBaseURL: "gw.test"},
		"token URL":         {BolagsverketTokenURL: "ftp://portal.test"},
		"credential":        {BolagsverketCredentials: "no-colon"},
		"bulk URL":          {BolagsverketBulkURL: "bulk.zip"},
		"bulk file and URL": {BolagsverketBulkFile: "bulk.zip", BolagsverketBulkURL: "https://bv.test/bulk.zip"},
	} {
		_, allErr := countries.All(cfg)
		checkErr := countries.Check(cfg)
		if allErr == nil || checkErr == nil || allErr.Error() != checkErr.Error() {
			t.Errorf("%s: All: %v; Check: %v; want the same error", name, allErr, checkErr)
		}
	}

	var gets atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gets.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "data")
	if err := countries.Check(countries.Config{BolagsverketBulkURL: srv.URL + "/bulk.zip", DataDir: dir, HTTPClient: srv.Client()}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Check touched the data directory: %v", err)
	}
	if n := gets.Load(); n != 0 {
		t.Errorf("Check downloaded the bulk file %d time(s)", n)
	}
}
