// Package match scores a register's search hits against the caller's query
// with the confidence anchors of the interface. The Registry ranks every
// country's hits with it, so that all countries rank names the same way.
//
// The anchors: 1.0 when the query is the hit's identifier (a register that
// also searches by number found it by its number, see [SameID]); 0.95 when
// the name equals the query, ignoring letter case; 0.8 when the name starts
// with the query; 0.6 when the name contains every word of the query; 0.4
// for any other hit the register returned. Runs of white space are
// collapsed before comparing, and words are runs of letters and digits.
// Query and name are compared in Unicode normal form C, so a letter typed
// decomposed (e followed by U+0301 for é, as macOS keyboards and many PDFs
// give it) is the same letter as the register's precomposed one.
package match

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The confidence anchors of a search hit.
const (
	// Identifier is the confidence of a hit whose identifier is the query
	// (a register that also searches by number found it by its number).
	Identifier = 1.0
	Exact      = 0.95
	Prefix     = 0.8
	Tokens     = 0.6
	Other      = 0.4
)

// The bases that go with the anchors, for confidence_basis.
const (
	BasisIdentifier = "The query is this entity's identifier, ignoring spaces and punctuation."
	BasisExact      = "The name equals the query, ignoring letter case."
	BasisPrefix     = "The name starts with the query, ignoring letter case."
	BasisTokens     = "The name contains every word of the query, ignoring letter case and order."
	BasisOther      = "Returned by the register's name search, but the name does not contain every word of the query."
)

// Query is a search query prepared for scoring many names. The zero Query
// scores every name [Other].
type Query struct {
	folded string   // lower-cased, runs of white space collapsed
	tokens []string // lower-cased words
}

// NewQuery prepares q for scoring. A trailing wildcard "*", which some
// registers' name searches accept, is query syntax and not part of the name,
// so it is ignored.
func NewQuery(q string) Query {
	l := lowerNFC(strings.TrimRight(strings.TrimSpace(q), "*"))
	return Query{folded: foldLower(l), tokens: wordsLower(l)}
}

// Score returns the confidence anchor of name for the query and the basis
// sentence that explains it.
func (q Query) Score(name string) (confidence float64, basis string) {
	l := lowerNFC(name)
	n := foldLower(l)
	switch {
	case q.folded != "" && n == q.folded:
		return Exact, BasisExact
	case q.folded != "" && strings.HasPrefix(n, q.folded):
		return Prefix, BasisPrefix
	case len(q.tokens) > 0 && containsAll(wordsLower(l), q.tokens):
		return Tokens, BasisTokens
	}
	return Other, BasisOther
}

// SameID reports whether the query, without its spaces and punctuation, is
// the identifier id (compared the same way, ignoring letter case). An empty
// identifier is never the query.
func SameID(query, id string) bool {
	q, i := alnum(query), alnum(id)
	return i != "" && strings.EqualFold(q, i)
}

// nfc returns s in Unicode normal form C (precomposed letters).
//
// A string of characters below U+0300 (ASCII, Latin-1 and Latin Extended,
// every letter of the Nordic and French registers) holds no combining mark
// and nothing that NFC changes, and in UTF-8 it has no byte of 0xCC or
// more: such a string is returned as it is after one pass over its bytes.
// Any other string is returned as it is when the quick check finds it in
// NFC (without allocating, unlike IsNormalString), else converted.
func nfc(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xCC { // the first byte of U+0300 or above
			if norm.NFC.QuickSpanString(s) == len(s) {
				return s
			}
			return norm.NFC.String(s)
		}
	}
	return s
}

// alnum keeps the letters and digits of s.
func alnum(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, s)
}

// Fold returns s as names and queries are compared: in Unicode normal
// form C, lower-cased (letters that strings.EqualFold holds equal alike),
// with every run of white space one space. An index that looks names up
// by their whole text or its start keeps them so.
func Fold(s string) string { return foldLower(lowerNFC(s)) }

// Words returns the words of s as the scorer counts them: the runs of
// letters and digits of Fold(s).
func Words(s string) []string { return wordsLower(lowerNFC(s)) }

// foldLower is Fold of a text lowerNFC has made.
func foldLower(l string) string { return strings.Join(strings.Fields(l), " ") }

// lowerNFC is s lower-cased, in NFC before and after: before, so that a
// decomposed letter lowers as its precomposed one ("I" + U+0307 as "İ"),
// and after, since lower-casing can take text out of NFC ("J" + U+030C
// lowers to "j" + U+030C, whose NFC is U+01F0). Each
// letter is lowered as the lower case of its upper case (foldRune), so
// that the letters strings.EqualFold holds equal to another fold alike
// (the final sigma "ς" as "σ", the micro sign "µ" as "μ", the long s "ſ"
// as "s"), and a dotted "i̇" (i and U+0307, which other languages' lower()
// make of "İ", where Go makes "i") is "i", before the last NFC, which may
// then compose a mark the dot held apart. Text below U+0300 holds no mark
// and stays in NFC: it is lowered without the last two steps.
func lowerNFC(s string) string {
	s = nfc(s)
	ascii, marks := true, false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf {
			ascii = false
			if c >= 0xCC { // the first byte of U+0300 or above
				marks = true
				break
			}
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	l := strings.Map(foldRune, s)
	if !marks {
		return l
	}
	if strings.Contains(l, "i\u0307") {
		l = strings.ReplaceAll(l, "i\u0307", "i")
	}
	return nfc(l)
}

// foldRune lowers r as the lower case of its upper case. The Turkish
// dotless "ı" is kept (its upper case is "I", but EqualFold keeps it apart
// from "i", and Turkish writes both), and the Latin-1 letters but the
// micro sign, whose upper case's lower case is their lower case, are
// lowered once.
func foldRune(r rune) rune {
	switch {
	case r < utf8.RuneSelf:
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	case r < 0x100 && r != '\u00b5', r == '\u0131':
		return unicode.ToLower(r)
	}
	return unicode.ToLower(unicode.ToUpper(r))
}

// wordsLower splits a text lowerNFC has made into words of letters and
// digits.
func wordsLower(l string) []string {
	return strings.FieldsFunc(l, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}
