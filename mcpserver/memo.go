package mcpserver

import (
	"bytes"
	"sync"
)

// resultMemo keeps the encoded tool result (what appendOutput writes) of
// the documents the fast paths answered lately, by the identity of the
// document's bytes: a cached lookup answers the same stored bytes of the
// Registry's cache on every call, and escaping some kilobytes of JSON into
// the text content was the largest part of a cached tools/call.
//
// The key is the address of the document's first byte. The memo keeps the
// document's slice, so its bytes are not freed while the entry lives and
// no other document can have that address; and no document is ever
// modified (the Registry's answers are read-only, see
// registry.Registry.LookupJSON), so equal addresses and lengths are equal
// bytes. A document is encoded into the memo the second time it is seen,
// so that answers made once (a cold lookup) cost no copy. The memo holds at
// most memoMax documents and is emptied when full.
type resultMemo struct {
	mu sync.Mutex
	m  map[*byte]memoEntry
}

type memoEntry struct {
	doc    []byte
	result []byte // nil until the document is seen a second time
}

// memoMax bounds the documents a memo keeps (each some kilobytes, with
// its result about twice that).
const memoMax = 64

func newResultMemo() *resultMemo { return &resultMemo{m: make(map[*byte]memoEntry, memoMax)} }

// append appends the tool result of o to buf as appendOutput does, from the
// memo when it has it. It reports false, having appended nothing, when
// appendOutput does.
func (m *resultMemo) append(buf *bytes.Buffer, o toolOutput) bool {
	if len(o.doc) == 0 {
		return appendOutput(buf, o)
	}
	key := &o.doc[0]
	m.mu.Lock()
	e, seen := m.m[key]
	m.mu.Unlock()
	seen = seen && len(e.doc) == len(o.doc)
	if seen && e.result != nil {
		buf.Write(e.result)
		return true
	}
	start := buf.Len()
	if !appendOutput(buf, o) {
		return false
	}
	e = memoEntry{doc: o.doc}
	if seen {
		e.result = bytes.Clone(buf.Bytes()[start:])
	}
	m.mu.Lock()
	if len(m.m) >= memoMax {
		clear(m.m)
	}
	m.m[key] = e
	m.mu.Unlock()
	return true
}
