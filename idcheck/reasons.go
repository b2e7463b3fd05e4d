package idcheck

// The sentences below are what users and agents read in validation results
// and invalid_id errors. Each one is a complete English sentence ending with
// a period. Hints name the next action, which for every failure includes
// searching by name with the library's search operation; the REST and MCP
// adapters name their route and tool there instead.

// NorwayReason returns one English sentence saying why a Norwegian
// organisation number is invalid, or what makes it valid when p is
// [ProblemNone]. For a Problem that [ParseOrgNr] never reports it returns
// p.Reason().
func NorwayReason(p Problem) string {
	switch p {
	case ProblemNone:
		return "Nine digits with a correct MOD11 check digit."
	case ProblemEmpty:
		return "The organisation number is empty."
	case ProblemBadCharacter:
		return "The organisation number contains a character other than digits, spaces, dots, dashes and slashes, a leading NO and a trailing MVA."
	case ProblemLength:
		return "A Norwegian organisation number has exactly nine digits."
	case ProblemChecksum:
		return "The ninth digit is not the MOD11 check digit of the first eight digits."
	case ProblemCheckValue10:
		return "The first eight digits give MOD11 check value 10, so no valid organisation number starts with them."
	}
	return p.Reason()
}

// NorwayHint returns one or two English sentences telling the caller what to
// do about a Norwegian organisation number that failed with p, or "" when p
// is [ProblemNone].
func NorwayHint(p Problem) string {
	const search = "search by name with the search operation."
	switch p {
	case ProblemNone:
		return ""
	case ProblemEmpty:
		return "Give the nine-digit organisation number, such as 923 609 016, or " + search
	case ProblemBadCharacter:
		return "Give only the nine digits, such as 923 609 016, or " + search
	case ProblemLength:
		return "Check that all nine digits are there, or " + search
	case ProblemChecksum, ProblemCheckValue10:
		return "Check the number for a mistyped or swapped digit, or " + search
	}
	return "Check the organisation number, or " + search
}

// UKReason returns one English sentence saying why a UK Companies House
// company number is invalid, or what makes it valid when p is
// [ProblemNone]. For a Problem that [ParseCompanyNumber] never reports it
// returns p.Reason().
func UKReason(p Problem) string {
	switch p {
	case ProblemNone:
		return "Eight characters in a Companies House company number format."
	case ProblemEmpty:
		return "The company number is empty."
	case ProblemBadCharacter:
		return "The company number contains a character other than letters, digits, spaces, dots and dashes."
	case ProblemLength:
		return "A Companies House company number has eight characters: eight digits, or a two-character prefix and six digits."
	case ProblemPrefix:
		return "The company number starts with letters that are not a Companies House prefix such as SC, NI, OC or R0."
	case ProblemLetterInNumber:
		return "The company number has a letter where Companies House numbers have digits."
	case ProblemVATNumber:
		return "This is a UK VAT registration number, not a Companies House company number."
	}
	return p.Reason()
}

// UKHint returns one or two English sentences telling the caller what to do
// about a UK company number that failed with p, or "" when p is
// [ProblemNone].
func UKHint(p Problem) string {
	const search = "search by name with the search operation."
	switch p {
	case ProblemNone:
		return ""
	case ProblemEmpty:
		return "Give the Companies House company number, such as 00002065 or SC294759, or " + search
	case ProblemBadCharacter:
		return "Give only the letters and digits of the company number, such as SC294759, or " + search
	case ProblemLength:
		return "Check the company number, which has at most eight characters, such as 00002065 or SC294759, or " + search
	case ProblemPrefix:
		return "Check the prefix (R0 is the letter R and the digit zero), or " + search
	case ProblemLetterInNumber:
		return "Check the digits for a letter typed in place of a digit, such as O for 0, or " + search
	case ProblemVATNumber:
		return "Use the company's Companies House number, which is not its VAT number, or " + search
	}
	return "Check the company number, or " + search
}
