package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/testwait"
	"github.com/companyregistry/registry/mcpserver"
)

// allLists are the four list requests, with ids 1 to 4.
var allLists = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":2,"method":"resources/list"}`,
	`{"jsonrpc":"2.0","id":3,"method":"resources/templates/list"}`,
	`{"jsonrpc":"2.0","id":4,"method":"prompts/list"}`,
}

// streamSetup is what runStream does before it writes the data.
type streamSetup struct {
	version string // of the initialize request; "" sends none
	fill    bool   // list all four once, which fills the cache
}

// step is a write to the server and the number of answer lines to read
// after it, before the next step.
type step struct {
	data    string
	answers int
}

// runStream starts ServeIO with opts, sets the session up (each message
// on its own line, waiting for the answer to each request), then makes the
// steps, closes its end and returns the lines written after the set-up
// (each step's sorted, then the rest). Waiting for
// the answers of each step before the next keeps the output defined: the
// SDK answers requests concurrently, so the order of the answers to
// different requests is not defined, and it drops the answers still being
// worked on when the session ends (EOF, an invalid value).
func runStream(t testing.TB, setup streamSetup, steps []step, opts ...mcpserver.Option) []string {
	t.Helper()
	reg, _ := newRegistry(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- mcpserver.ServeIO(context.Background(), reg, inR, outW, opts...)
		_ = outW.Close()
	}()
	p := &stdioPeer{in: inW, out: bufio.NewReaderSize(outR, 64<<10)}
	if setup.version != "" {
		p.send(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+setup.version+
			`","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`, true)
		p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, false)
	}
	if setup.fill {
		for _, m := range allLists {
			p.send(t, m, true)
		}
	}
	var out []string
	lines := make(chan string)
	go func() {
		defer close(lines)
		for {
			l, err := p.out.ReadString('\n')
			if l != "" {
				lines <- l
			}
			if err != nil {
				return
			}
		}
	}()
	// The writes are made in order, without blocking the steps; the input
	// is closed once they are all read (or the server stopped reading).
	writes := make(chan string, len(steps))
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		defer inW.Close()
		for d := range writes {
			if _, err := io.WriteString(inW, d); err != nil {
				return
			}
		}
	}()
	closeWrites := sync.OnceFunc(func() { close(writes) })
	defer closeWrites()
	expired := testwait.Expired(t)
	for _, s := range steps {
		writes <- s.data
		var got []string
		for range s.answers {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("step %.60q: %d answers of %d, then the end", s.data, len(got), s.answers)
				}
				got = append(got, l)
			case <-expired:
				t.Fatalf("step %.60q: %d answers of %d before the test's deadline", s.data, len(got), s.answers)
			}
		}
		slices.Sort(got)
		out = append(out, got...)
	}
	closeWrites()
	<-wrote
	for l := range lines {
		out = append(out, "after the steps: "+l)
	}
	// ServeIO's result is not compared: when a value ends the session,
	// whether the SDK reports that error or nil depends on timing.
	<-done
	_ = inR.Close()
	return out
}

// compareStreams makes the steps with ServeIO as shipped and with the SDK
// alone (WithoutFastPath) and reports any difference.
func compareStreams(t *testing.T, setup streamSetup, steps []step) {
	t.Helper()
	got := runStream(t, setup, steps)
	want := runStream(t, setup, steps, mcpserver.WithoutFastPath())
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-sdk +cached):\n%s", diff)
	}
}

// list is a tools/list request with the given id and params (as written
// after the method, with its comma).
func list(id, params string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list"` + params + `}`
}

// lines joins messages, each followed by a newline.
func lines(msgs ...string) string { return strings.Join(msgs, "\n") + "\n" }

// streamCases are stdio inputs around cached lists: the stream framing
// (CRLF, values over several lines or several per line, split across
// writes, trailing data, EOF inside a value), params, ids of every JSON
// type and batches. The answer counts are for a session initialized with
// protocol 2025-03-26 (which allows batches).
var streamCases = map[string][]step{
	"lists": {{lines(allLists...), 4}},
	"params": {{lines(list("5", `,"params":{}`), list("6", `,"params":null`), list("7", `,"params":{"cursor":""}`),
		list("8", `,"params":{"cursor":"x"}`), list("9", `,"params":{"_meta":{"progressToken":1}}`),
		list("10", `,"params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`),
		list("11", `,"params":{"cursor":null}`), list("12", `,"params":{"x":1}`)), 8}},
	"ids": {{lines(list("1.0", ""), list("-0", ""), list("1e3", ""), list("9007199254740993", ""), list("-7", ""),
		list(`"a\u0041"`, ""), list(`"\ud800"`, ""), list(`""`, ""), list(`"<&>"`, "")), 9}},
	"id fraction":     {{lines(list("0.5", "")), 1}},
	"id null":         {{lines(list("null", ""), list("5", "")), 1}},
	"id true":         {{lines(list("true", "")), 0}},
	"id object":       {{lines(list("{}", "")), 0}},
	"no id":           {{lines(`{"jsonrpc":"2.0","method":"tools/list"}`, list("5", "")), 1}},
	"crlf":            {{list("5", "") + "\r\n" + list("6", "") + "\r\n", 2}},
	"multi-line":      {{"{\"jsonrpc\":\"2.0\",\n\"id\":5,\n\"method\":\"tools/list\"}\n  \t" + list("6", "") + "\n", 2}},
	"one line":        {{list("5", "") + list("6", "") + "\n", 0}},
	"one line, space": {{list("5", "") + " " + list("6", "") + "\n", 0}},
	"split": {{list("5", "")[:17], 0}, {list("5", "")[17:] + "\n" + list("6", "")[:3], 1}, {list("6", "")[3:], 1},
		{"\n", 0}},
	"no newline":    {{list("5", ""), 1}, {"\n" + list("6", ""), 1}},
	"trailing data": {{list("5", "") + "x\n" + list("6", "") + "\n", 0}},
	"eof in value":  {{lines(list("5", "")), 1}, {`{"jsonrpc":"2.0","id":6,"meth`, 0}},
	"not json":      {{lines(list("5", "")), 1}, {"hello\n" + list("6", "") + "\n", 0}},
	"number":        {{"5\n" + list("6", "") + "\n", 0}},
	"batch": {{"[" + list("5", "") + "," + list("6", `,"params":{}`) + `,{"jsonrpc":"2.0","id":7,"method":"ping"}]` + "\n" +
		list("8", "") + "\n", 2}},
	"batch lines":   {{"[\n" + list("5", "") + "\n,\n" + list("6", "") + "\n]\n", 1}},
	"invalid batch": {{lines(list("4", "")), 1}, {"[\n" + list("5", "") + "\n" + list("6", "") + "\n]\n", 0}},
	"empty batch":   {{lines(list("4", "")), 1}, {"[]\n" + list("5", "") + "\n", 0}},
	"other methods": {{lines(`{"jsonrpc":"2.0","id":5,"method":"ping"}`, list("6", ""),
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_countries"}}`, list("8", "")), 4}},
	// Tool calls (issue 30): answered around the SDK's encoder, as the SDK
	// answers them: twice the same (the memo's second sighting), an error
	// envelope, bad arguments, an unknown tool, _meta, a batch.
	"tool calls": {{lines(callLine("5", "list_countries", ""), callLine("6", "list_countries", ""), callLine("7", "list_countries", ""),
		callLine("8", "validate_company_id", `,"arguments":{"id":"923609016","country":"NO"}`),
		callLine("9", "validate_company_id", `,"arguments":{"id":"1","country":"XX"}`),
		callLine("10", "lookup_company", `,"arguments":{"nope":1}`), callLine("11", "no_such_tool", ""),
		`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"list_countries","_meta":{"progressToken":1}}}`), 8}},
	"tool call batch": {{"[" + callLine("5", "list_countries", "") + "," + callLine("6", "validate_company_id", `,"arguments":{"id":"<&>"}`) +
		"]\n" + callLine("7", "list_countries", "") + "\n", 2}},
	// Framings around tool calls (issue 30, second pass): the default
	// options (the list cache and the tools/call middleware with its hand
	// parse) answer each as the SDK alone does (WithoutFastPath), whatever
	// the line endings, splits, duplicate keys or invalid lines around it.
	"call crlf":       {{callLine("5", "list_countries", "") + "\r\n" + callLine("6", "list_countries", "") + "\r\n", 2}},
	"call split":      {{callLine("5", "list_countries", "")[:30], 0}, {callLine("5", "list_countries", "")[30:] + "\n" + callLine("6", "list_countries", "")[:3], 1}, {callLine("6", "list_countries", "")[3:] + "\n" + callLine("7", "list_countries", "") + "\n", 2}},
	"call no newline": {{callLine("5", "list_countries", ""), 1}, {"\n" + callLine("6", "list_countries", "") + "\n", 1}},
	"call spaces": {{"  " + callLine("5", "list_countries", "") + "\n" +
		`{ "jsonrpc" : "2.0" , "id" : 6 , "method" : "tools/call" , "params" : { "name" : "validate_company_id" , "arguments" : { "id" : "923609016" } } }` + "\n" +
		`{"params":{"arguments":{"country":"NO","id":"923 609 016"},"name":"validate_company_id"},"method":"tools/call","id":"x-7","jsonrpc":"2.0"}` + "\n", 3}},
	"call keys twice": {{`{"jsonrpc":"2.0","id":5,"id":6,"method":"tools/call","params":{"name":"list_countries"}}` + "\n" +
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_countries","name":"validate_company_id","arguments":{"id":"1","id":"923609016"}}}` + "\n", 2}},
	"call escapes": {{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_\u0063ountries"}}` + "\n" +
		callLine("6", "validate_company_id", `,"arguments":{"id":"923\u0036\"09016"}`) + "\n", 2}},
	"call trailing space":   {{callLine("4", "list_countries", "") + "\n", 1}, {callLine("5", "list_countries", "") + " \n" + callLine("6", "list_countries", "") + "\n", 0}},
	"call after not json":   {{lines(callLine("4", "list_countries", "")), 1}, {"hello\n" + callLine("6", "list_countries", "") + "\n", 0}},
	"call after number":     {{"5\n" + callLine("6", "list_countries", "") + "\n", 0}},
	"call after multi-line": {{"{\"jsonrpc\":\"2.0\",\n\"id\":5,\n\"method\":\"ping\"}\n" + callLine("6", "list_countries", "") + "\n", 2}},
	"call after response":   {{`{"jsonrpc":"2.0","id":99,"result":{}}` + "\n" + callLine("6", "list_countries", "") + "\n", 1}},
	"call after batch":      {{"[" + list("5", "") + "]\n" + callLine("6", "list_countries", "") + "\n", 2}},
	"call ids": {{lines(callLine("1.0", "list_countries", ""), callLine("-0", "list_countries", ""), callLine(`"a\u0041"`, "list_countries", ""),
		callLine(`"<&>"`, "list_countries", ""), callLine("-7", "list_countries", ""), callLine("9007199254740993", "list_countries", "")), 6}},
	// Calls answered in front of the SDK's reader (issue 30, third pass):
	// a call the Registry answers from its cache, or with no register at
	// all; a miss goes to the SDK. Each step warms what the next reads.
	"cached calls": {{lines(lookupLine("5", idEquinor), callLine("6", "search_company", `,"arguments":{"name":"equinor"}`),
		lookupLine("7", idNotFound)), 3},
		{lines(lookupLine("8", idEquinor), callLine("9", "company_roles", `,"arguments":{"id":"`+idEquinor+`"}`),
			callLine("10", "company_deadlines", `,"arguments":{"id":"`+idEquinor+`","today":"2026-03-01"}`),
			callLine("11", "search_company", `,"arguments":{"name":"equinor"}`), lookupLine("12", idNotFound),
			lookupLine("13", idBadChecksum), callLine("14", "search_company", `,"arguments":{"name":"equinor","limit":0}`)), 7},
		{lines(callLine("15", "company_roles", `,"arguments":{"id":"`+idEquinor+`"}`), lookupLine("16", idEquinor),
			lookupLine("17", idUpstreamError), lookupLine("18", idDefect)), 4}},
	// A cancellation of a call already answered, or of none, changes
	// nothing. (One sent right behind its call races the SDK's own
	// handler: the SDK alone answers the result or "context canceled",
	// whichever of its goroutines wins; stdioIn answers the result, read
	// and written before the cancellation is read. Not compared here.)
	"cached call cancelled": {{lines(lookupLine("5", idEquinor)), 1}, {lines(lookupLine("6", idEquinor)), 1},
		{lines(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":6}}`, lookupLine("7", idEquinor)), 1},
		{lines(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7.0}}`,
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`, lookupLine("8", idEquinor),
			`{"jsonrpc":"2.0","id":9,"method":"ping"}`), 2}},
	"cached call blank lines": {{lines(lookupLine("5", idEquinor)), 1}, {"\n\n" + lookupLine("6", idEquinor) + "\n \t\n\r\n" + lookupLine("7", idEquinor) + "\n\n", 2}},
	"cached call split": {{lines(lookupLine("5", idEquinor)), 1}, {lookupLine("6", idEquinor)[:40], 0},
		{lookupLine("6", idEquinor)[40:] + "\n" + lookupLine("7", idEquinor)[:10], 1}, {lookupLine("7", idEquinor)[10:] + "\n", 1}},
	"cached call eof mid-line": {{lines(lookupLine("5", idEquinor)), 1}, {lines(lookupLine("6", idEquinor)), 1},
		{lookupLine("7", idEquinor)[:50], 0}},
	"cached call no newline at eof": {{lines(lookupLine("5", idEquinor)), 1}, {lookupLine("6", idEquinor), 1}},
	"cached call after batch": {{lines(lookupLine("5", idEquinor)), 1},
		{"[" + lookupLine("6", idEquinor) + "," + callLine("7", "list_countries", "") + "]\n" + lookupLine("8", idEquinor) + "\n", 2}},
	"cached call ids": {{lines(lookupLine("5", idEquinor)), 1}, {lines(lookupLine(`"x-6"`, idEquinor), lookupLine("7.0", idEquinor),
		lookupLine(`"a\u0062"`, idEquinor), lookupLine("8", idEquinor)), 4}},
	"re-initialize": {{lines(`{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-06-18",` +
		`"capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`), 1}, {lines(list("6", "")), 1}},
}

// lookupLine is a tools/call of lookup_company of id with the call's id cid.
func lookupLine(cid, id string) string {
	return callLine(cid, "lookup_company", `,"arguments":{"id":"`+id+`"}`)
}

// callLine is a tools/call of tool with id and the params' rest (",..." or "").
func callLine(id, tool, rest string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `"` + rest + `}}`
}

// TestStdioStreamsMatchSDK checks that ServeIO writes what the SDK alone
// writes for each of streamCases, after initialize and after the lists
// were cached, in a protocol version with batches and one without (where
// the SDK ends the session on a batch, so the answer counts of the cases
// with batches do not apply), and before initialize for the plain lists.
func TestStdioStreamsMatchSDK(t *testing.T) {
	t.Parallel()
	for name, steps := range streamCases {
		for _, setup := range []streamSetup{{version: "2025-03-26"}, {version: "2025-03-26", fill: true}, {version: "2025-06-18", fill: true}} {
			if setup.version == "2025-06-18" && strings.Contains(name, "batch") {
				continue
			}
			t.Run(fmt.Sprintf("%s/%s/%v", name, setup.version, setup.fill), func(t *testing.T) {
				t.Parallel()
				compareStreams(t, setup, steps)
			})
		}
	}
	t.Run("before initialize", func(t *testing.T) {
		t.Parallel()
		compareStreams(t, streamSetup{}, []step{{lines(allLists...), 4}})
	})
	t.Run("call before initialize", func(t *testing.T) {
		t.Parallel()
		compareStreams(t, streamSetup{}, []step{{lines(callLine("5", "list_countries", "")), 1}})
	})
	t.Run("call right after initialize", func(t *testing.T) {
		t.Parallel()
		compareStreams(t, streamSetup{}, []step{{lines(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",`+
			`"capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`, `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			callLine("5", "list_countries", "")), 2}})
	})
	t.Run("call of protocol 2026-07-28", func(t *testing.T) {
		t.Parallel()
		compareStreams(t, streamSetup{version: "2026-07-28"}, []step{{lines(callLine("5", "list_countries", "")), 1}})
	})
	t.Run("batch/2025-06-18", func(t *testing.T) {
		t.Parallel()
		compareStreams(t, streamSetup{version: "2025-06-18", fill: true},
			[]step{{lines(list("5", "")), 1}, {lines("["+list("6", "")+"]", list("7", "")), 0}})
	})
}

// TestStdioHugeFrame checks that a value larger than the SDK's frame limit
// (16 MiB) after a cached list ends the session as the SDK alone ends it.
func TestStdioHugeFrame(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("writes 2 x 16 MiB")
	}
	huge := list("6", `,"params":{"cursor":"`+strings.Repeat("x", 16<<20)+`"}`) + "\n" + list("7", "") + "\n"
	compareStreams(t, streamSetup{version: "2025-06-18", fill: true}, []step{{lines(list("5", "")), 1}, {huge, 0}})
}

// TestStdioCachedListNoNewline checks that a cached list request is
// answered as soon as its value is complete, before any newline or
// further byte arrives.
func TestStdioCachedListNoNewline(t *testing.T) {
	t.Parallel()
	p := startStdio(t)
	p.handshake(t)
	want := p.send(t, list("5", ""), true)
	if _, err := io.WriteString(p.in, list("5", "")); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		l, _ := p.out.ReadString('\n')
		got <- l
	}()
	if l := testwait.Recv(t, got, "the answer to a cached tools/list without its newline"); l != want {
		t.Errorf("answer %.80q, want %.80q", l, want)
	}
}

// FuzzStdioMatchesSDK checks that any bytes written to ServeIO after a
// session was initialized (2025-03-26, so batches are allowed) and its
// lists cached get the answers the SDK alone gives. The stream is written
// at once and closed, so the answers come in no defined order (they are
// compared sorted) and an answer still being worked on when the session
// ends may be missing on either side; such a line must still be a JSON-RPC
// message of the server's, and a list in it the SDK's own bytes.
//
// Each input costs two ServeIO sessions (~20 ms: each builds the server
// and encodes its tool list), so Go's minimizer of an input that found new
// coverage, which makes up to O(n²) tries of an input of n bytes for up to
// -fuzzminimizetime (60 s by default) while the progress line counts none,
// froze `go test -fuzz` for a minute at each new input: it looked stalled.
// Unless -fuzzminimizetime is given, this target minimizes such an input
// with at most fuzzMinimizeTries tries (minimizeFewer).
func FuzzStdioMatchesSDK(f *testing.F) {
	minimizeFewer(f)
	for _, steps := range streamCases {
		var in strings.Builder
		for _, s := range steps {
			in.WriteString(s.data)
		}
		f.Add(in.String())
	}
	setup := streamSetup{version: "2025-03-26", fill: true}
	known := map[string]bool{}
	for _, l := range runStream(f, setup, []step{{lines(allLists...), 4}}, mcpserver.WithoutFastPath()) {
		var m struct{ Result json.RawMessage }
		if json.Unmarshal([]byte(l), &m) == nil && len(m.Result) > 0 {
			known[string(m.Result)] = true
		}
	}
	if len(known) != 4 {
		f.Fatalf("%d list results, want 4", len(known))
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := runStream(t, setup, []step{{in, 0}})
		want := runStream(t, setup, []step{{in, 0}}, mcpserver.WithoutFastPath())
		slices.Sort(got)
		slices.Sort(want)
		for _, l := range oneSided(got, want) {
			if err := answerLine(l, known); err != nil {
				t.Errorf("%v: %.200q", err, l)
			}
		}
	})
}

// fuzzMinimizeTries is how many tries FuzzStdioMatchesSDK's minimizer
// makes of an input by default: about a second at ~20 ms an input.
const fuzzMinimizeTries = "50x"

// minimizeFewer sets -test.fuzzminimizetime to fuzzMinimizeTries unless
// the command line set it, and only when -test.fuzz names
// FuzzStdioMatchesSDK: the flag is the process's, and a plain
// `go test -fuzz '^FuzzOther$'` runs this target's seeds first, so setting
// it for any other target would cut that target's minimizing too
// (rev-stdio8, TestReview_MinimizeFewerLeaksIntoOtherFuzzTargets). It is
// read when f.Fuzz starts fuzzing (in the coordinator), so it must be
// called before. The limit applies to a failing input's minimizing as well
// as a new-coverage one's: Go has one limit for both.
func minimizeFewer(f *testing.F) {
	fz := flag.Lookup("test.fuzz")
	if fz == nil || fz.Value.String() == "" {
		return
	}
	// The testing package matches a target's name against the part before
	// the first '/' (the rest is for its subtests).
	pattern, _, _ := strings.Cut(fz.Value.String(), "/")
	if ok, err := regexp.MatchString(pattern, "FuzzStdioMatchesSDK"); err != nil || !ok {
		return
	}
	set := false
	flag.Visit(func(fl *flag.Flag) { set = set || fl.Name == "test.fuzzminimizetime" })
	if set {
		return
	}
	if err := flag.Set("test.fuzzminimizetime", fuzzMinimizeTries); err != nil {
		f.Fatal(err)
	}
}

// oneSided returns the lines of sorted a and b found in only one of them.
func oneSided(a, b []string) []string {
	var out []string
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] == b[0]:
			a, b = a[1:], b[1:]
		case a[0] < b[0]:
			out, a = append(out, a[0]), a[1:]
		default:
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// answerLine reports whether l is a JSON-RPC message of a server (an
// answer, a notification), or a batch of them, in which a list result is
// one of known.
func answerLine(l string, known map[string]bool) error {
	l = strings.TrimPrefix(l, "after the steps: ")
	var msgs []json.RawMessage
	if strings.HasPrefix(l, "[") {
		if err := json.Unmarshal([]byte(l), &msgs); err != nil {
			return err
		}
	} else {
		msgs = []json.RawMessage{json.RawMessage(l)}
	}
	for _, raw := range msgs {
		var m struct {
			JSONRPC string
			Method  string
			Result  json.RawMessage
			Error   json.RawMessage
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return err
		}
		if m.JSONRPC == "2.0" && m.Method != "" && len(m.Result) == 0 && len(m.Error) == 0 {
			continue // a notification (or request) of the server's
		}
		if m.JSONRPC != "2.0" || (len(m.Result) == 0) == (len(m.Error) == 0) {
			return errors.New("not a JSON-RPC message")
		}
		if len(m.Result) == 0 || known[string(m.Result)] {
			continue
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(m.Result, &fields); err != nil {
			return fmt.Errorf("result not an object: %w", err)
		}
		for _, k := range []string{"tools", "resources", "resourceTemplates", "prompts"} {
			if _, ok := fields[k]; ok {
				return fmt.Errorf("a list (%s) that is not the SDK's", k)
			}
		}
	}
	return nil
}
