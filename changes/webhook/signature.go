package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The headers of Standard Webhooks 1.0.
const (
	// HeaderID is the message id: the same on every attempt and
	// redelivery of one message, so a receiver dedupes on it.
	HeaderID = "webhook-id"
	// HeaderTimestamp is the Unix time in seconds of the attempt.
	HeaderTimestamp = "webhook-timestamp"
	// HeaderSignature is a space-separated list of "v1,<base64>"
	// signatures.
	HeaderSignature = "webhook-signature"
)

// Secrets.
const (
	// SecretPrefix starts every secret as it is shown to a user.
	SecretPrefix = "whsec_"
	// SecretBytes is the length of the random key of a new secret.
	SecretBytes = 32
	// minSecretBytes and maxSecretBytes bound a key, as the
	// specification asks (24 to 64 random bytes).
	minSecretBytes, maxSecretBytes = 24, 64
)

// DefaultTolerance is how far a webhook-timestamp may be from the
// receiver's clock, either way, before [Verify] refuses the message.
const DefaultTolerance = 5 * time.Minute

// Errors of [ParseSecret] and [Verify].
var (
	// ErrSecret is a secret that is not "whsec_" and the base64 of 24 to
	// 64 bytes.
	ErrSecret = errors.New("webhook: the secret is not whsec_ and the base64 of 24 to 64 bytes")
	// ErrMissingHeaders is a message without one of the three headers.
	ErrMissingHeaders = errors.New("webhook: a webhook-id, webhook-timestamp or webhook-signature header is missing")
	// ErrTimestamp is a webhook-timestamp that is not a number of seconds
	// or is outside the tolerance (a replayed or delayed message).
	ErrTimestamp = errors.New("webhook: the webhook-timestamp is malformed or too far from now")
	// ErrSignature is a message none of whose v1 signatures matches.
	ErrSignature = errors.New("webhook: no signature matches")
)

// NewSecret returns a new signing secret: [SecretPrefix] and the standard
// base64 of [SecretBytes] bytes read from random (crypto/rand when nil).
// Show it to its owner once; keep only [ParseSecret]'s key.
func NewSecret(random io.Reader) (string, error) {
	if random == nil {
		random = rand.Reader
	}
	key := make([]byte, SecretBytes)
	if _, err := io.ReadFull(random, key); err != nil {
		return "", fmt.Errorf("webhook: reading random bytes: %w", err)
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(key), nil
}

// ParseSecret returns the HMAC key of a secret: the bytes of the base64
// after the "whsec_" prefix (the prefix may be left out). The key is the
// decoded bytes, never the text. A malformed secret is [ErrSecret].
func ParseSecret(secret string) ([]byte, error) {
	b64 := strings.TrimPrefix(strings.TrimSpace(secret), SecretPrefix)
	if len(b64) > base64.StdEncoding.EncodedLen(maxSecretBytes) {
		return nil, ErrSecret
	}
	key, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(key) < minSecretBytes || len(key) > maxSecretBytes {
		return nil, ErrSecret
	}
	return key, nil
}

// Sign returns the webhook-signature value of one message: "v1," and the
// standard base64 of the HMAC-SHA256, under key, of id "." the Unix
// seconds of at "." body. body must be the exact bytes sent.
func Sign(key []byte, id string, at time.Time, body []byte) string {
	return "v1," + base64.StdEncoding.EncodeToString(mac(key, id, strconv.FormatInt(at.Unix(), 10), body))
}

func mac(key []byte, id, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id))
	m.Write([]byte{'.'})
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// Verify checks a received webhook, for a receiver: the three headers are
// present, the timestamp is within [DefaultTolerance] of now, and one of
// the v1 signatures is the HMAC of the id, the timestamp and body (the raw
// bytes read from the request, before any JSON decoding) under the key of
// secret ("whsec_…"). Signatures are compared in constant time; other
// versions in the list (v1a) are skipped. The error is [ErrSecret],
// [ErrMissingHeaders], [ErrTimestamp] or [ErrSignature]; after a nil
// error, dedupe on the webhook-id header, which every retry repeats.
func Verify(secret string, h http.Header, body []byte, now time.Time) error {
	key, err := ParseSecret(secret)
	if err != nil {
		return err
	}
	return verifyKey(key, h, body, now, DefaultTolerance)
}

func verifyKey(key []byte, h http.Header, body []byte, now time.Time, tolerance time.Duration) error {
	id, ts, sigs := h.Get(HeaderID), h.Get(HeaderTimestamp), h.Get(HeaderSignature)
	if id == "" || ts == "" || sigs == "" {
		return ErrMissingHeaders
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || sec <= 0 {
		return ErrTimestamp
	}
	// Compare in seconds, so that no time.Duration overflows on a hostile
	// timestamp.
	if d := now.Unix() - sec; d > int64(tolerance/time.Second) || -d > int64(tolerance/time.Second) {
		return ErrTimestamp
	}
	want := mac(key, id, ts, body)
	for _, s := range parseSignatures(sigs) {
		if s.version != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(s.value)
		if err != nil {
			continue
		}
		if subtle.ConstantTimeCompare(got, want) == 1 {
			return nil
		}
	}
	return ErrSignature
}

// maxSignatures bounds the entries of a webhook-signature header that are
// looked at: a sender rotating secrets sends two or three.
const maxSignatures = 10

type signature struct{ version, value string }

// parseSignatures splits a webhook-signature value: entries "version,value"
// separated by spaces; an entry without a comma is skipped.
func parseSignatures(v string) []signature {
	var out []signature
	for _, f := range strings.Fields(v) {
		if len(out) == maxSignatures {
			break
		}
		version, value, ok := strings.Cut(f, ",")
		if !ok {
			continue
		}
		out = append(out, signature{version, value})
	}
	return out
}
