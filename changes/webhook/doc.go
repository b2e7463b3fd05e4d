// Package webhook signs and sends webhooks the Standard Webhooks 1.0 way,
// and verifies them for a receiver.
//
// # Receiving
//
// Every webhook is a POST of a JSON body with three headers:
//
//	webhook-id:        chg_01J…   the same on every retry: dedupe on it
//	webhook-timestamp: 1767225600 the Unix seconds of this attempt
//	webhook-signature: v1,<base64 of HMAC-SHA256(key, id + "." + timestamp + "." + body)>
//
// The key is the base64-decoded part of the watch's secret after "whsec_".
// A receiver reads the raw body, calls [Verify] with the secret, the
// headers, the body and its clock, answers 2xx quickly and does the work
// afterwards. Verify refuses a timestamp more than five minutes away from
// the receiver's clock, so a captured message cannot be replayed later.
//
// After a secret's rotation the header carries several signatures for a
// while, separated by a space: the new secret's first, then that of each
// secret a rotation replaced, newest first, until that secret's end (at
// most three in all on this project's stores). Verify accepts a message
// when any of them matches, so a receiver switches to the new secret
// whenever it is ready within that time.
//
// # Sending
//
// [Sign] computes the signature; [Client] sends a [Message] through a
// connection guarded against server-side request forgery:
//
//   - only https URLs, unless the [Policy] allows private endpoints (then
//     plain http too);
//   - the address of every connection is checked in the dialer's Control
//     hook, after the name was resolved, so a name that resolved to a
//     public address when the watch was created and to a private one now
//     (DNS rebinding) is refused;
//   - loopback, private, shared and reserved addresses are refused unless
//     the policy allows private endpoints; link-local, unspecified,
//     multicast and the cloud metadata addresses are refused always; an
//     IPv4 address inside IPv6 is judged as itself;
//   - no proxy from the environment, no redirect followed (a 3xx is a
//     failed attempt), at most [MaxResponseBytes] of the answer read, and
//     a [DefaultTimeout] for the whole attempt.
//
// [Policy.CheckURL] validates an endpoint when a watch is created or
// changed and says why one is refused.
package webhook
