package pgtest_test

import (
	"context"
	"testing"

	"github.com/companyregistry/registry/internal/pgtest"
	"github.com/jackc/pgx/v5"
)

var pg = pgtest.New()

func TestMain(m *testing.M) { pg.Main(m) }

// Each test gets its own empty database: a table made in one is not in
// the other, and both are on the one server.
func TestDatabasesAreSeparate(t *testing.T) {
	ctx := context.Background()
	a, b := pg.Database(t), pg.Database(t)
	if a == b {
		t.Fatalf("two databases share the URL %s", a)
	}
	ca, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close(ctx)
	if _, err := ca.Exec(ctx, "CREATE TABLE only_in_a (x int)"); err != nil {
		t.Fatal(err)
	}
	cb, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close(ctx)
	var n int
	if err := cb.QueryRow(ctx, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'only_in_a'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("the table made in one database is visible in the other")
	}
	var user string
	if err := cb.QueryRow(ctx, "SELECT current_user").Scan(&user); err != nil {
		t.Fatal(err)
	}
	if user != "postgres" {
		t.Errorf("current_user = %q, want postgres", user)
	}
}

// A database is dropped when its test ends.
func TestDatabaseDroppedAfterTest(t *testing.T) {
	var name string
	t.Run("inner", func(t *testing.T) {
		cfg, err := pgx.ParseConfig(pg.Database(t))
		if err != nil {
			t.Fatal(err)
		}
		name = cfg.Database
	})
	if name == "" {
		t.Skip("no database (PostgreSQL not installed)")
	}
	ctx := context.Background()
	c, err := pgx.Connect(ctx, pg.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var n int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM pg_database WHERE datname = $1", name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("database %s still exists after its test", name)
	}
}

// CreateDatabase refuses a name that would need quoting (it is spliced
// into the statement), and makes one it accepts.
func TestCreateDatabaseName(t *testing.T) {
	pg.Database(t) // starts the server, or skips without the binaries
	ctx := context.Background()
	for _, bad := range []string{"", "Upper", "a-b", "x; DROP DATABASE postgres", `"q"`} {
		if u, err := pg.CreateDatabase(ctx, bad); err == nil {
			t.Errorf("CreateDatabase(%q) = %s, want an error", bad, u)
		}
	}
	u, err := pg.CreateDatabase(ctx, "made_by_name_1")
	if err != nil {
		t.Fatal(err)
	}
	if want := pg.URL("made_by_name_1"); u != want {
		t.Errorf("URL %s, want %s", u, want)
	}
	c, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.Close(ctx)
}
