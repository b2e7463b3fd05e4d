package mcpserver

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestReview_DrainLineOfSDKMaxNotCounted (rev-ids7, P2): stdioLineMax is
// documented as "the SDK's bound on a message ... beyond which the SDK
// ends the session", and decisions.md says a line over the SDK's 16 MiB
// ends the SDK's session. The SDK bounds the bytes it reads for one value
// (mcp frameLimitReader: mcp.DefaultMaxLineLength bytes, counted from the
// end of the previous value), not the line with its newline: a value of
// exactly 16 MiB, then its newline, is read and answered, while stdioIn
// counts a line only up to 16 MiB with its newline (len(line) >
// stdioLineMax turns the counting off). So such a request, and call 7
// after it, are not waited for at the end of the input.
func TestReview_DrainLineOfSDKMaxNotCounted(t *testing.T) {
	t.Parallel()
	head := `{"jsonrpc":"2.0","id":"big","method":"ping","params":{"_meta":{"pad":"`
	tail := `"}}}`
	line := head + strings.Repeat("x", mcp.DefaultMaxLineLength-len(head)-len(tail)) + tail
	if len(line) != mcp.DefaultMaxLineLength {
		t.Fatalf("the value is %d bytes", len(line))
	}
	for _, front := range []bool{false, true} {
		if waited, why := call7AfterLine(t, front, line, 1); !waited {
			t.Errorf("front %v: the SDK read and answered a value of %d bytes, yet call 7 after it was not waited for: %s",
				front, len(line), why)
		}
	}
}
