// Command migrate brings the change-monitoring schema of a database up to
// date and exits: the step a deployment runs alone before it starts the
// servers (which migrate at start too). It is safe to run while replicas
// start: on PostgreSQL migrations take an advisory lock.
//
//	go run ./internal/cmd/migrate -database "$DATABASE_URL"
//	go run ./internal/cmd/migrate -database sqlite:/var/lib/registry/changes.db
//
// Without -database it reads DATABASE_URL, and without that the SQLite
// file changes.db in REGISTRY_DATA_DIR. It prints the schema version.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/companyregistry/registry/changes/sqlstore"
	"github.com/companyregistry/registry/internal/command"
)

func main() {
	command.Main(func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		return run(ctx, args, os.Getenv, stdout, stderr)
	})
}

// run is the program; it returns the exit status.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	database := fs.String("database", "", `the database: a postgres:// URL or "sqlite:" and a file path (default: DATABASE_URL, else sqlite:$REGISTRY_DATA_DIR/`+sqlstore.FileName+`)`)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	dsn := *database
	if dsn == "" {
		dsn = getenv("DATABASE_URL")
	}
	if dsn == "" && getenv("REGISTRY_DATA_DIR") != "" {
		dsn = "sqlite:" + filepath.Join(getenv("REGISTRY_DATA_DIR"), sqlstore.FileName)
	}
	if dsn == "" {
		fmt.Fprintln(stderr, "migrate: no database: pass -database, or set DATABASE_URL or REGISTRY_DATA_DIR")
		return 2
	}
	if err := sqlstore.Migrate(ctx, dsn); err != nil {
		fmt.Fprintln(stderr, "migrate:", err)
		return 1
	}
	s, err := sqlstore.Open(ctx, dsn, sqlstore.WithoutMigrate())
	if err != nil {
		fmt.Fprintln(stderr, "migrate:", err)
		return 1
	}
	defer s.Close()
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "migrate:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s schema at version %d\n", s.Dialect(), v)
	return 0
}
