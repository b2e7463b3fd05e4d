package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
)

// TestServeAndQuery: pgserver prints the URL of an empty database, -query
// prints rows in text form (tabs between columns, NULL empty, a tab in a
// value a space), and the server stops when the context ends.
func TestServeAndQuery(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var errOut bytes.Buffer
	done := make(chan int, 1)
	go func() {
		code := run(ctx, nil, noEnv, pw, &errOut)
		_ = pw.Close()
		done <- code
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if err != nil {
		code := <-done
		if code == 3 && os.Getenv("CI") == "" {
			t.Skipf("PostgreSQL is not installed: %s", errOut.String())
		}
		t.Fatalf("no URL (exit %d): %v; stderr %s", code, err, errOut.String())
	}
	u := strings.TrimSpace(line)
	if !strings.HasPrefix(u, "postgres://") || !strings.Contains(u, "/registry?") {
		t.Fatalf("URL %q, want a postgres:// URL of the database registry", u)
	}

	var out, qerr bytes.Buffer
	code := run(context.Background(), []string{"-query", "SELECT 1, NULL, 'a\tb', 'x' UNION ALL SELECT 2, 'n', 'c', NULL ORDER BY 1"},
		func(k string) string { return map[string]string{"DATABASE_URL": u}[k] }, &out, &qerr)
	if code != 0 {
		t.Fatalf("-query: exit %d, stderr %s", code, qerr.String())
	}
	if diff := cmp.Diff("1\t\ta b\tx\n2\tn\tc\t\n", out.String()); diff != "" {
		t.Errorf("-query rows (-want +got):\n%s", diff)
	}

	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d after the context ended; stderr %s", code, errOut.String())
		}
	case <-time.After(time.Minute): // a bound for a hung stop, not a synchronisation
		t.Fatal("pgserver did not stop within a minute of its context ending")
	}
	cctx, ccancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer ccancel()
	if c, err := pgx.Connect(cctx, u+"&connect_timeout=2"); err == nil {
		_ = c.Close(cctx)
		t.Errorf("the server still accepts connections after pgserver stopped")
	}
}

// TestUsage: what pgserver refuses, with exit 2 (usage) or 1 (a failed
// query).
func TestUsage(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"an argument", []string{"stray"}, 2, "pgserver: unexpected argument \"stray\"\n"},
		{"query without a database", []string{"-query", "SELECT 1"}, 2, "pgserver: -query needs -url or DATABASE_URL\n"},
		{"bad URL", []string{"-query", "SELECT 1", "-url", "postgres://127.0.0.1:1/x?connect_timeout=1"}, 1, "pgserver: "},
		{"bad flag", []string{"-nope"}, 2, "flag provided but not defined: -nope"},
	} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), c.args, noEnv, &out, &errOut)
		if code != c.code || !strings.HasPrefix(errOut.String(), c.want) || out.Len() != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %d and stderr starting %q", c.name, code, out.String(), errOut.String(), c.code, c.want)
		}
	}
}

func noEnv(string) string { return "" }
