package apitoken_test

import (
	"fmt"
	"strings"

	"github.com/companyregistry/registry/changes/apitoken"
)

// The operator writes the file line of a new token (the file keeps only
// its hash); the server reads the file and finds the token's holder.
func ExampleParseFile() {
	token := "3f9c1e0b7a2d4c6e8f1a3b5c7d9e0f2a" // a long random token, given to the ERP's operator
	file := "# API tokens\n" + apitoken.Line("erp", token) + "\n"
	fmt.Println(strings.Contains(file, token))

	set, err := apitoken.ParseFile(strings.NewReader(file))
	if err != nil {
		panic(err)
	}
	fmt.Println(set.Lookup(token))
	fmt.Println(set.Lookup("a guess"))
	// Output:
	// false
	// erp true
	//  false
}
