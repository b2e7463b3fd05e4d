package mcpserver

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/companyregistry/registry/internal/testwait"
)

// idKeySeeds are ids of every form the SDK reads (go-sdk v1.8.0 jsonrpc2
// DecodeMessage/MakeID: a number becomes int64(float64), a string is kept
// decoded) and some it refuses.
var idKeySeeds = []string{
	`1`, `0`, `-7`, `1.5`, `1.0`, `1e3`, `1E+2`, `-0`, `-0.0`, `-1.5`, `0.9999999999999999999`, `1e-400`,
	`123456789012345`, `1234567890123456`, `9007199254740993`, `12345678901234567890`, `1e20`, `-1e20`, `1e400`,
	`"a"`, `""`, `"req/1"`, `"call 1"`, `"q+2/Zg=="`, `"` + strings.Repeat("a", 65) + `"`, `"a\u0062"`, `"a\/b"`,
	`"a,b"`, `"a\"b"`, `"a\\b"`, `"<&>"`, `"\u003c"`, `"\u2028"`, `"\u00e9"`, `"é"`, "\"\x7f\"", `"\u0001"`, `"\t"`,
	`"\ud800"`, `"\uD83D\uDE00"`, `"{\"id\":1}"`, `null`, `true`, `false`, `{}`, `[]`, `[1]`, `{"a":1}`,
}

// checkIDKey checks idKey(id) against the SDK: a request with id is read
// by the SDK without an error exactly when idKey reports ok, as a call
// exactly when it reports call, and the SDK writes the id of its answer
// as the key, alone (answerID) and inside a batch's answer
// (batchAnswerIDs, whose array json.Marshal re-encodes).
func checkIDKey(t *testing.T, id string) {
	t.Helper()
	line := []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
	fields, parsed := parseMessage(line) // as stdioIn reads the id
	if !parsed {
		return
	}
	key, call, ok := idKey(fields["id"])
	msg, err := jsonrpc.DecodeMessage(line)
	if (err == nil) != ok {
		t.Fatalf("id %s: idKey ok %v, the SDK's decode: %v", id, ok, err)
	}
	if err != nil {
		return
	}
	req := msg.(*jsonrpc.Request)
	if req.IsCall() != call {
		t.Fatalf("id %s: idKey call %v, the SDK's %v", id, call, req.IsCall())
	}
	if !call {
		return
	}
	answer, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	rest, found := bytes.CutPrefix(answer, []byte(responseHead))
	if !found {
		t.Fatalf("id %s: the SDK's answer %s", id, answer)
	}
	written, found := answerID(rest)
	if !found || string(written) != key || !bytes.HasPrefix(rest[len(written):], []byte(`,"result":`)) {
		t.Fatalf("id %s: key %s, the SDK's answer %s (id found: %s, %v)", id, key, answer, written, found)
	}
	batch, err := json.Marshal([]json.RawMessage{answer, answer})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{key, key}, batchAnswerIDs(append(batch, '\n'))); diff != "" {
		t.Fatalf("id %s: the keys of the batch answer %s (-want +got):\n%s", id, batch, diff)
	}
}

// TestIDKeyMatchesSDK: two ids are one key exactly when the SDK takes them
// for one id, and the key is the id as the SDK writes it back (MCP spec
// basic/index, Requests: "Requests MUST include a string or integer ID";
// JSON-RPC 2.0 section 4: "String, Number, or NULL").
func TestIDKeyMatchesSDK(t *testing.T) {
	t.Parallel()
	for _, id := range idKeySeeds {
		checkIDKey(t, id)
	}
	same := [][]string{
		{`"ab"`, `"a\u0062"`, `"\u0061b"`},
		{`1`, `1.0`, `1.5`, `1e0`, `0.9999999999999999999`},
		{`"a/b"`, `"a\/b"`},
		{`"<"`, `"\u003c"`},
	}
	for _, ids := range same {
		want, _, _ := idKey([]byte(ids[0]))
		for _, id := range ids[1:] {
			if got, _, _ := idKey([]byte(id)); got != want {
				t.Errorf("idKey(%s) = %s, idKey(%s) = %s: the SDK takes them for one id", id, got, ids[0], want)
			}
		}
	}
	if a, _, _ := idKey([]byte(`1`)); a == `"1"` {
		t.Error(`1 and "1" are two ids to the SDK`)
	}
}

// FuzzIDKey is TestIDKeyMatchesSDK for any id.
func FuzzIDKey(f *testing.F) {
	for _, id := range idKeySeeds {
		f.Add(id)
	}
	f.Fuzz(checkIDKey)
}

// checkPlainLine checks that a line plainLine vouches for is one the SDK
// reads without an error (go-sdk v1.8.0 mcp readBatch and jsonrpc2
// DecodeMessage) and that it counts what the SDK answers: a request's id
// key, nothing for a notification or a response, a batch's requests.
func checkPlainLine(t *testing.T, line string) {
	t.Helper()
	m, ok := plainLine([]byte(line + "\n"))
	b := bytes.TrimSpace([]byte(line))
	if !ok || len(b) == 0 {
		return
	}
	keyOf := func(msg jsonrpc.Message) string {
		req, isReq := msg.(*jsonrpc.Request)
		if !isReq || !req.IsCall() {
			return ""
		}
		answer, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)})
		if err != nil {
			t.Fatal(err)
		}
		id, _ := answerID(bytes.TrimPrefix(answer, []byte(responseHead)))
		return string(id)
	}
	if !m.batch {
		msg, err := jsonrpc.DecodeMessage(b)
		if err != nil {
			t.Fatalf("plainLine vouches for %s, which the SDK refuses: %v", line, err)
		}
		if got := keyOf(msg); got != m.key {
			t.Fatalf("%s: plainLine counts %q, the SDK answers %q", line, m.key, got)
		}
		return
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		t.Fatal(err)
	}
	var keys []string
	seen := map[jsonrpc.ID]bool{}
	for _, raw := range raws {
		msg, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			t.Fatalf("plainLine vouches for the batch %s, which the SDK refuses: %v", line, err)
		}
		if req, isReq := msg.(*jsonrpc.Request); isReq {
			if seen[req.ID] {
				t.Fatalf("plainLine vouches for the batch %s, which the SDK refuses: two requests with id %v", line, req.ID.Raw())
			}
			seen[req.ID] = true
		}
		if k := keyOf(msg); k != "" {
			keys = append(keys, k)
		}
	}
	if diff := cmp.Diff(keys, m.keys); diff != "" {
		t.Fatalf("%s: the batch's ids (-SDK +plainLine):\n%s", line, diff)
	}
}

var plainLineSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":"a\u0062","method":"ping"}`,
	`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":1,"id":"x","method":"ping"}`,
	`{"jsonrpc":"2.0","ID":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","\u0069d":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}`,
	`{"jsonrpc":"2.0","id":1,"method":5}`,
	`{"jsonrpc":"2.0","id":1,"method":null}`,
	`{"jsonrpc":"2\u002e0","id":1,"method":"ping"}`,
	`{"jsonrpc":"2.1","id":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","error":5}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","error":{"code":1,"message":"m"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"subscriptions\/listen"}`,
	`{"jsonrpc":"2.0","id":99,"result":{}}`,
	`{"jsonrpc":"2.0","id":99,"error":{"code":-32601,"message":"no"}}`,
	`{"jsonrpc":"2.0","id":99,"error":{"code":1.5,"message":"no"}}`,
	`{"jsonrpc":"2.0","id":99,"error":{"code":1,"message":5}}`,
	`{"jsonrpc":"2.0","id":99,"error":null}`,
	`{"jsonrpc":"2.0","id":99,"error":{"code":null,"message":null,"data":[1]}}`,
	`{"jsonrpc":"2.0","id":99,"error":{"code":-0,"message":"x"}}`,
	`{"jsonrpc":"2.0","id":99,"error":5}`,
	`{"jsonrpc":"2.0","id":null,"result":{}}`,
	`{"jsonrpc":"2.0","result":{}}`,
	`[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","id":"b2","method":"ping"}]`,
	`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1.0,"method":"ping"}]`,
	`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]`,
	`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
	`[{"jsonrpc":"2.0","id":9,"result":{}},{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
	`[]`, `[1]`, `[{"jsonrpc":"2.0","id":true,"method":"ping"}]`,
}

// TestPlainLineMatchesSDK: stdioIn counts a line only when the SDK reads it
// without an error, and counts the requests the SDK answers.
func TestPlainLineMatchesSDK(t *testing.T) {
	t.Parallel()
	for _, l := range plainLineSeeds {
		checkPlainLine(t, l)
	}
	cases := map[string]lineMsg{
		`{"jsonrpc":"2.0","id":"a\u0062","method":"ping"}`:                          {key: `"ab"`, method: []byte(`"ping"`)},
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`:                                {key: `1`, method: []byte(`"ping"`)},
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`:                               {method: []byte(`"ping"`)},
		`{"jsonrpc":"2.0","id":99,"result":{}}`:                                     {},
		`[{"jsonrpc":"2.0","id":"b1","method":"ping"}]`:                             {batch: true, keys: []string{`"b1"`}, owes: true},
		`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`: {batch: true, keys: []string{`2`}},
		`[{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen"},{"jsonrpc":"2.0","id":3,"method":"ping"}]`: {
			batch: true, keys: []string{`2`, `3`}},
	}
	for line, want := range cases {
		got, ok := plainLine([]byte(line + "\n"))
		if !ok {
			t.Errorf("%s: not counted", line)
			continue
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(lineMsg{})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", line, diff)
		}
	}
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`, // the SDK ends the session
		`{"jsonrpc":"2.0","id":null,"result":{}}`,
		`{"jsonrpc":"2.0","id":99,"error":5}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","error":5}`,
		`{"jsonrpc":"2.1","id":1,"method":"ping"}`,
		`[]`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1.0,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"} {"jsonrpc":"2.0","id":2,"method":"ping"}`,
	} {
		if _, ok := plainLine([]byte(line + "\n")); ok {
			t.Errorf("%s: counted, but the SDK refuses it", line)
		}
	}
}

// FuzzPlainLine is TestPlainLineMatchesSDK for any line.
func FuzzPlainLine(f *testing.F) {
	for _, l := range plainLineSeeds {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n") {
			return
		}
		checkPlainLine(t, line)
	})
}

// answeredAfterEOF starts a session, sends the lines of before (each
// answered with one line, read), then line, which calls review_block,
// closes the input, releases the call once stdioIn waits at the end of the
// input, and returns what is written then.
func answeredAfterEOF(t *testing.T, front bool, before []string, line string) []string {
	t.Helper()
	waiting := make(chan struct{})
	r := startReviewStdioWith(t, front, drainWatch(nil, waiting))
	for _, l := range before {
		r.send(t, l)
		lines := make(chan string, 1)
		go func() {
			l, _ := r.out.ReadString('\n')
			lines <- l
		}()
		testwait.Recv(t, lines, "the answer to "+l)
	}
	r.send(t, line)
	ctx := testwait.Recv(t, r.calls, "the call of review_block")
	_ = r.in.Close()
	select {
	case <-waiting:
	case <-ctx.Done():
		t.Fatalf("front %v: %s: the SDK read the end of the input and cancelled the call (%v)", front, line, ctx.Err())
	}
	close(r.release)
	got := r.readRest(t)
	if err := r.runErr(t); err != nil {
		t.Errorf("front %v: Run: %v", front, err)
	}
	return got
}

// TestStdioDrainAnyID: a call whose id is any string or number the SDK
// reads is waited for at the end of the input, and its answer, written
// with the id as the SDK writes it back ("a\u0062" as "ab", 1.5 as 1), is
// the one an open session gets (MCP spec basic/index, Requests: "Requests
// MUST include a string or integer ID").
func TestStdioDrainAnyID(t *testing.T) {
	t.Parallel()
	call := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"review_block","arguments":{}}}`
	}
	cases := []struct{ id, written string }{
		{`"a\u0062"`, `"ab"`},
		{`"a,b"`, `"a,b"`},
		{`"a\"b"`, `"a\"b"`},
		{`"<&>"`, `"<&>"`},
		{`"\u2028"`, `"\u2028"`},
		{`"é"`, `"é"`},
		{`1.5`, `1`},
		{`1e3`, `1000`},
		{`-0`, `0`},
		// Out of int64's range: the SDK's float64 to int64 conversion,
		// whose result Go leaves to the platform, computed here as the
		// SDK does it.
		{`12345678901234567890`, sdkWrittenID(t, `12345678901234567890`)},
	}
	for _, c := range cases {
		for _, front := range []bool{false, true} {
			want := strings.Replace(releasedAnswer(t, front), `"id":5,`, `"id":`+c.written+`,`, 1)
			if diff := cmp.Diff([]string{want}, answeredAfterEOF(t, front, nil, call(c.id))); diff != "" {
				t.Errorf("id %s, front %v: written after the end of the input (-want +got):\n%s", c.id, front, diff)
			}
		}
	}
}

// TestStdioDrainBatch: the requests of a batch (protocol before
// 2025-06-18) are waited for at the end of the input: the SDK writes their
// answers as one array once it has them all (go-sdk v1.8.0 mcp msgBatch),
// and a request after the batch is waited for too. A batch with a
// notification owes nothing (the SDK waits for an answer to it too and so
// never writes the batch's), and does not stop the counting.
func TestStdioDrainBatch(t *testing.T) {
	t.Parallel()
	const block = `{"jsonrpc":"2.0","id":"b1","method":"tools/call","params":{"name":"review_block","arguments":{}}}`
	for _, front := range []bool{false, true} {
		answer := strings.TrimSuffix(strings.Replace(releasedAnswer(t, front), `"id":5,`, `"id":"b1",`, 1), "\n")
		got := answeredAfterEOF(t, front, nil, `[`+block+`,{"jsonrpc":"2.0","id":"b2","method":"ping"}]`)
		want := []string{`[` + answer + `,{"jsonrpc":"2.0","id":"b2","result":{}}]` + "\n"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("front %v: the batch's answer after the end of the input (-want +got):\n%s", front, diff)
		}

		answer = strings.Replace(releasedAnswer(t, front), `"id":5,`, `"id":7,`, 1)
		got = answeredAfterEOF(t, front, []string{`[{"jsonrpc":"2.0","id":"b3","method":"ping"}]`},
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"review_block","arguments":{}}}`)
		if diff := cmp.Diff([]string{answer}, got); diff != "" {
			t.Errorf("front %v: call 7 after a batch (-want +got):\n%s", front, diff)
		}
	}
}

// TestStdioDrainBatchWithNotification: the SDK never answers a batch
// holding a notification (mcp ioConn.Read tracks it under the null id,
// which no answer has), so its requests owe nothing: the end of the input
// is not held for them.
func TestStdioDrainBatchWithNotification(t *testing.T) {
	t.Parallel()
	in := `[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"b4","method":"ping"}]` + "\n"
	for _, front := range []bool{false, true} {
		if got := serveWired(t, front, in, drainNever(t)); got != "" {
			t.Errorf("front %v: wrote %q, want nothing", front, got)
		}
		// Without the notification, the batch is answered, and waited for.
		got := serveWired(t, front, `[{"jsonrpc":"2.0","id":"b4","method":"ping"}]`+"\n", func(*stdioIn) {})
		if want := `[{"jsonrpc":"2.0","id":"b4","result":{}}]` + "\n"; got != want {
			t.Errorf("front %v: the batch without a notification: wrote %q, want %q", front, got, want)
		}
	}
}

// TestStdioCountingGoesOnAfterAnyID: after a request whose id the fast
// paths do not take, stdioIn counts on and may answer in front again, and
// an id the SDK takes for one in
// flight (5.0 for 5) still sends the call to the SDK, which refuses it.
func TestStdioCountingGoesOnAfterAnyID(t *testing.T) {
	t.Parallel()
	r := startReviewStdio(t, true)
	r.send(t, `{"jsonrpc":"2.0","id":"req/1","method":"ping"}`)
	r.readID(t, `"req/1"`)
	// The reader waits for input now: its state is read after it was
	// written (the answer came through the pipes).
	if r.stdio.off || r.stdio.noFront {
		t.Errorf("after an id the fast paths do not take, stdioIn stopped (off %v) or stopped answering (noFront %v)", r.stdio.off, r.stdio.noFront)
	}
	r.send(t, `{"jsonrpc":"2.0","id":5.0,"method":"tools/call","params":{"name":"review_block","arguments":{}}}`)
	testwait.Recv(t, r.calls, "the call of review_block")
	if !r.ids.busy(`5`) {
		t.Fatal("the call with id 5.0 is not counted under 5")
	}
	r.send(t, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_countries","arguments":{}}}`)
	r.send(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	got := r.readUntilID(t, `6`)
	if len(got) != 1 {
		t.Errorf("answered before the ping: %q (the SDK refuses a second 5 while 5.0 runs)", got)
	}
}

// sdkWrittenID returns id as the SDK writes it back in its answer to a
// request with id (go-sdk v1.8.0 jsonrpc DecodeMessage, EncodeMessage).
func sdkWrittenID(t *testing.T, id string) string {
	t.Helper()
	msg, err := jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	answer, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: msg.(*jsonrpc.Request).ID, Result: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	written, ok := answerID(bytes.TrimPrefix(answer, []byte(responseHead)))
	if !ok {
		t.Fatalf("the SDK's answer %s", answer)
	}
	return string(written)
}
