// Package budget keeps a server's calls to a national register within the
// register's allowance, across every replica that shares one Redis: a
// [Budget] is a [registry.UpstreamBudget] for [registry.WithUpstreamBudget],
// built on a [ratelimit.Limiter] with one key per register.
//
// The rates of the registers this module serves are [CompaniesHouse] (600
// requests per five minutes per API key, by its documentation), [Brreg]
// (no published limit; a polite ceiling), [PRH] (about 300 per minute,
// shared), [CVR] (no published limit; a lower polite ceiling, for its
// large answers), [RechercheEntreprises] (under the published 7 a second
// per address) and [Bolagsverket] (60 requests a minute per user, two a
// lookup). Each is a [ratelimit.Ceiling]: never more than the allowance in
// any window, whatever the alignment of the register's own windows.
//
// A budget in Redis falls back to an in-process budget while Redis is
// unreachable. By default that budget has the whole rate, so N replicas
// together could make N times the allowance during the outage (and get an
// API key blocked); pass ratelimit.WithReplicas(n) to [Redis] so that each
// replica keeps to its share ([ratelimit.Rate.Share]) meanwhile.
package budget

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/ratelimit"
)

// KeyPrefix is put in front of the name of a budget kept in Redis.
const KeyPrefix = "companyregistry/budget/"

// CompaniesHouse is the allowance of one Companies House API key: at most
// 600 requests in any five minutes.
func CompaniesHouse() ratelimit.Rate { return ratelimit.Ceiling(600, 5*time.Minute) }

// Brreg is the default polite ceiling for Brønnøysund, which publishes no
// limit: at most 300 requests in any minute (5 per second on average, the
// pace a careful published client keeps).
func Brreg() ratelimit.Rate { return ratelimit.Ceiling(300, time.Minute) }

// PRH is the allowance of the Finnish Patent and Registration Office's open
// data API: at most 300 requests in any minute, shared by all its users.
func PRH() ratelimit.Rate { return ratelimit.Ceiling(300, time.Minute) }

// RechercheEntreprises is the default ceiling for France's API Recherche
// d'entreprises, which accepts at most 7 requests a second per address (and
// answers more with 429): at most 6 requests in any second, 5 a second when
// sustained, one at a time. The one request a second below the published
// limit absorbs network jitter that bunches requests sent 200 ms apart, so
// that a whole deployment sharing this budget (and one egress address)
// stays under 7 in any second as the API counts them.
func RechercheEntreprises() ratelimit.Rate { return ratelimit.Ceiling(6, time.Second) }

// CVR is the default polite ceiling for Erhvervsstyrelsen's CVR
// distribution, which publishes no limit: at most 120 requests in any
// minute (2 per second on average), below Brønnøysund's 300 because one
// answer is large (a company document is 40–300 KB, a search page of
// filtered documents up to a few MB) and the service, shared by every
// holder of a credential, is one Elasticsearch cluster. Raise it with
// DK=N/window in REGISTRY_UPSTREAM_BUDGETS if Erhvervsstyrelsen agrees to
// more.
func CVR() ratelimit.Rate { return ratelimit.Ceiling(120, time.Minute) }

// Bolagsverket is the allowance of one credential of Bolagsverket's API
// (Värdefulla datamängder), which allows each user 60 requests a minute:
// at most 29 lookups in any minute. A lookup is two requests
// (/organisationer, then /dokumentlista for the financial year), so 30
// would use the whole allowance; the one request left is for the token,
// fetched once an hour and on a refused token, which the published limit
// may or may not count (the sources do not say). Searches and lookups
// answered from the bulk file cost nothing ([registry.LocalAnswers]).
func Bolagsverket() ratelimit.Rate { return ratelimit.Ceiling(29, time.Minute) }

// Budget is an allowance of calls to one register. It is safe for
// concurrent use.
type Budget struct {
	l   ratelimit.Limiter
	key string
}

var _ registry.UpstreamReserver = (*Budget)(nil)

// New returns the budget called name on l: every Budget with the same
// limiter (or the same Redis and prefix) and name draws on one allowance.
func New(l ratelimit.Limiter, name string) (*Budget, error) {
	if l == nil {
		return nil, errors.New("budget: New: nil limiter")
	}
	if name == "" {
		return nil, errors.New("budget: New: empty name")
	}
	return &Budget{l: l, key: name}, nil
}

// Local returns an in-process budget of rate.
func Local(rate ratelimit.Rate) (*Budget, error) {
	l, err := ratelimit.NewLocal(rate, ratelimit.WithMaxKeys(1))
	if err != nil {
		return nil, err
	}
	return New(l, "local")
}

// Redis returns the budget called name (for example "GB" and a digest of
// the API key, so that two keys have two budgets) of rate, kept in rdb
// under [KeyPrefix] and shared by every replica that uses the same name. It
// falls back to an in-process budget of rate (or of its share, with
// ratelimit.WithReplicas) while Redis is unreachable. opts are those of
// [ratelimit.NewRedis] (a logger, a timeout, the number of replicas).
func Redis(rdb redis.UniversalClient, name string, rate ratelimit.Rate, opts ...ratelimit.Option) (*Budget, error) {
	opts = append([]ratelimit.Option{ratelimit.WithKeyPrefix(KeyPrefix), ratelimit.WithMaxKeys(1),
		ratelimit.WithComponent("budget")}, opts...)
	l, err := ratelimit.NewRedis(rdb, rate, opts...)
	if err != nil {
		return nil, err
	}
	return New(l, name)
}

// Reachable reports whether the budget's last Redis call succeeded; it is
// true for a budget that does not use Redis.
func (b *Budget) Reachable() bool {
	if r, ok := b.l.(*ratelimit.Redis); ok {
		return r.Reachable()
	}
	return true
}

// Take implements [registry.UpstreamBudget]: it takes one call.
func (b *Budget) Take(ctx context.Context) (bool, time.Duration, error) {
	return b.l.Allow(ctx, b.key, 1)
}

// Reserve implements [registry.UpstreamReserver]: it takes one call that
// the budget allows within within, to be made after wait, so that the
// callers waiting for the budget are served in the order they asked and
// one that cannot be served within within learns so at once. On a limiter
// that cannot reserve (not a [ratelimit.Reserver]) a call is taken only
// when it is allowed at once; otherwise ok is false with the wait.
func (b *Budget) Reserve(ctx context.Context, within time.Duration) (bool, time.Duration, func(context.Context), error) {
	if r, ok := b.l.(ratelimit.Reserver); ok {
		return r.Reserve(ctx, b.key, within)
	}
	ok, wait, err := b.l.Allow(ctx, b.key, 1)
	return ok, wait, nil, err
}
