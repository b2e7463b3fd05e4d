package webhook_test

import (
	"bytes"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes/webhook"
)

// The test vector of Standard Webhooks 1.0: the specification's Go library
// test TestWebhookSign
// (standard-webhooks/standard-webhooks@59104160f10908d80ee571a81460e1c9c0c05355:libraries/go/webhook_test.go).
const (
	vectorSecret    = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	vectorID        = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	vectorTimestamp = 1614265330
	vectorBody      = `{"test": 2432232314}`
	vectorSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

func vectorHeaders() http.Header {
	h := http.Header{}
	h.Set(webhook.HeaderID, vectorID)
	h.Set(webhook.HeaderTimestamp, strconv.Itoa(vectorTimestamp))
	h.Set(webhook.HeaderSignature, vectorSignature)
	return h
}

// TestSignVector: the signature of the specification's test vector.
func TestSignVector(t *testing.T) {
	t.Parallel()
	key, err := webhook.ParseSecret(vectorSecret)
	if err != nil {
		t.Fatal(err)
	}
	if len(key) != 24 {
		t.Errorf("key length %d, want 24 (the base64 part decoded)", len(key))
	}
	got := webhook.Sign(key, vectorID, time.Unix(vectorTimestamp, 0), []byte(vectorBody))
	if got != vectorSignature {
		t.Errorf("Sign = %q, want %q", got, vectorSignature)
	}
}

// TestVerify: the test vector verifies at its own time and within five
// minutes of it; a change of any signed part, a stale or future timestamp,
// a missing header or a wrong secret is refused with its error.
func TestVerify(t *testing.T) {
	t.Parallel()
	at := time.Unix(vectorTimestamp, 0)
	other, err := webhook.NewSecret(bytes.NewReader(bytes.Repeat([]byte{7}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		secret string
		edit   func(h http.Header) // nil: as sent
		body   string
		now    time.Time
		want   error
	}{
		{name: "vector", now: at},
		{name: "without prefix", secret: strings.TrimPrefix(vectorSecret, "whsec_"), now: at},
		{name: "4m59s later", now: at.Add(4*time.Minute + 59*time.Second)},
		{name: "5m earlier clock", now: at.Add(-5 * time.Minute)},
		{name: "5m01s later", now: at.Add(5*time.Minute + time.Second), want: webhook.ErrTimestamp},
		{name: "5m01s earlier clock", now: at.Add(-5*time.Minute - time.Second), want: webhook.ErrTimestamp},
		{name: "body changed", body: `{"test": 2432232315}`, now: at, want: webhook.ErrSignature},
		{name: "id changed", edit: func(h http.Header) { h.Set(webhook.HeaderID, vectorID+"x") }, now: at, want: webhook.ErrSignature},
		{name: "timestamp changed", edit: func(h http.Header) { h.Set(webhook.HeaderTimestamp, strconv.Itoa(vectorTimestamp+1)) },
			now: at, want: webhook.ErrSignature},
		{name: "wrong secret", secret: other, now: at, want: webhook.ErrSignature},
		{name: "no id", edit: func(h http.Header) { h.Del(webhook.HeaderID) }, now: at, want: webhook.ErrMissingHeaders},
		{name: "no timestamp", edit: func(h http.Header) { h.Del(webhook.HeaderTimestamp) }, now: at, want: webhook.ErrMissingHeaders},
		{name: "no signature", edit: func(h http.Header) { h.Del(webhook.HeaderSignature) }, now: at, want: webhook.ErrMissingHeaders},
		{name: "timestamp not a number", edit: func(h http.Header) { h.Set(webhook.HeaderTimestamp, "1614265330.5") },
			now: at, want: webhook.ErrTimestamp},
		{name: "huge timestamp", edit: func(h http.Header) { h.Set(webhook.HeaderTimestamp, "9223372036854775807") },
			now: at, want: webhook.ErrTimestamp},
		{name: "rotation: second signature matches", now: at,
			edit: func(h http.Header) { h.Set(webhook.HeaderSignature, "v1,AAAA "+vectorSignature) }},
		{name: "v1a entries are skipped", now: at,
			edit: func(h http.Header) { h.Set(webhook.HeaderSignature, "v1a,"+strings.TrimPrefix(vectorSignature, "v1,")) },
			want: webhook.ErrSignature},
		{name: "not base64", edit: func(h http.Header) { h.Set(webhook.HeaderSignature, "v1,!!!") }, now: at, want: webhook.ErrSignature},
		{name: "no comma", edit: func(h http.Header) { h.Set(webhook.HeaderSignature, "v1") }, now: at, want: webhook.ErrSignature},
		{name: "malformed secret", secret: "whsec_short", now: at, want: webhook.ErrSecret},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			secret := tt.secret
			if secret == "" {
				secret = vectorSecret
			}
			body := tt.body
			if body == "" {
				body = vectorBody
			}
			h := vectorHeaders()
			if tt.edit != nil {
				tt.edit(h)
			}
			if err := webhook.Verify(secret, h, []byte(body), tt.now); !errors.Is(err, tt.want) {
				t.Errorf("Verify = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestNewSecret: "whsec_" and the base64 of 32 bytes from the reader, which
// ParseSecret turns back into the same bytes.
func TestNewSecret(t *testing.T) {
	t.Parallel()
	random := bytes.Repeat([]byte{1, 2, 3, 4}, 8)
	s, err := webhook.NewSecret(bytes.NewReader(random))
	if err != nil {
		t.Fatal(err)
	}
	if want := "whsec_AQIDBAECAwQBAgMEAQIDBAECAwQBAgMEAQIDBAECAwQ="; s != want {
		t.Errorf("NewSecret = %q, want %q", s, want)
	}
	key, err := webhook.ParseSecret(s)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(random, key); diff != "" {
		t.Errorf("key (-want +got):\n%s", diff)
	}
	if _, err := webhook.NewSecret(bytes.NewReader(random[:10])); err == nil {
		t.Error("a short random source gave a secret")
	}
	a, _ := webhook.NewSecret(nil)
	b, _ := webhook.NewSecret(nil)
	if a == b || !strings.HasPrefix(a, webhook.SecretPrefix) {
		t.Errorf("two secrets from crypto/rand: %q and %q", a, b)
	}
}

// TestParseSecret: only the base64 of 24 to 64 bytes is a key.
func TestParseSecret(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "whsec_", "whsec_!!!!", "whsec_" + strings.Repeat("A", 28), // 21 bytes
		"whsec_" + strings.Repeat("A", 100), "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw=="} {
		if _, err := webhook.ParseSecret(s); !errors.Is(err, webhook.ErrSecret) {
			t.Errorf("ParseSecret(%q) = %v, want ErrSecret", s, err)
		}
	}
}

// FuzzVerify: any header values and body give one of the documented errors
// or nil, never a panic; a message signed with the key verifies.
func FuzzVerify(f *testing.F) {
	f.Add(vectorID, strconv.Itoa(vectorTimestamp), vectorSignature, vectorBody)
	f.Add("id", "0", "v1,", "")
	f.Add("a.b", "-1", "v1a,xx v1,yy v2", "{}")
	f.Add("x", "99999999999999999999", " , ,, v1,==", "x")
	key, err := webhook.ParseSecret(vectorSecret)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, id, ts, sig, body string) {
		h := http.Header{}
		h.Set(webhook.HeaderID, id)
		h.Set(webhook.HeaderTimestamp, ts)
		h.Set(webhook.HeaderSignature, sig)
		err := webhook.Verify(vectorSecret, h, []byte(body), time.Unix(vectorTimestamp, 0))
		if err != nil && !errors.Is(err, webhook.ErrMissingHeaders) && !errors.Is(err, webhook.ErrTimestamp) &&
			!errors.Is(err, webhook.ErrSignature) {
			t.Fatalf("Verify: unexpected error %v", err)
		}
		if id == "" || strings.ContainsAny(id, "\r\n") {
			return
		}
		at := time.Unix(vectorTimestamp, 0)
		h.Set(webhook.HeaderTimestamp, strconv.FormatInt(at.Unix(), 10))
		h.Set(webhook.HeaderSignature, webhook.Sign(key, h.Get(webhook.HeaderID), at, []byte(body)))
		if err := webhook.Verify(vectorSecret, h, []byte(body), at); err != nil && h.Get(webhook.HeaderID) != "" {
			t.Fatalf("a signed message does not verify: %v", err)
		}
	})
}

// TestMessageSignature: one signature without a previous key or once each
// has expired; the current key's first, then each previous key that still
// signs at the attempt, in the slice's order (newest first), an expired
// one skipped wherever it stands. The specification's vector is the
// current key's signature.
func TestMessageSignature(t *testing.T) {
	key, err := webhook.ParseSecret(vectorSecret)
	if err != nil {
		t.Fatal(err)
	}
	other, oldest := make([]byte, webhook.SecretBytes), []byte("the oldest key of the three")
	at := time.Unix(vectorTimestamp, 0)
	sig := func(k []byte) string { return webhook.Sign(k, vectorID, at, []byte(vectorBody)) }
	m := webhook.Message{ID: vectorID, At: at, Body: []byte(vectorBody), Key: key}
	got := map[string]string{}
	got["no previous key"] = m.Signature()
	m.Previous = []webhook.PreviousKey{{Key: other, Until: at.Add(time.Second)}}
	got["previous key until a second later"] = m.Signature()
	m.Previous = []webhook.PreviousKey{{Key: other, Until: at}}
	got["previous key until the attempt"] = m.Signature()
	m.Previous = []webhook.PreviousKey{{Until: at.Add(time.Hour)}}
	got["an end without a previous key"] = m.Signature()
	m.Previous = []webhook.PreviousKey{{Key: other, Until: at.Add(2 * time.Hour)}, {Key: oldest, Until: at.Add(time.Hour)}}
	got["two previous keys that sign"] = m.Signature()
	m.Previous = []webhook.PreviousKey{{Key: other, Until: at}, {Key: oldest, Until: at.Add(time.Hour)}}
	got["the newer previous key expired, the older not"] = m.Signature()
	m.Previous = []webhook.PreviousKey{{Key: other, Until: at.Add(time.Hour)}, {Key: oldest, Until: at.Add(-time.Hour)}}
	got["the older previous key expired"] = m.Signature()
	want := map[string]string{
		"no previous key":                               vectorSignature,
		"previous key until a second later":             vectorSignature + " " + sig(other),
		"previous key until the attempt":                vectorSignature,
		"an end without a previous key":                 vectorSignature,
		"two previous keys that sign":                   vectorSignature + " " + sig(other) + " " + sig(oldest),
		"the newer previous key expired, the older not": vectorSignature + " " + sig(oldest),
		"the older previous key expired":                vectorSignature + " " + sig(other),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Signature (-want +got):\n%s", diff)
	}
}
