package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// reviewRecordEnv names the file TestReviewStdioRecorder appends each
// message it reads to ("method params" a line), before it answers.
const reviewRecordEnv = "PERFBENCH_REVIEW_RECORD"

// TestReviewStdioRecorder is the server of
// TestReview_StdioRoundMakesTheCallsItCounts (the test binary started
// again with reviewRecordEnv set): it answers as fakeStdioEnv's "ok" and
// records what it was sent. Alone it does nothing.
func TestReviewStdioRecorder(t *testing.T) {
	path := os.Getenv(reviewRecordEnv)
	if path == "" {
		return
	}
	rec, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		os.Exit(3)
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var m struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(in.Bytes(), &m); err != nil {
			fmt.Fprintf(rec, "unreadable %q\n", in.Text())
			continue
		}
		params := string(m.Params)
		if m.Method == "initialize" {
			params = "…"
		}
		fmt.Fprintf(rec, "%s %s\n", m.Method, params)
		if m.ID == nil {
			continue
		}
		result := `{"content":[{"type":"text","text":"report"}]}`
		if m.Method == "initialize" {
			result = `{"protocolVersion":"2025-06-18"}`
		}
		fmt.Printf(`{"jsonrpc":"2.0","id":%d,"result":%s}`+"\n", *m.ID, result)
	}
	os.Exit(0)
}

// TestReview_StdioRoundMakesTheCallsItCounts: TestStdioRound's fake
// answers whatever it is sent and checks nothing it receives, so a
// stdioRound that made one call instead of calls (a rate calls times too
// high), sent another method or other params, or skipped the
// notifications/initialized the MCP lifecycle requires of a client after
// initialize (MCP 2025-06-18, "Lifecycle") passes it (each
// mutant tried: `for id := 3` → `for id := last`; the method and params
// replaced by "tools/list" and {}; the notification removed). This test
// counts what the server was sent. It passes on main: it is the test
// TestStdioRound lacks, for the lead to take or not.
func TestReview_StdioRoundMakesTheCallsItCounts(t *testing.T) {
	command := os.Args[0] + " -test.run=^TestReviewStdioRecorder$"
	for _, socket := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "record")
		t.Setenv(reviewRecordEnv, path)
		const calls = 50
		params := `{"name":"lookup_company","arguments":{"country":"NO","id":"923609016"}}`
		if _, _, err := stdioRound(t.Context(), command, "tools/call", params, calls, socket); err != nil {
			t.Fatalf("socket %v: %v", socket, err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"initialize …", "notifications/initialized "}
		for range calls + 2 {
			want = append(want, "tools/call "+params)
		}
		if diff := cmp.Diff(want, strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")); diff != "" {
			t.Errorf("socket %v: the messages the server read (-want +got):\n%s", socket, diff)
		}
	}
}
