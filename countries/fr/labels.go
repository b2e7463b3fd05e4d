package fr

import (
	_ "embed"
	"encoding/json"
	"html"
	"strings"
)

// The API's own label tables (search-api@7cc364f, app/labels), embedded
// verbatim: the INSEE legal categories (catégories juridiques, niveau III),
// the NAF rév. 2 activity codes and the headcount bands. labels/SOURCES.md
// says where each comes from. They are read once, when the package is
// loaded, and never written afterwards.
var (
	//go:embed labels/natures-juridiques.json
	naturesJuridiquesJSON []byte
	//go:embed labels/codes-naf.json
	codesNAFJSON []byte
	//go:embed labels/tranches-effectifs.json
	tranchesEffectifsJSON []byte
)

// loadLabels decodes one embedded code-to-label table and cleans its
// labels: the tables carry trailing spaces and &nbsp; entities.
func loadLabels(b []byte) map[string]string {
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		// The tables are part of the source tree and tested.
		panic("countries/fr: an embedded label table is not valid JSON: " + err.Error())
	}
	for k, v := range m {
		m[k] = cleanLabel(v)
	}
	return m
}

// cleanLabel unescapes HTML entities, turns no-break spaces into spaces and
// collapses runs of spaces.
func cleanLabel(s string) string {
	s = strings.ReplaceAll(html.UnescapeString(s), "\u00a0", " ")
	return strings.Join(strings.Fields(s), " ")
}

// Label tables: INSEE legal category, NAF rév. 2 code and headcount band to
// their French labels.
var (
	natureLabels  = loadLabels(naturesJuridiquesJSON)
	nafLabels     = loadLabels(codesNAFJSON)
	trancheLabels = loadLabels(tranchesEffectifsJSON)
)
