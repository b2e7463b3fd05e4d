package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"
)

// stdioLists answers, on the stdio framing, the plain list requests whose
// answer is in the server's [listCache], before the SDK reads them: the
// counterpart over stdio of the HTTP fast path. A line that is a first-page
// list request without _meta (exactly what [parseListRequest] accepts) is
// answered with the cached bytes, written as one line, and never reaches
// the SDK; every other line (batches, other methods, a list whose answer is
// not cached yet) is passed on unchanged.
//
// The cache is filled by the SDK answering each list once, which the SDK
// does only in an initialized session, and ServeIO serves one session per
// server, so a cached answer never skips the SDK's initialization check.
// Skipped as well: the SDK's decoding, its dispatch and encoding/json's two
// passes over the 16 KB answer (one for the result, one for the message).
// TestListCacheMatchesSDK compares the bytes with the SDK's.
type stdioLists struct {
	src   *bufio.Reader
	out   *lockedWriter
	lists *listCache
	// pending holds bytes of a passed-on line not yet read by the SDK.
	pending []byte
	// midLine is set while a line longer than src's buffer is passed on.
	midLine bool
	// boundary is set when every byte passed on so far forms whole JSON
	// values, so that the next line starts a message: a line inside a
	// message written over several lines (the SDK's decoder accepts that)
	// is never taken for a request of its own.
	boundary bool
	err      error
}

// stdioReadBuffer bounds the lines the filter inspects; a longer line (only
// a tools/call with a long argument could be one) is passed on in pieces.
const stdioReadBuffer = 64 << 10

func newStdioLists(r io.Reader, w *lockedWriter, lists *listCache) *stdioLists {
	return &stdioLists{src: bufio.NewReaderSize(r, stdioReadBuffer), out: w, lists: lists, boundary: true}
}

// Read implements io.Reader for the SDK's transport.
func (s *stdioLists) Read(p []byte) (int, error) {
	for len(s.pending) == 0 {
		if s.err != nil {
			return 0, s.err
		}
		line, err := s.src.ReadSlice('\n')
		s.err = err
		if errors.Is(err, bufio.ErrBufferFull) {
			s.err = nil
			s.pending, s.midLine, s.boundary = line, true, false
			break
		}
		whole := !s.midLine && err == nil
		s.midLine = false
		if whole && s.boundary && s.answer(line) {
			continue
		}
		trimmed := bytes.TrimSpace(line)
		s.boundary = whole && (json.Valid(trimmed) || s.boundary && len(trimmed) == 0)
		s.pending = line
	}
	n := copy(p, s.pending)
	s.pending = s.pending[n:]
	return n, nil
}

// answer writes the cached answer to line if line is a plain list request
// whose answer is cached, and reports whether it did.
func (s *stdioLists) answer(line []byte) bool {
	// As the SDK reads a line: whitespace before the message, and "\n" or
	// "\r\n" right after it (the SDK ends the session on anything else).
	trimmed := bytes.TrimLeft(bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r")), " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' || trimmed[len(trimmed)-1] != '}' {
		return false
	}
	msg, ok := parseMessage(trimmed)
	if !ok {
		return false
	}
	id, method, ok := parseListRequest(msg)
	if !ok {
		return false
	}
	res := s.lists.get(method)
	if res == nil {
		return false
	}
	const head, mid = `{"jsonrpc":"2.0","id":`, `,"result":`
	b := make([]byte, 0, len(head)+len(id)+len(mid)+len(res.raw)+2)
	b = append(b, head...)
	b = append(b, id...)
	b = append(b, mid...)
	b = append(b, res.raw...)
	b = append(b, '}', '\n')
	// A write error is the SDK's to see on its next write; the request is
	// answered or the peer is gone.
	_, _ = s.out.Write(b)
	return true
}

// lockedWriter serializes whole writes, so that a line of the SDK and a
// line of [stdioLists] never interleave (each writes a line in one call).
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Close is a no-op: ServeIO does not own the writer.
func (l *lockedWriter) Close() error { return nil }
