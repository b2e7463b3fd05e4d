package ops_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/ops"
)

// shownWant is Shown as its doc reads: a value of at most ShownMax bytes
// whole; else its first ShownMax bytes, less the start of a valid rune the
// cut splits (the rune decoded from the last rune start at or before the
// cut that runs past it), and "...". Every other byte is the value's own.
func shownWant(s string) string {
	if len(s) <= ops.ShownMax {
		return s
	}
	cut := ops.ShownMax
	for j := ops.ShownMax; j >= 0 && j > ops.ShownMax-utf8.UTFMax; j-- {
		if !utf8.RuneStart(s[j]) {
			continue
		}
		if r, n := utf8.DecodeRuneInString(s[j:]); (r != utf8.RuneError || n > 1) && j+n > ops.ShownMax {
			cut = j
		}
		break
	}
	return s[:cut] + "..."
}

// TestReview_Last11ShownDropsBytesBeforeAStrayContinuation: Shown backs
// off over every continuation byte at the cut, a stray one (part of no
// rune) too, and then cuts before whatever rune start it meets, though
// that rune ends at or before the cut. "a"*39+"\x80\x80" loses its 39th
// "a" and its first \x80 (38 bytes kept), and "a"*38+"ø"+"\x80" loses a
// whole valid "ø" the cut does not split. The doc says the first 40 bytes
// are kept but the start of a rune the cut would split. Fix: cut back only
// when the rune decoded at the last rune start is valid and runs past 40.
func TestReview_Last11ShownDropsBytesBeforeAStrayContinuation(t *testing.T) {
	a := func(n int) string { return strings.Repeat("a", n) }
	for _, tc := range []struct{ in, want string }{
		{a(39) + "\x80\x80", a(39) + "\x80..."},
		{a(38) + "\x80\x80\x80", a(38) + "\x80\x80..."},
		{a(38) + "ø" + "\x80", a(38) + "ø..."},
		{a(37) + "€" + "\x80\x80", a(37) + "€..."},
		// Right today, kept as guards:
		{a(39) + "ø", a(39) + "..."},
		{a(37) + "😀", a(37) + "..."},
		{a(39) + "\xff\xff", a(39) + "\xff..."},
	} {
		if diff := cmp.Diff(tc.want, ops.Shown(tc.in)); diff != "" {
			t.Errorf("Shown(%q) (-doc +got):\n%s", tc.in, diff)
		}
	}
}

// FuzzReview_Last11Shown checks Shown's invariants: at most ShownMax+3
// bytes, a prefix of the value and "..." when cut, and the prefix as the
// doc reads (shownWant). The seeds include the stray continuation bytes
// of TestReview_Last11ShownDropsBytesBeforeAStrayContinuation, so plain
// `go test` fails on them.
func FuzzReview_Last11Shown(f *testing.F) {
	for _, s := range []string{"", strings.Repeat("a", 41), strings.Repeat("a", 39) + "ø",
		strings.Repeat("a", 39) + "\x80\x80", strings.Repeat("a", 38) + "ø\x80", strings.Repeat("\xff", 45),
		strings.Repeat("a", 37) + "😀", strings.Repeat("a", 38) + "\xf0\x9f\x98"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := ops.Shown(s)
		if len(got) > ops.ShownMax+3 {
			t.Fatalf("Shown(%q) is %d bytes", s, len(got))
		}
		if len(s) > ops.ShownMax && (!strings.HasSuffix(got, "...") || !strings.HasPrefix(s, strings.TrimSuffix(got, "..."))) {
			t.Fatalf("Shown(%q) = %q: not a prefix and \"...\"", s, got)
		}
		if diff := cmp.Diff(shownWant(s), got); diff != "" {
			t.Errorf("Shown(%q) (-doc +got):\n%s", s, diff)
		}
	})
}
