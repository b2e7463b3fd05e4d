package match

import (
	"testing"

	"golang.org/x/text/unicode/norm"
)

// BenchmarkNFC is the cost of the normal-form check alone on precomposed
// names with letters outside ASCII.
func BenchmarkNFC(b *testing.B) {
	names := []string{"Bostadsrättsföreningen Exempel", "BRØNNØYSUNDREGISTRENE", "SOCIÉTÉ GÉNÉRALE", "Århus Kommune"}
	for b.Loop() {
		for _, n := range names {
			nfc(n)
		}
	}
}

// TestNFCBelowU0300: the byte check of nfc agrees with the normaliser on
// every character below U+0300 (alone, and after a letter), and on invalid
// UTF-8: none is changed by NFC.
func TestNFCBelowU0300(t *testing.T) {
	t.Parallel()
	check := func(s string) {
		if want := norm.NFC.String(s); nfc(s) != want {
			t.Errorf("nfc(%+q) = %+q, want %+q", s, nfc(s), want)
		}
	}
	for r := rune(0); r < 0x300; r++ {
		check(string(r))
		check("a" + string(r) + "b")
	}
	for _, s := range []string{"\xc3", "a\xc3", "\xff\xfe", "\x80abc", "\xcb", "\xc0\xaf"} {
		check(s)
	}
}
