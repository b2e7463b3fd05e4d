package se

// The types below mirror the parts of Bolagsverket's /organisationer and
// /dokumentlista answers (Värdefulla datamängder v1) that the mapping
// reads. Decoding is lenient: unknown fields are ignored, every field is
// optional. Every block but the identity carries fel, which is read before
// any value.

type organisationerAnswer struct {
	Organisationer []organisation `json:"organisationer"`
}

// fel is the error of one block: typ ORGANISATION_FINNS_EJ,
// OGILTIG_BEGARAN, OTILLGANGLIG_UPPGIFTSKALLA or TIMEOUT.
type fel struct {
	Typ            string `json:"typ"`
	FelBeskrivning string `json:"felBeskrivning"`
}

// is reports whether f is an error of type typ; a nil f is none.
func (f *fel) is(typ string) bool { return f != nil && f.Typ == typ }

type coded struct {
	Kod      *string `json:"kod"`
	Klartext *string `json:"klartext"`
}

type block struct {
	Dataproducent string `json:"dataproducent"`
	Fel           *fel   `json:"fel"`
}

type codedBlock struct {
	coded
	block
}

type organisation struct {
	Organisationsidentitet *struct {
		Identitetsbeteckning string `json:"identitetsbeteckning"`
		Typ                  *coded `json:"typ"`
	} `json:"organisationsidentitet"`
	Namnskyddslopnummer       *int        `json:"namnskyddslopnummer"`
	Organisationsnamn         *nameBlock  `json:"organisationsnamn"`
	Registreringsland         *coded      `json:"registreringsland"`
	Reklamsparr               *codedBlock `json:"reklamsparr"`
	Organisationsform         *codedBlock `json:"organisationsform"`
	JuridiskForm              *codedBlock `json:"juridiskForm"`
	AvregistreradOrganisation *struct {
		block
		Avregistreringsdatum *string `json:"avregistreringsdatum"`
	} `json:"avregistreradOrganisation"`
	Avregistreringsorsak *codedBlock `json:"avregistreringsorsak"`
	Pagaende             *procedures `json:"pagaendeAvvecklingsEllerOmstruktureringsforfarande"`
	Pagande              *procedures `json:"pagandeAvvecklingsEllerOmstruktureringsforfarande"`
	VerksamOrganisation  *codedBlock `json:"verksamOrganisation"`
	Organisationsdatum   *struct {
		block
		Registreringsdatum *string `json:"registreringsdatum"`
		InfortHosScb       *string `json:"infortHosScb"`
	} `json:"organisationsdatum"`
	Verksamhetsbeskrivning *struct {
		block
		Beskrivning *string `json:"beskrivning"`
	} `json:"verksamhetsbeskrivning"`
	NaringsgrenOrganisation *struct {
		block
		SNI []coded `json:"sni"`
	} `json:"naringsgrenOrganisation"`
	PostadressOrganisation *struct {
		block
		Postadress *struct {
			Utdelningsadress *string `json:"utdelningsadress"`
			CoAdress         *string `json:"coAdress"`
			Postnummer       *string `json:"postnummer"`
			Postort          *string `json:"postort"`
			Land             *string `json:"land"`
		} `json:"postadress"`
	} `json:"postadressOrganisation"`
}

// nameBlock is the block of the organisation's names.
type nameBlock struct {
	block
	Lista []orgName `json:"organisationsnamnLista"`
}

// orgName is one name: the företagsnamn, a särskilt företagsnamn, a name
// in a foreign language, or another kind (the type code is an open string).
type orgName struct {
	Namn                                       string  `json:"namn"`
	Typ                                        *coded  `json:"organisationsnamntyp"`
	Registreringsdatum                         *string `json:"registreringsdatum"`
	VerksamhetsbeskrivningSarskiltForetagsnamn *string `json:"verksamhetsbeskrivningSarskiltForetagsnamn"`
}

// procedures is the block of ongoing winding-up or restructuring
// procedures, under either spelling of its list key.
type procedures struct {
	block
	Lista  []procedure `json:"pagaendeAvvecklingsEllerOmstruktureringsforfarandeLista"`
	Lista2 []procedure `json:"pagandeAvvecklingsEllerOmstruktureringsforfarandeLista"`
}

type procedure struct {
	Kod       *string `json:"kod"`
	Klartext  *string `json:"klartext"`
	FromDatum *string `json:"fromDatum"`
}

// dokumentlistaAnswer is the answer of POST /dokumentlista.
type dokumentlistaAnswer struct {
	Dokument []struct {
		DokumentID             string `json:"dokumentId"`
		RapporteringsperiodTom string `json:"rapporteringsperiodTom"`
		Registreringstidpunkt  string `json:"registreringstidpunkt"`
	} `json:"dokument"`
}
