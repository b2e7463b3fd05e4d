package fr

import (
	"bytes"
	"strings"

	"github.com/companyregistry/registry/internal/upstream"
)

// The types below mirror the parts of the API Recherche d'entreprises'
// JSON that the mapping reads (its OpenAPI document, schemas payload,
// result and etablissement). Decoding is lenient: unknown fields are
// ignored, every field is optional, codes and years accept JSON numbers,
// and a flag that is not a boolean is unknown. The undocumented admin
// fields (immatriculation, bodacc, admin) are not read.

// placeholder is what the API writes in place of a value whose owner
// opposed its publication (statut de diffusion partielle).
const placeholder = "NON-DIFFUSIBLE"

// text is a string of the API. The placeholder "[NON-DIFFUSIBLE]" (or any
// value containing it) decodes as Masked with no value, so that it is never
// shown, logged, cached or indexed as if it were one. Null, absent and
// blank values are unset. Surrounding space is removed.
type text struct {
	V      string
	Masked bool
}

// UnmarshalJSON accepts a string, a number or null; any other JSON value
// leaves the text unset rather than failing the whole document.
func (t *text) UnmarshalJSON(b []byte) error {
	*t = text{}
	var f upstream.FlexString
	if err := f.UnmarshalJSON(b); err != nil {
		return err
	}
	s := strings.TrimSpace(string(f))
	if strings.Contains(strings.ToUpper(s), placeholder) {
		t.Masked = true
		return nil
	}
	t.V = s
	return nil
}

// apiFlag is a boolean of the API: Set is false when it is absent, null or not
// a boolean.
type apiFlag struct {
	V, Set bool
}

// UnmarshalJSON accepts true, false and null; any other value is unset.
func (f *apiFlag) UnmarshalJSON(b []byte) error {
	switch string(bytes.TrimSpace(b)) {
	case "true":
		*f = apiFlag{V: true, Set: true}
	case "false":
		*f = apiFlag{Set: true}
	default:
		*f = apiFlag{}
	}
	return nil
}

// searchPage is the answer of GET /search: a lookup by SIREN or SIRET or a
// page of a name search.
type searchPage struct {
	Results      []unit           `json:"results"`
	TotalResults upstream.FlexInt `json:"total_results"`
	Page         upstream.FlexInt `json:"page"`
	PerPage      upstream.FlexInt `json:"per_page"`
}

// unit is one legal unit (unité légale) of the answer.
type unit struct {
	SIREN                       text                   `json:"siren"`
	NomComplet                  text                   `json:"nom_complet"`
	NomRaisonSociale            text                   `json:"nom_raison_sociale"`
	Sigle                       text                   `json:"sigle"`
	NombreEtablissements        upstream.FlexInt       `json:"nombre_etablissements"`
	NombreEtablissementsOuverts upstream.FlexInt       `json:"nombre_etablissements_ouverts"`
	Siege                       *establishment         `json:"siege"`
	ActivitePrincipale          text                   `json:"activite_principale"`
	ActivitePrincipaleNAF25     text                   `json:"activite_principale_naf25"`
	CategorieEntreprise         text                   `json:"categorie_entreprise"`
	AnneeCategorieEntreprise    text                   `json:"annee_categorie_entreprise"`
	CaractereEmployeur          text                   `json:"caractere_employeur"`
	TrancheEffectifSalarie      text                   `json:"tranche_effectif_salarie"`
	AnneeTrancheEffectif        text                   `json:"annee_tranche_effectif_salarie"`
	DateCreation                text                   `json:"date_creation"`
	DateFermeture               text                   `json:"date_fermeture"`
	DateMiseAJourINSEE          text                   `json:"date_mise_a_jour_insee"`
	DateMiseAJourRNE            text                   `json:"date_mise_a_jour_rne"`
	Dirigeants                  []officer              `json:"dirigeants"`
	EtatAdministratif           text                   `json:"etat_administratif"`
	NatureJuridique             text                   `json:"nature_juridique"`
	StatutDiffusion             text                   `json:"statut_diffusion"`
	MatchingEtablissements      []establishment        `json:"matching_etablissements"`
	Finances                    map[string]financeYear `json:"finances"`
	Complements                 *complements           `json:"complements"`
	TVA                         []text                 `json:"tva"`
}

// establishment is an établissement: the head office (siege) or one of
// matching_etablissements.
type establishment struct {
	SIRET                  text    `json:"siret"`
	EstSiege               apiFlag `json:"est_siege"`
	EtatAdministratif      text    `json:"etat_administratif"`
	DateCreation           text    `json:"date_creation"`
	DateFermeture          text    `json:"date_fermeture"`
	ActivitePrincipale     text    `json:"activite_principale"`
	CaractereEmployeur     text    `json:"caractere_employeur"`
	TrancheEffectifSalarie text    `json:"tranche_effectif_salarie"`
	NomCommercial          text    `json:"nom_commercial"`
	Adresse                text    `json:"adresse"`
	ListeEnseignes         []text  `json:"liste_enseignes"`
	NumeroVoie             text    `json:"numero_voie"`
	DernierNumeroVoie      text    `json:"dernier_numero_voie"`
	IndiceRepetition       text    `json:"indice_repetition"`
	TypeVoie               text    `json:"type_voie"`
	LibelleVoie            text    `json:"libelle_voie"`
	ComplementAdresse      text    `json:"complement_adresse"`
	DistributionSpeciale   text    `json:"distribution_speciale"`
	CodePostal             text    `json:"code_postal"`
	LibelleCommune         text    `json:"libelle_commune"`
	Commune                text    `json:"commune"`
	Cedex                  text    `json:"cedex"`
	LibelleCedex           text    `json:"libelle_cedex"`
	LibelleCommuneEtranger text    `json:"libelle_commune_etranger"`
	CodePaysEtranger       text    `json:"code_pays_etranger"`
	LibellePaysEtranger    text    `json:"libelle_pays_etranger"`
	Departement            text    `json:"departement"`
	StatutDiffusion        text    `json:"statut_diffusion_etablissement"`
}

// officer is one of dirigeants: a natural person (nom, prenoms, birth year
// and month, qualite, nationalite) or a legal person (siren, denomination,
// qualite), told apart by type_dirigeant.
type officer struct {
	TypeDirigeant    text `json:"type_dirigeant"`
	Nom              text `json:"nom"`
	Prenoms          text `json:"prenoms"`
	AnneeDeNaissance text `json:"annee_de_naissance"`
	DateDeNaissance  text `json:"date_de_naissance"`
	Qualite          text `json:"qualite"`
	Nationalite      text `json:"nationalite"`
	SIREN            text `json:"siren"`
	Denomination     text `json:"denomination"`
}

// financeYear is one year of finances: turnover (chiffre d'affaires) and
// net result, in euros.
type financeYear struct {
	CA          upstream.FlexInt `json:"ca"`
	ResultatNet upstream.FlexInt `json:"resultat_net"`
}

// complements are the API's labels and flags of a unit.
type complements struct {
	EstEntrepreneurIndividuel apiFlag `json:"est_entrepreneur_individuel"`
	EstAssociation            apiFlag `json:"est_association"`
	EstESS                    apiFlag `json:"est_ess"`
	EstSocieteMission         apiFlag `json:"est_societe_mission"`
	EstAdministration         apiFlag `json:"est_administration"`
	IdentifiantAssociation    text    `json:"identifiant_association"`
}
