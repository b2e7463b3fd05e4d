package changes

import (
	"crypto/rand"
	"fmt"
	"io"
	"time"
)

// The prefixes of the identifiers this package makes.
const (
	// PrefixChange starts a change's id, which is the webhook-id of its
	// deliveries.
	PrefixChange = "chg_"
	// PrefixWatch starts a watch's id.
	PrefixWatch = "wch_"
	// PrefixDelivery starts a delivery's id.
	PrefixDelivery = "dlv_"
	// PrefixTest starts the webhook-id of a test event.
	PrefixTest = "tst_"
)

// crockford is the alphabet of ULIDs (Crockford's base32: no I, L, O, U).
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// NewID returns prefix and a ULID: 26 characters that sort by time (the
// milliseconds of t) and then by 80 random bits read from random
// (crypto/rand when nil). Ids made in one millisecond do not sort by
// creation.
func NewID(prefix string, t time.Time, random io.Reader) (string, error) {
	if random == nil {
		random = rand.Reader
	}
	var b [16]byte
	ms := uint64(max(t.UnixMilli(), 0)) & (1<<48 - 1)
	for i := range 6 {
		b[5-i] = byte(ms >> (8 * i))
	}
	if _, err := io.ReadFull(random, b[6:]); err != nil {
		return "", fmt.Errorf("changes: NewID: reading random bytes: %w", err)
	}
	// 128 bits as 26 base32 digits, the first carrying the top 3 bits.
	out := make([]byte, len(prefix), len(prefix)+26)
	copy(out, prefix)
	var acc uint
	bits := 2 // 26*5 = 130 bits: two leading zero bits
	for _, c := range b {
		acc = acc<<8 | uint(c)
		bits += 8
		for bits >= 5 {
			bits -= 5
			out = append(out, crockford[(acc>>uint(bits))&31])
		}
	}
	return string(out), nil
}
