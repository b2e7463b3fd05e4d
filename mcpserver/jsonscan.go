package mcpserver

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// The fast paths parse the one message they answer most, a tools/call of a
// cached lookup, by hand: encoding/json's decoding of the message into maps
// was about a quarter of the CPU of such a call over stdio, and the
// arguments' decoding another tenth (BENCHMARKS.md, Performance II, second
// pass). Each scanner below accepts a subset of what its encoding/json
// counterpart accepts and gives the same result for it; anything else
// makes it report false, and the caller takes the encoding/json way, which
// decides as before (FuzzScanToolsCall, FuzzScanArgs).

// skipSpace returns b without its leading JSON whitespace.
func skipSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	return b
}

// scanPlainString reads a JSON string at the start of b that holds no
// escape and no control character: the string as written (quotes
// included), its content and the rest of b.
func scanPlainString(b []byte) (raw, content, rest []byte, ok bool) {
	if len(b) == 0 || b[0] != '"' {
		return nil, nil, nil, false
	}
	for i := 1; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return b[:i+1], b[1:i], b[i+1:], true
		case c == '\\' || c < 0x20:
			return nil, nil, nil, false
		}
	}
	return nil, nil, nil, false
}

// scanSep reads the whitespace, the byte sep and the whitespace at the
// start of b.
func scanSep(b []byte, sep byte) ([]byte, bool) {
	b = skipSpace(b)
	if len(b) == 0 || b[0] != sep {
		return nil, false
	}
	return skipSpace(b[1:]), true
}

// scanValueExtent returns the JSON value at the start of b, found by its
// structure only (the caller checks it with json.Valid), and the rest.
func scanValueExtent(b []byte) (value, rest []byte, ok bool) {
	if len(b) == 0 {
		return nil, nil, false
	}
	depth, inString, escaped := 0, false, false
	for i, c := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				if depth == 0 {
					return b[:i+1], b[i+1:], true
				}
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return b[:i], b[i:], i > 0
			}
			depth--
			if depth == 0 {
				return b[:i+1], b[i+1:], true
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return b[:i], b[i:], i > 0
			}
		}
	}
	if depth == 0 && !inString {
		return b, nil, true
	}
	return nil, nil, false
}

// scanToolsCall is parseToolsCall(parseMessage(body)) for the common
// shape: one object with the members jsonrpc "2.0", an id the fast paths
// take, method "tools/call" and params, in any order, each once, with plain
// keys; params an object of name (a string without escapes) and, or not,
// arguments (any valid JSON). It reports false for anything else, which
// the caller then parses with encoding/json.
func scanToolsCall(body []byte) (id json.RawMessage, name string, args json.RawMessage, ok bool) {
	if !utf8.Valid(body) || !withinDepth(body, sdkMaxDepth) {
		return nil, "", nil, false
	}
	b, ok := scanSep(body, '{')
	if !ok {
		return nil, "", nil, false
	}
	var seen [4]bool // jsonrpc, id, method, params
	for {
		_, key, rest, ok := scanPlainString(b)
		if !ok {
			return nil, "", nil, false
		}
		if b, ok = scanSep(rest, ':'); !ok {
			return nil, "", nil, false
		}
		var k int
		switch string(key) {
		case "jsonrpc":
			raw, _, rest, ok := scanPlainString(b)
			if !ok || string(raw) != `"2.0"` {
				return nil, "", nil, false
			}
			k, b = 0, rest
		case "id":
			var raw []byte
			if len(b) > 0 && b[0] == '"' {
				raw, _, b, ok = scanPlainString(b)
				ok = ok && isStringID(raw)
			} else {
				n := 0
				for n < len(b) && (b[n] == '-' || b[n] >= '0' && b[n] <= '9') {
					n++
				}
				raw, b, ok = b[:n], b[n:], isIntegerID(b[:n])
			}
			if !ok {
				return nil, "", nil, false
			}
			k, id = 1, raw
		case "method":
			raw, _, rest, ok := scanPlainString(b)
			if !ok || string(raw) != `"tools/call"` {
				return nil, "", nil, false
			}
			k, b = 2, rest
		case "params":
			if name, args, b, ok = scanParams(b); !ok {
				return nil, "", nil, false
			}
			k = 3
		default:
			return nil, "", nil, false
		}
		if seen[k] {
			return nil, "", nil, false
		}
		seen[k] = true
		b = skipSpace(b)
		if len(b) == 0 {
			return nil, "", nil, false
		}
		if b[0] == '}' {
			if len(skipSpace(b[1:])) != 0 || seen != [4]bool{true, true, true, true} {
				return nil, "", nil, false
			}
			return id, name, args, true
		}
		if b[0] != ',' {
			return nil, "", nil, false
		}
		b = skipSpace(b[1:])
	}
}

// scanParams reads the params of scanToolsCall and the rest of b.
func scanParams(b []byte) (name string, args json.RawMessage, rest []byte, ok bool) {
	if b, ok = scanSep(b, '{'); !ok {
		return "", nil, nil, false
	}
	var haveName, haveArgs bool
	for {
		_, key, r, ok := scanPlainString(b)
		if !ok {
			return "", nil, nil, false
		}
		if b, ok = scanSep(r, ':'); !ok {
			return "", nil, nil, false
		}
		switch {
		case string(key) == "name" && !haveName:
			_, content, r, ok := scanPlainString(b)
			if !ok {
				return "", nil, nil, false
			}
			name, b, haveName = toolName(content), r, true
		case string(key) == "arguments" && !haveArgs:
			v, r, ok := scanValueExtent(b)
			if !ok || !json.Valid(v) {
				return "", nil, nil, false
			}
			args, b, haveArgs = v, r, true
		default:
			return "", nil, nil, false
		}
		b = skipSpace(b)
		if len(b) == 0 {
			return "", nil, nil, false
		}
		if b[0] == '}' {
			return name, args, b[1:], haveName
		}
		if b[0] != ',' {
			return "", nil, nil, false
		}
		b = skipSpace(b[1:])
	}
}

// argMember is a member of a tool's arguments object: its name as written
// and its value.
type argMember struct {
	key   []byte
	value json.RawMessage
}

// argMembers are the members of a tool's arguments object, each name once.
// A call has a few arguments: a slice searched in order, on the caller's
// stack, spares the map and the names' strings of every call.
type argMembers []argMember

// maxScanArgs is the most members scanArgs takes: each name is checked
// against the ones before it, so an object of n members costs n² / 2
// comparisons, which a client that sends 2,000 names (maxArgumentsBytes)
// must not get (rev-end8, BenchmarkReview_ScanArgsManyNames). A tool has
// at most four arguments; a larger object goes to unmarshalArgs.
const maxScanArgs = 8

// get returns the value of the member named key.
func (m argMembers) get(key string) (json.RawMessage, bool) {
	for _, a := range m {
		if string(a.key) == key {
			return a.value, true
		}
	}
	return nil, false
}

// scanArgs is json.Unmarshal(raw, &m) into a map for an object whose keys
// are printable ASCII without escapes, each once, and whose values are
// strings without escapes or control characters, numbers, true, false or
// null, its members appended to dst in their order; it reports false for
// anything else.
func scanArgs(raw []byte, dst argMembers) (argMembers, bool) {
	b, ok := scanSep(raw, '{')
	if !ok {
		return nil, false
	}
	m := dst[:0]
	if len(b) > 0 && b[0] == '}' {
		return m, len(skipSpace(b[1:])) == 0
	}
	for {
		_, key, r, ok := scanPlainString(b)
		if !ok || !printableASCII(key) {
			return nil, false
		}
		if b, ok = scanSep(r, ':'); !ok {
			return nil, false
		}
		v, r, ok := scanArgValue(b)
		if !ok {
			return nil, false
		}
		if len(m) == maxScanArgs {
			return nil, false // unmarshalArgs, with its map, takes more
		}
		if _, dup := m.get(string(key)); dup {
			return nil, false
		}
		m = append(m, argMember{key, v})
		var end bool
		if b, end, ok = afterMember(r); !ok || end {
			return m, ok
		}
	}
}

// scanArgsEscaped is scanArgs for an object whose keys and string values
// may hold escapes (\u0041, \", \n): its keys are decoded as
// encoding/json decodes them, its values kept as written (jsonString
// decodes an escaped one), each name once, at most maxScanArgs members,
// in one linear pass. handlers.args reads arguments past
// maxArgumentsBytes with it, so that a long value gets the same answer
// whatever its JSON spelling (doors12); it reports false for anything
// else (an array or object value, a duplicate name, more members).
func scanArgsEscaped(raw []byte, dst argMembers) (argMembers, bool) {
	b, ok := scanSep(raw, '{')
	if !ok {
		return nil, false
	}
	m := dst[:0]
	if len(b) > 0 && b[0] == '}' {
		return m, len(skipSpace(b[1:])) == 0
	}
	for {
		rawKey, r, ok := scanEscapedString(b)
		if !ok {
			return nil, false
		}
		var key string
		if json.Unmarshal(rawKey, &key) != nil {
			return nil, false
		}
		if b, ok = scanSep(r, ':'); !ok {
			return nil, false
		}
		var v []byte
		if len(b) > 0 && b[0] == '"' {
			if v, r, ok = scanEscapedString(b); ok && !json.Valid(v) {
				ok = false
			}
		} else {
			v, r, ok = scanArgValue(b)
		}
		if !ok || len(m) == maxScanArgs {
			return nil, false
		}
		if _, dup := m.get(key); dup {
			return nil, false
		}
		m = append(m, argMember{[]byte(key), v})
		var end bool
		if b, end, ok = afterMember(r); !ok || end {
			return m, ok
		}
	}
}

// afterMember reads what follows an object's member in r: a "}" that ends
// the object with nothing but space after it (end and ok), or a "," (ok,
// and b the next member's start past its space); anything else is not ok.
func afterMember(r []byte) (b []byte, end, ok bool) {
	b = skipSpace(r)
	switch {
	case len(b) == 0:
		return nil, false, false
	case b[0] == '}':
		return nil, true, len(skipSpace(b[1:])) == 0
	case b[0] != ',':
		return nil, false, false
	}
	return skipSpace(b[1:]), false, true
}

// scanEscapedString reads a JSON string at the start of b, escapes
// allowed, by its structure only (the caller decodes or validates it):
// the string as written, quotes included, and the rest of b. A control
// character in it makes it report false.
func scanEscapedString(b []byte) (raw, rest []byte, ok bool) {
	if len(b) == 0 || b[0] != '"' {
		return nil, nil, false
	}
	for i := 1; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return b[:i+1], b[i+1:], true
		case c == '\\':
			i++ // the escaped byte; \uXXXX's digits are plain bytes
		case c < 0x20:
			return nil, nil, false
		}
	}
	return nil, nil, false
}

// scanArgValue scans one value of scanArgs at the start of b: a string
// without escapes or control characters, or a number, true, false or null
// (a search's limit, sent as the schema's integer), as encoding/json reads
// them. It returns the value as written and what follows it.
func scanArgValue(b []byte) (v, rest []byte, ok bool) {
	if len(b) == 0 {
		return nil, nil, false
	}
	if b[0] == '"' {
		v, _, rest, ok = scanPlainString(b)
		return v, rest, ok
	}
	if c := b[0]; c != '-' && (c < '0' || c > '9') && c != 't' && c != 'f' && c != 'n' {
		return nil, nil, false
	}
	end := bytes.IndexAny(b, ",} \t\r\n")
	if end < 0 {
		return nil, nil, false
	}
	if !json.Valid(b[:end]) {
		return nil, nil, false
	}
	return b[:end], b[end:], true
}

func printableASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// plainStringValue is json.Unmarshal(v, &s) for a string without escapes
// or control characters in valid UTF-8; it reports false for anything else.
func plainStringValue(v []byte) (string, bool) {
	_, content, rest, ok := scanPlainString(v)
	if !ok || len(rest) != 0 || !utf8.Valid(content) {
		return "", false
	}
	return string(content), true
}

// toolName is string(b), without an allocation when b is the name of one
// of this package's tools (the name of every call the fast paths answer).
func toolName(b []byte) string {
	switch string(b) { // compared without a conversion
	case ToolLookupCompany:
		return ToolLookupCompany
	case ToolSearchCompany:
		return ToolSearchCompany
	case ToolCompanyDeadlines:
		return ToolCompanyDeadlines
	case ToolCompanyRoles:
		return ToolCompanyRoles
	case ToolValidateCompanyID:
		return ToolValidateCompanyID
	case ToolListCountries:
		return ToolListCountries
	case ToolCompanyChanges:
		return ToolCompanyChanges
	}
	return string(b)
}
