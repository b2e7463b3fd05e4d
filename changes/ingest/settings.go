package ingest

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/companyregistry/registry/changes"
)

// The environment variables an operator sets for the ingesters.
const (
	// EnvChangesInterval is how often the registers' feeds are read and
	// the pollers run (a Go duration such as 1m; default 1m).
	EnvChangesInterval = "REGISTRY_CHANGES_INTERVAL"
	// EnvPollInterval is how often a watched company of a country without
	// a feed is fetched (default 24h).
	EnvPollInterval = "REGISTRY_WATCH_POLL_INTERVAL"
	// EnvStreamKey is the Companies House streaming API key; without it
	// the watched British companies are polled.
	EnvStreamKey = "COMPANIES_HOUSE_STREAM_KEY"
)

// Settings are the ingesters' settings from the environment.
type Settings struct {
	// Interval is [EnvChangesInterval].
	Interval time.Duration
	// PollInterval is [EnvPollInterval].
	PollInterval time.Duration
	// StreamKey is [EnvStreamKey]; fmt never prints it.
	StreamKey string
}

// String describes s without the stream key.
func (s Settings) String() string {
	key := "none"
	if s.StreamKey != "" {
		key = "set"
	}
	return fmt.Sprintf("interval %v, poll interval %v, stream key %s", s.Interval, s.PollInterval, key)
}

// GoString is String, so that %#v hides the key too.
func (s Settings) GoString() string { return s.String() }

// SettingsFromEnv reads the settings with getenv (os.Getenv): a missing
// or empty variable takes its default; a duration that does not parse or
// is out of range is an error naming the variable (never the key).
func SettingsFromEnv(getenv func(string) string) (Settings, error) {
	s := Settings{Interval: DefaultInterval, PollInterval: DefaultPollInterval, StreamKey: strings.TrimSpace(getenv(EnvStreamKey))}
	for _, v := range []struct {
		name   string
		into   *time.Duration
		option func(time.Duration) Option
	}{
		{EnvChangesInterval, &s.Interval, WithInterval},
		{EnvPollInterval, &s.PollInterval, WithPollInterval},
	} {
		raw := strings.TrimSpace(getenv(v.name))
		if raw == "" {
			continue
		}
		d, err := time.ParseDuration(raw)
		if err != nil {
			return Settings{}, fmt.Errorf("ingest: %s: %q is not a duration such as 1m or 24h", v.name, raw)
		}
		if err := v.option(d)(&options{}); err != nil {
			return Settings{}, fmt.Errorf("%s: %w", v.name, err)
		}
		*v.into = d
	}
	return s, nil
}

// Standard returns the ingesters of the countries (two-letter codes, those
// of the Registry's modules): for NO the reader of Brønnøysund's feeds;
// for GB the reader of Companies House's streams with a sweep-only poller
// when s has a stream key, a poller otherwise; for every other country a
// poller at s.PollInterval. opts go to every constructor (give
// [WithBudget] the Registry's budget for NO; do not give [WithBaseURL]
// here). Pass the result to [NewLeader] with [WithInterval](s.Interval).
func Standard(store changes.Store, fetch changes.Fetcher, countries []string, s Settings, opts ...Option) ([]Ingester, error) {
	if s.PollInterval == 0 {
		s.PollInterval = DefaultPollInterval
	}
	codes := slices.Clone(countries)
	slices.Sort(codes)
	codes = slices.Compact(codes)
	var out []Ingester
	for _, cc := range codes {
		switch {
		case cc == "NO":
			n, err := NewNorway(store, fetch, opts...)
			if err != nil {
				return nil, err
			}
			out = append(out, n)
		case cc == "GB" && s.StreamKey != "":
			p, err := NewPoller(store, fetch, cc, append(slices.Clone(opts), WithPollInterval(s.PollInterval), WithSweepOnly())...)
			if err != nil {
				return nil, err
			}
			st, err := NewCompaniesHouseStream(store, fetch, s.StreamKey, append(slices.Clone(opts), WithSweeper(p))...)
			if err != nil {
				return nil, err
			}
			out = append(out, st, p)
		default:
			p, err := NewPoller(store, fetch, cc, append(slices.Clone(opts), WithPollInterval(s.PollInterval))...)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
	}
	return out, nil
}
