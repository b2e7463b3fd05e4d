package mcpserver

import (
	"bytes"
	"testing"
	"unsafe"
)

// TestReview_LineMsgsKeepsALongLinesValues (rev-last7, P2): stdioIn
// lets go of the bytes of a line longer than stdioReadSize once it is
// counted (resetLine), but lineMsgs reuses s.msgs (s.msgs[:0]) and never
// lets go of it: a line of stdioLineMax bytes of the shortest
// notification the SDK reads (30 bytes and a space) leaves s.msgs with
// ~540,000 lineMsgs (80 bytes each, and each holding its method's bytes)
// for the rest of the session, ~3 times the line stdioIn itself no longer
// keeps (53,690,320 bytes measured), on top of the SDK's own buffer. The
// test uses a line of 1 MiB (~34,000 values, ~2.7 MB kept) to stay fast
// under -race.
func TestReview_LineMsgsKeepsALongLinesValues(t *testing.T) {
	t.Parallel()
	const note = `{"jsonrpc":"2.0","method":""} `
	const n = (1 << 20) / len(note)
	line := append(bytes.Repeat([]byte(note), n), '\n')
	s := &stdioIn{ids: newSDKIDs()}
	msgs, ok := s.lineMsgs(line)
	if !ok || len(msgs) != n {
		t.Fatalf("lineMsgs: %d values, %v", len(msgs), ok)
	}
	if _, ok := s.lineMsgs([]byte(note + "\n")); !ok {
		t.Fatal("short line refused")
	}
	if kept := uintptr(cap(s.msgs)) * unsafe.Sizeof(lineMsg{}); kept > stdioReadSize {
		t.Errorf("after a short line, stdioIn keeps %d bytes of lineMsgs (%d values) from the long line before it; resetLine lets go of more than %d bytes of line",
			kept, cap(s.msgs), stdioReadSize)
	}
}
