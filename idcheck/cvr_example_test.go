package idcheck_test

import (
	"fmt"

	"github.com/companyregistry/registry/idcheck"
)

func ExampleParseCVR() {
	for _, input := range []string{"DK 13 58 56 28", "41774037", "13585627", "01234567"} {
		c, p := idcheck.ParseCVR(input)
		if p != idcheck.ProblemNone {
			fmt.Printf("%q: %s\n", input, idcheck.DenmarkReason(p))
			continue
		}
		fmt.Printf("%q: %s (VAT form %s)\n", input, c, c.VATNumber())
	}
	// Output:
	// "DK 13 58 56 28": 13585628 (VAT form DK13585628)
	// "41774037": 41774037 (VAT form DK41774037)
	// "13585627": The eighth digit is not the modulus-11 check digit of the first seven digits.
	// "01234567": A CVR number never starts with 0.
}
