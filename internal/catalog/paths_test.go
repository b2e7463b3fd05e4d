package catalog_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/catalog"
)

// TestEmptyIDPath (doors12 item 2): the spellings of an operation on one
// company with an empty identifier, unescaped; a dot segment, a bad
// escape, an identifier, nothing after the identifier or an empty country
// is not one.
func TestEmptyIDPath(t *testing.T) {
	t.Parallel()
	type result struct {
		Country, Op string
		OK          bool
	}
	got := map[string]result{}
	paths := []string{
		"NO/company//roles", "NO/company///roles", "N%4F/%63ompany//%72oles", "NO/company//roles/", "NO/company//deadlines.ics",
		"NO/company/923609016/roles", "NO/company//", "NO/company//./roles", "NO/company//../roles", "NO/company//%zz",
		"./company//roles", "/company//roles", "NO/firm//roles", "NO/company", "NO",
	}
	for _, p := range paths {
		c, op, ok := catalog.EmptyIDPath(p)
		got[p] = result{c, op, ok}
	}
	want := map[string]result{
		"NO/company//roles":          {"NO", "roles", true},
		"NO/company///roles":         {"NO", "roles", true},
		"N%4F/%63ompany//%72oles":    {"NO", "roles", true},
		"NO/company//roles/":         {"NO", "roles/", true},
		"NO/company//deadlines.ics":  {"NO", "deadlines.ics", true},
		"NO/company/923609016/roles": {},
		"NO/company//":               {},
		"NO/company//./roles":        {},
		"NO/company//../roles":       {},
		"NO/company//%zz":            {},
		"./company//roles":           {},
		"/company//roles":            {},
		"NO/firm//roles":             {},
		"NO/company":                 {},
		"NO":                         {},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("EmptyIDPath (-want +got):\n%s", diff)
	}
}
