package httplog

import (
	"encoding/binary"
	"encoding/hex"
	"regexp"
	"testing"
)

// TestNewRequestIDIsHex: a generated request ID keeps the format it had
// when it came from crypto/rand through hex.EncodeToString: the 16 bytes
// as 32 lowercase hexadecimal digits.
func TestNewRequestIDIsHex(t *testing.T) {
	t.Parallel()
	for _, c := range [][2]uint64{{0, 0}, {1, 2}, {^uint64(0), ^uint64(0)}, {0x0123456789abcdef, 0xfedcba9876543210}} {
		var b [16]byte
		binary.BigEndian.PutUint64(b[:8], c[0])
		binary.BigEndian.PutUint64(b[8:], c[1])
		if got, want := newRequestID(c[0], c[1]), hex.EncodeToString(b[:]); got != want {
			t.Errorf("newRequestID(%#x, %#x) = %q, want %q", c[0], c[1], got, want)
		}
	}
}

// TestRequestIDFresh: IDs made for requests without a usable one are 32
// lowercase hexadecimal digits, and distinct.
func TestRequestIDFresh(t *testing.T) {
	t.Parallel()
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	seen := map[string]bool{}
	for _, in := range []string{"", "bad id", string(make([]byte, 129))} {
		for range 1000 {
			id := RequestID(in)
			if !hex32.MatchString(id) {
				t.Fatalf("RequestID(%q) = %q, want 32 lowercase hex digits", in, id)
			}
			if seen[id] {
				t.Fatalf("RequestID(%q) = %q twice", in, id)
			}
			seen[id] = true
		}
	}
	if got := RequestID("abc-123"); got != "abc-123" {
		t.Errorf("RequestID(abc-123) = %q, want it kept", got)
	}
}

// FuzzNewRequestID compares newRequestID with hex.EncodeToString of the
// same bytes.
func FuzzNewRequestID(f *testing.F) {
	f.Add(uint64(0), uint64(0))
	f.Add(uint64(0xdeadbeef), ^uint64(0))
	f.Fuzz(func(t *testing.T, hi, lo uint64) {
		var b [16]byte
		binary.BigEndian.PutUint64(b[:8], hi)
		binary.BigEndian.PutUint64(b[8:], lo)
		if got, want := newRequestID(hi, lo), hex.EncodeToString(b[:]); got != want {
			t.Fatalf("newRequestID(%#x, %#x) = %q, want %q", hi, lo, got, want)
		}
	})
}
