package webhook_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"

	"github.com/companyregistry/registry/changes/webhook"
)

// A receiver verifies each webhook on the raw body before it decodes it,
// answers 2xx at once, and dedupes on webhook-id (a retry repeats it).
func ExampleVerify() {
	const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"     // shown once when the watch was created
	now := func() time.Time { return time.Unix(1767225630, 0) } // the receiver's clock; time.Now in real code

	receive := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "unreadable body", http.StatusBadRequest)
			return
		}
		if err := webhook.Verify(secret, r.Header, body, now()); err != nil {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		fmt.Printf("verified %s: %s\n", r.Header.Get(webhook.HeaderID), body)
		w.WriteHeader(http.StatusNoContent)
	})

	// What the service sends (here signed by hand).
	body := []byte(`{"type":"company.name_changed","timestamp":"2026-01-01T00:00:00Z","data":{"company_id":"923609016"}}`)
	at := time.Unix(1767225600, 0)
	key, _ := webhook.ParseSecret(secret)
	req := httptest.NewRequest(http.MethodPost, "/hooks/registry", bytes.NewReader(body))
	req.Header.Set(webhook.HeaderID, "chg_01KDXR4N2Y8W5M9Q3T7V6B1C0D")
	req.Header.Set(webhook.HeaderTimestamp, strconv.FormatInt(at.Unix(), 10))
	req.Header.Set(webhook.HeaderSignature, webhook.Sign(key, "chg_01KDXR4N2Y8W5M9Q3T7V6B1C0D", at, body))
	rec := httptest.NewRecorder()
	receive.ServeHTTP(rec, req)
	fmt.Println(rec.Code)

	// A forged body fails.
	req = httptest.NewRequest(http.MethodPost, "/hooks/registry", bytes.NewReader(append(body, ' ')))
	req.Header.Set(webhook.HeaderID, "chg_01KDXR4N2Y8W5M9Q3T7V6B1C0D")
	req.Header.Set(webhook.HeaderTimestamp, strconv.FormatInt(at.Unix(), 10))
	req.Header.Set(webhook.HeaderSignature, webhook.Sign(key, "chg_01KDXR4N2Y8W5M9Q3T7V6B1C0D", at, body))
	rec = httptest.NewRecorder()
	receive.ServeHTTP(rec, req)
	fmt.Println(rec.Code)
	// Output:
	// verified chg_01KDXR4N2Y8W5M9Q3T7V6B1C0D: {"type":"company.name_changed","timestamp":"2026-01-01T00:00:00Z","data":{"company_id":"923609016"}}
	// 204
	// 401
}

// Validate an endpoint when a watch is created: the reason says what to
// fix.
func ExamplePolicy_CheckURL() {
	p := webhook.Policy{} // https and public addresses only
	for _, u := range []string{"http://hooks.example.com/x", "https://127.0.0.1/x", "https://[fd00:ec2::254]/"} {
		fmt.Println(p.CheckURL(context.Background(), u))
	}
	// Output:
	// webhook: the endpoint is refused: it is not https; plain http is allowed only when the operator allows private endpoints
	// webhook: the endpoint is refused: it resolves to a loopback address; only public addresses are allowed
	// webhook: the endpoint is refused: it resolves to a cloud metadata address, which is never allowed
}
