package command_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/companyregistry/registry/internal/command"
	"github.com/companyregistry/registry/internal/leakcheck"
)

func TestMain(m *testing.M) { leakcheck.Main(m) }

// serve runs command.Serve of h in a goroutine; it returns the URL printed
// and the channel of Serve's result.
func serve(t *testing.T, ctx context.Context, h http.Handler, grace time.Duration) (string, <-chan error) {
	t.Helper()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- command.Serve(ctx, "127.0.0.1:0", "/api", h, pw, grace)
		_ = pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("no URL printed: %v (Serve: %v)", err, <-done)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	return strings.TrimSuffix(line, "\n"), done
}

// TestServe: the printed URL is the listening address with the suffix, the
// handler answers there, and Serve returns nil once ctx ends.
func TestServe(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	url, done := serve(t, ctx, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, r.URL.Path)
	}), time.Minute)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/api") {
		t.Fatalf("printed %q, want http://127.0.0.1:PORT/api", url)
	}
	res, err := http.Get(url + "/x")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if string(b) != "/api/x" {
		t.Errorf("answer %q, want /api/x", b)
	}
	http.DefaultClient.CloseIdleConnections()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve after ctx ended: %v, want nil", err)
	}
}

// TestServeCutsWhatOutlivesTheGrace: a request still running when the
// grace is over is cut off, and Serve says the shutdown did not finish.
func TestServeCutsWhatOutlivesTheGrace(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	entered, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	url, done := serve(t, ctx, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}), time.Nanosecond)
	got := make(chan error, 1)
	go func() {
		res, err := http.Get(url + "/held")
		if err == nil {
			_ = res.Body.Close()
		}
		got <- err
	}()
	<-entered
	cancel()
	if err := <-done; !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Serve: %v, want the shutdown's deadline", err)
	}
	if err := <-got; err == nil {
		t.Error("the held request was answered, want its connection cut")
	}
}

// TestServeListenError: an address that cannot be listened on is an error,
// and nothing is printed.
func TestServeListenError(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	if err := command.Serve(t.Context(), "127.0.0.1:-1", "", http.NotFoundHandler(), &out, time.Second); err == nil {
		t.Fatal("Serve listened on port -1")
	}
	if out.Len() != 0 {
		t.Errorf("printed %q before failing", out.String())
	}
}
