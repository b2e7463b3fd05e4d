package idcheck

import "unicode/utf8"

// SIREN is a valid French company identification number (numéro SIREN,
// Système d'identification du répertoire des entreprises) as its nine ASCII
// digits. Get one from [ParseSIREN]. The zero value is not a valid number;
// its methods return "".
//
// The canonical form, [SIREN.String], is the nine digits ("552032534"): the
// form the API Recherche d'entreprises takes and answers with. French
// documents group the digits by three ([SIREN.Formatted], "552 032 534").
type SIREN [9]byte

// SIRET is a valid French establishment identification number (numéro
// SIRET): the SIREN of the legal unit and a five-digit establishment number
// (NIC), fourteen ASCII digits. Get one from [ParseSIRET]. The zero value
// is not a valid number; its methods return "".
type SIRET [14]byte

// FrenchVAT is a valid French intra-community VAT number (numéro de TVA
// intracommunautaire) without its "FR" prefix: a two-character key and nine
// digits. Get one from [ParseFrenchVAT]. The zero value is not a valid
// number; its methods return "".
//
// The nine digits are the company's SIREN, except in numbers of Monaco,
// whose digits start with 000 ([FrenchVAT.Monaco]). The key is numeric for
// most numbers ((12 + 3 × (SIREN mod 97)) mod 97, on two digits);
// new-style keys hold a letter from the alphabet 0–9, A–Z without I and O.
type FrenchVAT [11]byte

// frenchVATAlphabet is the alphabet of the key of a French VAT number (the
// digits and the letters without I and O), in the order of its check.
const frenchVATAlphabet = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"

// laPosteSIREN is La Poste's SIREN: its establishments' SIRETs, except the
// head office's, have a digit sum divisible by 5 instead of a Luhn check
// digit.
const laPosteSIREN = "356000000"

// laPosteHeadOffice is La Poste's head office SIRET, which has a Luhn check
// digit like every other SIRET.
const laPosteHeadOffice = "35600000000048"

// ParseSIREN parses a French SIREN: nine ASCII digits, with spaces
// (including NBSP and the other Unicode spaces) and dots anywhere between
// them, so "552032534", "552 032 534" and "552.032.534" give the same
// SIREN. Any other character is [ProblemBadCharacter]; a number that does
// not have nine digits is [ProblemLength]; one whose digits fail the Luhn
// check is [ProblemChecksum]. It follows python-stdnum's fr.siren, which
// accepts the same spellings (stdnum keeps a tab or line break only at the
// ends of the input; this parser skips it anywhere).
//
// A valid SIREN is well-formed, which does not mean that a company with it
// exists. ParseSIREN does not allocate.
func ParseSIREN(input string) (SIREN, Problem) {
	var s SIREN
	n, p := scanFrenchDigits(input, s[:])
	switch {
	case p != ProblemNone:
		return SIREN{}, p
	case n == 0:
		return SIREN{}, ProblemEmpty
	case n != len(s):
		return SIREN{}, ProblemLength
	case !luhnValid(s[:]):
		return SIREN{}, ProblemChecksum
	}
	return s, ProblemNone
}

// ParseSIRET parses a French SIRET: fourteen ASCII digits, with spaces and
// dots anywhere between them ("552 032 534 00646"). The fourteen digits
// pass the Luhn check, except La Poste's: a SIRET starting with La Poste's
// SIREN 356000000, other than its head office 35600000000048, has a digit
// sum divisible by 5 instead. The first nine digits, the SIREN, pass the
// Luhn check too. The problems are those of [ParseSIREN]; it follows
// python-stdnum's fr.siret. It does not allocate.
func ParseSIRET(input string) (SIRET, Problem) {
	var s SIRET
	n, p := scanFrenchDigits(input, s[:])
	switch {
	case p != ProblemNone:
		return SIRET{}, p
	case n == 0:
		return SIRET{}, ProblemEmpty
	case n != len(s):
		return SIRET{}, ProblemLength
	}
	if string(s[:9]) == laPosteSIREN && string(s[:]) != laPosteHeadOffice {
		sum := 0
		for _, c := range s {
			sum += int(c - '0')
		}
		if sum%5 != 0 {
			return SIRET{}, ProblemChecksum
		}
	} else if !luhnValid(s[:]) {
		return SIRET{}, ProblemChecksum
	}
	if !luhnValid(s[:9]) {
		return SIRET{}, ProblemChecksum
	}
	return s, ProblemNone
}

// ParseFrenchVAT parses a French intra-community VAT number: an optional
// "FR" (any letter case), a two-character key and nine digits, with spaces,
// dots and hyphens or dashes anywhere, so "FR27552032534",
// "FR 27 552 032 534", "fr27552032534" and "27552032534" give the same
// number. It follows python-stdnum's fr.tva and checks in its order:
//
//   - the key's characters are digits or letters other than I and O, and
//     the rest are digits, else [ProblemBadCharacter];
//   - eleven characters after the prefix, else [ProblemLength];
//   - the nine digits pass the Luhn check (not checked for Monaco's
//     numbers, whose digits start with 000), else [ProblemChecksum];
//   - a numeric key is (12 + 3 × (SIREN mod 97)) mod 97, and a key with a
//     letter satisfies the new-style check, else [ProblemChecksum].
//
// A valid number is well-formed; only the tax administration knows whether
// it is in use. ParseFrenchVAT does not allocate.
func ParseFrenchVAT(input string) (FrenchVAT, Problem) {
	// The compact form is the input without separators, in upper case; buf
	// keeps its first characters and lastNonDigit the index of its last
	// character that is not a digit.
	var buf [13]byte
	n, lastNonDigit := 0, -1
	for k := 0; k < len(input); {
		c := input[k]
		if c < utf8.RuneSelf {
			k++
			switch {
			case c == '-' || c == '.' || isASCIIBlank(c):
				continue
			case c >= 'a' && c <= 'z':
				c -= 'a' - 'A'
			}
			if !isDigit(c) {
				lastNonDigit = n
			}
			if n < len(buf) {
				buf[n] = c
			}
			n++
			continue
		}
		r, size := utf8.DecodeRuneInString(input[k:])
		if !isFinlandSeparator(r) {
			return FrenchVAT{}, ProblemBadCharacter
		}
		k += size
	}
	if n == 0 {
		return FrenchVAT{}, ProblemEmpty
	}
	off := 0
	if n >= 2 && buf[0] == 'F' && buf[1] == 'R' {
		off = 2
	}
	for i := off; i < off+2 && i < n; i++ {
		if indexByte(frenchVATAlphabet, buf[i]) < 0 {
			return FrenchVAT{}, ProblemBadCharacter
		}
	}
	switch {
	case n == off:
		return FrenchVAT{}, ProblemEmpty
	case n-off <= 2 || lastNonDigit >= off+2:
		return FrenchVAT{}, ProblemBadCharacter
	case n-off != len(FrenchVAT{}):
		return FrenchVAT{}, ProblemLength
	}
	var v FrenchVAT
	copy(v[:], buf[off:off+len(v)])
	if !v.Monaco() && !luhnValid(v[2:]) {
		return FrenchVAT{}, ProblemChecksum
	}
	if isDigit(v[0]) && isDigit(v[1]) {
		if string(v[:2]) != frenchVATKey(v[2:]) {
			return FrenchVAT{}, ProblemChecksum
		}
		return v, ProblemNone
	}
	var check int
	if isDigit(v[0]) {
		check = indexByte(frenchVATAlphabet, v[0])*24 + indexByte(frenchVATAlphabet, v[1]) - 10
	} else {
		check = indexByte(frenchVATAlphabet, v[0])*34 + indexByte(frenchVATAlphabet, v[1]) - 100
	}
	if (digitsMod(v[2:], 11)+1+check/11)%11 != check%11 {
		return FrenchVAT{}, ProblemChecksum
	}
	return v, ProblemNone
}

// FrenchIDKind says which French identifier [ParseFrenchID] found.
type FrenchIDKind uint8

// The French identifiers.
const (
	// FrenchUnknown is the kind of an input that is none of the three,
	// reported with the Problem that says why.
	FrenchUnknown FrenchIDKind = iota
	// FrenchSIREN is a company's SIREN.
	FrenchSIREN
	// FrenchSIRET is an establishment's SIRET.
	FrenchSIRET
	// FrenchVATNumber is an intra-community VAT number (FR + key + SIREN).
	FrenchVATNumber
)

// String returns "SIREN", "SIRET", "VAT number" or "French identifier".
func (k FrenchIDKind) String() string {
	switch k {
	case FrenchSIREN:
		return "SIREN"
	case FrenchSIRET:
		return "SIRET"
	case FrenchVATNumber:
		return "VAT number"
	}
	return "French identifier"
}

// FrenchID is one of the three French identifiers of a company, as
// [ParseFrenchID] found it: Kind says which of SIREN, SIRET and VAT is set.
type FrenchID struct {
	Kind  FrenchIDKind
	SIREN SIREN     // the company's SIREN, set for every kind except Monaco's VAT numbers
	SIRET SIRET     // set for a SIRET
	VAT   FrenchVAT // set for a VAT number
}

// ParseFrenchID parses a French company identifier the way a user types it
// into a lookup: a VAT number when it starts with the letters FR (any case,
// see [ParseFrenchVAT]), else a SIREN when it has nine digits, a VAT number
// without its FR when it has eleven (as [ParseFrenchVAT] and python-stdnum's
// fr.tva read it) and a SIRET when it has fourteen (spaces and dots
// allowed, see [ParseSIREN] and [ParseSIRET]). Kind is set when the input has the shape of one of them,
// also when its check fails; any other length is [ProblemLength] with Kind
// [FrenchUnknown]. The SIREN is set for each valid kind, but for the VAT
// numbers of Monaco, which are not SIRENs. It does not allocate.
func ParseFrenchID(input string) (FrenchID, Problem) {
	if frenchVATShape(input) {
		return frenchVATID(input)
	}
	var probe [14]byte
	n, p := scanFrenchDigits(input, probe[:])
	switch {
	case p != ProblemNone:
		return FrenchID{}, p
	case n == 0:
		return FrenchID{}, ProblemEmpty
	case n == len(SIREN{}):
		s, p := ParseSIREN(input)
		return FrenchID{Kind: FrenchSIREN, SIREN: s}, p
	case n == frenchVATDigits:
		return frenchVATID(input)
	case n == len(SIRET{}):
		s, p := ParseSIRET(input)
		id := FrenchID{Kind: FrenchSIRET}
		if p == ProblemNone {
			id.SIRET, id.SIREN = s, s.SIREN()
		}
		return id, p
	}
	return FrenchID{}, ProblemLength
}

// frenchVATID parses input as a VAT number for [ParseFrenchID].
func frenchVATID(input string) (FrenchID, Problem) {
	v, p := ParseFrenchVAT(input)
	id := FrenchID{Kind: FrenchVATNumber}
	if p == ProblemNone {
		id.VAT = v
		id.SIREN, _ = v.SIREN()
	}
	return id, p
}

// frenchVATDigits is the number of digits of a French VAT number with a
// numeric key and without its FR: the key's two and the SIREN's nine.
const frenchVATDigits = 11

// frenchVATShape reports whether input, after leading blanks, starts with
// the letters FR in any case.
func frenchVATShape(input string) bool {
	i := 0
	for i < len(input) {
		c := input[i]
		if c < utf8.RuneSelf {
			if !isASCIIBlank(c) {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(input[i:])
		if !isBlank(r) {
			break
		}
		i += size
	}
	return len(input)-i >= 2 && toUpper(input[i]) == 'F' && toUpper(input[i+1]) == 'R'
}

// scanFrenchDigits copies the ASCII digits of input into out (as many as
// fit) and returns how many there are. Spaces, dots and the Unicode blanks
// are skipped; any other character is ProblemBadCharacter.
func scanFrenchDigits(input string, out []byte) (int, Problem) {
	n := 0
	for k := 0; k < len(input); {
		c := input[k]
		if c < utf8.RuneSelf {
			k++
			switch {
			case isDigit(c):
				if n < len(out) {
					out[n] = c
				}
				n++
			case c == '.' || isASCIIBlank(c):
			default:
				return 0, ProblemBadCharacter
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(input[k:])
		if !isBlank(r) {
			return 0, ProblemBadCharacter
		}
		k += size
	}
	return n, ProblemNone
}

// digitsMod returns the number written by the ASCII digits d modulo m.
func digitsMod(d []byte, m int) int {
	r := 0
	for _, c := range d {
		r = (r*10 + int(c-'0')) % m
	}
	return r
}

// frenchVATKey returns the numeric key of the nine ASCII digits d on two
// digits: (12 + 3 × (d mod 97)) mod 97, which is the number d followed by
// 12, modulo 97.
func frenchVATKey(d []byte) string {
	k := (12 + 3*digitsMod(d, 97)) % 97
	return string([]byte{byte('0' + k/10), byte('0' + k%10)})
}

// indexByte returns the index of c in s, or -1.
func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// String returns the nine digits, such as "552032534", or "" for the zero
// SIREN.
func (s SIREN) String() string {
	if s == (SIREN{}) {
		return ""
	}
	return string(s[:])
}

// Formatted returns the digits in groups of three, such as "552 032 534",
// or "" for the zero SIREN.
func (s SIREN) Formatted() string {
	if s == (SIREN{}) {
		return ""
	}
	b := [11]byte{s[0], s[1], s[2], ' ', s[3], s[4], s[5], ' ', s[6], s[7], s[8]}
	return string(b[:])
}

// VATKey returns the numeric key of the SIREN's VAT number on two digits,
// such as "27" for 552032534, or "" for the zero SIREN.
func (s SIREN) VATKey() string {
	if s == (SIREN{}) {
		return ""
	}
	return frenchVATKey(s[:])
}

// VATNumber returns the intra-community VAT number built from the SIREN,
// "FR", the numeric key and the nine digits (such as "FR27552032534"), or
// "" for the zero SIREN. It is valid in form only: a company has a VAT
// number in use only when the tax administration has registered it.
func (s SIREN) VATNumber() string {
	if s == (SIREN{}) {
		return ""
	}
	return "FR" + frenchVATKey(s[:]) + string(s[:])
}

// String returns the fourteen digits, such as "55203253400646", or "" for
// the zero SIRET.
func (s SIRET) String() string {
	if s == (SIRET{}) {
		return ""
	}
	return string(s[:])
}

// Formatted returns the SIREN in groups of three and the NIC, such as
// "552 032 534 00646", or "" for the zero SIRET.
func (s SIRET) Formatted() string {
	if s == (SIRET{}) {
		return ""
	}
	var n SIREN
	copy(n[:], s[:9])
	return n.Formatted() + " " + string(s[9:])
}

// SIREN returns the SIREN of the establishment's legal unit, the first nine
// digits, or the zero SIREN for the zero SIRET.
func (s SIRET) SIREN() SIREN {
	var n SIREN
	if s != (SIRET{}) {
		copy(n[:], s[:9])
	}
	return n
}

// NIC returns the establishment number, the last five digits, or "" for the
// zero SIRET.
func (s SIRET) NIC() string {
	if s == (SIRET{}) {
		return ""
	}
	return string(s[9:])
}

// String returns the number with its prefix, such as "FR27552032534", or ""
// for the zero FrenchVAT.
func (v FrenchVAT) String() string {
	if v == (FrenchVAT{}) {
		return ""
	}
	return "FR" + string(v[:])
}

// Formatted returns the usual written form, such as "FR 27 552 032 534", or
// "" for the zero FrenchVAT.
func (v FrenchVAT) Formatted() string {
	if v == (FrenchVAT{}) {
		return ""
	}
	b := [17]byte{'F', 'R', ' ', v[0], v[1], ' ', v[2], v[3], v[4], ' ', v[5], v[6], v[7], ' ', v[8], v[9], v[10]}
	return string(b[:])
}

// Key returns the two-character key, such as "27", or "" for the zero
// FrenchVAT.
func (v FrenchVAT) Key() string {
	if v == (FrenchVAT{}) {
		return ""
	}
	return string(v[:2])
}

// Monaco reports whether the number is one of Monaco's, whose nine digits
// start with 000 and are not a SIREN.
func (v FrenchVAT) Monaco() bool {
	return v != (FrenchVAT{}) && v[2] == '0' && v[3] == '0' && v[4] == '0'
}

// SIREN returns the company's SIREN, the nine digits, and true; for
// Monaco's numbers and the zero FrenchVAT it returns the zero SIREN and
// false.
func (v FrenchVAT) SIREN() (SIREN, bool) {
	if v == (FrenchVAT{}) || v.Monaco() {
		return SIREN{}, false
	}
	var n SIREN
	copy(n[:], v[2:])
	return n, true
}

// FranceReason returns one English sentence saying why a French identifier
// of kind k (as [ParseFrenchID] or the parser of that kind reported it) is
// invalid, or what makes it valid when p is [ProblemNone]. For a Problem
// that the French parsers never report it returns p.Reason().
func FranceReason(k FrenchIDKind, p Problem) string {
	switch p {
	case ProblemNone:
		switch k {
		case FrenchSIRET:
			return "Fourteen digits (the SIREN and a five-digit establishment number) with a correct Luhn check (La Poste's establishments: a digit sum divisible by 5)."
		case FrenchVATNumber:
			return "FR, a two-character key and nine digits, with a correct key (and, for a SIREN, a correct Luhn check)."
		}
		return "Nine digits with a correct Luhn check digit."
	case ProblemEmpty:
		return "The " + k.String() + " is empty."
	case ProblemBadCharacter:
		if k == FrenchVATNumber {
			return "A French VAT number is FR, a key of two digits or letters (not I or O) and nine digits; it contains another character."
		}
		return "The " + k.String() + " contains a character other than digits, spaces and dots."
	case ProblemLength:
		switch k {
		case FrenchSIREN:
			return "A SIREN has exactly nine digits."
		case FrenchSIRET:
			return "A SIRET has exactly fourteen digits: the nine of the SIREN and five of the establishment."
		case FrenchVATNumber:
			return "A French VAT number has FR, a two-character key and the nine digits of the SIREN."
		}
		return "A French company identifier is a SIREN (nine digits), a SIRET (fourteen digits) or a VAT number (FR, a key and nine digits; FR may be left out)."
	case ProblemChecksum:
		switch k {
		case FrenchSIRET:
			return "The SIRET fails its check: the fourteen digits (or its SIREN's nine) do not pass the Luhn check."
		case FrenchVATNumber:
			return "The VAT number's key does not match its nine digits, or they are not a valid SIREN."
		}
		return "The last digit is not the Luhn check digit of the first eight."
	}
	return p.Reason()
}

// FranceHint returns one or two English sentences telling the caller what
// to do about a French identifier of kind k that failed with p, or "" when
// p is [ProblemNone].
func FranceHint(k FrenchIDKind, p Problem) string {
	const search = "search by name with the search operation."
	switch p {
	case ProblemNone:
		return ""
	case ProblemEmpty:
		return "Give the nine-digit SIREN, such as 552 032 534 (a SIRET or the VAT number FR27552032534 is accepted too), or " + search
	case ProblemBadCharacter:
		return "Give only the digits, such as 552 032 534 (spaces and dots are allowed), or the VAT number such as FR27552032534, or " + search
	case ProblemLength:
		return "Check that every digit is there: a SIREN has 9 digits (552 032 534), a SIRET 14 (552 032 534 00646). Or " + search
	case ProblemChecksum:
		if k == FrenchVATNumber {
			return "Check the key and the digits for a mistyped or swapped character, or give the nine-digit SIREN, or " + search
		}
		return "Check the number for a mistyped or swapped digit, or " + search
	}
	return "Check the identifier, or " + search
}
