// Command pgserver starts a throwaway PostgreSQL server for a script, as
// package internal/pgtest does for tests (the same binaries, a free
// loopback port, trust authentication, no durability; as root the server
// runs as the postgres user): the change-monitoring replicas check
// (.ci/changes-replicas.sh) runs its three replicas on it.
//
//	pgserver                        # prints the URL of an empty database, then serves
//	pgserver -query 'SELECT …'      # prints the rows of one query on DATABASE_URL
//
// Without -query it creates the empty database -database (default
// "registry"), prints its postgres:// URL as the first line on stdout and
// the path of the server's log on stderr, and runs until SIGINT or
// SIGTERM; then it stops the server and removes its files. If pgserver
// itself is killed, the server gets SIGQUIT (PostgreSQL's immediate
// shutdown) and stops too; only its temporary folder is left.
//
// With -query it runs one statement on -url (default DATABASE_URL) and
// prints each row on a line, the columns in PostgreSQL's text form
// separated by tabs (a NULL is empty; a tab or newline inside a value
// becomes a space), and exits.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/companyregistry/registry/internal/command"
	"github.com/companyregistry/registry/internal/pgtest"
)

func main() {
	command.Main(func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		return run(ctx, args, os.Getenv, stdout, stderr)
	})
}

// queryTimeout bounds a -query run, connection included.
const queryTimeout = 30 * time.Second

// run is the program; it returns the exit status.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pgserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	database := fs.String("database", "registry", "name of the empty database to create")
	query := fs.String("query", "", "run this statement on -url, print its rows and exit")
	dsn := fs.String("url", "", "the database of -query (default DATABASE_URL)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "pgserver: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *query != "" {
		u := *dsn
		if u == "" {
			u = getenv("DATABASE_URL")
		}
		if u == "" {
			fmt.Fprintln(stderr, "pgserver: -query needs -url or DATABASE_URL")
			return 2
		}
		qctx, cancel := context.WithTimeout(ctx, queryTimeout)
		defer cancel()
		if err := printRows(qctx, u, *query, stdout); err != nil {
			fmt.Fprintln(stderr, "pgserver:", err)
			return 1
		}
		return 0
	}
	return serve(ctx, *database, stdout, stderr)
}

// serve starts the server, creates the database, prints its URL and waits
// for ctx to end.
func serve(ctx context.Context, database string, stdout, stderr io.Writer) int {
	srv := pgtest.New()
	defer srv.Stop()
	if err := srv.Start(); err != nil {
		fmt.Fprintln(stderr, "pgserver:", err)
		if errors.Is(err, pgtest.ErrMissing) {
			return 3
		}
		return 1
	}
	cctx, cancel := context.WithTimeout(ctx, queryTimeout)
	u, err := srv.CreateDatabase(cctx, database)
	cancel()
	if err != nil {
		fmt.Fprintln(stderr, "pgserver:", err)
		return 1
	}
	fmt.Fprintln(stderr, "pgserver: log in", srv.LogFile())
	fmt.Fprintln(stdout, u)
	<-ctx.Done()
	return 0
}

// printRows runs query on the database at dsn and writes its rows.
func printRows(ctx context.Context, dsn, query string, w io.Writer) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(context.Background()) }()
	// The simple protocol answers every column in text form.
	rows, err := conn.Query(ctx, query, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return err
	}
	defer rows.Close()
	clean := strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")
	var b strings.Builder
	for rows.Next() {
		b.Reset()
		for i, v := range rows.RawValues() {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(clean.Replace(string(v)))
		}
		b.WriteByte('\n')
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return rows.Err()
}
