package idcheck

import "unicode/utf8"

// OrgNr is a valid Norwegian organisation number (organisasjonsnummer) as
// nine ASCII digits. Get one from [ParseOrgNr]. The zero value is not a valid
// number; its String and Formatted methods return "".
type OrgNr [9]byte

// orgNrWeights holds the MOD11 weights for the first eight digits, one
// ASCII digit each.
const orgNrWeights = "32765432"

// ParseOrgNr parses a Norwegian organisation number.
//
// It accepts, in any letter case, an optional leading "NO" (country code)
// and an optional trailing "MVA" (the VAT register suffix) around nine ASCII
// digits. Spaces (including NBSP and the other Unicode spaces), dots,
// hyphens and dashes, and slashes may appear anywhere between them, so
// "923609016", "923 609 016", "923.609.016", "923-609-016" and
// "NO 923 609 016 MVA" all give the same OrgNr.
//
// The ninth digit must be the MOD11 check digit of the first eight with
// weights 3, 2, 7, 6, 5, 4, 3, 2: with r the weighted sum modulo 11, the
// check digit is 0 when r is 0 and 11-r otherwise, and a check value of 10
// means that no valid number starts with those eight digits
// ([ProblemCheckValue10]).
//
// ParseOrgNr returns the number and [ProblemNone] when the input is valid,
// and the zero OrgNr and the Problem otherwise. It does not allocate.
func ParseOrgNr(input string) (OrgNr, Problem) {
	i := skipSeparatorsFront(input, 0)
	if i == len(input) {
		return OrgNr{}, ProblemEmpty
	}
	if len(input)-i >= 2 && toUpper(input[i]) == 'N' && toUpper(input[i+1]) == 'O' {
		i += 2
	}
	j := skipSeparatorsBack(input, i, len(input))
	if j-i >= 3 && toUpper(input[j-3]) == 'M' && toUpper(input[j-2]) == 'V' && toUpper(input[j-1]) == 'A' {
		j -= 3
	}

	var n OrgNr
	digits := 0
	for k := i; k < j; {
		c := input[k]
		switch {
		case isDigit(c):
			if digits < len(n) {
				n[digits] = c
			}
			digits++
			k++
		case c < utf8.RuneSelf:
			if !isASCIINorwaySeparator(c) {
				return OrgNr{}, ProblemBadCharacter
			}
			k++
		default:
			r, size := utf8.DecodeRuneInString(input[k:j])
			if !isNorwaySeparator(r) {
				return OrgNr{}, ProblemBadCharacter
			}
			k += size
		}
	}
	if digits != len(n) {
		return OrgNr{}, ProblemLength
	}

	sum := 0
	for d := range len(orgNrWeights) {
		sum += int(n[d]-'0') * int(orgNrWeights[d]-'0')
	}
	check := 0
	if r := sum % 11; r != 0 {
		check = 11 - r
	}
	if check == 10 {
		return OrgNr{}, ProblemCheckValue10
	}
	if int(n[8]-'0') != check {
		return OrgNr{}, ProblemChecksum
	}
	return n, ProblemNone
}

// String returns the number as nine digits, such as "923609016", or "" for
// the zero OrgNr.
func (n OrgNr) String() string {
	if n == (OrgNr{}) {
		return ""
	}
	return string(n[:])
}

// Formatted returns the number in the usual written form, three groups of
// three digits separated by spaces, such as "923 609 016", or "" for the
// zero OrgNr.
func (n OrgNr) Formatted() string {
	if n == (OrgNr{}) {
		return ""
	}
	var b [11]byte
	copy(b[0:3], n[0:3])
	b[3] = ' '
	copy(b[4:7], n[3:6])
	b[7] = ' '
	copy(b[8:11], n[6:9])
	return string(b[:])
}
