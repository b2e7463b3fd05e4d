package idcheck_test

import (
	"fmt"

	"github.com/companyregistry/registry/idcheck"
)

func ExampleParseFrenchID() {
	for _, input := range []string{"552 032 534", "552 032 534 00646", "FR 27 552 032 534", "27552032534", "FR28552032534", "55203253"} {
		id, p := idcheck.ParseFrenchID(input)
		if p != idcheck.ProblemNone {
			fmt.Printf("%q: %s\n", input, idcheck.FranceReason(id.Kind, p))
			continue
		}
		fmt.Printf("%q: %s, SIREN %s (VAT %s)\n", input, id.Kind, id.SIREN, id.SIREN.VATNumber())
	}
	// Output:
	// "552 032 534": SIREN, SIREN 552032534 (VAT FR27552032534)
	// "552 032 534 00646": SIRET, SIREN 552032534 (VAT FR27552032534)
	// "FR 27 552 032 534": VAT number, SIREN 552032534 (VAT FR27552032534)
	// "27552032534": VAT number, SIREN 552032534 (VAT FR27552032534)
	// "FR28552032534": The VAT number's key does not match its nine digits, or they are not a valid SIREN.
	// "55203253": A French company identifier is a SIREN (nine digits), a SIRET (fourteen digits) or a VAT number (FR, a key and nine digits; FR may be left out).
}
