package httpmw

import (
	"context"
	"net/http/httptest"
	"testing"
	"unsafe"

	"github.com/companyregistry/registry/internal/httplog"
)

// TestSetClientIPReadsTheConnectionsPeer: a request whose context holds
// its connection's peer (ConnContext) takes the address's text from it,
// the same string and not a new one; a request whose RemoteAddr is
// another makes its own.
func TestSetClientIPReadsTheConnectionsPeer(t *testing.T) {
	t.Parallel()
	p := httplog.NewPeer("192.0.2.7:41000")
	ctx := context.WithValue(t.Context(), connKey{}, &connState{peer: p, hasPeer: true})
	s := New(Config{})

	r := httptest.NewRequest("GET", "/", nil).WithContext(ctx)
	r.RemoteAddr = "192.0.2.7:41000"
	var q Request
	s.setClientIP(&q, r)
	want := p.Addr().String()
	if q.IPText() != want || unsafe.StringData(q.IPText()) != unsafe.StringData(httpWriterText(p)) {
		t.Errorf("from the connection: %q, not the peer's own text", q.IPText())
	}

	r.RemoteAddr = "192.0.2.8:41000"
	var q2 Request
	s.setClientIP(&q2, r)
	if q2.IPText() != "192.0.2.8" {
		t.Errorf("another RemoteAddr: %q, want 192.0.2.8", q2.IPText())
	}
}

// httpWriterText returns the text a Writer given p holds.
func httpWriterText(p httplog.Peer) string {
	var w httplog.Writer
	w.SetPeer(p)
	return w.IPText()
}
