package idcheck

import "unicode/utf8"

// CVR is a valid Danish CVR number (CVR-nummer, the number of a business in
// Det Centrale Virksomhedsregister) as its eight ASCII digits. Get one from
// [ParseCVR]. The zero value is not a valid number; its methods return "".
//
// The canonical form, [CVR.String], is the eight digits without spaces
// ("13585628"): the form the register publishes and expects, and the form
// printed after "CVR-nr." on Danish invoices.
type CVR [8]byte

// cvrWeights holds the modulus-11 weights of the eight digits; the check
// digit's weight is 1.
var cvrWeights = [8]int{2, 7, 6, 5, 4, 3, 2, 1}

// ParseCVR parses a Danish CVR number.
//
// It accepts, in any letter case, an optional leading "DK" (the country
// code of the VAT number, whose digits are the CVR number) before eight
// ASCII digits. The separators python-stdnum's dk.cvr removes (space,
// hyphen, dot, comma, slash and colon), the other Unicode spaces (NBSP)
// and the dashes may appear anywhere, also between D and K, so
// "13585628", "13 58 56 28", "DK13585628" (the VAT number), "DK 13585628",
// "DK:13585628", "1358/5628" and "dk-13.58.56.28" all give the same CVR.
// Other characters are rejected ([ProblemBadCharacter]). A CVR number never starts with 0
// ([ProblemPrefix], checked before the length, as python-stdnum's dk.cvr
// does), and it has exactly eight digits ([ProblemLength]).
//
// The eighth digit is a modulus-11 check digit (Erhvervsstyrelsen,
// "Modulus 11 kontrol"): with the weights 2, 7, 6, 5, 4, 3, 2 on the first
// seven digits and r the weighted sum modulo 11, the check digit is 0 when
// r is 0 and 11-r otherwise; when r is 1 no check digit exists and no CVR
// number starts with those seven digits ([ProblemCheckValue10]). The same
// test, python-stdnum's, weighs all eight digits 2, 7, 6, 5, 4, 3, 2, 1 and
// asks for a sum divisible by 11.
//
// ParseCVR returns the number and [ProblemNone] when the input is valid,
// and the zero CVR and the Problem otherwise. A valid number is
// well-formed, which does not mean that a business with that number
// exists. A P-number (produktionsenhed, ten digits) is a different scheme
// and is rejected ([ProblemLength]). It does not allocate.
func ParseCVR(input string) (CVR, Problem) {
	i := skipDenmarkSeparators(input, 0)
	if i == len(input) {
		return CVR{}, ProblemEmpty
	}
	if toUpper(input[i]) == 'D' {
		// stdnum removes the separators before it looks for DK.
		if j := skipDenmarkSeparators(input, i+1); j < len(input) && toUpper(input[j]) == 'K' {
			i = j + 1
		}
	}
	var c CVR
	digits := 0
	for k := i; k < len(input); {
		b := input[k]
		switch {
		case isDigit(b):
			if digits < len(c) {
				c[digits] = b
			}
			digits++
			k++
		case b < utf8.RuneSelf:
			if !isASCIIDenmarkSeparator(b) {
				return CVR{}, ProblemBadCharacter
			}
			k++
		default:
			r, size := utf8.DecodeRuneInString(input[k:])
			if !isDenmarkSeparator(r) {
				return CVR{}, ProblemBadCharacter
			}
			k += size
		}
	}
	switch {
	case digits == 0:
		return CVR{}, ProblemEmpty
	case c[0] == '0':
		return CVR{}, ProblemPrefix
	case digits != len(c):
		return CVR{}, ProblemLength
	}
	check, ok := cvrCheck(c)
	if !ok {
		return CVR{}, ProblemCheckValue10
	}
	if c[7] != check {
		return CVR{}, ProblemChecksum
	}
	return c, ProblemNone
}

// cvrCheck returns the check digit (as an ASCII digit) of the first seven
// digits of c; ok is false when the remainder is 1, which no CVR number
// has.
func cvrCheck(c CVR) (check byte, ok bool) {
	sum := 0
	for d, w := range cvrWeights[:7] {
		sum += int(c[d]-'0') * w
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

// String returns the number in its canonical form, eight digits such as
// "13585628", or "" for the zero CVR.
func (c CVR) String() string {
	if c == (CVR{}) {
		return ""
	}
	return string(c[:])
}

// Formatted returns the usual written form, which is the canonical form
// "13585628", or "" for the zero CVR.
func (c CVR) Formatted() string { return c.String() }

// VATNumber returns the Danish VAT number of the business, "DK" and the
// eight digits, such as "DK13585628", or "" for the zero CVR. Only a
// business registered for VAT has one; the CVR register does not say
// which are.
func (c CVR) VATNumber() string {
	if c == (CVR{}) {
		return ""
	}
	var b [10]byte
	b[0], b[1] = 'D', 'K'
	copy(b[2:], c[:])
	return string(b[:])
}

// isASCIIDenmarkSeparator reports whether the ASCII byte b may appear
// between the digits of a CVR number: a blank or one of the characters
// python-stdnum's dk.cvr removes ("-.,/:").
func isASCIIDenmarkSeparator(b byte) bool {
	switch b {
	case '.', '-', ',', '/', ':':
		return true
	}
	return isASCIIBlank(b)
}

// isDenmarkSeparator reports whether the rune r may appear between the
// digits of a CVR number: an ASCII separator (see
// isASCIIDenmarkSeparator), a blank (see isBlank), or a dash (U+2010 to
// U+2015, U+2212 minus sign).
func isDenmarkSeparator(r rune) bool {
	if r < utf8.RuneSelf {
		return isASCIIDenmarkSeparator(byte(r))
	}
	switch r {
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
		return true
	}
	return isBlank(r)
}

// skipDenmarkSeparators returns the index of the first byte of s at or
// after i that does not start a CVR separator.
func skipDenmarkSeparators(s string, i int) int {
	for i < len(s) {
		b := s[i]
		if b < utf8.RuneSelf {
			if !isASCIIDenmarkSeparator(b) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isDenmarkSeparator(r) {
			return i
		}
		i += size
	}
	return i
}

// DenmarkReason returns one English sentence saying why a Danish CVR number
// is invalid, or what makes it valid when p is [ProblemNone]. For a Problem
// that [ParseCVR] never reports it returns p.Reason().
func DenmarkReason(p Problem) string {
	switch p {
	case ProblemNone:
		return "Eight digits with a correct modulus-11 check digit."
	case ProblemEmpty:
		return "The CVR number is empty."
	case ProblemBadCharacter:
		return "The CVR number contains a character other than digits, a leading DK and the separators (spaces, dots, hyphens, commas, slashes, colons)."
	case ProblemPrefix:
		return "A CVR number never starts with 0."
	case ProblemLength:
		return "A Danish CVR number has exactly eight digits."
	case ProblemChecksum:
		return "The eighth digit is not the modulus-11 check digit of the first seven digits."
	case ProblemCheckValue10:
		return "The first seven digits give modulus-11 remainder 1, so no CVR number starts with them."
	}
	return p.Reason()
}

// DenmarkHint returns one or two English sentences telling the caller what
// to do about a Danish CVR number that failed with p, or "" when p is
// [ProblemNone].
func DenmarkHint(p Problem) string {
	const search = "search by name with the search operation."
	switch p {
	case ProblemNone:
		return ""
	case ProblemEmpty:
		return "Give the eight-digit CVR number, such as 13585628, or " + search
	case ProblemBadCharacter:
		return "Give only the eight digits, such as 13585628 (the VAT form DK13585628 is accepted too), or " + search
	case ProblemPrefix, ProblemLength:
		return "Check that you have the eight-digit CVR number, not a P-number (ten digits) or a CPR number, or " + search
	case ProblemChecksum, ProblemCheckValue10:
		return "Check the number for a mistyped or swapped digit, or " + search
	}
	return "Check the CVR number, or " + search
}
