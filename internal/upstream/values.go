package upstream

import (
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// Tri is a yes/no answer that may be unknown, as the legal form tables of
// the modules keep it: without pointers, so that no report shares memory
// with a table. The zero value is [Unknown].
type Tri int8

// The three answers of a [Tri].
const (
	Unknown Tri = iota
	Yes
	No
)

// String returns "yes", "no" or "unknown", as the modules' rules documents
// write a table's answer.
func (t Tri) String() string {
	switch t {
	case Yes:
		return "yes"
	case No:
		return "no"
	}
	return "unknown"
}

// Ptr returns the answer as a fresh *bool, nil for [Unknown].
func (t Tri) Ptr() *bool {
	switch t {
	case Yes:
		return countrykit.Ptr(true)
	case No:
		return countrykit.Ptr(false)
	}
	return nil
}

// CloneBool returns a fresh copy of an optional flag decoded from a
// register, so that a report never shares memory with the decoded answer.
func CloneBool(b *bool) *bool {
	if b == nil {
		return nil
	}
	return countrykit.Ptr(*b)
}

// Date parses an optional date decoded from a register: a real YYYY-MM-DD
// date, with surrounding space ignored. Anything else, including "", is
// nil.
func Date(s string) *registry.Date {
	d, err := registry.ParseDate(strings.TrimSpace(s))
	if err != nil {
		return nil
	}
	return &d
}
