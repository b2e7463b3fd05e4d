package se

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	registry "github.com/companyregistry/registry"
)

// TestOptionsRefused: every option refuses what it cannot use, New and
// Check alike, and an error about the credential never repeats it.
func TestOptionsRefused(t *testing.T) {
	t.Parallel()
	for name, tt := range map[string]struct {
		opts []Option
		want string
	}{
		"base URL not absolute":  {[]Option{WithBaseURL("gw.api.bolagsverket.se")}, "se:"},
		"token URL ftp":          {[]Option{WithTokenURL("ftp://portal.api.bolagsverket.se/oauth2/token")}, "WithTokenURL"},
		"credential without ':'": {[]Option{WithCredentials("only-an-id-SECRET")}, "not client_id:client_secret"},
		"credential, empty id":   {[]Option{WithCredentials(" :x-SECRET")}, "not client_id:client_secret"},
		"bulk URL relative":      {[]Option{WithBulkURL("bolagsverket_bulkfil.zip")}, "WithBulkURL"},
		"bulk file and URL":      {[]Option{WithBulkFile("bulk.zip"), WithBulkURL(DefaultBulkURL)}, "not both"},
		"contact e-mail":         {[]Option{WithContactEmail("ops (at) example.com")}, "se:"},
		"nil option":             {[]Option{nil}, "nil option"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, newErr := New(tt.opts...)
			checkErr := Check(tt.opts...)
			if newErr == nil || checkErr == nil || newErr.Error() != checkErr.Error() {
				t.Fatalf("New: %v; Check: %v; want the same error", newErr, checkErr)
			}
			if msg := newErr.Error(); !strings.Contains(msg, tt.want) || strings.Contains(msg, "SECRET") {
				t.Errorf("error %q, want one containing %q and no secret", msg, tt.want)
			}
		})
	}
}

// TestCheckStartsNothing: Check accepts a good configuration with a bulk
// URL without creating the data directory or downloading anything; New
// with the same options starts the download.
func TestCheckStartsNothing(t *testing.T) {
	t.Parallel()
	var gets atomic.Int32
	started := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gets.Add(1)
		select {
		case started <- struct{}{}:
		default:
		}
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "data")
	opts := []Option{WithBulkURL(srv.URL + "/bolagsverket_bulkfil.zip"), WithDataDir(dir), WithHTTPClient(srv.Client()),
		WithCredentials(testCreds)}
	if err := Check(opts...); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Check touched the data directory: %v", err)
	}
	if n := gets.Load(); n != 0 {
		t.Errorf("Check downloaded the bulk file %d time(s)", n)
	}
	c, err := New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Errorf("New made no data directory: %v", err)
	}
}

// TestCooperativeMeetingSource: an economic association's annual meeting
// (here a housing cooperative's) cites the act on economic associations
// (lag 2018:672 6 kap. 9 §, through FAR's commentary, the research's
// source), not the Companies Act the AB's meeting cites.
func TestCooperativeMeetingSource(t *testing.T) {
	t.Parallel()
	c := &Country{}
	for code, want := range map[string]string{"BRF": "https://www.faronline.se/dokument/e/etiku10/", "EK": "https://www.faronline.se/dokument/e/etiku10/",
		"AB": "https://lagen.nu/2005:551"} {
		rep := baseReport("7164099017", "Test")
		applyForm(rep, code, "")
		out, err := c.Deadlines(rep, registry.NewDate(2026, 11, 24))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, d := range out.Deadlines {
			if d.Kind == "general_meeting" {
				found = true
				if d.SourceURL == nil || *d.SourceURL != want {
					t.Errorf("%s: general meeting source %v, want %s", code, d.SourceURL, want)
				}
			}
		}
		if !found {
			t.Errorf("%s: no general meeting", code)
		}
	}
}

// TestSearchRefusesPersonalNumbers: a query that is, or holds, a personal
// identity number is bad_request without the number; an organisation
// number or a name with digits is searched.
func TestSearchRefusesPersonalNumbers(t *testing.T) {
	t.Parallel()
	c := build(t, newRegister(t))
	for _, q := range []string{"198101052382", "19810105-2382", "810105-2382", "810105+2382", "Anna 810105-2382", "19810105 2382",
		"x 8101 05 2382 y", "SE 810105238201", "se810105238201"} {
		res, err := c.Search(t.Context(), q, 5)
		e := registry.AsError(err)
		if res != nil || e == nil || e.Code != registry.CodeBadRequest || strings.Contains(e.Message+e.Hint, "2382") {
			t.Errorf("%q: %v, %v; want bad_request without the number", q, res, err)
		}
	}
	for _, q := range []string{"5560160680", "556016-0680", "Exempel 2020", "1999 AB", "Bygg 12 34", "810105", "SE", "Sesam 810105"} {
		if _, err := c.Search(t.Context(), q, 5); err != nil {
			t.Errorf("%q: %v", q, err)
		}
	}
}

// TestAnswersLocally: searches never call the API (it has none), lookups
// do only with the credential; so only those draw on the upstream budget.
func TestAnswersLocally(t *testing.T) {
	t.Parallel()
	withAPI, err := New(WithCredentials(testCreds))
	if err != nil {
		t.Fatal(err)
	}
	bulkOnly, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		c       *Country
		op      string
		locally bool
	}{
		{withAPI, "search", true}, {withAPI, "lookup", false}, {bulkOnly, "search", true}, {bulkOnly, "lookup", true}, {withAPI, "roles", false},
	} {
		if got := tt.c.AnswersLocally(tt.op); got != tt.locally {
			t.Errorf("credential %t, %s: %t", tt.c.api != nil, tt.op, got)
		}
	}
}
