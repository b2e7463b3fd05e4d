// Command embed shows the library used the way an ERP integration uses it: a
// batch of organisation numbers in, the next statutory filing deadline of
// each kind out, one tab-separated line per deadline, soonest first.
//
//	go run ./examples/embed -today 2026-01-15 923609016 974760673
//
// It reads the Brønnøysund register (BRREG_BASE_URL overrides its address)
// and, when COMPANIES_HOUSE_API_KEY is set, Companies House for -country GB.
// Identifiers that fail are reported on stderr with their error code and
// hint; the others are still printed. The exit status is 1 when any failed.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	_ "time/tzdata"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries"
)

func main() {
	country := flag.String("country", "NO", "country code of the identifiers (NO or GB)")
	todayFlag := flag.String("today", "", "compute from this date (YYYY-MM-DD); default today in the register's time zone")
	flag.Parse()
	reg, err := newRegistry(os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	today, err := dayOf(reg, *country, *todayFlag)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, reg, *country, today, flag.Args(), os.Stdout, os.Stderr); err != nil {
		os.Exit(1)
	}
}

// newRegistry builds the default modules from the environment variables
// of [countries.ConfigFromEnv].
func newRegistry(getenv func(string) string) (*registry.Registry, error) {
	cs, err := countries.All(countries.ConfigFromEnv(getenv))
	if err != nil {
		return nil, err
	}
	return registry.New(cs)
}

// dayOf returns the date of -today, or today in the register's own time
// zone when it is empty.
func dayOf(reg *registry.Registry, country, flagValue string) (registry.Date, error) {
	if flagValue == "" {
		return reg.Today(country)
	}
	d, err := registry.ParseDate(flagValue)
	if err != nil {
		return registry.Date{}, fmt.Errorf("-today %q: %w", flagValue, err)
	}
	return d, nil
}

// row is one deadline of one company.
type row struct {
	d    registry.Deadline
	name string
}

// writeTable writes rows, soonest first, as an aligned table with a header.
// DAYS is "-" when the deadline has no days_until (it is nullable).
func writeTable(out io.Writer, rows []row) error {
	slices.SortStableFunc(rows, func(a, b row) int { return a.d.DueDate.Compare(b.d.DueDate) })
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DUE\tDAYS\tKIND\tCOMPANY\tMANDATORY")
	for _, r := range rows {
		days := "-"
		if r.d.DaysUntil != nil {
			days = strconv.Itoa(*r.d.DaysUntil)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%t\n", r.d.DueDate, days, r.d.Kind, r.name, r.d.Mandatory)
	}
	return tw.Flush()
}

// errSomeFailed says that at least one identifier could not be answered.
var errSomeFailed = errors.New("embed: some identifiers failed")

// run computes the deadlines of every id and writes them, soonest first, to
// out; failures go to errOut, one line each.
func run(ctx context.Context, reg *registry.Registry, country string, today registry.Date, ids []string, out, errOut io.Writer) error {
	var rows []row
	failed := false
	for _, id := range ids {
		rep, err := reg.Deadlines(ctx, country, id, today)
		if err != nil {
			e := registry.AsError(err)
			fmt.Fprintf(errOut, "%s\t%s\t%s\n", id, e.Code, e.Hint)
			failed = true
			continue
		}
		name := rep.CompanyID
		if rep.CompanyName != nil {
			name = *rep.CompanyName
		}
		if len(rep.Deadlines) == 0 {
			fmt.Fprintf(errOut, "%s\tno deadlines\t%s\n", rep.CompanyID, strings.Join(rep.Notes, " "))
		}
		for _, d := range rep.Deadlines {
			rows = append(rows, row{d: d, name: name})
		}
	}
	if err := writeTable(out, rows); err != nil {
		return err
	}
	if failed {
		return errSomeFailed
	}
	return nil
}
