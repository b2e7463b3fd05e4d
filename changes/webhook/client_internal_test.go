package webhook

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// endless is an answer body that never ends, counting what was read.
type endless struct{ read int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.read += len(p)
	return len(p), nil
}

func (e *endless) Close() error { return nil }

type fixedTransport struct{ body *endless }

func (f fixedTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: f.body}, nil
}

// TestSendReadsABoundedAnswer: of an endless answer, at most
// MaxResponseBytes are read.
func TestSendReadsABoundedAnswer(t *testing.T) {
	t.Parallel()
	body := &endless{}
	c := NewClient(ClientOptions{})
	c.hc.Transport = fixedTransport{body}
	resp, err := c.Send(context.Background(), "https://hooks.example.com/x", Message{ID: "x", At: time.Unix(1, 0)})
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("Send = %+v, %v", resp, err)
	}
	if body.read > MaxResponseBytes+32<<10 || body.read < MaxResponseBytes {
		t.Errorf("read %d bytes of the answer, want about %d", body.read, MaxResponseBytes)
	}
	var _ io.ReadCloser = body
}

// TestControlChecksTheConnectedAddress: the dialer's Control hook refuses
// the address itself, whatever name led to it.
func TestControlChecksTheConnectedAddress(t *testing.T) {
	t.Parallel()
	tests := map[string]bool{ // address: allowed by the strict policy
		"93.184.216.34:443":           true,
		"127.0.0.1:443":               false,
		"[::ffff:127.0.0.1]:443":      false,
		"[::ffff:169.254.169.254]:80": false,
		"10.0.0.1:443":                false,
		"not an address":              false,
	}
	for addr, want := range tests {
		err := Policy{}.control("tcp", addr, nil)
		if (err == nil) != want {
			t.Errorf("control(%q) = %v", addr, err)
		}
		if err != nil && !strings.Contains(err.Error(), "refused") {
			t.Errorf("control(%q) = %v", addr, err)
		}
	}
	if err := (Policy{AllowPrivate: true}).control("tcp", "[fd00:ec2::254]:80", nil); err == nil {
		t.Error("AllowPrivate let the IPv6 metadata address through")
	}
}
