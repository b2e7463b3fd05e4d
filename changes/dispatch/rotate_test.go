package dispatch_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/dispatch"
	"github.com/companyregistry/registry/changes/webhook"
)

// newSecret is the secret a rotation gives the fixture's watch.
const newSecret = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="

// slowClaims is a store whose claims take two seconds of the fake clock,
// as a claim followed by a wait for a free connection might.
type slowClaims struct {
	changes.Store
	f **fixture // set once the fixture is built
}

func (s slowClaims) ClaimDeliveries(ctx context.Context, worker string, now time.Time, n int, lease time.Duration) ([]changes.Claim, error) {
	out, err := s.Store.ClaimDeliveries(ctx, worker, now, n, lease)
	(*s.f).clock.Advance(2 * time.Second)
	return out, err
}

// TestDeliverSignedWithPreviousKey: after a rotation, a delivery carries
// the new secret's signature then the old one's, and the receiver
// verifies it with either; from the old secret's end on, only the new
// secret signs. The end is judged when the webhook is sent: a delivery
// claimed a second before the end and sent a second after it carries one
// signature.
func TestDeliverSignedWithPreviousKey(t *testing.T) {
	t.Parallel()
	var f *fixture
	f = newFixture(t, false, func(c *dispatch.Config) { c.Store = slowClaims{Store: c.Store, f: &f} })
	newKey, err := webhook.ParseSecret(newSecret)
	if err != nil {
		t.Fatal(err)
	}
	until := t0.Add(24 * time.Hour)
	if err := f.store.RotateSecret(context.Background(), "acme", f.watch.ID, newKey, t0, until); err != nil {
		t.Fatal(err)
	}
	type seen struct {
		Signatures int
		Verified   map[string]bool
	}
	send := func() seen {
		t.Helper()
		c := f.record(t, 1)[0]
		if n := once(t, f); n != 1 {
			t.Fatalf("sent %d", n)
		}
		h := <-f.rec.hits
		at := f.clock.Now()
		body, _ := changes.WebhookBody(c)
		want := webhook.Message{ID: c.ID, At: at, Body: body, Key: newKey, Previous: []webhook.PreviousKey{{Key: f.key, Until: until}}}.Signature()
		if diff := cmp.Diff(want, h.header.Get(webhook.HeaderSignature)); diff != "" {
			t.Errorf("webhook-signature (-want +got):\n%s", diff)
		}
		return seen{len(strings.Fields(h.header.Get(webhook.HeaderSignature))), map[string]bool{
			"new": webhook.Verify(newSecret, h.header, h.body, at) == nil,
			"old": webhook.Verify(secret, h.header, h.body, at) == nil}}
	}
	var got []seen
	got = append(got, send()) // claimed at t0, sent at t0+2s
	f.clock.Advance(until.Add(-time.Second).Sub(f.clock.Now()))
	got = append(got, send()) // claimed a second before the end, sent a second after
	f.clock.Advance(time.Hour)
	got = append(got, send())
	want := []seen{
		{2, map[string]bool{"new": true, "old": true}},
		{1, map[string]bool{"new": true, "old": false}},
		{1, map[string]bool{"new": true, "old": false}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("deliveries around the old secret's end (-want +got):\n%s", diff)
	}
}

// TestWakeOnApplyKeepsSecretRotator: the store WakeOnApply returns
// rotates secrets when the store it wraps does (the service behind the
// example server's routes is given it), and not otherwise.
func TestWakeOnApplyKeepsSecretRotator(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	wrapped := dispatch.WakeOnApply(f.store, func() {})
	rot, ok := wrapped.(changes.SecretRotator)
	if !ok {
		t.Fatal("WakeOnApply over a SecretRotator is none")
	}
	newKey, _ := webhook.ParseSecret(newSecret)
	if err := rot.RotateSecret(context.Background(), "acme", f.watch.ID, newKey, t0, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	keys, err := f.store.WatchKeys(context.Background(), "acme", f.watch.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(changes.WatchKeys{Current: newKey, Previous: []webhook.PreviousKey{{Key: f.key, Until: t0.Add(time.Hour)}}}, keys); diff != "" {
		t.Errorf("the wrapped store's keys after a rotation through WakeOnApply (-want +got):\n%s", diff)
	}
	if _, ok := dispatch.WakeOnApply(slowClaims{Store: f.store}, func() {}).(changes.SecretRotator); ok {
		t.Error("WakeOnApply over a store without RotateSecret rotates")
	}
	if err := rot.RotateSecret(context.Background(), "bob", f.watch.ID, newKey, t0, t0); !errors.Is(err, changes.ErrNotFound) {
		t.Errorf("another owner's rotation through WakeOnApply: %v, want ErrNotFound", err)
	}
}
