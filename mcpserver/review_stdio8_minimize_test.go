package mcpserver_test

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// reviewMinimizeChild marks the run of this test binary that
// TestReview_MinimizeFewerLeaksIntoOtherFuzzTargets starts.
const reviewMinimizeChild = "REVIEW_STDIO8_MINIMIZE_CHILD"

// TestReview_MinimizeFewerLeaksIntoOtherFuzzTargets (rev-stdio8):
// `go test -fuzz '^FuzzIDKey$' ./mcpserver` (no -run, as go help testflag
// shows it) first runs the seed corpus of every fuzz target in the same
// process, FuzzStdioMatchesSDK's too, whose minimizeFewer sets the
// process-wide -test.fuzzminimizetime to 50x; the coordinator then reads
// it for FuzzIDKey, a cheap target, whose new and failing inputs get 50
// minimizing tries instead of Go's 60 s. The flag is set in a child run of
// this binary, so this process's flags stay as given. Fix (suggested):
// minimizeFewer sets it only when -test.fuzz names FuzzStdioMatchesSDK.
func TestReview_MinimizeFewerLeaksIntoOtherFuzzTargets(t *testing.T) {
	if os.Getenv(reviewMinimizeChild) == "1" {
		fz := flag.Lookup("test.fuzz")
		old := fz.Value.String()
		// As the command line -test.fuzz '^FuzzIDKey$'; put back before
		// this child would start fuzzing.
		if err := flag.Set("test.fuzz", "^FuzzIDKey$"); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = flag.Set("test.fuzz", old) }()
		minimizeFewer(new(testing.F)) // FuzzStdioMatchesSDK's seed run, first thing
		fmt.Printf("fuzzminimizetime=%s\n", flag.Lookup("test.fuzzminimizetime").Value)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReview_MinimizeFewerLeaksIntoOtherFuzzTargets$", "-test.count=1")
	cmd.Env = append(os.Environ(), reviewMinimizeChild+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var got []string
	for l := range strings.Lines(string(out)) {
		if strings.HasPrefix(l, "fuzzminimizetime=") {
			got = append(got, strings.TrimSpace(l))
		}
	}
	want := []string{"fuzzminimizetime=1m0s"} // Go's default, for FuzzIDKey
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-test.fuzzminimizetime the coordinator reads for FuzzIDKey (-want +got):\n%s", diff)
	}
}
