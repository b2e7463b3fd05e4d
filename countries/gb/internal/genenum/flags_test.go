package main

// The -table flags of the generate directives in countries/gb/gb.go; keep
// them in step.
func sicTables() tables {
	return tables{{"sicDescription", "sic_descriptions",
		"returns Companies House's English description of a SIC code: the five-digit codes are UK SIC 2007, the four-digit ones UK SIC 2003"}}
}

func pscTables() tables {
	return tables{
		{"controlDescription", "description",
			"returns Companies House's plain-English description of a nature of control of a person with significant control or a registrable beneficial owner"},
		{"statementDescription", "statement_description",
			"returns Companies House's text of a PSC statement code; the text may hold the placeholder {linked_psc_name}"},
		{"superSecureDescription", "super_secure_description",
			"returns Companies House's text for a person with significant control whose details are withheld"},
	}
}
