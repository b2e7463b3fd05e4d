package idcheck

import (
	"unicode"
	"unicode/utf8"
)

// isBlank reports whether r is white space, including NBSP and the other
// Unicode spaces, or one of the invisible characters that copying from web
// pages and documents leaves behind (zero width space, word joiner, byte
// order mark).
func isBlank(r rune) bool {
	switch r {
	case '\u200B', '\u2060', '\uFEFF':
		return true
	}
	return unicode.IsSpace(r)
}

// isNorwaySeparator reports whether r may appear between the digits of a
// Norwegian organisation number: a blank (see isBlank), a dot, a slash, or a
// hyphen or dash (ASCII hyphen-minus, U+2010 to U+2015, U+2212 minus sign).
func isNorwaySeparator(r rune) bool {
	switch r {
	case '.', '-', '/', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
		return true
	}
	return isBlank(r)
}

// isASCIIBlank reports whether the ASCII byte c is white space.
func isASCIIBlank(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return true
	}
	return false
}

// isASCIINorwaySeparator reports whether the ASCII byte c is a separator in a
// Norwegian organisation number.
func isASCIINorwaySeparator(c byte) bool {
	return c == '.' || c == '-' || c == '/' || isASCIIBlank(c)
}

// skipSeparatorsFront returns the index of the first byte of s at or after i
// that does not start a separator rune.
func skipSeparatorsFront(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if !isASCIINorwaySeparator(c) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isNorwaySeparator(r) {
			return i
		}
		i += size
	}
	return i
}

// skipSeparatorsBack returns the end index j, with lo <= j <= end, such that
// s[j:end] is all separators and s[lo:j] does not end in one.
func skipSeparatorsBack(s string, lo, end int) int {
	j := end
	for j > lo {
		c := s[j-1]
		if c < utf8.RuneSelf {
			if !isASCIINorwaySeparator(c) {
				return j
			}
			j--
			continue
		}
		r, size := utf8.DecodeLastRuneInString(s[lo:j])
		if !isNorwaySeparator(r) {
			return j
		}
		j -= size
	}
	return j
}

// isDigit reports whether c is an ASCII digit.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isUpper reports whether c is an ASCII upper-case letter.
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// toUpper upper-cases an ASCII letter and returns any other byte unchanged.
func toUpper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}
