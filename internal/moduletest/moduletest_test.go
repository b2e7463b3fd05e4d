package moduletest

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Sequence answers in turn and repeats its last responder, also under
// concurrent requests.
func TestSequence(t *testing.T) {
	t.Parallel()
	seq := Sequence(JSONResponder(500, nil), JSONResponder(429, nil, "Retry-After", "3"), JSONResponder(200, []byte(`{}`)))
	req, err := http.NewRequest(http.MethodGet, "https://x.test/", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for range 4 {
		r, err := seq(req)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.StatusCode)
		if r.StatusCode == 429 && r.Header.Get("Retry-After") != "3" {
			t.Errorf("429 headers %v", r.Header)
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q", ct)
		}
	}
	if diff := cmp.Diff([]int{500, 429, 200, 200}, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if r, err := seq(req); err != nil || r.StatusCode != 200 {
				t.Errorf("concurrent: %v", err)
			}
		})
	}
	wg.Wait()
}

// Indent escapes HTML only when asked and keeps a string as is; Golden
// writes under update and then compares equal.
func TestIndentAndGolden(t *testing.T) {
	t.Parallel()
	v := map[string]string{"a": "<&>"}
	if diff := cmp.Diff("{\n  \"a\": \"<&>\"\n}\n", string(Indent(t, v, false))); diff != "" {
		t.Errorf("unescaped (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("{\n  \"a\": \"\\u003c\\u0026\\u003e\"\n}\n", string(Indent(t, v, true))); diff != "" {
		t.Errorf("escaped (-want +got):\n%s", diff)
	}
	if got := string(Indent(t, "# doc\n", false)); got != "# doc\n" {
		t.Errorf("string: %q", got)
	}
	path := filepath.Join(t.TempDir(), "x.golden")
	Golden(t, path, []byte("one\n"), true)
	if b, err := os.ReadFile(path); err != nil || string(b) != "one\n" {
		t.Fatalf("written %q, %v", b, err)
	}
	Golden(t, path, []byte("one\n"), false)
}

// ReadFiles reads every match in name order.
func TestReadFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, body := range map[string]string{"b.json": "B", "a.json": "A", "c.txt": "C"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, b := range ReadFiles(t, filepath.Join(dir, "*.json")) {
		got = append(got, string(b))
	}
	if diff := cmp.Diff([]string{"A", "B"}, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

// SyncBuffer keeps every concurrent write.
func TestSyncBuffer(t *testing.T) {
	t.Parallel()
	var b SyncBuffer
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() { _, _ = io.WriteString(&b, "xy") })
	}
	wg.Wait()
	if b.Len() != 100 || len(b.String()) != 100 {
		t.Errorf("Len %d, String %d bytes, want 100", b.Len(), len(b.String()))
	}
}

type rulesOnce struct{ doc string }

func (r rulesOnce) Rules() string { return r.doc }

// Build passes the options to New; RulesBuiltOnce accepts a module whose
// Rules is built once.
func TestBuildAndRules(t *testing.T) { //nolint:paralleltest // AllocsPerRun
	newModule := func(opts ...string) (rulesOnce, error) { return rulesOnce{doc: "# " + opts[0] + "\n"}, nil }
	m := Build(t, newModule, "XX")
	if m.doc != "# XX\n" {
		t.Errorf("Build: %q", m.doc)
	}
	RulesBuiltOnce(t, m)
}
