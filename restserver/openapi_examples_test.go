package restserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries"
	"github.com/companyregistry/registry/internal/catalog"
	"github.com/companyregistry/registry/internal/moduletest"
	"github.com/companyregistry/registry/restserver"
)

// exampleBase is the public URL of the deployment whose answers are the
// examples of /openapi.json.
const exampleBase = "https://registry.example.com"

// exampleUpstreams are the e2e register answers and, for the examples,
// the roles of Equinor and Nokia's record at PRH.
func exampleUpstreams(t *testing.T) *httpmock.MockTransport {
	t.Helper()
	mt := newUpstreams(t)
	mt.RegisterResponder("GET", brregBase+"/enheter/923609016/roller", jsonResponder(t, 200, "brreg_roller_923609016_anonymised.json"))
	mt.RegisterResponderWithQuery("GET", "https://avoindata.prh.fi/opendata-ytj-api/v3/companies", "businessId=0112038-9",
		jsonResponder(t, 200, "prh_companies_0112038-9.json"))
	return mt
}

// panicking is a module whose lookups hit a defect: the Registry answers
// them internal_error.
type panicking struct{ registry.Country }

func (panicking) Lookup(context.Context, string) (*registry.CompanyReport, error) {
	panic("a defect")
}

// exampleHarness is the deployment of the examples: the real modules over
// the recorded answers, the library's version, no client rate limit and a
// fixed public URL, with timeout as the Registry's per-attempt upstream
// timeout (roomyTimeout, or hangTimeout for a harness whose every upstream
// request hangs). With broken set, Norway's module panics.
func exampleHarness(t *testing.T, broken bool, timeout time.Duration) *harness {
	t.Helper()
	clock := newFakeClock()
	cs, err := countries.All(countries.Config{BrregBaseURL: brregBase, CompaniesHouseBaseURL: chBase, CompaniesHouseAPIKey: chKey,
		HTTPClient: &http.Client{Transport: exampleUpstreams(t)}})
	if err != nil {
		t.Fatal(err)
	}
	if broken {
		for i, c := range cs {
			if c.Info().Country == "NO" {
				cs[i] = panicking{c}
			}
		}
	}
	reg, err := registry.New(cs, registry.WithClock(clock.Now), registry.WithUpstreamTimeout(timeout),
		registry.WithRetryPause(0))
	if err != nil {
		t.Fatal(err)
	}
	return newHarnessWith(t, reg, clock, restserver.WithRateLimit(0), restserver.WithPublicURL(exampleBase))
}

// errorRequests are the requests whose answers are the error examples, by
// code: each from a real module over a recorded register answer (see
// newUpstreams), but internal_error, which is a module's defect.
var errorRequests = map[registry.Code]string{
	registry.CodeInvalidID:          "/v1/NO/company/923609017",
	registry.CodeBadRequest:         "/v1/NO/search?q=equinor&limit=0",
	registry.CodeNotFound:           "/v1/NO/company/100000008",
	registry.CodeUnsupportedCountry: "/v1/UK/company/08957400",
	registry.CodeRateLimited:        "/v1/NO/company/982463718",
	registry.CodeNotImplemented:     "/v1/FI/company/01120389/roles",
	registry.CodeUpstreamError:      "/v1/NO/company/974760673",
	registry.CodeUpstreamTimeout:    "/v1/NO/company/971524960",
	registry.CodeInternalError:      "/v1/NO/company/923609016",
}

// exampleBody returns what an example file holds of an answer: JSON
// indented, text as it is; of /llms-full.txt the part before the
// countries' rules, which are long and are the rules resources' own.
func exampleBody(t *testing.T, op catalog.Operation, body []byte) []byte {
	t.Helper()
	switch {
	case op.MediaType() == "application/json":
		var buf bytes.Buffer
		if err := json.Indent(&buf, body, "", "  "); err != nil {
			t.Fatalf("%s: %v", op.Name, err)
		}
		buf.WriteByte('\n')
		return buf.Bytes()
	case op.Name == "llmsFullTxt":
		head, _, ok := bytes.Cut(body, []byte("\n## 7. Countries"))
		if !ok {
			t.Fatalf("llms-full.txt has no countries section")
		}
		return append(head, '\n')
	}
	return body
}

// TestOpenAPIExamplesAreRealAnswers: every example of /openapi.json is the
// answer the service gives today: the 200 of each operation's example
// request and one envelope per error code. Run with -update to record them
// again.
func TestOpenAPIExamplesAreRealAnswers(t *testing.T) {
	t.Parallel()
	h := exampleHarness(t, false, roomyTimeout)
	for _, op := range catalog.Operations() {
		if op.ExamplePath == "" {
			continue
		}
		var res response
		if op.Method == http.MethodPost {
			res = h.post(t, op.ExamplePath, op.BodyExample)
		} else {
			res = h.get(t, op.ExamplePath)
		}
		if res.status != http.StatusOK {
			t.Errorf("%s %s: %d\n%s", op.Method, op.ExamplePath, res.status, res.body)
			continue
		}
		moduletest.Golden(t, "../internal/catalog/"+op.ExampleFile(), exampleBody(t, op, res.body), *update)
	}
	// Change monitoring's, from its scenario over the real store.
	recorded := changeExamples(t)
	for _, op := range catalog.ChangeOperations() {
		if op.ExamplePath == "" {
			if op.SuccessStatus() != http.StatusNoContent {
				t.Errorf("%s has no example request", op.Name)
			}
			continue
		}
		moduletest.Golden(t, "../internal/catalog/"+op.ExampleFile(), exampleBody(t, op, recorded[op.Name].body), *update)
	}
	moduletest.Golden(t, "../internal/catalog/"+catalog.WebhookExampleFile,
		exampleBody(t, catalog.Operation{Name: "webhook"}, recorded["webhook"].body), *update)
	changeErrors := changeErrorExamples(t)
	envelope := catalog.Operation{Name: "error", ContentType: ""}
	for _, c := range catalog.ErrorCodes() {
		path, ok := errorRequests[c]
		res, changeCode := changeErrors[c]
		if !ok && !changeCode {
			t.Errorf("no example request for error code %s", c)
			continue
		}
		eh := h
		switch c {
		case registry.CodeInternalError:
			eh = exampleHarness(t, true, roomyTimeout)
		case registry.CodeUpstreamTimeout:
			// The register that never answers, alone in a harness whose
			// short timeout ends its attempts: in h, that timeout would
			// also bound the answers, which a loaded machine can exceed.
			eh = exampleHarness(t, false, hangTimeout)
		}
		if !changeCode {
			res = eh.get(t, path)
		}
		if e := errorOf(t, res.body); e.Code != c || res.status != c.HTTPStatus() {
			t.Errorf("%s: %d %s, want %d %s", c, res.status, e.Code, c.HTTPStatus(), c)
			continue
		}
		moduletest.Golden(t, "../internal/catalog/"+catalog.ErrorExampleFile(c), exampleBody(t, envelope, res.body), *update)
	}
	if t.Failed() && !*update {
		t.Log("the service's answers changed: if the change is meant, record the examples with -update")
	}
}
