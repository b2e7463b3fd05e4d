// Package countrytest checks that a country module keeps the
// [registry.Country] contract, in the spirit of testing/fstest.TestFS: a
// module author, in this repository or outside it, calls [Run] from one test
// of the module's package and gets a subtest per part of the contract.
//
// # Running it
//
// Build the module over a fake register, never the real one: serve recorded
// answers with [Replay] (or an httptest server) and point the module at it
// with the module's own options. Then tell Run what the fake knows:
//
//	func TestConformance(t *testing.T) {
//		rp := countrytest.NewReplay(map[string]countrytest.Answer{
//			"/api/units/923609016": {Body: unitJSON},
//			"/api/units":           {Body: searchJSON},
//		})
//		m, err := mymodule.New(mymodule.WithBaseURL("https://register.test/api"),
//			mymodule.WithHTTPClient(&http.Client{Transport: rp}))
//		if err != nil {
//			t.Fatal(err)
//		}
//		countrytest.Run(t, m, countrytest.Config{
//			ValidID:       "923 609 016",
//			InvalidIDs:    []string{"923609017"},
//			UnknownID:     "974760673",
//			Query:         "equinor",
//			UpstreamCalls: rp.Calls,
//			WithTransport: func(rt http.RoundTripper) (registry.Country, error) {
//				return mymodule.New(mymodule.WithBaseURL("https://register.test/api"),
//					mymodule.WithHTTPClient(&http.Client{Transport: rt}))
//			},
//		})
//	}
//
// [RunReplay] does the same in one call: it builds the module over a Replay
// of the answers with the build function and fills UpstreamCalls and
// WithTransport.
//
// Run with go test -race: one subtest calls the module from several
// goroutines at once.
//
// # What is checked
//
//   - Info: a two-letter upper-case country code, a lower-case registry
//     slug, every descriptive field filled, an absolute http(s) source URL, a
//     time zone that loads, a key variable named when a key is required, the
//     same value on every call, and that [registry.New] accepts the module.
//   - Validate: the valid identifier is accepted with a canonical form that
//     validates to itself (idempotent), as does the formatted form and the
//     Info example; invalid identifiers are rejected with a reason and a hint
//     and no canonical form; odd input (empty, very long, control
//     characters, invalid UTF-8) never panics and is echoed unchanged. A
//     module that is a [registry.IDNormalizer] reports through NormalizeID
//     what Validate reports for each of these inputs, for each canonical and
//     formatted form, and for each search hit's identifier.
//   - Ready returns nil (Run needs a ready module).
//   - Lookup: the valid identifier gives a report of this country and
//     registry, with the canonical id, a valid status and [] rather than null
//     lists; the unknown identifier is a not_found [*registry.Error]
//     (errors.Is [registry.ErrNotFound]); a cancelled context gives an error.
//   - Search returns at most limit hits, each with an identifier the module
//     validates to itself, a name and a valid status, and a total not below
//     the number of hits; odd queries never panic.
//   - Deadlines is pure and deterministic: the same answer twice, the report
//     given to it unchanged, no upstream request, never a nil report, lists
//     never null, each deadline complete (kind, name, authority, reason, a
//     valid recurrence, a due date not before its statutory date, days_until
//     counted from today), sorted by due date; odd reports and days (nil,
//     empty, every status, far years) never panic.
//   - Rules is a non-empty Markdown document that starts with a level-one
//     heading, ends with a newline, is valid UTF-8 and does not change.
//   - Every failure is a [*registry.Error] whose code is one of
//     [registry.Codes] (a cancelled call may instead return the context's
//     error, as the contract allows).
//   - With [Config.WithTransport], the register's failures: a 5xx, a 200 that
//     is not JSON, a truncated or malformed body, a redirect (never followed),
//     a 429 (rate_limited with a retry_after) and a broken connection.
package countrytest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
	"github.com/companyregistry/registry/internal/testwait"
)

// Config tells [Run] what the fake register behind the module knows.
// ValidID, InvalidIDs, UnknownID and Query are required.
type Config struct {
	// ValidID is an identifier, written as a user might type it, that
	// Validate accepts and whose entity the fake register knows: Lookup of
	// its canonical form returns a report.
	ValidID string
	// InvalidIDs are inputs that Validate must reject, such as a number
	// with a wrong check digit or of the wrong length.
	InvalidIDs []string
	// UnknownID is an identifier Validate accepts but the fake register
	// does not know: Lookup of its canonical form answers not_found.
	UnknownID string
	// Query is a name for which the fake register's search answers at
	// least one hit.
	Query string
	// Today is the day given to Deadlines. The zero Date means 2026-03-01.
	Today registry.Date
	// UpstreamCalls, when set, returns the number of requests the fake
	// register has answered so far ([Replay.Calls]); Run then checks that
	// Info, Validate, Deadlines and Rules send none.
	UpstreamCalls func() int
	// WithTransport, when set, builds a fresh module whose HTTP requests all
	// go to rt; Run uses it to play the register's failures. Leave it nil to
	// skip those checks.
	WithTransport func(rt http.RoundTripper) (registry.Country, error)
	// LocalSearch says that the module searches local data (an index of a
	// bulk file) rather than the register, so the register's failures are
	// played to Lookup only.
	LocalSearch bool
}

// defaultToday returns the day Deadlines gets when Config.Today is zero.
func defaultToday() registry.Date { return registry.NewDate(2026, time.March, 1) }

// Run checks m against the [registry.Country] contract, one subtest per
// part. m must be ready (Ready returns nil) and talk to a fake register that
// knows what cfg says. Run calls t.Fatal when cfg lacks a required field.
func Run(t *testing.T, m registry.Country, cfg Config) {
	t.Helper()
	if m == nil {
		t.Fatal("countrytest: the module is nil")
	}
	switch {
	case cfg.ValidID == "":
		t.Fatal("countrytest: Config.ValidID is empty")
	case len(cfg.InvalidIDs) == 0:
		t.Fatal("countrytest: Config.InvalidIDs is empty")
	case cfg.UnknownID == "":
		t.Fatal("countrytest: Config.UnknownID is empty")
	case cfg.Query == "":
		t.Fatal("countrytest: Config.Query is empty")
	}
	if cfg.Today.IsZero() {
		cfg.Today = defaultToday()
	}
	s := &suite{m: m, cfg: cfg, info: m.Info()}
	t.Run("Info", s.testInfo)
	t.Run("Validate", s.testValidate)
	t.Run("ValidateOddInput", s.testValidateOdd)
	t.Run("Ready", s.testReady)
	t.Run("Lookup", s.testLookup)
	t.Run("LookupNotFound", s.testLookupNotFound)
	t.Run("LookupCanceled", s.testLookupCanceled)
	t.Run("Search", s.testSearch)
	t.Run("SearchOddInput", s.testSearchOdd)
	t.Run("Deadlines", s.testDeadlines)
	t.Run("DeadlinesOddInput", s.testDeadlinesOdd)
	t.Run("Rules", s.testRules)
	t.Run("Concurrent", s.testConcurrent)
	if cfg.WithTransport != nil {
		t.Run("UpstreamFaults", s.testFaults)
	}
}

// RunReplay is [Run] over recorded answers, the usual way to call it: it
// builds the module with build over a [Replay] of answers, sets
// cfg.UpstreamCalls to the replay's count and cfg.WithTransport to build,
// and runs Run. It calls t.Fatal when build fails.
func RunReplay(t *testing.T, answers map[string]Answer, build func(rt http.RoundTripper) (registry.Country, error), cfg Config) {
	t.Helper()
	rp := NewReplay(answers)
	m, err := build(rp)
	if err != nil {
		t.Fatalf("countrytest: building the module: %v", err)
	}
	cfg.UpstreamCalls, cfg.WithTransport = rp.Calls, build
	Run(t, m, cfg)
}

// suite holds what the subtests share.
type suite struct {
	m    registry.Country
	cfg  Config
	info registry.CountryInfo
}

var (
	countryCode  = regexp.MustCompile(`^[A-Z]{2}$`)
	registrySlug = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
)

// calls returns the fake register's request count, or -1 when unknown.
func (s *suite) calls() int {
	if s.cfg.UpstreamCalls == nil {
		return -1
	}
	return s.cfg.UpstreamCalls()
}

// noUpstream fails t when the fake register answered requests since before.
func (s *suite) noUpstream(t *testing.T, before int, what string) {
	t.Helper()
	if before >= 0 {
		if n := s.calls() - before; n != 0 {
			t.Errorf("%s sent %d upstream request(s), want none", what, n)
		}
	}
}

// protect runs f and turns a panic into a test failure naming what.
func protect(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s panicked: %v", what, p)
		}
	}()
	f()
}

func (s *suite) testInfo(t *testing.T) {
	before := s.calls()
	i := s.info
	if !countryCode.MatchString(i.Country) {
		t.Errorf("Info().Country = %q, want two upper-case letters", i.Country)
	}
	if !registrySlug.MatchString(i.Registry) {
		t.Errorf("Info().Registry = %q, want a lower-case slug", i.Registry)
	}
	for name, v := range map[string]string{
		"Name": i.Name, "IDScheme": i.IDScheme, "IDExample": i.IDExample,
		"IDDescription": i.IDDescription, "License": i.License,
	} {
		if strings.TrimSpace(v) == "" {
			t.Errorf("Info().%s is empty", name)
		}
	}
	if u, err := url.Parse(i.SourceURL); err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		t.Errorf("Info().SourceURL = %q, want an absolute http(s) URL", i.SourceURL)
	}
	if i.TimeZone != "" {
		if _, err := time.LoadLocation(i.TimeZone); err != nil {
			t.Errorf("Info().TimeZone %q does not load: %v", i.TimeZone, err)
		}
	}
	if i.RequiresAPIKey && (i.APIKeyEnv == nil || *i.APIKeyEnv == "") {
		t.Error("Info().RequiresAPIKey is true but APIKeyEnv names no variable")
	}
	if diff := cmp.Diff(i, s.m.Info()); diff != "" {
		t.Errorf("Info() changed between calls (-first +second):\n%s", diff)
	}
	if _, err := registry.New([]registry.Country{s.m}); err != nil {
		t.Errorf("registry.New rejects the module: %v", err)
	}
	s.noUpstream(t, before, "Info")
}

// canonical validates in and returns its canonical form, failing t when
// in is not valid.
func (s *suite) canonical(t *testing.T, in string) string {
	t.Helper()
	v := s.m.Validate(in)
	if !v.Valid || v.Normalized == nil || *v.Normalized == "" {
		t.Fatalf("Validate(%q) = valid %t, normalized %v; want valid with a canonical form", in, v.Valid, v.Normalized)
	}
	s.checkNormalizer(t, in, v)
	return *v.Normalized
}

// checkResult checks the fields every validation result carries.
func (s *suite) checkResult(t *testing.T, in string, v registry.ValidationResult) {
	t.Helper()
	s.checkNormalizer(t, in, v)
	if v.Country != s.info.Country || v.Registry != s.info.Registry {
		t.Errorf("Validate(%q): country %q registry %q, want %q %q", in, v.Country, v.Registry, s.info.Country, s.info.Registry)
	}
	if v.Input != in {
		t.Errorf("Validate(%q).Input = %q, want the input unchanged", in, v.Input)
	}
	if v.Valid {
		if v.Normalized == nil || *v.Normalized == "" {
			t.Errorf("Validate(%q) is valid without a canonical form", in)
			return
		}
		again := s.m.Validate(*v.Normalized)
		s.checkNormalizer(t, *v.Normalized, again)
		if !again.Valid || again.Normalized == nil || *again.Normalized != *v.Normalized {
			t.Errorf("Validate(%q) gives %q, which does not validate to itself", in, *v.Normalized)
		}
		return
	}
	if v.Reason == nil || *v.Reason == "" {
		t.Errorf("Validate(%q) is invalid without a reason", in)
	}
	if v.Hint == nil || *v.Hint == "" {
		t.Errorf("Validate(%q) is invalid without a hint", in)
	}
	if v.Normalized != nil || v.Formatted != nil {
		t.Errorf("Validate(%q) is invalid but carries a canonical or formatted form", in)
	}
}

// checkNormalizer checks, for a module that is a [registry.IDNormalizer],
// that NormalizeID(in) reports what Validate(in) reported as v: valid
// exactly when v is, and then v's canonical form.
func (s *suite) checkNormalizer(t *testing.T, in string, v registry.ValidationResult) {
	t.Helper()
	n, ok := s.m.(registry.IDNormalizer)
	if !ok {
		return
	}
	norm, valid := n.NormalizeID(in)
	want := ""
	if v.Valid && v.Normalized != nil {
		want = *v.Normalized
	}
	if valid != v.Valid || (valid && norm != want) {
		t.Errorf("NormalizeID(%q) = %q, %t; Validate says valid %t, normalized %q", in, norm, valid, v.Valid, want)
	}
}

func (s *suite) testValidate(t *testing.T) {
	before := s.calls()
	for _, in := range []string{s.cfg.ValidID, s.cfg.UnknownID, s.info.IDExample} {
		v := s.m.Validate(in)
		if !v.Valid {
			t.Errorf("Validate(%q) is invalid, want valid", in)
			continue
		}
		s.checkResult(t, in, v)
		if v.Formatted != nil {
			f := s.m.Validate(*v.Formatted)
			s.checkNormalizer(t, *v.Formatted, f)
			if !f.Valid || f.Normalized == nil || *f.Normalized != *v.Normalized {
				t.Errorf("the formatted form %q of %q does not validate to %q", *v.Formatted, in, *v.Normalized)
			}
		}
		if diff := cmp.Diff(v, s.m.Validate(in)); diff != "" {
			t.Errorf("Validate(%q) changed between calls (-first +second):\n%s", in, diff)
		}
	}
	for _, in := range s.cfg.InvalidIDs {
		v := s.m.Validate(in)
		if v.Valid {
			t.Errorf("Validate(%q) is valid, want invalid", in)
			continue
		}
		s.checkResult(t, in, v)
	}
	s.noUpstream(t, before, "Validate")
}

// oddStrings are inputs no module should choke on.
func oddStrings(valid string) []string {
	return []string{
		"", " ", "\t\r\n", "\x00", "\xff\xfe\xfd", "🙂", "-1", "0", "00000000000000000000",
		strings.Repeat("9", 10_000), strings.Repeat("ab ", 2_000), "'; DROP TABLE units;--",
		"../../etc/passwd", "%2e%2e%2f", "?q=1&x=2#frag", "\u202e" + valid, valid + valid,
		" " + valid + " ", strings.ToLower(valid), strings.ToUpper(valid), "\u00a0" + valid,
	}
}

func (s *suite) testValidateOdd(t *testing.T) {
	before := s.calls()
	for _, in := range oddStrings(s.cfg.ValidID) {
		protect(t, fmt.Sprintf("Validate(%q)", in), func() { s.checkResult(t, in, s.m.Validate(in)) })
	}
	s.noUpstream(t, before, "Validate")
}

func (s *suite) testReady(t *testing.T) {
	if err := s.m.Ready(); err != nil {
		t.Fatalf("Ready() = %v; Run needs a ready module (give it its credential)", err)
	}
}

// checkError fails t unless err is a *registry.Error with one of the
// interface's codes (or, when canceled is true, the context's error).
func checkError(t *testing.T, what string, err error, canceled bool) *registry.Error {
	t.Helper()
	var e *registry.Error
	if errors.As(err, &e) {
		if !slices.Contains(registry.Codes(), e.Code) && !(canceled && e.Code == registry.CodeCanceled) {
			t.Errorf("%s: code %q is not one of the interface's codes", what, e.Code)
		}
		if e.Message == "" {
			t.Errorf("%s: error %s has no message", what, e.Code)
		}
		return e
	}
	if canceled && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return nil
	}
	t.Errorf("%s: error %v (%T) is not a *registry.Error", what, err, err)
	return nil
}

// checkReport checks the fields of a lookup's report.
func (s *suite) checkReport(t *testing.T, rep *registry.CompanyReport, id string) {
	t.Helper()
	if rep.Country != s.info.Country || rep.Registry != s.info.Registry {
		t.Errorf("report: country %q registry %q, want %q %q", rep.Country, rep.Registry, s.info.Country, s.info.Registry)
	}
	if rep.ID != id {
		t.Errorf("report: id %q, want the canonical %q", rep.ID, id)
	}
	if strings.TrimSpace(rep.Name) == "" {
		t.Error("report: empty name")
	}
	if !rep.Status.Valid() {
		t.Errorf("report: status %q is not one of the interface's", rep.Status)
	}
	if rep.PreviousNames == nil || rep.Registers == nil || rep.IndustryCodes == nil ||
		rep.PublishedDeadlines == nil || rep.Notes == nil {
		t.Error("report: a list or map is nil; build the report with countrykit.NewReport")
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Errorf("report does not encode: %v", err)
	}
}

func (s *suite) testLookup(t *testing.T) {
	id := s.canonical(t, s.cfg.ValidID)
	rep, err := s.m.Lookup(t.Context(), id)
	if err != nil {
		_ = checkError(t, "Lookup", err, false)
		t.Fatalf("Lookup(%q) = %v, want a report", id, err)
	}
	if rep == nil {
		t.Fatalf("Lookup(%q) = nil, nil", id)
	}
	s.checkReport(t, rep, id)
}

func (s *suite) testLookupNotFound(t *testing.T) {
	id := s.canonical(t, s.cfg.UnknownID)
	rep, err := s.m.Lookup(t.Context(), id)
	if err == nil {
		t.Fatalf("Lookup(%q) = %v, nil; want not_found", id, rep)
	}
	if e := checkError(t, "Lookup of the unknown id", err, false); e != nil && e.Code != registry.CodeNotFound {
		t.Errorf("Lookup(%q): code %s, want not_found", id, e.Code)
	}
	if !errors.Is(err, registry.ErrNotFound) {
		t.Errorf("Lookup(%q): errors.Is(err, registry.ErrNotFound) is false", id)
	}
}

func (s *suite) testLookupCanceled(t *testing.T) {
	id := s.canonical(t, s.cfg.ValidID)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	done := make(chan error, 1)
	go func() {
		_, err := s.m.Lookup(ctx, id)
		done <- err
	}()
	if err := testwait.Recv(t, done, "the return of Lookup with a cancelled context"); err == nil {
		t.Error("Lookup with a cancelled context succeeded, want an error")
	} else {
		_ = checkError(t, "Lookup with a cancelled context", err, true)
	}
}

func (s *suite) checkSearch(t *testing.T, what string, res *registry.SearchResult, limit int) {
	t.Helper()
	if res.Country != s.info.Country || res.Registry != s.info.Registry {
		t.Errorf("%s: country %q registry %q, want %q %q", what, res.Country, res.Registry, s.info.Country, s.info.Registry)
	}
	if res.Hits == nil {
		t.Errorf("%s: hits is nil, want []", what)
	}
	if len(res.Hits) > limit {
		t.Errorf("%s: %d hits, want at most %d", what, len(res.Hits), limit)
	}
	if res.Total < len(res.Hits) {
		t.Errorf("%s: total %d is below the %d hits", what, res.Total, len(res.Hits))
	}
	for _, h := range res.Hits {
		if h.Country != s.info.Country || h.Registry != s.info.Registry {
			t.Errorf("%s: hit %q has country %q registry %q", what, h.ID, h.Country, h.Registry)
		}
		v := s.m.Validate(h.ID)
		if !v.Valid || v.Normalized == nil || *v.Normalized != h.ID {
			t.Errorf("%s: hit id %q is not a canonical identifier", what, h.ID)
		}
		s.checkNormalizer(t, h.ID, v)
		if strings.TrimSpace(h.Name) == "" {
			t.Errorf("%s: hit %q has no name", what, h.ID)
		}
		if !h.Status.Valid() {
			t.Errorf("%s: hit %q has status %q", what, h.ID, h.Status)
		}
	}
}

func (s *suite) testSearch(t *testing.T) {
	for _, limit := range []int{1, 100} {
		what := fmt.Sprintf("Search(%q, %d)", s.cfg.Query, limit)
		res, err := s.m.Search(t.Context(), s.cfg.Query, limit)
		if err != nil {
			_ = checkError(t, what, err, false)
			t.Fatalf("%s = %v, want hits", what, err)
		}
		if res == nil {
			t.Fatalf("%s = nil, nil", what)
		}
		s.checkSearch(t, what, res, limit)
		if len(res.Hits) == 0 {
			t.Errorf("%s has no hits; Config.Query must match at least one", what)
		}
	}
}

func (s *suite) testSearchOdd(t *testing.T) {
	for _, q := range oddStrings(s.cfg.Query)[1:] { // the Registry never sends an empty query
		what := fmt.Sprintf("Search(%.40q)", q)
		protect(t, what, func() {
			res, err := s.m.Search(t.Context(), q, 5)
			switch {
			case err != nil:
				_ = checkError(t, what, err, false)
			case res == nil:
				t.Errorf("%s = nil, nil", what)
			default:
				s.checkSearch(t, what, res, 5)
			}
		})
	}
}

// checkDeadlines calls Deadlines and checks the contract of its answer.
func (s *suite) checkDeadlines(t *testing.T, what string, rep *registry.CompanyReport, today registry.Date) *registry.DeadlineReport {
	t.Helper()
	var before []byte
	if rep != nil {
		before, _ = json.Marshal(rep)
	}
	calls := s.calls()
	out, err := s.m.Deadlines(rep, today)
	s.noUpstream(t, calls, what)
	if rep != nil {
		if after, _ := json.Marshal(rep); string(after) != string(before) {
			t.Errorf("%s changed the report it was given", what)
		}
	}
	if err != nil {
		if out != nil {
			t.Errorf("%s returned both a report and the error %v", what, err)
		}
		_ = checkError(t, what, err, false)
		return nil
	}
	if out == nil {
		t.Errorf("%s = nil, nil; want a report", what)
		return nil
	}
	if out.Deadlines == nil || out.Notes == nil {
		t.Errorf("%s: deadlines or notes is nil, want []", what)
	}
	if out.Country != s.info.Country {
		t.Errorf("%s: country %q, want %q", what, out.Country, s.info.Country)
	}
	if out.Today != today {
		t.Errorf("%s: today %s, want %s", what, out.Today, today)
	}
	if rep != nil && out.CompanyID != rep.ID {
		t.Errorf("%s: company_id %q, want %q", what, out.CompanyID, rep.ID)
	}
	for i, d := range out.Deadlines {
		if d.Country != s.info.Country || d.Registry == "" {
			t.Errorf("%s: %s has country %q registry %q", what, d.Kind, d.Country, d.Registry)
		}
		if d.Kind == "" || d.Name == "" || d.Authority == "" || d.AppliesBecause == "" {
			t.Errorf("%s: deadline %d lacks a kind, name, authority or applies_because: %+v", what, i, d)
		}
		if !d.Recurrence.Valid() {
			t.Errorf("%s: %s has recurrence %q", what, d.Kind, d.Recurrence)
		}
		if d.DueDate.Before(d.StatutoryDate) {
			t.Errorf("%s: %s is due %s, before its statutory date %s", what, d.Kind, d.DueDate, d.StatutoryDate)
		}
		if d.RolledForward != (d.DueDate != d.StatutoryDate) {
			t.Errorf("%s: %s rolled_forward %t with statutory %s and due %s", what, d.Kind, d.RolledForward, d.StatutoryDate, d.DueDate)
		}
		if d.DaysUntil != nil && *d.DaysUntil != d.DueDate.DaysSince(today) {
			t.Errorf("%s: %s days_until %d, want %d", what, d.Kind, *d.DaysUntil, d.DueDate.DaysSince(today))
		}
		if i > 0 && d.DueDate.Before(out.Deadlines[i-1].DueDate) {
			t.Errorf("%s: deadlines are not sorted by due date", what)
		}
	}
	if _, err := json.Marshal(out); err != nil {
		t.Errorf("%s: the report does not encode: %v", what, err)
	}
	return out
}

func (s *suite) testDeadlines(t *testing.T) {
	id := s.canonical(t, s.cfg.ValidID)
	rep, err := s.m.Lookup(t.Context(), id)
	if err != nil || rep == nil {
		t.Fatalf("Lookup(%q) = %v, %v", id, rep, err)
	}
	first := s.checkDeadlines(t, "Deadlines", rep, s.cfg.Today)
	second, err := s.m.Deadlines(rep, s.cfg.Today)
	if err != nil {
		t.Fatalf("Deadlines a second time: %v", err)
	}
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("Deadlines is not deterministic (-first +second):\n%s", diff)
	}
}

func (s *suite) testDeadlinesOdd(t *testing.T) {
	id := s.canonical(t, s.cfg.ValidID)
	days := []registry.Date{
		s.cfg.Today, {}, registry.NewDate(1, time.January, 1), registry.NewDate(9999, time.December, 31),
		{Year: -50_000, Month: time.February, Day: 30}, {Year: 1 << 40, Month: 13, Day: 99},
	}
	reports := map[string]*registry.CompanyReport{
		"nil":   nil,
		"empty": countrykit.NewReport(s.info.Country, s.info.Registry, id, ""),
		"zero":  {},
	}
	for _, st := range []registry.Status{
		registry.StatusActive, registry.StatusDeleted, registry.StatusBankrupt, registry.StatusDissolved,
		registry.StatusUnderLiquidation, registry.StatusUnderCompulsoryLiquidation, registry.StatusUnknown, "nonsense",
	} {
		r := countrykit.NewReport(s.info.Country, s.info.Registry, id, "ODD "+string(st))
		r.Status = st
		r.FoundedAt = &registry.Date{Year: 3000, Month: time.January, Day: 1}
		r.LegalFormCode = countrykit.Ptr("?")
		r.VATRegistered, r.EmployeesReported = countrykit.Ptr(true), countrykit.Ptr(true)
		r.Employees = countrykit.Ptr(-1)
		r.LastAnnualAccountsYear = countrykit.Ptr(-1 << 40)
		reports["status "+string(st)] = r
	}
	for name, rep := range reports {
		for _, day := range days {
			what := fmt.Sprintf("Deadlines(%s report, %v)", name, day)
			protect(t, what, func() { s.checkDeadlines(t, what, rep, day) })
		}
	}
}

func (s *suite) testRules(t *testing.T) {
	before := s.calls()
	doc := s.m.Rules()
	switch {
	case strings.TrimSpace(doc) == "":
		t.Fatal("Rules() is empty")
	case !strings.HasPrefix(doc, "# "):
		t.Errorf("Rules() does not start with a level-one Markdown heading: %.60q", doc)
	case !strings.HasSuffix(doc, "\n"):
		t.Error("Rules() does not end with a newline")
	case !utf8.ValidString(doc):
		t.Error("Rules() is not valid UTF-8")
	}
	if s.m.Rules() != doc {
		t.Error("Rules() changed between calls")
	}
	s.noUpstream(t, before, "Rules")
}

// testConcurrent calls the module from several goroutines at once; under
// -race it finds shared state written without a lock.
func (s *suite) testConcurrent(t *testing.T) {
	id := s.canonical(t, s.cfg.ValidID)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			s.m.Info()
			s.m.Validate(s.cfg.ValidID)
			s.m.Rules()
			if rep, err := s.m.Lookup(t.Context(), id); err == nil && rep != nil {
				if _, err := s.m.Deadlines(rep, s.cfg.Today); err != nil {
					t.Errorf("Deadlines: %v", err)
				}
			} else {
				t.Errorf("Lookup(%q) = %v, %v", id, rep, err)
			}
			if _, err := s.m.Search(t.Context(), s.cfg.Query, 3); err != nil {
				t.Errorf("Search: %v", err)
			}
		})
	}
	wg.Wait()
}
