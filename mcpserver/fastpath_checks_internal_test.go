package mcpserver

import (
	"bufio"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// The regular expressions isIntegerID and isStringID replaced: the oracle
// of their tests.
var (
	integerIDRegexp = regexp.MustCompile(`^(0|-?[1-9][0-9]{0,14})$`)
	stringIDRegexp  = regexp.MustCompile(`^"[A-Za-z0-9_.:-]{0,64}"$`)
)

func TestIDCheckersMatchRegexps(t *testing.T) {
	long := `"` + string(make([]byte, 64)) + `"`
	ids := []string{
		"", "0", "-0", "00", "01", "-01", "-", "--1", "1", "-1", "7", "123456789012345", "-123456789012345",
		"1234567890123456", "-1234567890123456", "999999999999999", "1e3", "1.0", "+1", " 1", "1 ", "0x1",
		`""`, `"a"`, `"A-z_0.9:"`, `"a b"`, `"a`, `a"`, `"`, `"é"`, `"a\"b"`, `"a/b"`, `"` + string(make([]byte, 0)) + `"`,
		`"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"`,  // 64
		`"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"`, // 65
		long, "null", "true", "{}", "[1]",
	}
	for _, id := range ids {
		checkIDs(t, []byte(id))
	}
}

func checkIDs(t *testing.T, id []byte) {
	t.Helper()
	if got, want := isIntegerID(id), integerIDRegexp.Match(id); got != want {
		t.Errorf("isIntegerID(%q) = %v, the regexp says %v", id, got, want)
	}
	if got, want := isStringID(id), stringIDRegexp.Match(id); got != want {
		t.Errorf("isStringID(%q) = %v, the regexp says %v", id, got, want)
	}
}

func FuzzIDCheckers(f *testing.F) {
	for _, s := range []string{"0", "-0", "-12", "123456789012345", `"a-b"`, `""`, `"a b"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, id []byte) { checkIDs(t, id) })
}

// TestHeaderValueIsGet: headerValue answers as http.Header.Get for the
// canonical keys the fast path reads, whatever case the request used.
func TestHeaderValueIsGet(t *testing.T) {
	for _, raw := range []string{
		"", "Mcp-Protocol-Version: 2025-06-18\r\n", "mcp-protocol-version: 2025-06-18\r\nMCP-METHOD: tools/call\r\n",
		"Content-Type: application/json\r\nContent-Type: text/plain\r\n", "Content-Type:\r\n",
	} {
		req, err := http.ReadRequest(bufio.NewReader(strings.NewReader("POST /mcp HTTP/1.1\r\nHost: x\r\n" + raw + "\r\n")))
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"Mcp-Protocol-Version", "Mcp-Method", "Content-Type"} {
			if got, want := headerValue(req.Header, key), req.Header.Get(key); got != want {
				t.Errorf("%q: headerValue(%s) = %q, Get %q", raw, key, got, want)
			}
		}
	}
}
