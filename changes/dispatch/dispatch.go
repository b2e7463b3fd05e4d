// Package dispatch delivers the webhooks of recorded changes: a
// [Dispatcher] claims due deliveries from a [changes.Store], sends each
// signed (Standard Webhooks 1.0) through the guarded client of package
// webhook, and records every attempt. Run one on every replica: a claim
// holds a delivery for a lease, so no two dispatchers send the same
// delivery at once.
//
// Delivery is at least once. A dispatcher that dies between sending and
// recording leaves the claim to expire; another dispatcher (or the same
// one restarted) claims the delivery again and sends it with the same
// webhook-id, the change's id, which receivers dedupe on.
//
// # Outcomes of an attempt
//
//   - 2xx: delivered.
//   - 410 Gone: the delivery fails and the watch is disabled (the watch
//     says why; changing its URL or enabling it starts again).
//   - any other status (3xx included: redirects are not followed), a
//     timeout, a refused connection or an address the policy refuses: the
//     delivery is tried again on the schedule of Standard Webhooks —
//     5 seconds, 5 minutes, 30 minutes, 2, 5, 10, 14, 20 and 24 hours after
//     each failure, each delay plus up to a tenth of it at random — and
//     for 429, 502, 503 and 504 not before the endpoint's Retry-After.
//     After the tenth attempt (about three days) the delivery fails and
//     the watch is disabled.
//
// While the secret a rotation replaced still signs
// ([changes.Service.RotateSecret]), each attempt carries its signature
// after the current secret's; whether it still signs is judged at the
// attempt, not when the delivery was claimed.
//
// A delivery queued again by hand ([changes.Service.Redeliver]) after it
// had used up its schedule gets one attempt; its failure does not disable
// the watch again (a 410 does).
//
// # Replicas' clocks
//
// A claim ends at the claimer's clock plus the lease, and the next
// claimer compares that end with its own clock: the store keeps no clock
// of its own. The clocks of the replicas that run dispatchers must agree
// to well within the lease minus the client's timeout (by default 30 s
// less 10 s: 20 s); keep them synchronised with NTP, which holds them to
// milliseconds. A replica whose clock runs ahead by more (or one behind,
// whose claims end early by the others' clocks) can claim a delivery
// another replica is still sending and send the same webhook-id at once.
package dispatch

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/webhook"
)

// Defaults of a [Dispatcher].
const (
	// DefaultConcurrency is how many webhooks one dispatcher sends at
	// once.
	DefaultConcurrency = 16
	// DefaultLease is how long a claimed delivery is held: three times
	// what an attempt may take (webhook.DefaultTimeout, 10 s), so that it
	// is never sent twice at once, and short enough that a delivery whose
	// replica died mid-send is sent again within half a minute.
	DefaultLease = 30 * time.Second
	// DefaultPoll is how often an idle dispatcher looks for due
	// deliveries ([Dispatcher.Wake] makes it look at once).
	DefaultPoll = 250 * time.Millisecond
)

// Schedule returns the delay before each attempt after the first, as
// Standard Webhooks 1.0 suggests (an attempt at once, then 5 s, 5 min,
// 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h after each failure: ten
// attempts over 75 h 35 min 5 s).
func Schedule() []time.Duration {
	return []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour,
		10 * time.Hour, 14 * time.Hour, 20 * time.Hour, 24 * time.Hour}
}

// MaxAttempts is the number of attempts of a delivery: the first and one
// per delay of [Schedule].
const MaxAttempts = 10

// Config configures [New].
type Config struct {
	// Store holds the deliveries (required).
	Store changes.Store
	// Client sends the webhooks (required; its Policy says where they may
	// go).
	Client *webhook.Client
	// Worker names this dispatcher in its claims (default: host name,
	// process id and a random suffix).
	Worker string
	// Concurrency bounds the webhooks in flight (default
	// [DefaultConcurrency]); Lease is the claim's length (default
	// [DefaultLease], or three times the Client's timeout when that is
	// longer; a Lease no longer than the Client's timeout is refused: a
	// delivery could be claimed again, and sent twice at once, while its
	// attempt still runs); Poll the idle interval (default [DefaultPoll]).
	Concurrency int
	Lease       time.Duration
	Poll        time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Jitter returns a random duration from 0 up to (not including) its
	// argument, added to each retry delay (default math/rand/v2).
	Jitter func(time.Duration) time.Duration
	// Logger gets one record per attempt that fails and per watch
	// disabled (default: discard); never a URL, a secret or a body.
	Logger *slog.Logger
	// Sent, when set, is called after each attempt is recorded (for
	// tests and metrics).
	Sent func(changes.Claim, changes.Attempt)
}

// WorkerName returns a name for this process in claims and leases: the
// host name, the process id and a random suffix (so that a restarted
// process is another holder).
func WorkerName() string {
	host, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// Dispatcher sends due webhooks until its context ends. It is safe for
// concurrent use; run one per process.
type Dispatcher struct {
	c    Config
	wake chan struct{}
}

// New returns a Dispatcher.
func New(c Config) (*Dispatcher, error) {
	switch {
	case c.Store == nil:
		return nil, errors.New("dispatch: New: nil Store")
	case c.Client == nil:
		return nil, errors.New("dispatch: New: nil Client")
	case c.Concurrency < 0 || c.Lease < 0 || c.Poll < 0:
		return nil, errors.New("dispatch: New: a negative setting")
	}
	if c.Concurrency == 0 {
		c.Concurrency = DefaultConcurrency
	}
	timeout := c.Client.Timeout()
	switch {
	case c.Lease == 0:
		c.Lease = max(DefaultLease, 3*timeout)
	case c.Lease <= timeout:
		return nil, fmt.Errorf("dispatch: New: the claim lease (%v) must be longer than one attempt may take (the client's timeout, %v)", c.Lease, timeout)
	}
	if c.Poll == 0 {
		c.Poll = DefaultPoll
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Jitter == nil {
		c.Jitter = func(d time.Duration) time.Duration {
			if d <= 0 {
				return 0
			}
			return mrand.N(d)
		}
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Worker == "" {
		c.Worker = WorkerName()
	}
	return &Dispatcher{c: c, wake: make(chan struct{}, 1)}, nil
}

// Wake makes a running dispatcher look for due deliveries now, for
// example after a change was recorded or a delivery queued again in this
// process. It never blocks.
func (d *Dispatcher) Wake() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// WakeOnApply returns store with an Apply that calls wake after it
// recorded a change (give it a Dispatcher's Wake): the ingesters of the
// process that runs the dispatcher then have their deliveries sent at
// once instead of at the dispatcher's next poll. Every other method is
// store's own, and so is its [changes.SecretRotator] when it has one.
func WakeOnApply(store changes.Store, wake func()) changes.Store {
	w := wakingStore{Store: store, wake: wake}
	if rot, ok := store.(changes.SecretRotator); ok {
		return wakingRotator{wakingStore: w, SecretRotator: rot}
	}
	return w
}

type wakingStore struct {
	changes.Store
	wake func()
}

// wakingRotator is a wakingStore over a store that rotates secrets.
type wakingRotator struct {
	wakingStore
	changes.SecretRotator
}

func (w wakingStore) Apply(ctx context.Context, b changes.Batch) ([]changes.Change, error) {
	out, err := w.Store.Apply(ctx, b)
	if len(out) > 0 {
		w.wake()
	}
	return out, err
}

// Run sends due deliveries, at most Concurrency at once, until ctx ends;
// then it waits for the attempts in flight to finish and be recorded (each
// is bounded by the client's timeout) and returns nil. A failing store is
// logged and tried again at the next poll.
func (d *Dispatcher) Run(ctx context.Context) error {
	slots := make(chan struct{}, d.c.Concurrency)
	done := make(chan struct{}, d.c.Concurrency)
	var wg sync.WaitGroup
	defer wg.Wait()
	// Attempts in flight finish when ctx ends: a clean shutdown records
	// them instead of leaving them to the lease.
	sendCtx := context.WithoutCancel(ctx)
	timer := time.NewTimer(d.c.Poll)
	defer timer.Stop()
	// While attempts are in flight, claim when a quarter of the slots is
	// free rather than at every finished attempt: a claim is a database
	// transaction, and claiming one delivery at a time would cost one per
	// webhook.
	batch := max(1, d.c.Concurrency/4)
	for ctx.Err() == nil {
		if free := d.c.Concurrency - len(slots); free >= batch {
			claims, err := d.c.Store.ClaimDeliveries(ctx, d.c.Worker, d.c.Now(), free, d.c.Lease)
			if err != nil && ctx.Err() == nil {
				d.c.Logger.LogAttrs(ctx, slog.LevelWarn, "claiming deliveries failed", slog.String("error", err.Error()))
			}
			for _, cl := range claims {
				slots <- struct{}{}
				wg.Add(1)
				go func() {
					defer wg.Done()
					d.deliver(sendCtx, cl)
					<-slots
					select {
					case done <- struct{}{}:
					default:
					}
				}()
			}
		}
		// A finished attempt frees a slot (more may be due); a wake-up
		// says something was queued; else look again after Poll.
		timer.Reset(d.c.Poll)
		select {
		case <-ctx.Done():
			return nil
		case <-d.wake:
		case <-done:
		case <-timer.C:
		}
	}
	return nil
}

// Once claims the deliveries due now (up to Concurrency), sends them and
// records the attempts, and returns how many it sent. It is Run's step,
// for a caller that schedules on its own (and for tests).
func (d *Dispatcher) Once(ctx context.Context) (int, error) {
	claims, err := d.c.Store.ClaimDeliveries(ctx, d.c.Worker, d.c.Now(), d.c.Concurrency, d.c.Lease)
	if err != nil {
		return 0, err
	}
	var wg sync.WaitGroup
	for _, cl := range claims {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.deliver(ctx, cl)
		}()
	}
	wg.Wait()
	return len(claims), nil
}

// deliver makes one attempt of a claimed delivery and records it.
func (d *Dispatcher) deliver(ctx context.Context, cl changes.Claim) {
	a := d.attempt(ctx, cl)
	if ctx.Err() != nil && !a.Succeeded {
		// Cancelled from outside (not a clean shutdown): record nothing;
		// the lease expires and the delivery is sent again.
		return
	}
	a.Worker = d.c.Worker
	if err := d.c.Store.RecordAttempt(context.WithoutCancel(ctx), cl.Delivery.ID, a); errors.Is(err, changes.ErrClaimLost) {
		d.c.Logger.LogAttrs(ctx, slog.LevelInfo, "a delivery attempt outlasted its claim; another worker's outcome counts",
			slog.String("delivery", cl.Delivery.ID))
		return
	} else if err != nil {
		d.c.Logger.LogAttrs(ctx, slog.LevelWarn, "recording a delivery attempt failed; it is sent again when its claim expires",
			slog.String("delivery", cl.Delivery.ID), slog.String("error", err.Error()))
		return
	}
	if a.Disable {
		d.c.Logger.LogAttrs(ctx, slog.LevelWarn, "watch disabled", slog.String("watch", cl.Delivery.WatchID),
			slog.String("reason", a.Reason))
	} else if !a.Succeeded {
		d.c.Logger.LogAttrs(ctx, slog.LevelInfo, "delivery attempt failed", slog.String("delivery", cl.Delivery.ID),
			slog.String("watch", cl.Delivery.WatchID), slog.Int("attempt", cl.Delivery.Attempts+1),
			slog.Int("status", a.StatusCode), slog.String("error", a.Error))
	}
	if d.c.Sent != nil {
		d.c.Sent(cl, a)
	}
}

// attempt sends the webhook and decides what comes next.
func (d *Dispatcher) attempt(ctx context.Context, cl changes.Claim) changes.Attempt {
	now := d.c.Now()
	if cl.Change.ID == "" {
		return changes.Attempt{At: now, Error: "the change is no longer kept"}
	}
	body, err := changes.WebhookBody(cl.Change)
	if err != nil {
		return changes.Attempt{At: now, Error: "the change could not be encoded"}
	}
	// Each previous key of a rotation signs too while now, the time of
	// this attempt, is before its end (webhook.Message.Signature).
	resp, err := d.c.Client.Send(ctx, cl.URL, webhook.Message{ID: cl.Change.ID, At: now, Body: body, Key: cl.Secret,
		Previous: cl.Previous})
	a := changes.Attempt{At: now, StatusCode: resp.StatusCode}
	var se *webhook.SendError
	switch {
	case errors.As(err, &se):
		a.Error = se.Reason
	case err != nil:
		a.Error = "the endpoint could not be reached"
	case resp.Succeeded():
		a.Succeeded = true
		return a
	case resp.StatusCode == http.StatusGone:
		a.Error = "the endpoint answered 410 Gone"
		a.Disable, a.Reason = true, "the endpoint answered 410 Gone: it asked for no more webhooks"
		return a
	default:
		a.Error = fmt.Sprintf("the endpoint answered %d", resp.StatusCode)
	}
	d.reschedule(&a, cl.Delivery.Attempts+1, resp)
	return a
}

// reschedule sets the next attempt after failed attempt number n, or gives
// up after the last one of the schedule.
func (d *Dispatcher) reschedule(a *changes.Attempt, n int, resp webhook.Response) {
	delays := Schedule()
	switch {
	case n < MaxAttempts:
		delay := delays[n-1]
		delay += d.c.Jitter(delay / 10)
		if throttled(resp.StatusCode) && resp.RetryAfter > delay {
			delay = resp.RetryAfter
		}
		next := a.At.Add(delay)
		a.RetryAt = &next
	case n == MaxAttempts:
		a.Disable = true
		a.Reason = fmt.Sprintf("the endpoint failed all %d attempts of a delivery over about three days", MaxAttempts)
	default:
		// A redelivery by hand after the schedule was used up: one attempt.
	}
}

// throttled reports whether a status asks the sender to slow down, so that
// its Retry-After counts.
func throttled(status int) bool {
	switch status {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}
