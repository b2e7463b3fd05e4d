package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGeneratedFilesAreCurrent: each generated file of package gb is what
// go generate writes from the committed YAML, with the same flags as the
// generate directives in gb.go.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in, out string
		tables  tables
	}{
		{"testdata/enumerations/constants.yml", "sic_descriptions.go", sicTables()},
		{"testdata/enumerations/psc_descriptions.yml", "psc_descriptions.go", pscTables()},
	} {
		f, err := os.Open(filepath.Join("..", "..", tt.in))
		if err != nil {
			t.Fatal(err)
		}
		got, err := generate(f, tt.in, tt.tables)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", tt.out))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s is stale; run go generate ./countries/gb (-file +generated):\n%s", tt.out, diff)
		}
	}
}
