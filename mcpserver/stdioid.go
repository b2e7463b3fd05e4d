package mcpserver

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// idKey returns the key under which sdkIDs counts a request with id (a
// JSON value as written, valid JSON): the id as the SDK writes it back in
// its answer, so that two ids are one key exactly when the SDK takes them
// for one id (go-sdk v1.8.0 jsonrpc2: DecodeMessage decodes the id into
// an any, MakeID turns a number into int64(float64) and keeps a string,
// and EncodeMessage writes it with encoding/json, HTML left unescaped).
// An id the fast paths take (isFastID) is its own key, so their duplicate
// check reads the same table unchanged. call is false for a null id (the
// SDK reads the message as a notification); ok is false for an id the
// SDK refuses (true, false, an object, an array, a number out of float64's
// range): it ends the session.
func idKey(id []byte) (key string, call, ok bool) {
	if isFastID(id) {
		return string(id), true, true
	}
	if len(id) == 0 {
		return "", false, false
	}
	switch c := id[0]; {
	case c == '"':
		var s string
		if json.Unmarshal(id, &s) != nil {
			return "", false, false
		}
		return sdkString(s), true, true
	case c == '-' || c >= '0' && c <= '9':
		f, err := strconv.ParseFloat(string(id), 64)
		if err != nil {
			return "", false, false
		}
		return strconv.FormatInt(int64(f), 10), true, true
	case string(id) == "null":
		return "", false, true
	}
	return "", false, false
}

// sdkString is s as the SDK's EncodeMessage writes a string id: JSON with
// HTML characters left as they are.
func sdkString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(s) != nil { // a string always encodes
		return ""
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte{'\n'}))
}

// answerID returns the id at the start of b, the rest of an answer the
// SDK wrote after its `"id":`: a string (to its closing quote, escapes
// skipped) or a number (to the comma), as the SDK's encoder writes them.
func answerID(b []byte) ([]byte, bool) {
	if len(b) == 0 {
		return nil, false
	}
	if b[0] != '"' {
		i := bytes.IndexByte(b, ',')
		return b[:max(i, 0)], i > 0
	}
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return b[:i+1], true
		}
	}
	return nil, false
}

// batchAnswerIDs returns the keys (idKey) of the answers in a batch answer
// the SDK wrote: a JSON array of responses (mcp ioConn.Write, which
// re-encodes them with json.Marshal and so escapes HTML in a string id).
func batchAnswerIDs(p []byte) []string {
	var msgs []struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(p, &msgs) != nil {
		return nil
	}
	keys := make([]string, 0, len(msgs))
	for _, m := range msgs {
		if key, call, ok := idKey(m.ID); ok && call {
			keys = append(keys, key)
		}
	}
	return keys
}
