package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/brregfeed"
	"github.com/companyregistry/registry/internal/testwait"
)

const unitFile = "../../../examples/server/testdata/brreg_enhet_923609016.json"

// TestHandler: a unit is the recording under the asked number and is
// counted; /count tells the count; anything else is 404 and not counted.
func TestHandler(t *testing.T) {
	t.Parallel()
	body, err := os.ReadFile(unitFile)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(newHandler(body, "/enhetsregisteret/api", false, 0))
	defer srv.Close()
	get := func(path string) (int, string) {
		t.Helper()
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	type answer struct {
		Code int
		Body string
	}
	var got []answer
	for _, p := range []string{"/count", "/enhetsregisteret/api/enheter/920000018", "/enhetsregisteret/api/enheter/12345",
		"/enheter/920000018", "/enhetsregisteret/api/enheter/923609016", "/count"} {
		code, b := get(p)
		got = append(got, answer{code, b})
	}
	want := []answer{
		{200, `{"requests":0}` + "\n"},
		{200, string(bytes.ReplaceAll(body, []byte("923609016"), []byte("920000018")))},
		{404, "404 page not found\n"},
		{404, "404 page not found\n"},
		{200, string(body)},
		{200, `{"requests":2}` + "\n"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

// TestRun: the program prints its base URL, serves, and stops on cancel;
// a missing recording is a usage error.
func TestRun(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	if code := run(t.Context(), []string{"-unit", "missing.json"}, io.Discard, &stderr); code != 2 {
		t.Errorf("missing -unit: exit %d, want 2", code)
	}
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"-unit", unitFile}, pw, io.Discard) }()
	line := make([]byte, 256)
	n, err := pr.Read(line)
	if err != nil {
		t.Fatal(err)
	}
	base := strings.TrimSpace(string(line[:n]))
	if !strings.HasPrefix(base, "http://127.0.0.1:") || !strings.HasSuffix(base, "/enhetsregisteret/api") {
		t.Fatalf("base URL %q", base)
	}
	res, err := http.Get(base + "/enheter/923609016")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("unit: %d", res.StatusCode)
	}
	cancel()
	if code := testwait.Recv(t, done, "the program's stop after cancel"); code != 0 {
		t.Errorf("exit %d after cancel, want 0", code)
	}
}

// TestFaults: with faults on, the units of FaultOf answer 503, break
// their body off, send it slowly but whole, or answer nothing until the
// client gives up; a search is an empty page. Without faults they answer.
func TestFaults(t *testing.T) {
	t.Parallel()
	body, err := os.ReadFile(unitFile)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(newHandler(body, "/api", true, 0))
	defer srv.Close()
	get := func(ctx context.Context, id string) (int, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/enheter/"+id, nil)
		res, err := srv.Client().Do(req)
		if err != nil {
			return 0, err
		}
		defer res.Body.Close()
		_, err = io.ReadAll(res.Body)
		return res.StatusCode, err
	}
	if code, err := get(t.Context(), "000000914"); code != 503 || err != nil {
		t.Errorf("503 unit: %d %v", code, err)
	}
	if code, err := get(t.Context(), "000000930"); code != 200 || err != nil {
		t.Errorf("slow unit: %d %v, want a whole 200", code, err)
	}
	if _, err := get(t.Context(), "000000949"); err == nil {
		t.Error("broken unit: the body was read whole")
	}
	if code, err := get(t.Context(), "923609016"); code != 200 || err != nil {
		t.Errorf("plain unit: %d %v", code, err)
	}
	// The timeout unit: once the fake has counted it (5 units so far), it
	// has not answered; it ends when the client gives up.
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() { _, err := get(ctx, "000000922"); errc <- err }()
	testwait.Until(t, "the timeout unit reaches the fake", func() bool {
		res, err := http.Get(srv.URL + "/count")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return string(b) == `{"requests":5}`+"\n"
	})
	select {
	case err := <-errc:
		t.Fatalf("the timeout unit answered: %v", err)
	default:
	}
	cancel()
	if err := testwait.Recv(t, errc, "the timeout unit's end after the client gave up"); err == nil {
		t.Error("timeout unit answered")
	}
	res, err := http.Get(srv.URL + "/api/enheter?navn=x")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(b) != emptySearch {
		t.Errorf("search: %d %s", res.StatusCode, b)
	}
	for id, want := range map[string]Fault{"000000914": Fault503, "000000922": FaultTimeout, "000000930": FaultSlowBody,
		"000000949": FaultBrokenBody, "923609016": FaultNone, "12345": FaultNone} {
		if got := FaultOf(id); got != want {
			t.Errorf("FaultOf(%s) = %d, want %d", id, got, want)
		}
	}
}

// TestFeedAndRoles: with a feed, a publication changes the unit's record
// and appears in the units' update feed; with roles, every unit answers
// the recorded roles under its own number.
func TestFeedAndRoles(t *testing.T) {
	t.Parallel()
	body, err := os.ReadFile(unitFile)
	if err != nil {
		t.Fatal(err)
	}
	roles := []byte(`{"rollegrupper":[],"orgnr":"923609016"}`)
	h := newHandler(body, "/api", false, 0)
	h.roles = roles
	h.withFeed(brregfeed.New(func() time.Time { return time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC) }))
	srv := httptest.NewServer(h)
	defer srv.Close()
	do := func(method, path, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequestWithContext(t.Context(), method, srv.URL+path, strings.NewReader(body))
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, b := do("GET", "/api/enheter/920000018/roller", ""); code != 200 || b != `{"rollegrupper":[],"orgnr":"920000018"}` {
		t.Errorf("roles: %d %s", code, b)
	}
	if code, b := do("GET", "/api/oppdateringer/enheter?dato=2026-09-01T00:00:00.000Z", ""); code != 200 || strings.Contains(b, "_embedded") {
		t.Errorf("empty feed: %d %s", code, b)
	}
	if code, b := do("POST", "/api/oppdateringer/enheter?organisasjonsnummer=920000018", `{"navn":"NYTT NAVN AS"}`); code != 200 ||
		b != `{"oppdateringsid":1001}` {
		t.Errorf("publish: %d %s", code, b)
	}
	if code, b := do("GET", "/api/enheter/920000018", ""); code != 200 || !strings.Contains(b, `"navn":"NYTT NAVN AS"`) ||
		!strings.Contains(b, `"organisasjonsnummer":"920000018"`) {
		t.Errorf("the unit after the update: %d %.200s", code, b)
	}
	if _, b := do("GET", "/api/enheter/923609016", ""); b != string(body) {
		t.Errorf("another unit changed: %.200s", b)
	}
	code, b := do("GET", "/api/oppdateringer/enheter?oppdateringsid=1001&size=10&includeChanges=true", "")
	want := `{"_embedded":{"oppdaterteEnheter":[{"_links":{"enhet":{"href":"https://data.brreg.no/enhetsregisteret/api/enheter/920000018"}},` +
		`"dato":"2026-09-01T12:00:00.000Z","endringer":[{"op":"replace","path":"/navn","value":"NYTT NAVN AS"}],"endringstype":"Endring",` +
		`"oppdateringsid":1001,"organisasjonsnummer":"920000018"}]},"page":{"number":0,"size":10,"totalElements":1,"totalPages":1}}`
	if code != 200 || b != want {
		t.Errorf("feed: %d\n got %s\nwant %s", code, b, want)
	}
	if _, b := do("GET", "/api/oppdateringer/enheter?oppdateringsid=1002", ""); strings.Contains(b, "_embedded") {
		t.Errorf("after the last update: %s", b)
	}
	for _, bad := range []string{"?organisasjonsnummer=12", "?organisasjonsnummer=920000018"} {
		body := `{"navn":"X"}`
		if bad == "?organisasjonsnummer=920000018" {
			body = `[1]`
		}
		if code, _ := do("POST", "/api/oppdateringer/enheter"+bad, body); code != 400 {
			t.Errorf("publish %s %s: %d", bad, body, code)
		}
	}
}

// TestDelayHeld: with a delay, a unit's answer is held at least that long
// (a timer never fires early), /held/{id} says how long the handler took
// for that unit, and a unit never asked for is 404 there. Without a delay
// there is no /held route.
func TestDelayHeld(t *testing.T) {
	t.Parallel()
	body, err := os.ReadFile(unitFile)
	if err != nil {
		t.Fatal(err)
	}
	const delay = 3 * time.Millisecond
	srv := httptest.NewServer(newHandler(body, "/api", false, delay))
	defer srv.Close()
	get := func(base, path string) (int, string) {
		t.Helper()
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, b := get(srv.URL, "/api/enheter/920000018"); code != 200 || !strings.Contains(b, "920000018") {
		t.Fatalf("unit: %d %.100s", code, b)
	}
	code, b := get(srv.URL, "/held/920000018")
	var held struct{ NS int64 }
	if code != 200 || json.Unmarshal([]byte(b), &held) != nil || time.Duration(held.NS) < delay {
		t.Errorf("/held/920000018: %d %q, want 200 and at least %v", code, b, delay)
	}
	if code, _ := get(srv.URL, "/held/930000015"); code != 404 {
		t.Errorf("/held of a unit never asked for: %d, want 404", code)
	}
	plain := httptest.NewServer(newHandler(body, "/api", false, 0))
	defer plain.Close()
	get(plain.URL, "/api/enheter/920000018")
	if code, _ := get(plain.URL, "/held/920000018"); code != 404 {
		t.Errorf("/held without a delay: %d, want 404", code)
	}
}
