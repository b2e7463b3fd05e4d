// Command deadlines-csv turns a CSV of company identifiers into a CSV of
// their next statutory filing deadlines, one row per deadline, the way an
// accountant or an ERP import wants them:
//
//	go run ./examples/deadlines-csv -country NO -in clients.csv -out deadlines.csv
//
// Input: the identifiers are the first column of -in (default stdin); other
// columns are ignored, blank cells skipped, and a first row whose first cell
// is not a valid identifier and holds no digit is taken as a header.
// Identifiers may be written as people write them ("923 609 016").
//
// Output (-out, default stdout), with a header row:
//
//	input_id, company_id, company_name, kind, name, local_name, authority,
//	due_date, statutory_date, rolled_forward, period_label, period_end,
//	days_until, mandatory, legal_basis, source_url
//
// in the order of the input, each company's deadlines soonest first. Dates are
// YYYY-MM-DD, days_until counts from -today (negative is overdue), legal_basis
// is the deadline's applies_because sentence, and an unknown value is an
// empty cell. A text cell that starts with = + - @, a tab or a CR gets a
// leading ' so that a spreadsheet does not run it as a formula.
//
// The deadlines come from [registry.Registry.DeadlinesBatch], in chunks so
// that progress can be shown: a bar on stderr when stderr is a terminal, else
// one counter line per chunk. At the end a summary on stderr lists every
// identifier that failed with its error code and hint; the exit status is 1
// when any failed, 2 for a usage or input error.
//
// It reads the Brønnøysund register (BRREG_BASE_URL overrides its address)
// and, when COMPANIES_HOUSE_API_KEY is set, Companies House for -country GB.
package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"

	_ "time/tzdata"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countries"
)

// chunk is how many identifiers one DeadlinesBatch call gets between two
// progress updates: a few rounds of the batch concurrency.
const chunk = 4 * registry.DefaultBatchConcurrency

// header is the first row of the output.
var header = []string{"input_id", "company_id", "company_name", "kind", "name", "local_name", "authority",
	"due_date", "statutory_date", "rolled_forward", "period_label", "period_end", "days_until", "mandatory",
	"legal_basis", "source_url"}

func main() {
	country := flag.String("country", "NO", "country code of the identifiers (NO or GB)")
	todayFlag := flag.String("today", "", "compute from this date (YYYY-MM-DD); default today in the register's time zone")
	inPath := flag.String("in", "-", "CSV file of identifiers, first column; - is stdin")
	outPath := flag.String("out", "-", "CSV file to write; - is stdout")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	code := func() int {
		reg, err := newRegistry(os.Getenv)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		in, out, closeAll, err := open(*inPath, *outPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		err = run(ctx, reg, config{country: *country, today: *todayFlag}, in, out, os.Stderr, newProgress(os.Stderr))
		if cerr := closeAll(); err == nil && cerr != nil {
			err = cerr
		}
		switch {
		case err == nil:
			return 0
		case errors.Is(err, errSomeFailed):
			return 1
		default:
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}()
	stop()
	os.Exit(code)
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

// open opens the input and output files ("-" is stdin or stdout).
func open(inPath, outPath string) (io.Reader, io.Writer, func() error, error) {
	var in io.Reader = os.Stdin
	var out io.Writer = os.Stdout
	var closers []func() error
	if inPath != "-" {
		f, err := os.Open(inPath)
		if err != nil {
			return nil, nil, nil, err
		}
		in = f
		closers = append(closers, f.Close)
	}
	if outPath != "-" {
		f, err := os.Create(outPath)
		if err != nil {
			for _, c := range closers {
				_ = c()
			}
			return nil, nil, nil, err
		}
		out = f
		closers = append(closers, f.Close)
	}
	return in, out, func() error {
		var errs []error
		for _, c := range closers {
			errs = append(errs, c())
		}
		return errors.Join(errs...)
	}, nil
}

// progress is told how many identifiers are answered of how many.
type progress func(done, total int)

// newProgress returns a progress bar on w when w is a terminal, else a
// plain counter line per update.
func newProgress(w *os.File) progress {
	if !term.IsTerminal(int(w.Fd())) {
		return func(done, total int) { fmt.Fprintf(w, "deadlines: %d/%d identifiers\n", done, total) }
	}
	var bar *progressbar.ProgressBar
	return func(done, total int) {
		if bar == nil {
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription("deadlines"),
				progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
		}
		_ = bar.Set(done)
	}
}

// config is the command line of a run.
type config struct {
	country string
	today   string // YYYY-MM-DD, or "" for today in the register's time zone
}

// errSomeFailed says that at least one identifier could not be answered.
var errSomeFailed = errors.New("deadlines-csv: some identifiers failed")

// run reads the identifiers from in, writes the deadline rows to out, shows
// progress, and writes the summary to errOut. It returns errSomeFailed when
// any identifier failed, another error when nothing could be done.
func run(ctx context.Context, reg *registry.Registry, cfg config, in io.Reader, out, errOut io.Writer, show progress) error {
	today, err := dayOf(reg, cfg.country, cfg.today)
	if err != nil {
		return err
	}
	ids, err := readIDs(in, func(cell string) bool {
		v, err := reg.Validate(cfg.country, cell)
		return err == nil && v.Valid
	})
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		return errors.New("deadlines-csv: the input holds no identifiers")
	}
	w := csv.NewWriter(out)
	if err := w.Write(header); err != nil {
		return err
	}
	var failed []registry.DeadlinesItem
	rows, empty := 0, 0
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		items, err := reg.DeadlinesBatch(ctx, cfg.country, part, today)
		if err != nil {
			return err // unsupported_country: the whole run
		}
		for _, it := range items {
			if it.Err != nil {
				failed = append(failed, it)
				continue
			}
			if len(it.Report.Deadlines) == 0 {
				empty++
			}
			for _, row := range rowsOf(it.ID, it.Report) {
				if err := w.Write(row); err != nil {
					return err
				}
				rows++
			}
		}
		show(start+len(part), len(ids))
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	fmt.Fprintf(errOut, "%d identifiers: %d deadlines written, %d companies without deadlines, %d failed.\n",
		len(ids), rows, empty, len(failed))
	for _, it := range failed {
		e := registry.AsError(it.Err)
		fmt.Fprintf(errOut, "  %s: %s: %s %s\n", it.ID, e.Code, e.Message, e.Hint)
	}
	if len(failed) > 0 {
		return errSomeFailed
	}
	return nil
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

// readIDs returns the first column of the CSV in r, trimmed, blank cells
// left out. The first row is a header, and left out, when its first cell is
// not valid and holds no digit. Rows may have any number of columns.
func readIDs(r io.Reader, valid func(string) bool) ([]string, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	var ids []string
	for line := 0; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return ids, nil
		}
		if err != nil {
			return nil, fmt.Errorf("deadlines-csv: reading the input: %w", err)
		}
		cell := strings.TrimSpace(strings.TrimPrefix(rec[0], "\uFEFF")) // a spreadsheet's byte order mark
		if cell == "" {
			continue
		}
		if line == 0 && !valid(cell) && !strings.ContainsAny(cell, "0123456789") {
			continue // a header
		}
		ids = append(ids, cell)
	}
}

// rowsOf returns the output rows of one report, soonest first.
func rowsOf(input string, rep *registry.DeadlineReport) [][]string {
	ds := slices.Clone(rep.Deadlines)
	slices.SortStableFunc(ds, func(a, b registry.Deadline) int { return a.DueDate.Compare(b.DueDate) })
	rows := make([][]string, 0, len(ds))
	for _, d := range ds {
		rows = append(rows, []string{
			text(input), rep.CompanyID, text(deref(rep.CompanyName)), string(d.Kind), text(d.Name), text(deref(d.LocalName)),
			text(d.Authority), d.DueDate.String(), d.StatutoryDate.String(), strconv.FormatBool(d.RolledForward),
			text(deref(d.PeriodLabel)), dateOrEmpty(d.PeriodEnd), intOrEmpty(d.DaysUntil), strconv.FormatBool(d.Mandatory),
			text(d.AppliesBecause), deref(d.SourceURL),
		})
	}
	return rows
}

// text keeps a spreadsheet from reading a cell as a formula.
func text(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func dateOrEmpty(d *registry.Date) string {
	if d == nil {
		return ""
	}
	return d.String()
}

func intOrEmpty(n *int) string {
	if n == nil {
		return ""
	}
	return strconv.Itoa(*n)
}
