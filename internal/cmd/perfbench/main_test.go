package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestPercentile: nearest rank, as the cold figures are computed.
func TestPercentile(t *testing.T) {
	t.Parallel()
	var s []time.Duration
	for i := 1; i <= 300; i++ {
		s = append(s, time.Duration(i)*time.Millisecond)
	}
	got := []time.Duration{percentile(s, 50), percentile(s, 99), percentile(s, 100), percentile(nil, 50)}
	want := []time.Duration{150 * time.Millisecond, 297 * time.Millisecond, 300 * time.Millisecond, 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("percentiles (-want +got):\n%s", diff)
	}
}

// TestRatios: medians and per-round ratios of the wrk series.
func TestRatios(t *testing.T) {
	t.Parallel()
	in := "bare 100\nrest 90\nbare 200\nrest 190\nbare 50\nrest 40\n"
	var out bytes.Buffer
	if err := ratios(strings.NewReader(in), []string{"rest/bare"}, &out); err != nil {
		t.Fatal(err)
	}
	want := "bare: median 100.0 (50.0–200.0) over 3 runs\nrest: median 90.0 (40.0–190.0) over 3 runs\n" +
		"rest ÷ bare: median 0.900 (0.800–0.950) over 3 rounds\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	if err := ratios(strings.NewReader(in), []string{"rest/none"}, &out); err == nil {
		t.Error("a pair with a missing series: no error")
	}
}

// TestParseStatus and ids: the memory figures and the fresh numbers.
func TestParseStatus(t *testing.T) {
	t.Parallel()
	rss, hwm, err := parseStatus([]byte("Name:\tserver\nVmHWM:\t  61234 kB\nVmRSS:\t   51234 kB\n"))
	if err != nil || rss != 51234 || hwm != 61234 {
		t.Errorf("parseStatus: %d %d %v", rss, hwm, err)
	}
	if _, _, err := parseStatus([]byte("Name:\tx\n")); err == nil {
		t.Error("no VmRSS: no error")
	}
	got := ids(3, 92360901)
	if len(got) != 3 || got[0] != "923609016" {
		t.Errorf("ids: %v, want 3 starting with 923609016", got)
	}
}

// TestLookupProxy: perfbench proxy passes a lookup to the register's unit
// and its answer back as it is, and serves nothing else.
func TestLookupProxy(t *testing.T) {
	reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/enheter/923609016" {
			http.NotFound(w, r)
			return
		}
		_, _ = io.WriteString(w, `{"organisasjonsnummer":"923609016"}`)
	}))
	defer reg.Close()
	p := httptest.NewServer(lookupProxy{register: reg.URL + "/api", client: reg.Client()})
	defer p.Close()
	for _, c := range []struct {
		path   string
		status int
		body   string
	}{
		{"/v1/NO/company/923609016", http.StatusOK, `{"organisasjonsnummer":"923609016"}`},
		{"/v1/NO/company/923609017", http.StatusNotFound, "404 page not found\n"},
		{"/other", http.StatusNotFound, "404 page not found\n"},
	} {
		res, err := http.Get(p.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.body, string(b)); res.StatusCode != c.status || diff != "" {
			t.Errorf("GET %s: status %d, want %d; body (-want +got):\n%s", c.path, res.StatusCode, c.status, diff)
		}
	}
}

// fakeStdioEnv makes the test binary a stdio server (TestFakeStdioServer):
// "ok" answers every call alike; "drift" answers calls after the fifth
// with another result; "refuse" answers initialize with an error.
const fakeStdioEnv = "PERFBENCH_FAKE_STDIO"

// TestFakeStdioServer is the server stdioRound runs in TestStdioRound:
// the test binary itself, started again with fakeStdioEnv set. Alone it
// does nothing.
func TestFakeStdioServer(t *testing.T) {
	mode := os.Getenv(fakeStdioEnv)
	if mode == "" {
		return
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var m struct {
			ID     *int   `json:"id"`
			Method string `json:"method"`
		}
		if err := json.Unmarshal(in.Bytes(), &m); err != nil || m.ID == nil {
			continue // a notification
		}
		result := `{"content":[{"type":"text","text":"report"}]}`
		switch {
		case m.Method == "initialize" && mode == "refuse":
			fmt.Printf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32600,"message":"no"}}`+"\n", *m.ID)
			continue
		case m.Method == "initialize":
			result = `{"protocolVersion":"2025-06-18"}`
		case mode == "drift" && *m.ID > 5:
			result = `{"content":[{"type":"text","text":"other"}]}`
		}
		fmt.Printf(`{"jsonrpc":"2.0","id":%d,"result":%s}`+"\n", *m.ID, result)
	}
	os.Exit(0)
}

// TestStdioRound: a round runs the server, initializes, makes its calls
// in sequence and checks the last answer against the second (its id
// changed); a server whose answers drift, or that refuses initialize, is
// an error, not a rate. Over pipes and over socketpairs.
func TestStdioRound(t *testing.T) {
	command := os.Args[0] + " -test.run=^TestFakeStdioServer$"
	for _, socket := range []bool{false, true} {
		t.Setenv(fakeStdioEnv, "ok")
		rate, size, err := stdioRound(t.Context(), command, "tools/call", `{"name":"x"}`, 50, socket)
		if err != nil || rate <= 0 {
			t.Fatalf("socket %v: rate %v, err %v", socket, rate, err)
		}
		if want := len(`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"report"}]}}` + "\n"); size != want {
			t.Errorf("socket %v: answer size %d, want %d", socket, size, want)
		}
		t.Setenv(fakeStdioEnv, "drift")
		if _, _, err := stdioRound(t.Context(), command, "tools/call", `{"name":"x"}`, 50, socket); err == nil ||
			!strings.Contains(err.Error(), "the last answer differs") {
			t.Errorf("socket %v: drifting answers: err %v", socket, err)
		}
		t.Setenv(fakeStdioEnv, "refuse")
		if _, _, err := stdioRound(t.Context(), command, "tools/call", `{"name":"x"}`, 50, socket); err == nil ||
			!strings.Contains(err.Error(), "initialize") {
			t.Errorf("socket %v: refused initialize: err %v", socket, err)
		}
	}
}
