// Package countrykit holds the small helpers that authors of country
// modules use to build the documents of package registry: pointers for the
// nullable fields and constructors that set the interface's defaults.
//
// Users of a [registry.Registry] do not need this package; it exists for
// the packages under countries/ and for modules written outside this
// repository. The conformance suite that every module should pass is
// package countrytest.
package countrykit

import registry "github.com/companyregistry/registry"

// Ptr returns a pointer to v, for filling the nullable fields of the
// documents.
func Ptr[T any](v T) *T { return &v }

// StringOrNil returns nil for the empty string and a pointer to s otherwise,
// so that unknown text is null on the wire, never "".
func StringOrNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// HitConfidence is the default confidence of a search hit before the
// Registry scores it against the query.
const HitConfidence = 0.5

// NewReport returns a company report with the interface's defaults: status
// unknown, confidence 1.0 (an exact identifier lookup) and empty lists and
// maps.
func NewReport(country, registrySlug, id, name string) *registry.CompanyReport {
	return &registry.CompanyReport{
		Country:            country,
		Registry:           registrySlug,
		ID:                 id,
		Name:               name,
		PreviousNames:      []string{},
		Status:             registry.StatusUnknown,
		Registers:          map[string]bool{},
		IndustryCodes:      []registry.IndustryCode{},
		PublishedDeadlines: []registry.PublishedDeadline{},
		Confidence:         1.0,
		Notes:              []string{},
	}
}

// NewHit returns a search hit with the interface's defaults: status unknown
// and confidence [HitConfidence]. The Registry replaces the confidence with
// its score against the query.
func NewHit(country, registrySlug, id, name string) registry.SearchHit {
	return registry.SearchHit{
		Country:    country,
		Registry:   registrySlug,
		ID:         id,
		Name:       name,
		Status:     registry.StatusUnknown,
		Confidence: HitConfidence,
	}
}
