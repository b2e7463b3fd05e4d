package rediscache_test

import (
	"context"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"

	"github.com/companyregistry/registry/cache/rediscache"
	"github.com/companyregistry/registry/internal/redistest"
	"github.com/companyregistry/registry/internal/testwait"
)

const (
	msgDown = "redis unreachable, using the in-process fallback"
	msgUp   = "redis reachable again"
)

func newCache(t *testing.T, rdb redis.UniversalClient, opts ...rediscache.Option) *rediscache.Cache {
	t.Helper()
	// The longest timeout first (a later option wins), for the clients that
	// keep it: a loaded machine running the race detector must not make
	// Redis look down. A client of redistest.Client drops it anyway.
	c, err := rediscache.New(rdb, append([]rediscache.Option{rediscache.WithTimeout(5 * time.Second)}, opts...)...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// lookup is the outcome of a Get, in a form cmp can print.
type lookup struct {
	Value string
	OK    bool
}

func get(t *testing.T, c *rediscache.Cache, key string) lookup {
	t.Helper()
	v, ok, err := c.Get(t.Context(), key)
	if err != nil {
		t.Fatalf("Get(%q): %v", key, err)
	}
	return lookup{string(v), ok}
}

func set(t *testing.T, c *rediscache.Cache, key, value string, ttl time.Duration) {
	t.Helper()
	if err := c.Set(t.Context(), key, []byte(value), ttl); err != nil {
		t.Fatalf("Set(%q): %v", key, err)
	}
}

func TestCacheStoresBytesAndTTLInRedis(t *testing.T) {
	t.Parallel()
	mr, rdb := redistest.Mini(t)
	c := newCache(t, rdb, rediscache.WithKeyPrefix("tenant/"))
	const key = "companyregistry/2/NO/company/923609016"
	value := "r\x00{\"name\":\"EQUINOR ASA\"}\xff"
	set(t, c, key, value, time.Hour)

	got, err := mr.Get("tenant/" + key)
	if err != nil {
		t.Fatalf("miniredis Get: %v", err)
	}
	if diff := cmp.Diff(value, got); diff != "" {
		t.Errorf("stored bytes mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(time.Hour, mr.TTL("tenant/"+key)); diff != "" {
		t.Errorf("TTL mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(lookup{value, true}, get(t, c, key)); diff != "" {
		t.Errorf("Get mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(lookup{}, get(t, c, "absent")); diff != "" {
		t.Errorf("Get(absent) mismatch (-want +got):\n%s", diff)
	}
}

func TestCacheNonPositiveTTLDeletes(t *testing.T) {
	t.Parallel()
	mr, rdb := redistest.Mini(t)
	c := newCache(t, rdb)
	set(t, c, "k", "v", time.Hour)
	set(t, c, "k", "v2", 0)
	if mr.Exists("k") {
		t.Error("a Set with ttl 0 left the entry in Redis")
	}
	if diff := cmp.Diff(lookup{}, get(t, c, "k")); diff != "" {
		t.Errorf("Get mismatch (-want +got):\n%s", diff)
	}
}

// TestCacheSharedAndPurged: two replicas share entries; a Delete on one
// reaches the other within the in-process tier's lifetime.
func TestCacheSharedAndPurged(t *testing.T) {
	t.Parallel()
	mr, _ := redistest.Mini(t)
	const life = 100 * time.Millisecond
	a := newCache(t, redistest.Client(mr.Addr()), rediscache.WithLocalTier(life, 1<<20))
	b := newCache(t, redistest.Client(mr.Addr()), rediscache.WithLocalTier(life, 1<<20))

	set(t, a, "k", "v", time.Hour)
	if diff := cmp.Diff(lookup{"v", true}, get(t, b, "k")); diff != "" {
		t.Fatalf("B after A's Set mismatch (-want +got):\n%s", diff)
	}
	if err := a.Delete(t.Context(), "k"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if mr.Exists("k") {
		t.Fatal("Delete left the shared entry")
	}
	if diff := cmp.Diff(lookup{}, get(t, a, "k")); diff != "" {
		t.Errorf("A after its Delete mismatch (-want +got):\n%s", diff)
	}
	// B may still serve its in-process copy, but not after its lifetime.
	time.Sleep(life + 20*time.Millisecond)
	if diff := cmp.Diff(lookup{}, get(t, b, "k")); diff != "" {
		t.Errorf("B after the tier's lifetime mismatch (-want +got):\n%s", diff)
	}
}

func TestCacheLocalTierServesWithoutRoundTrip(t *testing.T) {
	t.Parallel()
	mr, rdb := redistest.Mini(t)
	c := newCache(t, rdb)
	set(t, c, "k", "v", time.Hour)
	before := mr.CommandCount()
	for range 10 {
		get(t, c, "k")
	}
	if n := mr.CommandCount() - before; n != 0 {
		t.Errorf("10 hits made %d Redis commands, want 0", n)
	}

	nc := newCache(t, rdb, rediscache.WithoutLocalTier())
	get(t, nc, "k")
	before = mr.CommandCount()
	for range 3 {
		get(t, nc, "k")
	}
	if n := mr.CommandCount() - before; n != 3 {
		t.Errorf("without the tier, 3 hits made %d Redis commands, want 3", n)
	}
}

// TestCacheRedisDown: with Redis gone every call still succeeds (a miss or
// a no-op), the replica caches in process, one warning is logged, and the
// cache shares again by itself when Redis is back. Redis is cut off
// behind a proxy that keeps its port (closing the miniredis freed the port,
// where another test's redis-server could start: see redistest.Proxy).
func TestCacheRedisDown(t *testing.T) {
	t.Parallel()
	mr, proxy, rdb := redistest.MiniBehindProxy(t)
	var logs redistest.Logs
	c := newCache(t, rdb, rediscache.WithoutLocalTier(), rediscache.WithLogger(logs.Logger()),
		rediscache.WithRetry(50*time.Millisecond))
	set(t, c, "shared", "v", time.Hour)

	proxy.Down()
	for range 5 {
		if diff := cmp.Diff(lookup{}, get(t, c, "shared")); diff != "" {
			t.Fatalf("Get with Redis down mismatch (-want +got):\n%s", diff)
		}
	}
	set(t, c, "local", "l", time.Hour)
	if diff := cmp.Diff(lookup{"l", true}, get(t, c, "local")); diff != "" {
		t.Errorf("Get of an entry set while Redis is down mismatch (-want +got):\n%s", diff)
	}
	if err := c.Delete(t.Context(), "shared"); err != nil {
		t.Errorf("Delete with Redis down: %v", err)
	}
	if c.Reachable() {
		t.Error("Reachable() = true with Redis down")
	}
	if n := logs.Count(msgDown); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, logs.String())
	}

	proxy.Up(mr.Addr())
	mr.Set("shared", "v")
	testwait.Until(t, "the cache shares again", func() bool {
		v, ok, _ := c.Get(t.Context(), "shared")
		return ok && string(v) == "v"
	})
	if !c.Reachable() {
		t.Error("Reachable() = false after recovery")
	}
	// The in-process entries of the outage are dropped on recovery.
	if diff := cmp.Diff(lookup{}, get(t, c, "local")); diff != "" {
		t.Errorf("Get of an outage entry after recovery mismatch (-want +got):\n%s", diff)
	}
	if n := logs.Count(msgUp); n != 1 {
		t.Errorf("%d recovery lines, want 1:\n%s", n, logs.String())
	}
	if n := logs.Count(msgDown); n != 1 {
		t.Errorf("%d warnings after recovery, want still 1", n)
	}
}

// TestCacheSlowRedisIsBounded: a Redis that accepts connections and never
// answers costs a call the cache's timeout, not more: the client has no
// timeout of its own, so only the cache's 50 ms can end the call, and a
// call it did not bound would never return (the wait reports a hang).
func TestCacheSlowRedisIsBounded(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				buf := make([]byte, 1024)
				for {
					if _, err := conn.Read(buf); err != nil {
						return
					}
				}
			}()
		}
	}()
	rdb := redis.NewClient(&redis.Options{Addr: ln.Addr().String(), MaxRetries: -1, DialerRetries: 1,
		DialTimeout: time.Hour, ReadTimeout: -1, WriteTimeout: -1, PoolTimeout: time.Hour, ContextTimeoutEnabled: true})
	t.Cleanup(func() { _ = rdb.Close() })
	var logs redistest.Logs
	c := newCache(t, rdb, rediscache.WithTimeout(50*time.Millisecond), rediscache.WithoutLocalTier(),
		rediscache.WithLogger(logs.Logger()))
	got := make(chan lookup, 1)
	go func() {
		v, ok, _ := c.Get(context.Background(), "k")
		got <- lookup{string(v), ok}
	}()
	if diff := cmp.Diff(lookup{}, testwait.Recv(t, got, "a Get against a silent Redis (the timeout does not end it)")); diff != "" {
		t.Errorf("Get mismatch (-want +got):\n%s", diff)
	}
	if !strings.Contains(logs.String(), "cause=timeout") {
		t.Errorf("the Get did not end by the timeout:\n%s", logs.String())
	}
	set(t, c, "k", "v", time.Hour) // Redis is down now: the Set goes to the fallback
	// The Set went to the in-process fallback.
	if diff := cmp.Diff(lookup{"v", true}, get(t, c, "k")); diff != "" {
		t.Errorf("Get mismatch (-want +got):\n%s", diff)
	}
}

func TestCacheCallerCancelDoesNotMarkDown(t *testing.T) {
	t.Parallel()
	_, rdb := redistest.Mini(t)
	c := newCache(t, rdb, rediscache.WithoutLocalTier())
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, _, _ = c.Get(ctx, "k")
	if !c.Reachable() {
		t.Error("a cancelled caller made Redis look down")
	}
}

func TestNewOptions(t *testing.T) {
	t.Parallel()
	_, rdb := redistest.Mini(t)
	tests := []struct {
		name    string
		opts    []rediscache.Option
		wantErr bool
	}{
		{name: "defaults"},
		{name: "tier", opts: []rediscache.Option{rediscache.WithLocalTier(time.Second, 1)}},
		{name: "tier too long", opts: []rediscache.Option{rediscache.WithLocalTier(2*time.Minute, 1)}, wantErr: true},
		{name: "tier zero", opts: []rediscache.Option{rediscache.WithLocalTier(0, 1)}, wantErr: true},
		{name: "tier no bytes", opts: []rediscache.Option{rediscache.WithLocalTier(time.Second, 0)}, wantErr: true},
		{name: "timeout zero", opts: []rediscache.Option{rediscache.WithTimeout(0)}, wantErr: true},
		{name: "timeout long", opts: []rediscache.Option{rediscache.WithTimeout(time.Minute)}, wantErr: true},
		{name: "nil logger", opts: []rediscache.Option{rediscache.WithLogger(nil)}, wantErr: true},
		{name: "nil option", opts: []rediscache.Option{nil}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := rediscache.New(rdb, tc.opts...)
			if (err != nil) != tc.wantErr || (c == nil) != tc.wantErr {
				t.Errorf("New = %v, %v; want error %v", c, err, tc.wantErr)
			}
		})
	}
	if _, err := rediscache.New(nil); err == nil {
		t.Error("New(nil) succeeded")
	}
}

func TestNewClient(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"redis://localhost:6379/0", "rediss://:secret@example.com:6380", "redis://user:pw@h"} {
		c, err := rediscache.NewClient(ok)
		if err != nil {
			t.Errorf("NewClient(%q): %v", ok, err)
			continue
		}
		if o := c.Options(); !o.ContextTimeoutEnabled || o.DialerRetries != 1 {
			t.Errorf("NewClient(%q): ContextTimeoutEnabled %v, DialerRetries %d; want true, 1",
				ok, o.ContextTimeoutEnabled, o.DialerRetries)
		}
		// go-redis ends a call at the earlier of its own timeouts and the
		// context's deadline: shorter ones would cut a component given the
		// longest WithTimeout short (they were 1 s, so REDIS_TIMEOUT=2s
		// bounded each call by 1 s).
		if o := c.Options(); o.DialTimeout < rediscache.MaxTimeout || o.ReadTimeout < rediscache.MaxTimeout ||
			o.WriteTimeout < rediscache.MaxTimeout {
			t.Errorf("NewClient(%q): dial, read, write timeouts %v, %v, %v; want at least %v",
				ok, o.DialTimeout, o.ReadTimeout, o.WriteTimeout, rediscache.MaxTimeout)
		}
		_ = c.Close()
	}
	for _, bad := range []string{"", "http://h", "redis://", "redis://:s3cr3t@h:notaport", "redis://:s3cr3t@h/x", "::s3cr3t"} {
		_, err := rediscache.NewClient(bad)
		if err == nil {
			t.Errorf("NewClient(%q) succeeded", bad)
			continue
		}
		if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("NewClient(%q) error %q shows the URL", bad, err)
		}
	}
}

// FuzzNewClient: any REDIS_URL is refused or accepted without a panic, and
// an error never shows the URL's password.
func FuzzNewClient(f *testing.F) {
	for _, s := range []string{"redis://:pw@h:6379/0", "rediss://u:pw@h", "redis://h:x", "redis://[::1]:1/2?dial_timeout=1s", "%"} {
		f.Add(s, "pw")
	}
	f.Fuzz(func(t *testing.T, u, secret string) {
		if len(secret) < 4 || strings.ContainsAny(secret, ":/@?#%[] ") {
			return
		}
		raw := strings.Replace(u, "pw", secret, 1)
		c, err := rediscache.NewClient(raw)
		if err != nil {
			if strings.Contains(raw, secret) && strings.Contains(err.Error(), secret) {
				t.Errorf("error %q shows the password", err)
			}
			return
		}
		_ = c.Close()
	})
}

// TestRefusedConnectionFailsAtOnce: on a client from NewClient, a Redis
// that refuses connections costs a call one refused dial, not the client's
// dial retries with their pauses (five attempts 100 ms apart by default).
func TestRefusedConnectionFailsAtOnce(t *testing.T) {
	t.Parallel()
	rdb, err := rediscache.NewClient("redis://" + redistest.RefusedAddr(t))
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	dials := &dialCounter{}
	rdb.AddHook(dials)
	c := newCache(t, rdb)
	if d := c.Describe(t.Context()); d.Reachable {
		t.Errorf("Describe with Redis refusing: reachable")
	}
	if n := dials.n.Load(); n != 1 {
		t.Errorf("Describe with Redis refusing dialled %d times, want once", n)
	}
}

// dialCounter is a redis.Hook that counts dial attempts.
type dialCounter struct{ n atomic.Int64 }

func (d *dialCounter) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		d.n.Add(1)
		return next(ctx, network, addr)
	}
}

func (*dialCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }

func (*dialCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
