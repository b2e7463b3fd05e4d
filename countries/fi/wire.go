package fi

import "github.com/companyregistry/registry/internal/upstream"

// The types below mirror the parts of YTJ's JSON (PRH open data API v3)
// that the mapping reads. Decoding is lenient: unknown fields are ignored,
// every field is optional, and codes that are strings in the recordings
// (types, language codes, registers) also accept JSON numbers, and the
// reverse for the address type.

// companyResult is the answer of GET /companies: a lookup or a search page.
type companyResult struct {
	TotalResults upstream.FlexInt `json:"totalResults"`
	Companies    []company        `json:"companies"`
}

// company is one company of YTJ.
type company struct {
	BusinessID          *valueDate          `json:"businessId"`
	EUID                *valueDate          `json:"euId"`
	Names               []companyName       `json:"names"`
	MainBusinessLine    *businessLine       `json:"mainBusinessLine"`
	Website             *website            `json:"website"`
	CompanyForms        []coded             `json:"companyForms"`
	CompanySituations   []coded             `json:"companySituations"`
	RegisteredEntries   []registeredEntry   `json:"registeredEntries"`
	Addresses           []address           `json:"addresses"`
	TradeRegisterStatus upstream.FlexString `json:"tradeRegisterStatus"`
	Status              upstream.FlexString `json:"status"`
	RegistrationDate    string              `json:"registrationDate"`
	EndDate             string              `json:"endDate"`
	LastModified        string              `json:"lastModified"`
}

// valueDate is businessId {value, registrationDate, source} or euId
// {value, source}.
type valueDate struct {
	Value            string `json:"value"`
	RegistrationDate string `json:"registrationDate"`
}

// companyName is one entry of names: type 1 is the (main) name, 2 a
// parallel name, 3 an auxiliary name; an endDate marks a name no longer in
// use.
type companyName struct {
	Name             string              `json:"name"`
	Type             upstream.FlexString `json:"type"`
	RegistrationDate string              `json:"registrationDate"`
	EndDate          string              `json:"endDate"`
	Version          upstream.FlexInt    `json:"version"`
}

// description is a label in one language: languageCode 1 Finnish, 2
// Swedish, 3 English.
type description struct {
	LanguageCode upstream.FlexString `json:"languageCode"`
	Description  string              `json:"description"`
}

// coded is a companyForms or companySituations entry: a type code, its
// labels and its dates.
type coded struct {
	Type             upstream.FlexString `json:"type"`
	Descriptions     []description       `json:"descriptions"`
	RegistrationDate string              `json:"registrationDate"`
	EndDate          string              `json:"endDate"`
	Version          upstream.FlexInt    `json:"version"`
}

// businessLine is mainBusinessLine: a TOL code of the code set typeCodeSet
// (TOIMI3 is TOL 2008, TOIMI4 TOL 2025).
type businessLine struct {
	Type         upstream.FlexString `json:"type"`
	Descriptions []description       `json:"descriptions"`
	TypeCodeSet  string              `json:"typeCodeSet"`
}

// website is the company's web address, usually without a scheme.
type website struct {
	URL string `json:"url"`
}

// registeredEntry is one entry of registeredEntries: the company's state
// in one register (register 1 Trade Register, 5 prepayment register, 6 VAT
// register, 7 employer register).
type registeredEntry struct {
	Type             upstream.FlexString `json:"type"`
	Descriptions     []description       `json:"descriptions"`
	RegistrationDate string              `json:"registrationDate"`
	EndDate          string              `json:"endDate"`
	Register         upstream.FlexString `json:"register"`
	Authority        upstream.FlexString `json:"authority"`
}

// address is one entry of addresses: type 1 the street (visiting)
// address, 2 the postal address. Absent parts are "".
type address struct {
	Type              upstream.FlexString `json:"type"`
	Street            string              `json:"street"`
	BuildingNumber    string              `json:"buildingNumber"`
	Entrance          string              `json:"entrance"`
	ApartmentNumber   string              `json:"apartmentNumber"`
	ApartmentIDSuffix string              `json:"apartmentIdSuffix"`
	PostOfficeBox     string              `json:"postOfficeBox"`
	PostCode          string              `json:"postCode"`
	PostOffices       []postOffice        `json:"postOffices"`
	Co                string              `json:"co"`
	Country           string              `json:"country"`
	FreeAddressLine   string              `json:"freeAddressLine"`
}

// postOffice is the post town of an address in one language.
type postOffice struct {
	City             string              `json:"city"`
	LanguageCode     upstream.FlexString `json:"languageCode"`
	MunicipalityCode string              `json:"municipalityCode"`
}
