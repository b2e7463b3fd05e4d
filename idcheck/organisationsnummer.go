package idcheck

import "unicode/utf8"

// Organisationsnummer is a valid Swedish organisation number
// (organisationsnummer, lag 1974:174 om identitetsbeteckning för juridiska
// personer m.fl.) as its ten ASCII digits. Get one from
// [ParseOrganisationsnummer]. The zero value is not a valid number; its
// methods return "".
//
// The canonical form, [Organisationsnummer.String], is the ten digits
// ("5560160680"): the form Bolagsverket's API takes and answers. The
// written form, [Organisationsnummer.Formatted], puts a hyphen before the
// last four ("556016-0680").
type Organisationsnummer [10]byte

// ParseOrganisationsnummer parses a Swedish organisation number.
//
// It accepts ten ASCII digits; the twelve-digit form that prefixes them
// with 16 (the "century" of a legal person, "165560160680"); and the VAT
// number, a leading "SE" in any letter case, the ten digits and the suffix
// 01 ("SE556016068001"). Spaces (including NBSP and the other Unicode
// spaces), dots, plus signs and hyphens or dashes may appear anywhere
// between the digits, so "556016-0680", "556016 0680" and
// "16 556016-0680" all give the same number. A VAT number whose suffix is
// not 01 is [ProblemVATSuffix].
//
// The third and fourth digits of an organisation number are at least 20, so
// that it can never be read as a date of birth. An input whose third and
// fourth digits are below 20, or a twelve-digit input that starts with 18,
// 19 or 20 (the century of a person's birth), has the form of a personal
// identity number (personnummer, or samordningsnummer) and is
// [ProblemPersonalNumber]: its check digit is deliberately not checked, so
// the answer says nothing about whether such a number exists. The tenth
// digit of an organisation number is the Luhn (mod 10) check digit of the
// ten ([ProblemChecksum]).
//
// ParseOrganisationsnummer returns the number and [ProblemNone] when the
// input is valid, and the zero Organisationsnummer and the Problem
// otherwise. A valid number is well-formed, which does not mean that an
// organisation with that number exists. It does not allocate.
func ParseOrganisationsnummer(input string) (Organisationsnummer, Problem) {
	i := skipSwedenSeparators(input, 0)
	if i == len(input) {
		return Organisationsnummer{}, ProblemEmpty
	}
	vat := false
	if len(input)-i >= 2 && toUpper(input[i]) == 'S' && toUpper(input[i+1]) == 'E' {
		vat = true
		i += 2
	}
	var d [12]byte
	digits := 0
	for k := i; k < len(input); {
		c := input[k]
		switch {
		case isDigit(c):
			if digits < len(d) {
				d[digits] = c
			}
			digits++
			k++
		case c < utf8.RuneSelf:
			if !isASCIISwedenSeparator(c) {
				return Organisationsnummer{}, ProblemBadCharacter
			}
			k++
		default:
			r, size := utf8.DecodeRuneInString(input[k:])
			if !isSwedenSeparator(r) {
				return Organisationsnummer{}, ProblemBadCharacter
			}
			k += size
		}
	}
	var n Organisationsnummer
	switch {
	case vat:
		if digits != 12 {
			return Organisationsnummer{}, ProblemLength
		}
		copy(n[:], d[:10])
		if isPersonalShape(n) {
			// A sole trader's VAT number holds the owner's personnummer.
			return Organisationsnummer{}, ProblemPersonalNumber
		}
		if d[10] != '0' || d[11] != '1' {
			return Organisationsnummer{}, ProblemVATSuffix
		}
	case digits == 12:
		switch string(d[:2]) {
		case "16":
			copy(n[:], d[2:])
		case "18", "19", "20":
			return Organisationsnummer{}, ProblemPersonalNumber
		default:
			return Organisationsnummer{}, ProblemLength
		}
	case digits == 10:
		copy(n[:], d[:10])
	default:
		return Organisationsnummer{}, ProblemLength
	}
	if isPersonalShape(n) {
		return Organisationsnummer{}, ProblemPersonalNumber
	}
	if !luhnValid(n[:]) {
		return Organisationsnummer{}, ProblemChecksum
	}
	return n, ProblemNone
}

// isPersonalShape reports whether the third and fourth digits of n are
// below 20: a date of birth's month (01 to 12), which no organisation
// number has.
func isPersonalShape(n Organisationsnummer) bool {
	return n[2] < '2'
}

// String returns the canonical form, the ten digits, such as
// "5560160680", or "" for the zero Organisationsnummer.
func (n Organisationsnummer) String() string {
	if n == (Organisationsnummer{}) {
		return ""
	}
	return string(n[:])
}

// Formatted returns the written form, six digits, a hyphen and four digits
// ("556016-0680"), or "" for the zero Organisationsnummer.
func (n Organisationsnummer) Formatted() string {
	if n == (Organisationsnummer{}) {
		return ""
	}
	var b [11]byte
	copy(b[:6], n[:6])
	b[6] = '-'
	copy(b[7:], n[6:])
	return string(b[:])
}

// VATNumber returns the Swedish VAT number of the organisation, "SE", the
// ten digits and "01" ("SE556016068001"), or "" for the zero
// Organisationsnummer. Only an organisation registered for VAT has one.
func (n Organisationsnummer) VATNumber() string {
	if n == (Organisationsnummer{}) {
		return ""
	}
	var b [14]byte
	b[0], b[1] = 'S', 'E'
	copy(b[2:12], n[:])
	b[12], b[13] = '0', '1'
	return string(b[:])
}

// isASCIISwedenSeparator reports whether the ASCII byte c may appear
// between the digits of a Swedish organisation number: white space, a dot,
// a hyphen or a plus sign.
func isASCIISwedenSeparator(c byte) bool {
	return c == '.' || c == '-' || c == '+' || isASCIIBlank(c)
}

// isSwedenSeparator reports whether r may appear between the digits of a
// Swedish organisation number: an ASCII separator, a blank (see isBlank)
// or a dash (U+2010 to U+2015, U+2212 minus sign).
func isSwedenSeparator(r rune) bool {
	if r < utf8.RuneSelf {
		return isASCIISwedenSeparator(byte(r))
	}
	switch r {
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
		return true
	}
	return isBlank(r)
}

// skipSwedenSeparators returns the index of the first byte of s at or after
// i that does not start a separator.
func skipSwedenSeparators(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isSwedenSeparator(r) {
			return i
		}
		i += size
	}
	return i
}

// SwedenReason returns one English sentence saying why a Swedish
// organisation number is invalid, or what makes it valid when p is
// [ProblemNone]. For a Problem that [ParseOrganisationsnummer] never
// reports it returns p.Reason(). No sentence repeats the input.
func SwedenReason(p Problem) string {
	switch p {
	case ProblemNone:
		return "Ten digits, the third and fourth at least 20, with a correct Luhn check digit."
	case ProblemEmpty:
		return "The organisation number is empty."
	case ProblemBadCharacter:
		return "The organisation number contains a character other than digits, spaces, a hyphen and a leading SE."
	case ProblemLength:
		return "A Swedish organisation number has ten digits (556016-0680); the twelve-digit form starts with 16 and the VAT number is SE, the ten digits and 01."
	case ProblemChecksum:
		return "The last digit is not the Luhn check digit of the organisation number."
	case ProblemPersonalNumber:
		return "This has the form of a Swedish personal identity number (personnummer), not of an organisation number: " +
			"this service does not look people up, so it neither checks nor uses such a number."
	case ProblemVATSuffix:
		return "A Swedish VAT number is SE, the ten digits of the organisation number and 01."
	}
	return p.Reason()
}

// SwedenHint returns one or two English sentences telling the caller what
// to do about a Swedish organisation number that failed with p, or "" when
// p is [ProblemNone].
func SwedenHint(p Problem) string {
	const search = "search by name with the search operation."
	switch p {
	case ProblemNone:
		return ""
	case ProblemEmpty:
		return "Give the organisation number, such as 556016-0680, or " + search
	case ProblemBadCharacter:
		return "Give only the digits and the hyphen, such as 556016-0680 (the VAT form SE556016068001 is accepted too), or " + search
	case ProblemLength:
		return "Check that all ten digits are there, such as 556016-0680, or " + search
	case ProblemChecksum:
		return "Check the number for a mistyped or swapped digit, or " + search
	case ProblemPersonalNumber:
		return "A sole trader (enskild näringsidkare) is registered under the owner's personal identity number, which this service " +
			"does not look up: give the organisation number of a company (its third and fourth digits are 20 or more), or " + search
	case ProblemVATSuffix:
		return "Give the organisation number itself, such as 556016-0680, or the VAT number ending in 01, or " + search
	}
	return "Check the organisation number, or " + search
}

// ContainsPersonalNumber reports whether s holds, anywhere in it, a part
// that [ParseOrganisationsnummer] reads as a personal identity number
// ([ProblemPersonalNumber]): ten or twelve digits with the separators it
// accepts between them (every hyphen and dash, dots, plus signs, spaces),
// or a VAT number "SE…" that holds one. The part may stand next to words
// or punctuation ("Anna (810105-2382)", "pnr:810105-2382",
// "810105‐2382,"). A part starts at the first digit of a group of digits
// and ends at the last digit of a group, so the digits of a longer number
// are not searched for ten in a row ("0123456789012" holds none). Its
// date of birth must be one (month 01 to 12, day 01 to 31, or 61 to 91 for
// a samordningsnummer, folkbokföringslagen 18 a §): a telephone number
// such as 08-123 456 78 (day 34) holds none. A service that does not look
// people up refuses a free-text query for which it is true. It does not
// allocate.
func ContainsPersonalNumber(s string) bool {
	se := -1 // the start of an "SE" just before the current run of digits and separators
	first := true
	for i := 0; i < len(s); {
		c := s[i]
		if isDigit(c) {
			if i == 0 || !isDigit(s[i-1]) {
				prefix := -1
				if first {
					prefix = se
				}
				if personalNumberFrom(s, i, prefix) {
					return true
				}
				first = false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if isSwedenSeparator(r) {
			i += size
			continue
		}
		// Anything else ends the run; an "SE" may start the next one.
		first, se = true, -1
		if i+1 < len(s) && toUpper(c) == 'S' && toUpper(s[i+1]) == 'E' {
			se = i
			i += 2
			continue
		}
		i += size
	}
	return false
}

// personalNumberFrom reports whether a part of s that starts at start, the
// first digit of a group, and ends at the last digit of a later group is a
// personal identity number; or, when se is not -1, whether the same part
// with the "SE" at se before it is.
func personalNumberFrom(s string, start, se int) bool {
	digits := 0
	for k := start; k < len(s) && digits <= 12; {
		c := s[k]
		if isDigit(c) {
			digits++
			k++
			if (k == len(s) || !isDigit(s[k])) && (digits == 10 || digits == 12) {
				if _, p := ParseOrganisationsnummer(s[start:k]); p == ProblemPersonalNumber && birthDateShaped(s[start:k], false) {
					return true
				}
				if se >= 0 {
					if _, p := ParseOrganisationsnummer(s[se:k]); p == ProblemPersonalNumber && birthDateShaped(s[start:k], true) {
						return true
					}
				}
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[k:])
		if !isSwedenSeparator(r) {
			return false
		}
		k += size
	}
	return false
}

// birthDateShaped reports whether the digits of part begin with a date of
// birth: month 01 to 12, day 01 to 31, or 61 to 91 for a samordningsnummer
// (the day plus 60, folkbokföringslagen 18 a §). Ten digits, or the twelve
// of a VAT number (vat: the "SE" before part), are YYMMDD…; twelve others
// are YYYYMMDD…. The day is not checked against the month: a number with
// 31 February is still treated as a person's, mistyped.
func birthDateShaped(part string, vat bool) bool {
	var d [12]byte
	n := 0
	for i := 0; i < len(part) && n < len(d); i++ {
		if isDigit(part[i]) {
			d[n] = part[i] - '0'
			n++
		}
	}
	at := 2
	if n == 12 && !vat {
		at = 4
	}
	month := int(d[at])*10 + int(d[at+1])
	day := int(d[at+2])*10 + int(d[at+3])
	return month >= 1 && month <= 12 && (day >= 1 && day <= 31 || day >= 61 && day <= 91)
}
