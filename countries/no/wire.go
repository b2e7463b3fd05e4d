package no

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/companyregistry/registry/internal/upstream"
)

// The types below mirror the parts of Enhetsregisteret's JSON that the
// mapping reads. Decoding is lenient: unknown fields are ignored (the
// register adds fields without a version change), every field is optional,
// and the few fields whose JSON type has varied (numbers sent as strings and
// the reverse) accept both.

// unit is one main unit (enhet) or sub-unit (underenhet), live or deleted.
type unit struct {
	Organisasjonsnummer                        string              `json:"organisasjonsnummer"`
	Navn                                       string              `json:"navn"`
	Organisasjonsform                          *codeText           `json:"organisasjonsform"`
	HistoriskeNavn                             []pastName          `json:"historiskeNavn"`
	Hjemmeside                                 string              `json:"hjemmeside"`
	Epostadresse                               string              `json:"epostadresse"`
	Telefon                                    string              `json:"telefon"`
	Mobil                                      string              `json:"mobil"`
	Postadresse                                *address            `json:"postadresse"`
	Forretningsadresse                         *address            `json:"forretningsadresse"`
	Beliggenhetsadresse                        *address            `json:"beliggenhetsadresse"`
	Naeringskode1                              *codeText           `json:"naeringskode1"`
	Naeringskode2                              *codeText           `json:"naeringskode2"`
	Naeringskode3                              *codeText           `json:"naeringskode3"`
	Sektorkode                                 *codeText           `json:"institusjonellSektorkode"`
	AntallAnsatte                              upstream.FlexInt    `json:"antallAnsatte"`
	HarAntallAnsatte                           *bool               `json:"harRegistrertAntallAnsatte"`
	OverordnetEnhet                            string              `json:"overordnetEnhet"`
	Kapital                                    *capital            `json:"kapital"`
	ErIKonsern                                 *bool               `json:"erIKonsern"`
	SisteAarsregnskap                          upstream.FlexString `json:"sisteInnsendteAarsregnskap"`
	VedtektsfestetForm                         flexLines           `json:"vedtektsfestetFormaal"`
	Aktivitet                                  flexLines           `json:"aktivitet"`
	ResponsKlasse                              string              `json:"respons_klasse"`
	Konkurs                                    *bool               `json:"konkurs"`
	UnderAvvikling                             *bool               `json:"underAvvikling"`
	UnderTvang                                 *bool               `json:"underTvangsavviklingEllerTvangsopplosning"`
	RegistrertIMva                             *bool               `json:"registrertIMvaregisteret"`
	RegistrertIForetak                         *bool               `json:"registrertIForetaksregisteret"`
	RegistrertIStift                           *bool               `json:"registrertIStiftelsesregisteret"`
	RegistrertIFrivill                         *bool               `json:"registrertIFrivillighetsregisteret"`
	RegistrertIParti                           *bool               `json:"registrertIPartiregisteret"`
	RegistreringsdatoEnhetsregisteret          string              `json:"registreringsdatoEnhetsregisteret"`
	RegistreringsdatoMerverdiavgiftsregisteret string              `json:"registreringsdatoMerverdiavgiftsregisteret"`
	RegistreringsdatoForetaksregisteret        string              `json:"registreringsdatoForetaksregisteret"`
	Stiftelsesdato                             string              `json:"stiftelsesdato"`
	Oppstartsdato                              string              `json:"oppstartsdato"`
	Konkursdato                                string              `json:"konkursdato"`
	UnderAvviklingDato                         string              `json:"underAvviklingDato"`
	Slettedato                                 string              `json:"slettedato"`
	Nedleggelsesdato                           string              `json:"nedleggelsesdato"`
	TvangsavvikletPgaManglendeSletting         string              `json:"tvangsavvikletPgaManglendeSlettingDato"`
	TvangsopplostPgaManglendeDagligLeder       string              `json:"tvangsopplostPgaManglendeDagligLederDato"`
	TvangsopplostPgaManglendeRevisor           string              `json:"tvangsopplostPgaManglendeRevisorDato"`
	TvangsopplostPgaManglendeRegnskap          string              `json:"tvangsopplostPgaManglendeRegnskapDato"`
	TvangsopplostPgaMangelfulltStyre           string              `json:"tvangsopplostPgaMangelfulltStyreDato"`
}

// codeText is a {kode, beskrivelse} pair: an organisation form, an industry
// code or a sector code.
type codeText struct {
	Kode        string `json:"kode"`
	Beskrivelse string `json:"beskrivelse"`
}

// pastName is one entry of historiskeNavn. Its dates are written
// "YYYY-MM-DD HH:MM:SS".
type pastName struct {
	Navn    string `json:"navn"`
	FraDato string `json:"fraDato"`
	TilDato string `json:"tilDato"`
}

// address is forretningsadresse, postadresse or beliggenhetsadresse. adresse
// may hold null and "" elements.
type address struct {
	Land          string    `json:"land"`
	Landkode      string    `json:"landkode"`
	Postnummer    string    `json:"postnummer"`
	Poststed      string    `json:"poststed"`
	Adresse       flexLines `json:"adresse"`
	Kommune       string    `json:"kommune"`
	Kommunenummer string    `json:"kommunenummer"`
}

// capital is kapital: the registered share (or other) capital.
type capital struct {
	Belop  flexFloat `json:"belop"`
	Valuta string    `json:"valuta"`
}

// searchPage is the HAL page answered by GET /enheter?navn=...; _embedded is
// absent when nothing matches.
type searchPage struct {
	Embedded *struct {
		Enheter []unit `json:"enheter"`
	} `json:"_embedded"`
	Page *struct {
		TotalElements upstream.FlexInt `json:"totalElements"`
	} `json:"page"`
}

// flexFloat is a decimal sent as a JSON number or a numeric string. Set is
// false when the field is absent, null, not finite or not a number.
type flexFloat struct {
	Value float64
	Set   bool
}

// UnmarshalJSON accepts 5976872600.00, "5976872600.00" and null.
func (f *flexFloat) UnmarshalJSON(b []byte) error {
	*f = flexFloat{}
	s := strings.TrimSpace(string(bytes.Trim(b, `"`)))
	if s == "null" || s == "" {
		return nil
	}
	if x, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(x, 0) && !math.IsNaN(x) {
		*f = flexFloat{Value: x, Set: true}
	}
	return nil
}

// flexLines is a text the register splits into lines: a JSON array of
// strings (null elements read as ""), or a single string.
type flexLines []string

// UnmarshalJSON accepts ["a", null, ""], "a" and null.
func (f *flexLines) UnmarshalJSON(b []byte) error {
	*f = nil
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = flexLines{s}
		return nil
	}
	var lines []string
	if err := json.Unmarshal(b, &lines); err != nil {
		return err
	}
	*f = lines
	return nil
}
