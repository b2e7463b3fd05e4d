package ingest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func env(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

// TestSettingsFromEnv (issue 28): the settings' names and defaults (1m,
// 24h, no key), their parsing, and errors that name the variable.
func TestSettingsFromEnv(t *testing.T) {
	t.Parallel()
	s, err := SettingsFromEnv(env(nil))
	if err != nil || s.Interval != time.Minute || s.PollInterval != 24*time.Hour || s.StreamKey != "" {
		t.Errorf("defaults %v, %v", s, err)
	}
	s, err = SettingsFromEnv(env(map[string]string{
		"REGISTRY_CHANGES_INTERVAL": "30s", "REGISTRY_WATCH_POLL_INTERVAL": "6h", "COMPANIES_HOUSE_STREAM_KEY": " secret-key ",
	}))
	if err != nil || s.Interval != 30*time.Second || s.PollInterval != 6*time.Hour || s.StreamKey != "secret-key" {
		t.Errorf("parsed %v, %v", s, err)
	}
	if got := fmt.Sprintf("%v %+v %#v %s", s, s, s, s); strings.Contains(got, "secret-key") {
		t.Errorf("fmt shows the key: %s", got)
	}
	for name, val := range map[string]string{
		"REGISTRY_CHANGES_INTERVAL": "soon", "REGISTRY_WATCH_POLL_INTERVAL": "10s",
	} {
		_, err := SettingsFromEnv(env(map[string]string{name: val, "COMPANIES_HOUSE_STREAM_KEY": "secret-key"}))
		if err == nil || !strings.Contains(err.Error(), name) || strings.Contains(err.Error(), "secret-key") {
			t.Errorf("%s=%s: %v", name, val, err)
		}
	}
}

// TestStandard: the ingesters per country, with and without a stream
// key.
func TestStandard(t *testing.T) {
	t.Parallel()
	names := func(s Settings) []string {
		ins, err := Standard(newMemStore(), newFakeFetcher(), []string{"NO", "GB", "FI", "FI", "DK"}, s)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, in := range ins {
			_, stream := in.(Streamer)
			out = append(out, fmt.Sprintf("%s %v", in.Name(), stream))
		}
		return out
	}
	if diff := cmp.Diff([]string{"DK/poll false", "FI/poll false", "GB/poll false", "NO/feeds false"}, names(Settings{})); diff != "" {
		t.Errorf("without a key (-want +got):\n%s", diff)
	}
	withKey := names(Settings{StreamKey: "k", PollInterval: time.Hour})
	if diff := cmp.Diff([]string{"DK/poll false", "FI/poll false", "GB/stream true", "GB/poll false", "NO/feeds false"}, withKey); diff != "" {
		t.Errorf("with a key (-want +got):\n%s", diff)
	}
}
