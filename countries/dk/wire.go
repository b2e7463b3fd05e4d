package dk

import (
	"bytes"
	"encoding/json"

	"github.com/companyregistry/registry/internal/upstream"
)

// The types below mirror the parts of the CVR distribution's Elasticsearch
// answers that the mapping reads. Decoding is lenient: unknown fields are
// ignored, every field is optional, and numbers the register may send as
// strings (or the reverse) are read either way.

// searchAnswer is the answer of POST /virksomhed/_search.
type searchAnswer struct {
	TimedOut bool `json:"timed_out"`
	Shards   struct {
		Failed upstream.FlexInt `json:"failed"`
	} `json:"_shards"`
	Hits struct {
		Total esTotal `json:"total"`
		Hits  []struct {
			Source struct {
				Vrvirksomhed *company `json:"Vrvirksomhed"`
			} `json:"_source"`
		} `json:"hits"`
	} `json:"hits"`
}

// complete reports whether every shard answered: a partial answer cannot
// tell that a company does not exist.
func (a *searchAnswer) complete() bool {
	return !a.TimedOut && (!a.Shards.Failed.Set || a.Shards.Failed.Value == 0)
}

// companies returns the company documents of the answer, in its order.
func (a *searchAnswer) companies() []*company {
	out := make([]*company, 0, len(a.Hits.Hits))
	for _, h := range a.Hits.Hits {
		if h.Source.Vrvirksomhed != nil {
			out = append(out, h.Source.Vrvirksomhed)
		}
	}
	return out
}

// esTotal is hits.total: a bare number (Elasticsearch 6, as the CVR
// distribution answers) or {"value": n, "relation": "eq"|"gte"}
// (Elasticsearch 7 and later).
type esTotal struct {
	upstream.FlexInt
	// AtLeast is true when the register counted only up to Value
	// (relation "gte").
	AtLeast bool
}

// UnmarshalJSON accepts a number, a numeric string, null or the object
// form; anything else leaves the total unset.
func (t *esTotal) UnmarshalJSON(b []byte) error {
	*t = esTotal{}
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '{' {
		var o struct {
			Value    upstream.FlexInt `json:"value"`
			Relation string           `json:"relation"`
		}
		if err := json.Unmarshal(b, &o); err != nil {
			return nil //nolint:nilerr // a malformed total is unset, not a failed answer
		}
		t.FlexInt, t.AtLeast = o.Value, o.Relation == "gte"
		return nil
	}
	return t.FlexInt.UnmarshalJSON(b)
}

// period is the validity of a value: gyldigTil is empty while it holds.
type period struct {
	GyldigFra string `json:"gyldigFra"`
	GyldigTil string `json:"gyldigTil"`
}

// company is one Vrvirksomhed document.
type company struct {
	CVRNummer              upstream.FlexString `json:"cvrNummer"`
	Navne                  []name              `json:"navne"`
	Binavne                []name              `json:"binavne"`
	Beliggenhedsadresse    []address           `json:"beliggenhedsadresse"`
	Postadresse            []address           `json:"postadresse"`
	TelefonNummer          []contact           `json:"telefonNummer"`
	ElektroniskPost        []contact           `json:"elektroniskPost"`
	Hjemmeside             []contact           `json:"hjemmeside"`
	Livsforloeb            []lifespan          `json:"livsforloeb"`
	Hovedbranche           []industry          `json:"hovedbranche"`
	Bibranche1             []industry          `json:"bibranche1"`
	Bibranche2             []industry          `json:"bibranche2"`
	Bibranche3             []industry          `json:"bibranche3"`
	Virksomhedsstatus      []status            `json:"virksomhedsstatus"`
	Virksomhedsform        []legalFormEntry    `json:"virksomhedsform"`
	Aarsbeskaeftigelse     []employment        `json:"aarsbeskaeftigelse"`
	Kvartalsbeskaeftigelse []employment        `json:"kvartalsbeskaeftigelse"`
	Maanedsbeskaeftigelse  []employment        `json:"maanedsbeskaeftigelse"`
	ErstMaanedsbeskaeft    []employment        `json:"erstMaanedsbeskaeftigelse"`
	Attributter            []attribute         `json:"attributter"`
	DeltagerRelation       []relation          `json:"deltagerRelation"`
	Reklamebeskyttet       *bool               `json:"reklamebeskyttet"`
	FejlRegistreret        *bool               `json:"fejlRegistreret"`
	Metadata               *metadata           `json:"virksomhedMetadata"`
}

// name is one entry of navne or binavne.
type name struct {
	Navn    string `json:"navn"`
	Periode period `json:"periode"`
}

// address is one entry of beliggenhedsadresse or postadresse. The house
// number is split into number and letter; postnummer is a number.
type address struct {
	Landekode    string           `json:"landekode"`
	Fritekst     string           `json:"fritekst"`
	Kommune      *municipality    `json:"kommune"`
	HusnummerFra upstream.FlexInt `json:"husnummerFra"`
	HusnummerTil upstream.FlexInt `json:"husnummerTil"`
	BogstavFra   string           `json:"bogstavFra"`
	BogstavTil   string           `json:"bogstavTil"`
	Etage        string           `json:"etage"`
	Sidedoer     string           `json:"sidedoer"`
	Conavn       string           `json:"conavn"`
	Postboks     string           `json:"postboks"`
	Vejnavn      string           `json:"vejnavn"`
	Bynavn       string           `json:"bynavn"`
	Postnummer   upstream.FlexInt `json:"postnummer"`
	Postdistrikt string           `json:"postdistrikt"`
	Periode      period           `json:"periode"`
}

// municipality is an address's kommune.
type municipality struct {
	KommuneKode upstream.FlexInt `json:"kommuneKode"`
	KommuneNavn string           `json:"kommuneNavn"`
}

// contact is a phone number, e-mail address or web site; hemmelig marks
// one that is not public.
type contact struct {
	Kontaktoplysning string `json:"kontaktoplysning"`
	Hemmelig         *bool  `json:"hemmelig"`
	Periode          period `json:"periode"`
}

// lifespan is one entry of livsforloeb: gyldigFra is the start, gyldigTil
// the end (ophør).
type lifespan struct {
	Periode period `json:"periode"`
}

// industry is a DB07 code (six digits) and its Danish text.
type industry struct {
	Branchekode  upstream.FlexString `json:"branchekode"`
	Branchetekst string              `json:"branchetekst"`
	Periode      period              `json:"periode"`
}

// status is one entry of virksomhedsstatus.
type status struct {
	Status  string `json:"status"`
	Periode period `json:"periode"`
}

// legalFormEntry is one entry of virksomhedsform.
type legalFormEntry struct {
	Virksomhedsformkode upstream.FlexString `json:"virksomhedsformkode"`
	KortBeskrivelse     string              `json:"kortBeskrivelse"`
	LangBeskrivelse     string              `json:"langBeskrivelse"`
	Periode             period              `json:"periode"`
}

// employment is one figure of a year, quarter or month: a count and the
// register's interval code, either of which may be missing.
type employment struct {
	Aar                        upstream.FlexInt `json:"aar"`
	Kvartal                    upstream.FlexInt `json:"kvartal"`
	Maaned                     upstream.FlexInt `json:"maaned"`
	AntalAnsatte               upstream.FlexInt `json:"antalAnsatte"`
	IntervalKodeAntalAnsatte   string           `json:"intervalKodeAntalAnsatte"`
	IntervalKodeAntalAarsvaerk string           `json:"intervalKodeAntalAarsvaerk"`
}

// attribute is one entry of attributter: a typed list of dated values.
type attribute struct {
	Type       string  `json:"type"`
	Vaerditype string  `json:"vaerditype"`
	Vaerdier   []value `json:"vaerdier"`
}

// value is one dated value of an attribute.
type value struct {
	Vaerdi  upstream.FlexString `json:"vaerdi"`
	Periode period              `json:"periode"`
}

// metadata is virksomhedMetadata, the register's "newest" view.
type metadata struct {
	NyesteNavn                *name           `json:"nyesteNavn"`
	NyesteVirksomhedsform     *legalFormEntry `json:"nyesteVirksomhedsform"`
	NyesteBeliggenhedsadresse *address        `json:"nyesteBeliggenhedsadresse"`
	SammensatStatus           string          `json:"sammensatStatus"`
	StiftelsesDato            string          `json:"stiftelsesDato"`
}

// relation is one participant (deltager) and the organisations it belongs
// to in this company: board, management, owners, auditors.
type relation struct {
	Deltager       *participant   `json:"deltager"`
	Organisationer []organisation `json:"organisationer"`
}

// participant is a person or a company taking part. The register's answer
// also holds a person's addresses; they are not even decoded: only the
// name is read, and a company's CVR number (forretningsnoegle).
type participant struct {
	Enhedstype        string              `json:"enhedstype"`
	Forretningsnoegle upstream.FlexString `json:"forretningsnoegle"`
	Navne             []name              `json:"navne"`
}

// organisation is the organ or register a participant is in: hovedtype
// LEDELSESORGAN (board, management), REGISTER (owners), REVISION,
// STIFTERE, FULDT_ANSVARLIG_DELTAGERE, HVIDVASK, ...
type organisation struct {
	Hovedtype         string       `json:"hovedtype"`
	OrganisationsNavn []name       `json:"organisationsNavn"`
	MedlemsData       []memberData `json:"medlemsData"`
}

// memberData holds a participant's attributes in an organisation
// (FUNKTION, EJERANDEL_PROCENT, ...).
type memberData struct {
	Attributter []attribute `json:"attributter"`
}
