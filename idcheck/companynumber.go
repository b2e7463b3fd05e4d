package idcheck

import "unicode/utf8"

// CompanyNumber is a well-formed UK Companies House company number: eight
// upper-case ASCII letters and digits, such as "00002065" or "SC294759". Get
// one from [ParseCompanyNumber]. The zero value is not a valid number; its
// String method returns "".
type CompanyNumber [8]byte

// maxScan is how many normalised characters ParseCompanyNumber keeps: enough
// to recognise a 12-digit VAT number with its GB prefix.
const maxScan = 14

// ParseCompanyNumber parses a UK Companies House company number.
//
// It upper-cases ASCII letters and drops what people type between the
// characters: spaces (including NBSP and the other Unicode spaces), dots and
// hyphens or dashes, so "0044-5790", "00.445.790" and "sc 294 759" are
// accepted. What remains must be one of:
//
//   - up to eight digits (England and Wales), zero-padded on the left to
//     eight, so "12345" gives "00012345";
//   - a Companies House prefix followed by up to six digits, zero-padded
//     after the prefix, so "SC12345" gives "SC012345" and "sc294759" gives
//     "SC294759". The prefixes are two letters (SC, NI, OC, SO, NC, LP, SL,
//     NL, FC, SF, NF, BR, GE, GS, GN, SE, ES, EN, AC, SA, NA, ZC, SZ, NZ, IP,
//     SP, NP, NO, IC, SI, NV, RC, SR, NR, RS, SG, PC, CE, CS, FE, OE) or R0,
//     which is the letter R and the digit zero;
//   - one of the eight-character forms with letters after the digits that
//     real registers contain, such as "SC00123R", "NI01234A" or "RS00712R"
//     (forms listed in the company number guide at github.com/mrbrianevans/ch-guide).
//     These are never zero-padded.
//
// Anything else is rejected, in particular longer inputs (Companies House
// answers 500 to numbers that are not eight characters), one-letter
// prefixes and two-letter prefixes that are not on Companies House's
// published list ([ProblemPrefix]: Companies House issues numbers only with
// the listed prefixes, so no company can have another, and the likely cause
// is a typing mistake such as RO for R0), letters among the digits
// ([ProblemLetterInNumber]) and UK VAT registration numbers: GB and 9 or 12
// digits, or GBGD or GBHA and 3 digits ([ProblemVATNumber]).
//
// ParseCompanyNumber returns the number and [ProblemNone] when the input is
// valid, and the zero CompanyNumber and the Problem otherwise. A valid
// number is well-formed, which does not mean that a company with that
// number exists. ParseCompanyNumber does not allocate.
func ParseCompanyNumber(input string) (CompanyNumber, Problem) {
	var buf [maxScan]byte
	n := 0
	for k := 0; k < len(input); {
		c := input[k]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(input[k:])
			if !isUKSeparator(r) {
				return CompanyNumber{}, ProblemBadCharacter
			}
			k += size
			continue
		}
		k++
		if isASCIIUKSeparator(c) {
			continue
		}
		c = toUpper(c)
		if !isDigit(c) && !isUpper(c) {
			return CompanyNumber{}, ProblemBadCharacter
		}
		if n < len(buf) {
			buf[n] = c
		}
		n++
	}
	if n == 0 {
		return CompanyNumber{}, ProblemEmpty
	}
	if n <= len(buf) && isVATNumber(buf[:n]) {
		return CompanyNumber{}, ProblemVATNumber
	}
	if n > len(CompanyNumber{}) {
		return CompanyNumber{}, ProblemLength
	}
	s := buf[:n]

	var out CompanyNumber
	if isDigit(s[0]) {
		if allDigits(s) {
			padDigits(out[:], s)
			return out, ProblemNone
		}
		// Seven digits and a C or R suffix.
		if n == len(out) && allDigits(s[:7]) && (s[7] == 'C' || s[7] == 'R') {
			copy(out[:], s)
			return out, ProblemNone
		}
		return CompanyNumber{}, ProblemLetterInNumber
	}

	if n < 2 || !isCompanyPrefix(s[:2]) {
		return CompanyNumber{}, ProblemPrefix
	}
	rest := s[2:]
	if len(rest) == 0 {
		return CompanyNumber{}, ProblemLength
	}
	if allDigits(rest) {
		out[0], out[1] = s[0], s[1]
		padDigits(out[2:], rest)
		return out, ProblemNone
	}
	if n == len(out) && isSuffixForm(s[:2], rest) {
		copy(out[:], s)
		return out, ProblemNone
	}
	return CompanyNumber{}, ProblemLetterInNumber
}

// isUKSeparator reports whether r may appear between the characters of a
// company number: a blank (see isBlank), a dot, or a hyphen or dash (ASCII
// hyphen-minus, U+2010 to U+2015, U+2212 minus sign).
func isUKSeparator(r rune) bool {
	switch r {
	case '.', '-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
		return true
	}
	return isBlank(r)
}

// isASCIIUKSeparator reports whether the ASCII byte c is a separator in a
// company number.
func isASCIIUKSeparator(c byte) bool {
	return c == '.' || c == '-' || isASCIIBlank(c)
}

// String returns the eight-character number, such as "SC294759", or "" for
// the zero CompanyNumber.
func (n CompanyNumber) String() string {
	if n == (CompanyNumber{}) {
		return ""
	}
	return string(n[:])
}

// padDigits fills dst with digits right-aligned and '0' before them;
// len(digits) must not exceed len(dst).
func padDigits(dst, digits []byte) {
	pad := len(dst) - len(digits)
	for i := range pad {
		dst[i] = '0'
	}
	copy(dst[pad:], digits)
}

// allDigits reports whether every byte of s is an ASCII digit.
func allDigits(s []byte) bool {
	for _, c := range s {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

// isVATNumber reports whether the upper-cased, space-free s is a UK VAT
// registration number: GB and 9 or 12 digits, or GBGD (government
// departments) or GBHA (health authorities) and 3 digits.
func isVATNumber(s []byte) bool {
	if len(s) < 2 || s[0] != 'G' || s[1] != 'B' {
		return false
	}
	switch len(s) {
	case 11, 14:
		return allDigits(s[2:])
	case 7:
		return (string(s[2:4]) == "GD" || string(s[2:4]) == "HA") && allDigits(s[4:])
	}
	return false
}

// isCompanyPrefix reports whether the two bytes p are a Companies House
// company number prefix.
func isCompanyPrefix(p []byte) bool {
	switch string(p) {
	case "SC", "NI", "R0", // companies: Scotland, Northern Ireland, pre-partition Ireland
		"OC", "SO", "NC", // limited liability partnerships
		"LP", "SL", "NL", // limited partnerships
		"FC", "SF", "NF", "BR", // overseas companies and branches
		"GE", "GS", "GN", // European Economic Interest Groupings
		"SE", "ES", "EN", // European companies (Societas Europaea)
		"AC", "SA", "NA", // assurance companies
		"ZC", "SZ", "NZ", // unregistered companies
		"IP", "SP", "NP", "NO", // industrial and provident societies
		"IC", "SI", "NV", // investment companies with variable capital
		"RC", "SR", "NR", // Royal Charter companies
		"RS", "SG", "PC", // registered societies, Scottish partnerships, protected cell companies
		"CE", "CS", "FE", // charitable incorporated organisations, further education corporations
		"OE": // registered overseas entities
		return true
	}
	return false
}

// isSuffixForm reports whether a prefix p and six characters r that are not
// all digits form one of the real eight-character numbers with letters after
// the digits. The forms follow the pattern that the company number guide at
// github.com/mrbrianevans/ch-guide checked against the register:
//
//	<prefix> ddddd [C R]            for the prefixes listed below
//	RS|SO    ddd (dd [W S R C Z F] | d (FI RS SA IP US EN AS) | CUS)
//	NI|SL    ddddd A
//	OC       [d P]{5} [C W E R T B] | [d P]{4} (OC CU)
//
// where d is a digit.
func isSuffixForm(p, r []byte) bool {
	switch string(p) {
	case "AC", "ZC", "FC", "GE", "LP", "OC", "SE", "SA", "SZ", "SF", "GS", "SL", "SO", "SC",
		"ES", "NA", "NZ", "NF", "GN", "NL", "NC", "R0", "NI", "EN", "SG", "FE":
		if allDigits(r[:5]) && (r[5] == 'C' || r[5] == 'R') {
			return true
		}
	}
	switch string(p) {
	case "RS", "SO":
		if !allDigits(r[:3]) {
			return false
		}
		switch {
		case allDigits(r[3:5]) && oneOf(r[5], "WSRCZF"):
			return true
		case isDigit(r[3]):
			switch string(r[4:6]) {
			case "FI", "RS", "SA", "IP", "US", "EN", "AS":
				return true
			}
		}
		return string(r[3:6]) == "CUS"
	case "NI", "SL":
		return allDigits(r[:5]) && r[5] == 'A'
	case "OC":
		if allDigitsOrP(r[:5]) && oneOf(r[5], "CWERTB") {
			return true
		}
		return allDigitsOrP(r[:4]) && (string(r[4:6]) == "OC" || string(r[4:6]) == "CU")
	}
	return false
}

// allDigitsOrP reports whether every byte of s is an ASCII digit or 'P'.
func allDigitsOrP(s []byte) bool {
	for _, c := range s {
		if !isDigit(c) && c != 'P' {
			return false
		}
	}
	return true
}

// oneOf reports whether c is one of the bytes of set.
func oneOf(c byte, set string) bool {
	for i := range len(set) {
		if set[i] == c {
			return true
		}
	}
	return false
}
