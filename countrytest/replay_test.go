package countrytest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/companyregistry/registry/countrytest"
)

// A request with a body is answered by the answer recorded under its path
// and body, else as a request without one (path and query, then path),
// else 404; the body is read and closed either way.
func TestReplayMatchesTheBody(t *testing.T) {
	t.Parallel()
	rp := countrytest.NewReplay(map[string]countrytest.Answer{
		`/idx/_search {"id":1}`: {Body: []byte(`one`)},
		`/idx/_search {"id":2}`: {Body: []byte(`two`)},
		"/idx/_search":          {Body: []byte(`any`)},
	})
	client := &http.Client{Transport: rp}
	for _, tt := range []struct {
		method, body, want string
		status             int
	}{
		{http.MethodPost, `{"id":1}`, "one", 200},
		{http.MethodPost, `{"id":2}`, "two", 200},
		{http.MethodPost, `{"id":3}`, "any", 200},
		{http.MethodGet, ``, "any", 200},
	} {
		req, err := http.NewRequestWithContext(t.Context(), tt.method, "https://register.test/idx/_search", strings.NewReader(tt.body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status || string(b) != tt.want {
			t.Errorf("%s %s: %d %q, want %d %q", tt.method, tt.body, resp.StatusCode, b, tt.status, tt.want)
		}
	}
	resp, err := client.Post("https://register.test/other", "application/json", strings.NewReader(`{"id":1}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown path: %d, want 404", resp.StatusCode)
	}
	if n := rp.Calls(); n != 5 {
		t.Errorf("%d calls, want 5", n)
	}
}
