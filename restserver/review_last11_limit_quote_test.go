package restserver_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// docShown is ops.Shown as its doc reads (the value's first 40 bytes, less
// the start of a valid rune the cut splits, and "..."), written out here.
func docShown(s string) string {
	const most = 40
	if len(s) <= most {
		return s
	}
	cut := most
	for j := most; j > most-utf8.UTFMax; j-- {
		if !utf8.RuneStart(s[j]) {
			continue
		}
		if r, n := utf8.DecodeRuneInString(s[j:]); (r != utf8.RuneError || n > 1) && j+n > most {
			cut = j
		}
		break
	}
	return s[:cut] + "..."
}

// TestReview_Last11LimitQuoteOnEveryRoute: a limit of 39 to 45 bytes,
// ending in a two-byte rune, in stray continuation bytes, or all \xff, is
// quoted on GET /v1/{country}/search (ops.Shown) and GET /v1/changes
// (changes' own truncate, still strings.ToValidUTF8 of the first 40 bytes,
// the fault rev-final11 fixed in Shown only) as Shown's doc says. Today
// search drops a byte before a stray \x80 at the cut ("1"*39+"\x80\x80" is
// quoted as 38 "1"s), and /v1/changes drops every invalid byte among the
// first 40 ("\xff"*41 is quoted "..."), so the two routes quote one value
// differently, and each quote changes with the value's length.
func TestReview_Last11LimitQuoteOnEveryRoute(t *testing.T) {
	h := newChangeHarness(t, bothTokens())
	var vals []string
	for n := 39; n <= 45; n++ {
		vals = append(vals, strings.Repeat("1", n-2)+"ø", strings.Repeat("1", n-2)+"\x80\x80", strings.Repeat("\xff", n))
	}
	got, want := map[string]string{}, map[string]string{}
	for _, v := range vals {
		q := url.QueryEscape(v)
		for route, path := range map[string]string{"search": "/v1/ZZ/search?q=x&limit=" + q, "changes": "/v1/changes?limit=" + q} {
			res := h.call(t, "GET", path, erpToken, "")
			if !utf8.Valid(res.body) {
				t.Errorf("%s %q: the envelope is not UTF-8: %q", route, v, res.body)
			}
			msg := errorOf(t, res.body).Message
			_, quote, _ := strings.Cut(msg, "; got ")
			key := fmt.Sprintf("%s %d %q", route, len(v), v)
			got[key] = quote
			want[key] = fmt.Sprintf("%q.", docShown(v))
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("quoted limit per route and value (-doc +got):\n%s", diff)
	}
}
