package restserver_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/apitoken"
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/internal/memstore"
	"github.com/companyregistry/registry/restserver"
)

// TestRotateWatchSecretOverHTTP: POST /v1/watches/{id}/secret with no
// body or {} answers 200 with the new secret and the old one's end, as
// /openapi.json documents it, never cached; a test event after two
// rotations carries the signatures of the three secrets, the newest
// first, each verified by its secret (the created one signs until its
// own end). Another
// token's watch and an unknown id are 404; a body with members, or not an
// object, is 400. No secret reaches the access log.
func TestRotateWatchSecretOverHTTP(t *testing.T) {
	t.Parallel()
	h := newChangeHarness(t, bothTokens())
	type hook struct {
		header http.Header
		body   []byte
	}
	hooks := make(chan hook, 8)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		hooks <- hook{r.Header.Clone(), b}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()
	res := h.call(t, "POST", "/v1/watches", erpToken, `{"country":"ZZ","ids":["123456"],"url":"`+receiver.URL+`/hook"}`)
	if res.status != 201 {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	created := decode(t, res.body)
	id, secrets := created["id"].(string), []string{created["secret"].(string)}

	for _, body := range []string{"", "{}"} {
		res = h.call(t, "POST", "/v1/watches/"+id+"/secret", erpToken, body)
		h.checkDoc(t, "POST", "/v1/watches/{id}/secret", res)
		if res.status != 200 || res.header.Get("Cache-Control") != "no-store" {
			t.Fatalf("rotate with body %q: %d %q %s", body, res.status, res.header.Get("Cache-Control"), res.body)
		}
		secret, _ := decode(t, res.body)["secret"].(string)
		want := `{"watch_id":"` + id + `","secret":"` + secret + `","previous_secret_expires_at":"2026-01-16T09:00:00Z"}`
		if diff := cmp.Diff(want, string(res.body)); diff != "" {
			t.Errorf("rotate with body %q (-want +got):\n%s", body, diff)
		}
		secrets = append(secrets, secret)
	}

	res = h.call(t, "POST", "/v1/watches/"+id+"/test", erpToken, "")
	if res.status != 200 {
		t.Fatalf("test event: %d %s", res.status, res.body)
	}
	got := <-hooks
	verified := make([]bool, len(secrets))
	for i, s := range secrets {
		verified[i] = webhook.Verify(s, got.header, got.body, h.clock.Now()) == nil
	}
	if diff := cmp.Diff([]any{3, []bool{true, true, true}},
		[]any{len(strings.Fields(got.header.Get(webhook.HeaderSignature))), verified}); diff != "" {
		t.Errorf("the test event's signatures, and which of the created, first and second secrets verify it (-want +got):\n%s", diff)
	}

	type answer struct {
		Status int
		Code   registry.Code
	}
	answers := map[string]answer{}
	for name, c := range map[string][3]string{
		"another token's watch":    {"/v1/watches/" + id + "/secret", crmToken, ""},
		"an unknown watch":         {"/v1/watches/wch_nothere/secret", erpToken, ""},
		"a body with a member":     {"/v1/watches/" + id + "/secret", erpToken, `{"secret":"whsec_mine"}`},
		"a body that is no object": {"/v1/watches/" + id + "/secret", erpToken, `[]`},
	} {
		res := h.call(t, "POST", c[0], c[1], c[2])
		h.checkDoc(t, "POST", "/v1/watches/{id}/secret", res)
		answers[name] = answer{res.status, errorOf(t, res.body).Code}
	}
	if diff := cmp.Diff(map[string]answer{
		"another token's watch":    {404, registry.CodeNotFound},
		"an unknown watch":         {404, registry.CodeNotFound},
		"a body with a member":     {400, registry.CodeBadRequest},
		"a body that is no object": {400, registry.CodeBadRequest},
	}, answers); diff != "" {
		t.Errorf("refusals (-want +got):\n%s", diff)
	}
	logs := h.logs.String()
	for _, s := range secrets {
		if strings.Contains(logs, strings.TrimPrefix(s, webhook.SecretPrefix)) {
			t.Errorf("the access log holds a secret:\n%s", logs)
		}
	}
}

// rotationless is a Store without changes.SecretRotator.
type rotationless struct{ changes.Store }

// TestRotateWatchSecretNotImplemented: over a store that cannot rotate,
// the route is 501 not_implemented with the usual envelope, documented in
// /openapi.json; the watch's other routes work.
func TestRotateWatchSecretNotImplemented(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	reg := newRegistry(t, clock)
	svc, err := changes.NewService(changes.ServiceConfig{Store: rotationless{memstore.New(clock.Now)}, Fetcher: snapFetcher{clock.Now},
		Registry: reg, Policy: webhook.Policy{AllowPrivate: true}, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	set, err := apitoken.Parse(bothTokens())
	if err != nil {
		t.Fatal(err)
	}
	h := &changeHarness{harness: newHarnessWith(t, reg, clock, restserver.WithRateLimit(0), restserver.WithChanges(svc, set)), svc: svc}
	res := h.call(t, "POST", "/v1/watches", erpToken, `{"country":"ZZ","ids":["123456"],"url":"https://93.184.216.34/hook"}`)
	if res.status != 201 {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	id := decode(t, res.body)["id"].(string)
	res = h.call(t, "POST", "/v1/watches/"+id+"/secret", erpToken, "")
	h.checkDoc(t, "POST", "/v1/watches/{id}/secret", res)
	e := errorOf(t, res.body)
	if diff := cmp.Diff([]any{501, registry.CodeNotImplemented, "This deployment's store cannot rotate a watch's secret."},
		[]any{res.status, e.Code, e.Message}); diff != "" {
		t.Errorf("rotation over a store without SecretRotator (-want +got):\n%s", diff)
	}
	if res := h.call(t, "GET", "/v1/watches/"+id, erpToken, ""); res.status != 200 {
		t.Errorf("get: %d %s", res.status, res.body)
	}
}
