package idcheck_test

import (
	"fmt"

	"github.com/companyregistry/registry/idcheck"
)

func ExampleParseOrgNr() {
	for _, input := range []string{"NO 923 609 016 MVA", "923.609.016", "923609017", "934157150"} {
		n, p := idcheck.ParseOrgNr(input)
		if p != idcheck.ProblemNone {
			fmt.Printf("%q: %s\n", input, idcheck.NorwayReason(p))
			continue
		}
		fmt.Printf("%q: %s\n", input, n)
	}
	// Output:
	// "NO 923 609 016 MVA": 923609016
	// "923.609.016": 923609016
	// "923609017": The ninth digit is not the MOD11 check digit of the first eight digits.
	// "934157150": The first eight digits give MOD11 check value 10, so no valid organisation number starts with them.
}

func ExampleOrgNr_Formatted() {
	n, _ := idcheck.ParseOrgNr("no923609016mva")
	fmt.Println(n.Formatted())
	// Output: 923 609 016
}

func ExampleNorwayHint() {
	_, p := idcheck.ParseOrgNr("92360901")
	fmt.Println(idcheck.NorwayReason(p))
	fmt.Println(idcheck.NorwayHint(p))
	// Output:
	// A Norwegian organisation number has exactly nine digits.
	// Check that all nine digits are there, or search by name with the search operation.
}

func ExampleParseCompanyNumber() {
	for _, input := range []string{"12345", "sc 294759", "SC12345", "GB 123 4567 89", "SC12A456"} {
		n, p := idcheck.ParseCompanyNumber(input)
		if p != idcheck.ProblemNone {
			fmt.Printf("%q: %s\n", input, idcheck.UKReason(p))
			continue
		}
		fmt.Printf("%q: %s\n", input, n)
	}
	// Output:
	// "12345": 00012345
	// "sc 294759": SC294759
	// "SC12345": SC012345
	// "GB 123 4567 89": This is a UK VAT registration number, not a Companies House company number.
	// "SC12A456": The company number has a letter where Companies House numbers have digits.
}

func ExampleUKHint() {
	_, p := idcheck.ParseCompanyNumber("RO123456")
	fmt.Println(idcheck.UKReason(p))
	fmt.Println(idcheck.UKHint(p))
	// Output:
	// The company number starts with letters that are not a Companies House prefix such as SC, NI, OC or R0.
	// Check the prefix (R0 is the letter R and the digit zero), or search by name with the search operation.
}

func ExampleParseOrganisationsnummer() {
	for _, input := range []string{"556016-0680", "SE556016068001", "165560160680", "5560160681", "198101032384"} {
		n, p := idcheck.ParseOrganisationsnummer(input)
		if p != idcheck.ProblemNone {
			fmt.Printf("%q: %v\n", input, p)
			continue
		}
		fmt.Printf("%q: %s (%s, VAT %s)\n", input, n, n.Formatted(), n.VATNumber())
	}
	// Output:
	// "556016-0680": 5560160680 (556016-0680, VAT SE556016068001)
	// "SE556016068001": 5560160680 (556016-0680, VAT SE556016068001)
	// "165560160680": 5560160680 (556016-0680, VAT SE556016068001)
	// "5560160681": ProblemChecksum
	// "198101032384": ProblemPersonalNumber
}

func ExampleContainsPersonalNumber() {
	for _, query := range []string{"Volvo AB 556016-0680", "Anna (810105\u20102382)", "pnr:810105-2382", "Bygg 2010 AB"} {
		fmt.Printf("%q: %t\n", query, idcheck.ContainsPersonalNumber(query))
	}
	// Output:
	// "Volvo AB 556016-0680": false
	// "Anna (810105‐2382)": true
	// "pnr:810105-2382": true
	// "Bygg 2010 AB": false
}
