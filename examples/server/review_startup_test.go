package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReview_DisagreeingPathsRefusedBeforeTheStore: REGISTRY_BASE_PATH and
// the path of REGISTRY_PUBLIC_URL, each accepted alone, disagree. The
// program refuses them, as it refuses every setting, before change
// monitoring's store is opened (which creates REGISTRY_DATA_DIR): the
// settings were tried only one at a time before the store, and together
// only after it.
func TestReview_DisagreeingPathsRefusedBeforeTheStore(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	cfg, err := parseConfig(nil, env(map[string]string{"REGISTRY_BASE_PATH": "/a", "REGISTRY_PUBLIC_URL": "https://r.example/b",
		"REGISTRY_DATA_DIR": dir}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	a, err := build(cfg, slog.New(slog.DiscardHandler))
	if err == nil {
		a.close()
		t.Fatal("build accepted a base path that disagrees with the public URL's path")
	}
	if !strings.Contains(err.Error(), "disagree") {
		t.Errorf("error %v, want the disagreement", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("REGISTRY_DATA_DIR was created before the settings were refused (stat: %v)", err)
	}
}
