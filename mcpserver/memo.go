package mcpserver

import (
	"bytes"
	"hash/maphash"
	"sync"
)

// resultMemo keeps the encoded tool result (what appendOutput writes) of
// the documents the fast paths answered lately, by their content: a cached
// lookup answers the same bytes on every call, and checking and escaping
// some kilobytes of JSON into the text content was the largest part of a
// cached tools/call.
//
// The key is a hash of the document's bytes, and a hit is checked byte for
// byte against the copy of the document that the kept result holds (its
// structuredContent), so the memo answers a document only with the result
// of equal bytes, whatever the cache does with the slices it returns
// (reuses them for a new value, returns a fresh copy on every hit). The
// memo does not keep the caller's slice. A document is encoded into the
// memo the second time it is seen, so that answers made once (a cold
// lookup) cost no copy. The memo holds at most memoMax documents and is
// emptied when full.
type resultMemo struct {
	seed maphash.Seed
	mu   sync.Mutex
	m    map[uint64]memoEntry
}

// memoEntry is what the memo keeps of one document: nothing (nil result)
// until it is seen a second time.
type memoEntry struct {
	result []byte // the encoded result
	doc    []byte // the document's bytes inside result
}

// memoMax bounds the documents a memo keeps (each result about twice the
// size of its document, some kilobytes).
const memoMax = 64

func newResultMemo() *resultMemo {
	return &resultMemo{seed: maphash.MakeSeed(), m: make(map[uint64]memoEntry, memoMax)}
}

// append appends the tool result of o to buf as appendOutput does, from the
// memo when it has it. It reports false, having appended nothing, when
// appendOutput does.
func (m *resultMemo) append(buf *bytes.Buffer, o toolOutput) bool {
	if len(o.doc) == 0 {
		return appendOutput(buf, o)
	}
	key := maphash.Bytes(m.seed, o.doc)
	m.mu.Lock()
	e, seen := m.m[key]
	m.mu.Unlock()
	if e.result != nil && bytes.Equal(e.doc, o.doc) {
		buf.Write(e.result)
		return true
	}
	start := buf.Len()
	if !appendOutput(buf, o) {
		return false
	}
	e = memoEntry{}
	if seen {
		e.result = bytes.Clone(buf.Bytes()[start:])
		// appendTextResult ends the result with the document itself as
		// structuredContent, then '}'.
		end := len(e.result) - 1
		e.doc = e.result[end-len(o.doc) : end]
		if !bytes.Equal(e.doc, o.doc) {
			return true // cannot happen; keep nothing rather than a wrong check
		}
	}
	m.mu.Lock()
	if len(m.m) >= memoMax {
		clear(m.m)
	}
	m.m[key] = e
	m.mu.Unlock()
	return true
}
