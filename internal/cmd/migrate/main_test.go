package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"REGISTRY_DATA_DIR": filepath.Join(dir, "data")}
	cases := []struct {
		name       string
		args       []string
		env        map[string]string
		code       int
		out, inErr string
	}{
		{"from REGISTRY_DATA_DIR", nil, env, 0, "sqlite schema at version 6\n", ""},
		{"again: nothing to do", nil, env, 0, "sqlite schema at version 6\n", ""},
		{"flag", []string{"-database", "sqlite:" + filepath.Join(dir, "other.db")}, nil, 0, "sqlite schema at version 6\n", ""},
		{"nothing set", nil, nil, 2, "", "migrate: no database: pass -database, or set DATABASE_URL or REGISTRY_DATA_DIR\n"},
		{"not a database", []string{"-database", "mysql://x"}, nil, 1, "", "migrate: changes/sqlstore: the database is neither a postgres:// URL nor \"sqlite:\" and a file path\n"},
	}
	for _, c := range cases {
		var out, errOut bytes.Buffer
		code := run(context.Background(), c.args, func(k string) string { return c.env[k] }, &out, &errOut)
		if code != c.code || out.String() != c.out || errOut.String() != c.inErr {
			t.Errorf("%s: code %d, stdout %q, stderr %q; want %d, %q, %q", c.name, code, out.String(), errOut.String(), c.code, c.out, c.inErr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "changes.db")); err != nil {
		t.Errorf("the SQLite file in REGISTRY_DATA_DIR: %v", err)
	}
}
