package countrytest_test

import (
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrytest"
	"github.com/companyregistry/registry/internal/leakcheck"
)

func TestMain(m *testing.M) { leakcheck.Main(m) }

// fakeAnswers is what the fake register of country XX knows.
func fakeAnswers() map[string]countrytest.Answer {
	return map[string]countrytest.Answer{
		"/api/units/1234":           {Body: []byte(`{"id":"1234","name":"ACME XX"}`)},
		"/api/units?name=acme":      {Body: []byte(`[{"id":"1234","name":"ACME XX"},{"id":"5678","name":"ACME TWO"}]`)},
		"/api/units":                {Body: []byte(`[]`)},
		"/api/units?name=not+there": {Body: []byte(`[]`)},
	}
}

// runFake runs the suite over the fake module, broken as named ("" for a
// module that keeps the contract).
func runFake(t *testing.T, broken string) {
	build := func(rt http.RoundTripper) (registry.Country, error) { return newFake(rt, broken), nil }
	countrytest.RunReplay(t, fakeAnswers(), build, countrytest.Config{
		ValidID:    "12 34",
		InvalidIDs: []string{"123", "12345", "abcd"},
		UnknownID:  "9999",
		Query:      "acme",
	})
}

// A module that keeps the contract passes.
func TestRunPassesAGoodModule(t *testing.T) {
	t.Parallel()
	runFake(t, "")
}

// brokenEnv names the way the module run by TestRunCatchesBrokenModules in
// a child process is broken.
const brokenEnv = "COUNTRYTEST_BROKEN"

// TestBrokenChild is the child of TestRunCatchesBrokenModules; it does
// nothing in a normal run.
func TestBrokenChild(t *testing.T) {
	broken := os.Getenv(brokenEnv)
	if broken == "" {
		t.Skip("runs only as the child of TestRunCatchesBrokenModules")
	}
	runFake(t, broken)
}

// Each way of breaking the contract makes the suite fail, naming the part.
// The suite runs in a child process, since a failing *testing.T cannot be
// caught in-process.
func TestRunCatchesBrokenModules(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts child processes")
	}
	for broken, want := range map[string]string{
		"validate":         "does not validate to itself",
		"normalize":        "Validate says valid false",
		"notfound":         "is not a *registry.Error",
		"limit":            "want at most 1",
		"deadlines-nil":    "deadlines or notes is nil",
		"deadlines-mutate": "changed the report it was given",
		"rules":            "level-one Markdown heading",
	} {
		t.Run(broken, func(t *testing.T) {
			t.Parallel()
			cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestBrokenChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), brokenEnv+"="+broken)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the suite passed a module broken by %q:\n%s", broken, out)
			}
			if !strings.Contains(string(out), want) {
				t.Errorf("the failure of a module broken by %q does not say %q:\n%s", broken, want, out)
			}
		})
	}
}
