// Package idcheck parses and validates company identifiers: Norwegian
// organisation numbers (organisasjonsnummer, see [ParseOrgNr]), UK
// Companies House company numbers (see [ParseCompanyNumber]), Finnish
// business identity codes (Y-tunnus, see [ParseYTunnus]), Danish CVR
// numbers (see [ParseCVR]), the French SIREN, SIRET and VAT number (see
// [ParseFrenchID]) and Swedish organisation numbers (organisationsnummer,
// see [ParseOrganisationsnummer]).
//
// The package is pure: it does no I/O, keeps no state and does not allocate
// while parsing. A parse function returns the normalised identifier and a
// [Problem]; the identifier is valid exactly when the Problem is
// [ProblemNone], and on any other Problem the returned identifier is the zero
// value. [NorwayReason] and [NorwayHint], [UKReason] and [UKHint],
// [FinlandReason] and [FinlandHint], [DenmarkReason] and [DenmarkHint],
// [FranceReason] and [FranceHint], and [SwedenReason] and [SwedenHint]
// turn a Problem into English sentences for users and agents.
package idcheck

import "strconv"

// Problem says why an identifier failed to parse. The zero value,
// [ProblemNone], means the identifier is valid.
type Problem uint8

// The problems that [ParseOrgNr], [ParseCompanyNumber], [ParseYTunnus] and
// [ParseOrganisationsnummer] report.
const (
	// ProblemNone means the identifier is valid.
	ProblemNone Problem = iota
	// ProblemEmpty means the input is empty or holds only spaces and
	// separators.
	ProblemEmpty
	// ProblemBadCharacter means the input holds a character that cannot
	// appear in the identifier, not even as a separator.
	ProblemBadCharacter
	// ProblemLength means the input has the wrong number of digits or
	// characters.
	ProblemLength
	// ProblemChecksum means the check digit does not match the MOD11 check
	// digit of the digits before it: a Norwegian organisation number's ninth
	// digit, or a Finnish business identity code's digit after the hyphen.
	ProblemChecksum
	// ProblemCheckValue10 means the digits before the check digit give a
	// MOD11 check value that no valid identifier has: 10 for the first
	// eight digits of a Norwegian organisation number, and a remainder of 1
	// (also check value 10) for the seven digits of a Finnish business
	// identity code. Use [Problem.IsChecksum] to treat it like
	// [ProblemChecksum].
	ProblemCheckValue10
	// ProblemPrefix means a UK company number starts with letters that are
	// not a Companies House prefix, or with a single letter; or a Danish
	// CVR number starts with 0.
	ProblemPrefix
	// ProblemLetterInNumber means a UK company number has a letter where
	// Companies House numbers have digits.
	ProblemLetterInNumber
	// ProblemVATNumber means the input looks like a UK VAT registration
	// number (GB and 9 or 12 digits), not a Companies House company number.
	ProblemVATNumber
	// ProblemPersonalNumber means the input has the form of a Swedish
	// personal identity number (personnummer or samordningsnummer), not of
	// an organisation number; its check digit is not checked.
	ProblemPersonalNumber
	// ProblemVATSuffix means a Swedish VAT number (SE and twelve digits)
	// does not end in 01.
	ProblemVATSuffix
)

// IsChecksum reports whether p is a check digit failure, that is
// [ProblemChecksum] or [ProblemCheckValue10].
func (p Problem) IsChecksum() bool {
	return p == ProblemChecksum || p == ProblemCheckValue10
}

// String returns the name of the constant, such as "ProblemChecksum".
func (p Problem) String() string {
	switch p {
	case ProblemNone:
		return "ProblemNone"
	case ProblemEmpty:
		return "ProblemEmpty"
	case ProblemBadCharacter:
		return "ProblemBadCharacter"
	case ProblemLength:
		return "ProblemLength"
	case ProblemChecksum:
		return "ProblemChecksum"
	case ProblemCheckValue10:
		return "ProblemCheckValue10"
	case ProblemPrefix:
		return "ProblemPrefix"
	case ProblemLetterInNumber:
		return "ProblemLetterInNumber"
	case ProblemVATNumber:
		return "ProblemVATNumber"
	case ProblemPersonalNumber:
		return "ProblemPersonalNumber"
	case ProblemVATSuffix:
		return "ProblemVATSuffix"
	}
	return "Problem(" + strconv.Itoa(int(p)) + ")"
}

// Reason returns one country-neutral English sentence saying what failed, or
// that the identifier is valid. [NorwayReason], [UKReason] and
// [FinlandReason] give sentences that name the country's rules.
func (p Problem) Reason() string {
	switch p {
	case ProblemNone:
		return "The identifier is valid."
	case ProblemEmpty:
		return "The identifier is empty."
	case ProblemBadCharacter:
		return "The identifier contains a character that is not allowed."
	case ProblemLength:
		return "The identifier has the wrong number of digits or characters."
	case ProblemChecksum:
		return "The check digit does not match the other digits."
	case ProblemCheckValue10:
		return "The digits give check value 10, which no valid identifier has."
	case ProblemPrefix:
		return "The identifier starts with letters that are not a known prefix."
	case ProblemLetterInNumber:
		return "The identifier has a letter where digits belong."
	case ProblemVATNumber:
		return "The identifier is a VAT registration number, not a company number."
	case ProblemPersonalNumber:
		return "The identifier has the form of a personal identity number, not of a company identifier."
	case ProblemVATSuffix:
		return "The VAT number does not end in the suffix its country requires."
	}
	return "The identifier is invalid."
}
