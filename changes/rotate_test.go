package changes_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/webhook"
)

// testEndpoint is a receiver of test events that answers 204 and hands
// each request over.
func testEndpoint(t *testing.T) (*httptest.Server, <-chan *http.Request, <-chan []byte) {
	t.Helper()
	reqs, bodies := make(chan *http.Request, 8), make(chan []byte, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		reqs <- r
		bodies <- b
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	return srv, reqs, bodies
}

// verifiedBy sends a test event of the watch and reports which of
// secrets verify it (by their index) and how many signatures it carries.
func verifiedBy(t *testing.T, f *fixture, id string, reqs <-chan *http.Request, bodies <-chan []byte, secrets ...string) (int, []bool) {
	t.Helper()
	res, err := f.svc.TestWatch(context.Background(), owner, id)
	if err != nil || !res.Delivered {
		t.Fatalf("TestWatch = %+v, %v", res, err)
	}
	r, body := <-reqs, <-bodies
	out := make([]bool, len(secrets))
	for i, s := range secrets {
		out[i] = webhook.Verify(s, r.Header, body, f.clock.Now()) == nil
	}
	return len(strings.Fields(r.Header.Get(webhook.HeaderSignature))), out
}

// TestRotateSecret: a rotation answers the watch's id, a new secret and
// the old secret's end (now + 24 h) in that order; the test event carries
// both signatures until that end, each verified by its secret, and only
// the new one's from it on.
func TestRotateSecret(t *testing.T) {
	t.Parallel()
	srv, reqs, bodies := testEndpoint(t)
	f := newFixture(t, func(c *changes.ServiceConfig) { c.Policy = webhook.Policy{AllowPrivate: true} })
	w := create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: srv.URL + "/hook"})
	f.clock.Advance(time.Hour)
	rot, err := f.svc.RotateSecret(context.Background(), owner, w.Watch.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := webhook.ParseSecret(rot.Secret); err != nil || !strings.HasPrefix(rot.Secret, webhook.SecretPrefix) || rot.Secret == w.Secret {
		t.Fatalf("the new secret is not a new whsec_ secret (%v)", err)
	}
	b, err := json.Marshal(rot)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"watch_id":"` + w.Watch.ID + `","secret":"` + rot.Secret + `","previous_secret_expires_at":"2026-01-16T10:00:00Z"}`
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("the answer (-want +got):\n%s", diff)
	}

	type event struct {
		Signatures int
		Verified   []bool // by the old secret, the new one
	}
	var got []event
	n, v := verifiedBy(t, f, w.Watch.ID, reqs, bodies, w.Secret, rot.Secret)
	got = append(got, event{n, v})
	f.clock.Advance(24*time.Hour - time.Second)
	n, v = verifiedBy(t, f, w.Watch.ID, reqs, bodies, w.Secret, rot.Secret)
	got = append(got, event{n, v})
	f.clock.Advance(time.Second)
	n, v = verifiedBy(t, f, w.Watch.ID, reqs, bodies, w.Secret, rot.Secret)
	got = append(got, event{n, v})
	wantEvents := []event{{2, []bool{true, true}}, {2, []bool{true, true}}, {1, []bool{false, true}}}
	if diff := cmp.Diff(wantEvents, got); diff != "" {
		t.Errorf("test events after the rotation, at once, a second before the old secret's end, at it (-want +got):\n%s", diff)
	}
}

// TestRotateSecretAnswerLost: a caller whose rotation answer was lost
// rotates again a minute later; its receiver still holds the watch's
// original secret, which keeps verifying every webhook until its own end
// (the first rotation's time + 24 h), beside both new secrets; from that
// end on it does not, and the first rotation's secret stops at its own
// end, a minute later. (Main's store of two keys dropped the original at
// the second rotation: one of the three did not verify at once.)
func TestRotateSecretAnswerLost(t *testing.T) {
	t.Parallel()
	srv, reqs, bodies := testEndpoint(t)
	f := newFixture(t, func(c *changes.ServiceConfig) { c.Policy = webhook.Policy{AllowPrivate: true} })
	w := create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: srv.URL + "/hook"})
	lost, err := f.svc.RotateSecret(context.Background(), owner, w.Watch.ID)
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(time.Minute)
	again, err := f.svc.RotateSecret(context.Background(), owner, w.Watch.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]time.Time{t0.Add(24 * time.Hour), t0.Add(24*time.Hour + time.Minute)},
		[]time.Time{lost.PreviousSecretExpiresAt, again.PreviousSecretExpiresAt}); diff != "" {
		t.Errorf("the ends the two answers give (-want +got):\n%s", diff)
	}
	type event struct {
		Signatures int
		Verified   []bool // by the original secret, the lost answer's, the second answer's
	}
	var got []event
	for _, step := range []time.Duration{0, 24*time.Hour - time.Minute - time.Second, time.Second, time.Minute} {
		f.clock.Advance(step)
		n, v := verifiedBy(t, f, w.Watch.ID, reqs, bodies, w.Secret, lost.Secret, again.Secret)
		got = append(got, event{n, v})
	}
	want := []event{
		{3, []bool{true, true, true}},
		{3, []bool{true, true, true}},
		{2, []bool{false, true, true}},
		{1, []bool{false, false, true}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("test events after the second rotation, at once, a second before the original's end, at it, at the lost "+
			"answer's end (-want +got):\n%s", diff)
	}
}

// TestRotateSecretThreeTimes: a third rotation within the overlap keeps
// the two secrets replaced last, each until its own end, and drops the
// original at once: a watch keeps changes.MaxPreviousSecrets replaced
// secrets.
func TestRotateSecretThreeTimes(t *testing.T) {
	t.Parallel()
	srv, reqs, bodies := testEndpoint(t)
	f := newFixture(t, func(c *changes.ServiceConfig) {
		c.Policy = webhook.Policy{AllowPrivate: true}
		c.SecretOverlap = 2 * time.Hour
	})
	w := create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: srv.URL + "/hook"})
	secrets, ends := []string{w.Secret}, []time.Time{}
	for i := range 3 {
		if i > 0 {
			f.clock.Advance(30 * time.Minute)
		}
		rot, err := f.svc.RotateSecret(context.Background(), owner, w.Watch.ID)
		if err != nil {
			t.Fatal(err)
		}
		secrets, ends = append(secrets, rot.Secret), append(ends, rot.PreviousSecretExpiresAt)
	}
	if diff := cmp.Diff([]time.Time{t0.Add(2 * time.Hour), t0.Add(150 * time.Minute), t0.Add(3 * time.Hour)}, ends); diff != "" {
		t.Errorf("the ends of the replaced secrets with a 2 h overlap (-want +got):\n%s", diff)
	}
	n, v := verifiedBy(t, f, w.Watch.ID, reqs, bodies, secrets...)
	if diff := cmp.Diff([]any{3, []bool{false, true, true, true}}, []any{n, v}); diff != "" {
		t.Errorf("signatures and the secrets that verify (created, first, second, third) (-want +got):\n%s", diff)
	}
}

// rotationless is a Store without changes.SecretRotator, as a user's own
// may be.
type rotationless struct{ changes.Store }

// TestRotateSecretRefusals: another owner's watch and an unknown id are
// not_found, as for the other watch methods; a store that cannot rotate
// is not_implemented, and its watches keep signing with their one secret.
// No error holds a secret.
func TestRotateSecretRefusals(t *testing.T) {
	t.Parallel()
	srv, reqs, bodies := testEndpoint(t)
	f := newFixture(t, func(c *changes.ServiceConfig) { c.Policy = webhook.Policy{AllowPrivate: true} })
	w := create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: srv.URL + "/hook"})
	ctx := context.Background()
	type answer struct {
		Code    registry.Code
		Message string
	}
	got := map[string]answer{}
	for name, call := range map[string]func() error{
		"another owner's watch": func() error { _, err := f.svc.RotateSecret(ctx, "other", w.Watch.ID); return err },
		"an unknown watch":      func() error { _, err := f.svc.RotateSecret(ctx, owner, "wch_nothere"); return err },
	} {
		e := asError(t, call())
		got[name] = answer{e.Code, e.Message}
	}
	plain, err := changes.NewService(changes.ServiceConfig{Store: rotationless{f.store}, Fetcher: f.fetcher, Registry: f.reg,
		Now: f.clock.Now, Policy: webhook.Policy{AllowPrivate: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	_, err = plain.RotateSecret(ctx, owner, w.Watch.ID)
	e := asError(t, err)
	got["a store without SecretRotator"] = answer{e.Code, e.Message}
	want := map[string]answer{
		"another owner's watch":         {registry.CodeNotFound, "There is no watch with this id."},
		"an unknown watch":              {registry.CodeNotFound, "There is no watch with this id."},
		"a store without SecretRotator": {registry.CodeNotImplemented, "This deployment's store cannot rotate a watch's secret."},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("refusals (-want +got):\n%s", diff)
	}
	if e.HTTPStatus() != http.StatusNotImplemented || strings.Contains(e.Error()+e.Hint, "whsec_") {
		t.Errorf("not_implemented: status %d, %q", e.HTTPStatus(), e.Error()+e.Hint)
	}
	// The plain store's service signs test events with the one secret.
	res, err := plain.TestWatch(ctx, owner, w.Watch.ID)
	if err != nil || !res.Delivered {
		t.Fatalf("TestWatch over a store without rotation = %+v, %v", res, err)
	}
	r, body := <-reqs, <-bodies
	if err := webhook.Verify(w.Secret, r.Header, body, f.clock.Now()); err != nil || len(strings.Fields(r.Header.Get(webhook.HeaderSignature))) != 1 {
		t.Errorf("a test event over a store without rotation: %v, %q", err, r.Header.Get(webhook.HeaderSignature))
	}
	if _, err := changes.NewService(changes.ServiceConfig{Store: f.store, Fetcher: f.fetcher, Registry: f.reg, SecretOverlap: -time.Hour}); err == nil {
		t.Error("a negative SecretOverlap was accepted")
	}
}

// TestParseRotateRequest: no body, white space or {} are a rotation; any
// other body is bad_request.
func TestParseRotateRequest(t *testing.T) {
	t.Parallel()
	got := map[string]string{}
	blankTooLong := strings.Repeat(" ", changes.MaxRequestBytes+1) // the size is judged before the blankness
	for _, body := range []string{"", " \n", "{}", " { } ", `{"secret":"whsec_x"}`, `[]`, `null`, `{`, `"x"`, blankTooLong} {
		err := changes.ParseRotateRequest([]byte(body))
		if err == nil {
			got[body] = "ok"
			continue
		}
		e := asError(t, err)
		got[body] = string(e.Code) + ": " + e.Message
	}
	want := map[string]string{
		"": "ok", " \n": "ok", "{}": "ok", " { } ": "ok",
		`{"secret":"whsec_x"}`: `bad_request: The body has a member "secret"; a rotation takes none.`,
		`[]`:                   "bad_request: The body is not a JSON object.",
		`null`:                 "bad_request: The body is not a JSON object.",
		`{`:                    "bad_request: The body is not a JSON object.",
		`"x"`:                  "bad_request: The body is not a JSON object.",
		blankTooLong:           fmt.Sprintf("bad_request: The body is larger than %d bytes.", changes.MaxRequestBytes),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseRotateRequest (-want +got):\n%s", diff)
	}
}

// TestRotateSecretExpiryToTheMicrosecond: the answer's end of the old
// secret is to the microsecond, as the SQL stores keep it, so that the old
// secret does not stop signing up to a microsecond before the time the
// caller was told (rev-rotate13).
func TestRotateSecretExpiryToTheMicrosecond(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := create(t, f, changes.WatchRequest{Country: "NO", IDs: []string{equinor}, URL: "https://hooks.example.com/a"})
	f.clock.Advance(time.Hour + 1500*time.Nanosecond)
	rot, err := f.svc.RotateSecret(context.Background(), owner, w.Watch.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := t0.Add(25*time.Hour + time.Microsecond)
	if !rot.PreviousSecretExpiresAt.Equal(want) {
		t.Errorf("previous_secret_expires_at %s, want %s", rot.PreviousSecretExpiresAt.Format(time.RFC3339Nano), want.Format(time.RFC3339Nano))
	}
	keys, err := f.store.WatchKeys(context.Background(), owner, w.Watch.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys.Previous) != 1 || !keys.Previous[0].Until.Equal(want) {
		t.Errorf("the store keeps %+v, want one previous key until %s", keys.Previous, want.Format(time.RFC3339Nano))
	}
}
