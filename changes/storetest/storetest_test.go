package storetest_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/storetest"
)

// TestRunSomeRefusesUnknownName: a name that is no check's fails the
// test, and no store is opened for it (a renamed check was once skipped in
// silence). RunSome fails its *testing.T, so it runs in a child process of
// this test binary.
func TestRunSomeRefusesUnknownName(t *testing.T) {
	if os.Getenv("STORETEST_RUNSOME_CHILD") == "1" {
		storetest.RunSome(t, func(t *testing.T) changes.Store {
			t.Fatal("a store was opened")
			return nil
		}, "NoSuchCheck")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRunSomeRefusesUnknownName$", "-test.v")
	cmd.Env = append(os.Environ(), "STORETEST_RUNSOME_CHILD=1")
	out, err := cmd.CombinedOutput()
	got := map[string]bool{
		"child failed":    err != nil,
		"names the check": strings.Contains(string(out), `storetest: no check named "NoSuchCheck"`),
		"opened a store":  strings.Contains(string(out), "a store was opened"),
	}
	want := map[string]bool{"child failed": true, "names the check": true, "opened a store": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RunSome with an unknown name (-want +got):\n%s\n%s", diff, out)
	}
}
