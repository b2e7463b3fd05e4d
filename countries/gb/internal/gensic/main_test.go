package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGeneratedFileIsCurrent: sic_descriptions.go is what go generate
// writes from the committed constants.yml.
func TestGeneratedFileIsCurrent(t *testing.T) {
	t.Parallel()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "enumerations", "constants.yml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := generate(f)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "sic_descriptions.go"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("sic_descriptions.go is stale; run go generate ./countries/gb (-file +generated):\n%s", diff)
	}
}
