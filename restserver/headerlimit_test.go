package restserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/restserver"
)

// TestWithMaxHeaderBytes: a request whose request line and headers pass the
// bound is 431 with the error envelope (code bad_request, the bound named),
// one within it is answered; /llms-full.txt and /openapi.json say so, and
// say nothing of it without the option.
func TestWithMaxHeaderBytes(t *testing.T) {
	t.Parallel()
	const sentence = "A request line plus headers over 2 KiB"
	h := newHarness(t, restserver.WithMaxHeaderBytes(2<<10))
	type answer struct {
		Status            int
		ContentType       string
		RequestID         bool
		Code, Message     string
		InLLMs, InOpenAPI bool
	}
	full := h.get(t, "/llms-full.txt")
	var doc struct {
		Info struct{ Description string }
	}
	if err := json.Unmarshal(h.get(t, "/openapi.json").body, &doc); err != nil {
		t.Fatal(err)
	}
	big := h.get(t, "/v1/ZZ/search?q="+strings.Repeat("x", 2<<10))
	e := errorOf(t, big.body)
	got := answer{big.status, big.header.Get("Content-Type"), big.header.Get("X-Request-Id") != "", string(e.Code), e.Message,
		strings.Contains(string(full.body), sentence), strings.Contains(doc.Info.Description, sentence)}
	want := answer{http.StatusRequestHeaderFieldsTooLarge, "application/json", true, "bad_request",
		"The request line and headers are larger than 2 KiB.", true, true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("with a 2 KiB bound (-want +got):\n%s", diff)
	}
	if small := h.get(t, "/v1/ZZ/search?q="+strings.Repeat("x", 300)); small.status != http.StatusBadRequest ||
		errorOf(t, small.body).Message == want.Message {
		t.Errorf("a request within the bound: %d %s", small.status, small.body)
	}

	plain := newHarness(t)
	if strings.Contains(string(plain.get(t, "/llms-full.txt").body), "A request line plus headers") ||
		strings.Contains(string(plain.get(t, "/openapi.json").body), "A request line plus headers") {
		t.Error("without WithMaxHeaderBytes the texts name a bound")
	}
	if _, err := restserver.New(newRegistry(t, newFakeClock()), restserver.WithMaxHeaderBytes(-1)); err == nil {
		t.Error("WithMaxHeaderBytes(-1) accepted")
	}
}
