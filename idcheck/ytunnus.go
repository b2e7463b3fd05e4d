package idcheck

import "unicode/utf8"

// YTunnus is a valid Finnish business identity code (Y-tunnus, in Swedish
// FO-nummer, in English Business ID) as its eight ASCII digits: seven digits
// and the check digit. Get one from [ParseYTunnus]. The zero value is not a
// valid code; its methods return "".
//
// The canonical identifier, [YTunnus.Digits], is the eight digits
// ("01120389"), letters and digits only, as an id of this module is. The
// written form, [YTunnus.String] and [YTunnus.Formatted], is the seven
// digits, a hyphen and the check digit ("0112038-9"): the form the Finnish
// Patent and Registration Office (PRH) publishes in its register and
// expects in its API, and the form printed on Finnish invoices and
// letterheads.
type YTunnus [8]byte

// yTunnusWeights holds the MOD11 weights of the first seven digits.
var yTunnusWeights = [7]int{7, 9, 10, 5, 8, 4, 2}

// ParseYTunnus parses a Finnish business identity code (Y-tunnus).
//
// It accepts, in any letter case, an optional leading "FI" (the country
// code of the VAT number) before eight ASCII digits. Spaces (including NBSP
// and the other Unicode spaces) and hyphens or dashes may appear anywhere
// between them, so "0112038-9", "01120389", "0112038 9", "FI01120389" (the
// VAT number) and "FI 0112038-9" all give the same YTunnus. Dots, slashes
// and letters other than the leading FI are rejected
// ([ProblemBadCharacter]). A code must have all eight digits: the old
// written form without the leading zero ("112038-9") is [ProblemLength].
//
// The eighth digit is a MOD11 check digit over the first seven with weights
// 7, 9, 10, 5, 8, 4, 2 (SFS 5748): with r the weighted sum modulo 11, the
// check digit is 0 when r is 0 and 11-r otherwise; a remainder of 1 would
// need check value 10, so no code starting with those seven digits is ever
// issued ([ProblemCheckValue10]).
//
// ParseYTunnus returns the code and [ProblemNone] when the input is valid,
// and the zero YTunnus and the Problem otherwise. A valid code is
// well-formed, which does not mean that a company with that code exists.
// It does not allocate.
func ParseYTunnus(input string) (YTunnus, Problem) {
	i := skipFinlandSeparators(input, 0)
	if i == len(input) {
		return YTunnus{}, ProblemEmpty
	}
	if len(input)-i >= 2 && toUpper(input[i]) == 'F' && toUpper(input[i+1]) == 'I' {
		i += 2
	}
	var y YTunnus
	digits := 0
	for k := i; k < len(input); {
		c := input[k]
		switch {
		case isDigit(c):
			if digits < len(y) {
				y[digits] = c
			}
			digits++
			k++
		case c < utf8.RuneSelf:
			if c != '-' && !isASCIIBlank(c) {
				return YTunnus{}, ProblemBadCharacter
			}
			k++
		default:
			r, size := utf8.DecodeRuneInString(input[k:])
			if !isFinlandSeparator(r) {
				return YTunnus{}, ProblemBadCharacter
			}
			k += size
		}
	}
	if digits != len(y) {
		return YTunnus{}, ProblemLength
	}
	check, ok := yTunnusCheck(y)
	if !ok {
		return YTunnus{}, ProblemCheckValue10
	}
	if y[7] != check {
		return YTunnus{}, ProblemChecksum
	}
	return y, ProblemNone
}

// yTunnusCheck returns the check digit (as an ASCII digit) of the first
// seven digits of y; ok is false when the remainder is 1, which no issued
// code has.
func yTunnusCheck(y YTunnus) (check byte, ok bool) {
	sum := 0
	for d, w := range yTunnusWeights {
		sum += int(y[d]-'0') * w
	}
	switch r := sum % 11; r {
	case 0:
		return '0', true
	case 1:
		return 0, false
	default:
		return byte('0' + 11 - r), true
	}
}

// String returns the code in its written form, seven digits, a hyphen and
// the check digit, such as "0112038-9", or "" for the zero YTunnus.
func (y YTunnus) String() string {
	if y == (YTunnus{}) {
		return ""
	}
	var b [9]byte
	copy(b[:7], y[:7])
	b[7] = '-'
	b[8] = y[7]
	return string(b[:])
}

// Formatted returns the usual written form "0112038-9" (the same as
// [YTunnus.String]), or "" for the zero YTunnus.
func (y YTunnus) Formatted() string { return y.String() }

// Digits returns the canonical identifier, the eight digits without the
// hyphen, such as "01120389", or "" for the zero YTunnus.
func (y YTunnus) Digits() string {
	if y == (YTunnus{}) {
		return ""
	}
	return string(y[:])
}

// VATNumber returns the Finnish VAT number of the code, "FI" and the eight
// digits, such as "FI01120389", or "" for the zero YTunnus. Only a company
// entered in the VAT register has a VAT number.
func (y YTunnus) VATNumber() string {
	if y == (YTunnus{}) {
		return ""
	}
	var b [10]byte
	b[0], b[1] = 'F', 'I'
	copy(b[2:], y[:])
	return string(b[:])
}

// isFinlandSeparator reports whether the rune r may appear between the
// digits of a Y-tunnus: a blank (see isBlank) or a hyphen or dash (ASCII
// hyphen-minus, U+2010 to U+2015, U+2212 minus sign).
func isFinlandSeparator(r rune) bool {
	switch r {
	case '-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
		return true
	}
	return isBlank(r)
}

// skipFinlandSeparators returns the index of the first byte of s at or
// after i that does not start a Y-tunnus separator.
func skipFinlandSeparators(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c != '-' && !isASCIIBlank(c) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isFinlandSeparator(r) {
			return i
		}
		i += size
	}
	return i
}

// FinlandReason returns one English sentence saying why a Finnish business
// identity code is invalid, or what makes it valid when p is
// [ProblemNone]. For a Problem that [ParseYTunnus] never reports it returns
// p.Reason().
func FinlandReason(p Problem) string {
	switch p {
	case ProblemNone:
		return "Seven digits and a correct MOD11 check digit."
	case ProblemEmpty:
		return "The business ID (Y-tunnus) is empty."
	case ProblemBadCharacter:
		return "The business ID (Y-tunnus) contains a character other than digits, spaces, a hyphen and a leading FI."
	case ProblemLength:
		return "A Finnish business ID (Y-tunnus) has seven digits and a check digit, such as 0112038-9."
	case ProblemChecksum:
		return "The digit after the hyphen is not the MOD11 check digit of the seven digits before it."
	case ProblemCheckValue10:
		return "The seven digits give MOD11 remainder 1, so no business ID (Y-tunnus) starting with them is ever issued."
	}
	return p.Reason()
}

// FinlandHint returns one or two English sentences telling the caller what
// to do about a Finnish business identity code that failed with p, or ""
// when p is [ProblemNone].
func FinlandHint(p Problem) string {
	const search = "search by name with the search operation."
	switch p {
	case ProblemNone:
		return ""
	case ProblemEmpty:
		return "Give the business ID (Y-tunnus), such as 0112038-9, or " + search
	case ProblemBadCharacter:
		return "Give only the digits and the hyphen, such as 0112038-9 (the VAT form FI01120389 is accepted too), or " + search
	case ProblemLength:
		return "Check that all eight digits are there; an old code written with six digits before the hyphen takes a leading zero (112038-9 is 0112038-9). Or " + search
	case ProblemChecksum, ProblemCheckValue10:
		return "Check the code for a mistyped or swapped digit, or " + search
	}
	return "Check the business ID, or " + search
}
