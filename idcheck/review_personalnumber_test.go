package idcheck_test

import (
	"testing"

	"github.com/companyregistry/registry/idcheck"
)

// TestReview_ContainsPersonalNumberNotADate: a personal identity number
// (personnummer, folkbokföringslagen 18 §; samordningsnummer, 18 a §) is a
// date of birth, YYMMDD or YYYYMMDD, a serial number and a check digit: its
// month is 01 to 12 and its day 01 to 31, or 61 to 91 for a
// samordningsnummer (research se-deadlines.md, "the organisation number
// and the personal identity number"). ContainsPersonalNumber refuses a
// search query that holds ten or twelve digits whose third and fourth are
// below 20, the shape ParseOrganisationsnummer gives ProblemPersonalNumber,
// whether or not they are a date, so ordinary numbers in a company search
// are refused as personal data: a Stockholm telephone number (day 34), a
// span of years (month 20), a run of zeros.
func TestReview_ContainsPersonalNumberNotADate(t *testing.T) {
	t.Parallel()
	// Fixed: ContainsPersonalNumber asks for a date of birth (birthDateShaped).
	for _, in := range []string{
		"Taxi Stockholm 08-123 456 78", // 0812345678: day 34
		"Jubileum 1990-2010-2020",      // 199020102020: month 20
		"Hotell 1912 & Co 0000000000",  // month 00, day 00
		"Ordernummer 0015 9999 12",     // 0015999912: month 15
	} {
		if idcheck.ContainsPersonalNumber(in) {
			t.Errorf("ContainsPersonalNumber(%q) = true: its digits are no date of birth, so no personal identity number", in)
		}
	}
}
