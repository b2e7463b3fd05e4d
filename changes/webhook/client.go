package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"syscall"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/upstream"
)

// Client defaults.
const (
	// DefaultTimeout bounds one attempt, from the connection to the last
	// byte of the answer read (GitHub's 10 seconds), so that a slow
	// endpoint does not hold a worker.
	DefaultTimeout = 10 * time.Second
	// MaxResponseBytes is the most of an answer's body that is read (and
	// dropped): a receiver's answer says nothing but its status.
	MaxResponseBytes = 16 << 10
	// MaxRetryAfter bounds the Retry-After an endpoint may ask for.
	MaxRetryAfter = 24 * time.Hour
)

// ClientOptions configure [NewClient].
type ClientOptions struct {
	// Policy says which endpoints may be reached; it is checked again at
	// every connection.
	Policy Policy
	// Timeout bounds one attempt (default [DefaultTimeout]).
	Timeout time.Duration
	// TLSConfig is the TLS configuration (nil: the system's roots); tests
	// pass one that trusts their server.
	TLSConfig *tls.Config
	// UserAgent is sent with every request (default
	// "companyregistry-webhooks/<version>").
	UserAgent string
}

// Client sends signed webhooks through a guarded connection: no proxy from
// the environment, no redirect followed, the address of every connection
// checked against the [Policy], a bounded answer and a timeout. It is safe
// for concurrent use.
type Client struct {
	hc        *http.Client
	policy    Policy
	userAgent string
	timeout   time.Duration
}

// NewClient returns a Client.
func NewClient(o ClientOptions) *Client {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.UserAgent == "" {
		o.UserAgent = "companyregistry-webhooks/" + registry.Version
	}
	c := &Client{policy: o.Policy, userAgent: o.UserAgent, timeout: o.Timeout}
	tr := &http.Transport{
		Proxy:                 nil, // never HTTP(S)_PROXY: a proxy would connect where the guard cannot see
		DialContext:           c.dial,
		TLSClientConfig:       o.TLSConfig,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   o.Timeout,
		ResponseHeaderTimeout: o.Timeout,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
	}
	c.hc = &http.Client{
		Transport: tr,
		Timeout:   o.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // a 3xx is an answer, and a failure
		},
	}
	return c
}

// Timeout returns how long one attempt may take (ClientOptions.Timeout,
// or [DefaultTimeout]); a dispatcher holds a claimed delivery longer.
func (c *Client) Timeout() time.Duration { return c.timeout }

// CloseIdleConnections closes the client's idle connections.
func (c *Client) CloseIdleConnections() { c.hc.CloseIdleConnections() }

// dial resolves the host and connects to the first allowed address; the
// dialer's Control hook checks the address again just before connecting.
func (c *Client) dial(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	if a, perr := netip.ParseAddr(host); perr == nil {
		addrs = []netip.Addr{a}
	} else if isLocalhost(host) {
		addrs = []netip.Addr{netip.IPv6Loopback(), netip.AddrFrom4([4]byte{127, 0, 0, 1})}
	} else if addrs, err = c.policy.resolver().LookupNetIP(ctx, "ip", host); err != nil {
		return nil, err
	}
	d := net.Dialer{Control: c.policy.control}
	var blocked, failed error
	for _, a := range addrs {
		if err := c.policy.CheckAddr(a); err != nil {
			blocked = err
			continue
		}
		conn, err := d.DialContext(ctx, network, net.JoinHostPort(a.WithZone("").String(), port))
		if err == nil {
			return conn, nil
		}
		if failed == nil {
			failed = err
		}
	}
	switch {
	case failed != nil:
		return nil, failed
	case blocked != nil:
		return nil, blocked
	}
	return nil, refuse("its host name resolved to no address")
}

// Message is one webhook to send.
type Message struct {
	// ID is the webhook-id: the same for every attempt of one message.
	ID string
	// At is the time of the attempt; its Unix seconds are the
	// webhook-timestamp.
	At time.Time
	// Body is the JSON payload, sent and signed as it is.
	Body []byte
	// Key is the HMAC key (see [ParseSecret]).
	Key []byte
	// Previous are the keys that rotations replaced (see
	// changes.Service.RotateSecret), newest first, each with its end:
	// while At is before a key's Until the message is signed with it
	// too, after Key's signature, so that a receiver that still holds an
	// older secret accepts the message. At or after its Until a key is
	// not used.
	Previous []PreviousKey
}

// PreviousKey is a signing key that a rotation replaced and the end of
// its use: it signs beside the current key while the time of sending is
// before Until.
type PreviousKey struct {
	Key   []byte
	Until time.Time
}

// Signature returns the webhook-signature value of m: [Sign] under Key,
// then, for each of m.Previous in its order whose Key is set and whose
// Until is after m.At, a space and [Sign] under that key. A receiver
// accepts the message when any of them matches its secret ([Verify]).
func (m Message) Signature() string {
	sig := Sign(m.Key, m.ID, m.At, m.Body)
	for _, p := range m.Previous {
		if len(p.Key) > 0 && m.At.Before(p.Until) {
			sig += " " + Sign(p.Key, m.ID, m.At, m.Body)
		}
	}
	return sig
}

// Response is what an endpoint answered.
type Response struct {
	// StatusCode is the HTTP status.
	StatusCode int
	// RetryAfter is the endpoint's Retry-After, in seconds or as an HTTP date (at most
	// [MaxRetryAfter]), 0 when it sent none.
	RetryAfter time.Duration
}

// Succeeded reports whether the status is 2xx.
func (r Response) Succeeded() bool { return r.StatusCode >= 200 && r.StatusCode < 300 }

// SendError is an attempt that got no HTTP answer. Its text never holds
// the URL, whose query may carry a credential of the receiver.
type SendError struct {
	// Reason is a short sentence: a timeout, a refused connection, a
	// refused address (with the policy's reason), a TLS or DNS failure.
	Reason string
	// Blocked is set when the policy refused the address.
	Blocked bool
	// Timeout is set when the endpoint did not answer in time.
	Timeout bool
	err     error
}

func (e *SendError) Error() string { return "webhook: " + e.Reason }

// Unwrap returns the cause.
func (e *SendError) Unwrap() error { return e.err }

// Send posts one signed message to endpoint: the body as
// application/json with the webhook-id, webhook-timestamp and
// webhook-signature ([Message.Signature]) headers. It returns the answer whatever its status
// (a 3xx is not followed), or a *[SendError] when none came. The URL is
// checked again first (a *[URLError] in a *SendError with Blocked set).
func (c *Client) Send(ctx context.Context, endpoint string, m Message) (Response, error) {
	if _, err := c.policy.parse(endpoint); err != nil {
		return Response{}, &SendError{Reason: err.Error(), Blocked: true, err: err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(m.Body))
	if err != nil {
		return Response{}, &SendError{Reason: "the request could not be built", err: err}
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", c.userAgent)
	h.Set(HeaderID, m.ID)
	h.Set(HeaderTimestamp, strconv.FormatInt(m.At.Unix(), 10))
	h.Set(HeaderSignature, m.Signature())
	resp, err := c.hc.Do(req)
	if err != nil {
		return Response{}, describe(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, MaxResponseBytes))
	r := Response{StatusCode: resp.StatusCode}
	if s := upstream.RetryAfter(resp.Header.Get("Retry-After"), time.Now(), 0, int(MaxRetryAfter/time.Second)); s > 0 {
		r.RetryAfter = time.Duration(s) * time.Second
	}
	return r, nil
}

// describe turns a transport error into a *SendError whose text holds no
// URL.
func describe(err error) *SendError {
	var ue *URLError
	if errors.As(err, &ue) {
		return &SendError{Reason: ue.Reason, Blocked: true, err: errBlocked}
	}
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var recErr tls.RecordHeaderError
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) || isTimeout(err):
		return &SendError{Reason: "the endpoint did not answer in time", Timeout: true, err: err}
	case errors.Is(err, context.Canceled):
		return &SendError{Reason: "the attempt was cancelled", err: err}
	case errors.As(err, &dnsErr):
		return &SendError{Reason: "the endpoint's host name could not be resolved", err: err}
	case errors.Is(err, syscall.ECONNREFUSED):
		return &SendError{Reason: "the endpoint refused the connection", err: err}
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return &SendError{Reason: "the endpoint closed the connection without an answer", err: err}
	case errors.As(err, &certErr):
		return &SendError{Reason: "the endpoint's TLS certificate is not trusted", err: err}
	case errors.As(err, &recErr):
		return &SendError{Reason: "the endpoint does not speak TLS", err: err}
	}
	return &SendError{Reason: "the endpoint could not be reached", err: err}
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}
