package idcheck_test

import (
	"fmt"

	"github.com/companyregistry/registry/idcheck"
)

func ExampleParseYTunnus() {
	for _, input := range []string{"FI01120389", "0112038 9", "0112038-8", "112038-9"} {
		y, p := idcheck.ParseYTunnus(input)
		if p != idcheck.ProblemNone {
			fmt.Printf("%q: %s\n", input, idcheck.FinlandReason(p))
			continue
		}
		fmt.Printf("%q: %s (VAT %s)\n", input, y, y.VATNumber())
	}
	// Output:
	// "FI01120389": 0112038-9 (VAT FI01120389)
	// "0112038 9": 0112038-9 (VAT FI01120389)
	// "0112038-8": The digit after the hyphen is not the MOD11 check digit of the seven digits before it.
	// "112038-9": A Finnish business ID (Y-tunnus) has seven digits and a check digit, such as 0112038-9.
}

func ExampleFinlandHint() {
	_, p := idcheck.ParseYTunnus("112038-9")
	fmt.Println(idcheck.FinlandHint(p))
	// Output:
	// Check that all eight digits are there; an old code written with six digits before the hyphen takes a leading zero (112038-9 is 0112038-9). Or search by name with the search operation.
}
