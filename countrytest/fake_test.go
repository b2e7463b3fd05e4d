package countrytest_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// fakeModule is a small module for the made-up country XX, whose register
// numbers entities with four digits. It keeps the contract, and its broken
// field makes it break one part of it, so that the suite can be shown to
// notice.
type fakeModule struct {
	base   string
	client *http.Client
	broken string
}

func newFake(rt http.RoundTripper, broken string) *fakeModule {
	return &fakeModule{
		base: "https://register.test/api",
		client: &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}},
		broken: broken,
	}
}

func (f *fakeModule) Info() registry.CountryInfo {
	return registry.CountryInfo{
		Country: "XX", Registry: "fakereg", Name: "The fake register", IDScheme: "fakeno",
		IDExample: "1234", IDDescription: "Four digits.", SourceURL: "https://register.test/api",
		License: "Public domain", TimeZone: "UTC",
	}
}

func (f *fakeModule) Ready() error { return nil }

func (f *fakeModule) Validate(input string) registry.ValidationResult {
	res := registry.ValidationResult{Country: "XX", Registry: "fakereg", Input: input}
	s := strings.ReplaceAll(input, " ", "")
	if f.broken == "validate" {
		s = input
	}
	if len(s) != 4 || strings.Trim(s, "0123456789") != "" {
		res.Reason = countrykit.Ptr("A number has four digits.")
		res.Hint = countrykit.Ptr("Type the four digits.")
		return res
	}
	res.Valid, res.Normalized = true, &s
	if f.broken == "validate" {
		res.Normalized = countrykit.Ptr(s + " ")
	}
	return res
}

// NormalizeID makes the fake a registry.IDNormalizer; broken
// "normalize" makes it disagree with Validate.
func (f *fakeModule) NormalizeID(input string) (string, bool) {
	v := f.Validate(input)
	if f.broken == "normalize" {
		return input, true
	}
	if !v.Valid {
		return "", false
	}
	return *v.Normalized, true
}

func (f *fakeModule) fail(code registry.Code, retryable bool, msg string) error {
	return &registry.Error{Code: code, Message: msg, Country: "XX", Registry: "fakereg", Retryable: retryable}
}

// get fetches path and decodes a 200 JSON body into v.
func (f *fakeModule) get(ctx context.Context, path string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.base+path, nil)
	if err != nil {
		return err
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	switch {
	case err != nil:
		return f.fail(registry.CodeUpstreamError, true, "The answer broke off.")
	case resp.StatusCode == http.StatusNotFound:
		if f.broken == "notfound" {
			return errors.New("not found")
		}
		return f.fail(registry.CodeNotFound, false, "No such entity.")
	case resp.StatusCode == http.StatusTooManyRequests:
		e := f.fail(registry.CodeRateLimited, false, "Slow down.")
		var re *registry.Error
		if errors.As(e, &re) {
			re.Details = map[string]any{"retry_after": 60}
		}
		return e
	case resp.StatusCode >= 500:
		return f.fail(registry.CodeUpstreamError, true, "The register failed.")
	case resp.StatusCode != http.StatusOK, !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json"):
		return f.fail(registry.CodeUpstreamError, false, "The register answered strangely.")
	}
	if err := json.Unmarshal(body, v); err != nil {
		return f.fail(registry.CodeUpstreamError, true, "The answer is not JSON.")
	}
	return nil
}

type fakeUnit struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func (f *fakeModule) Lookup(ctx context.Context, id string) (*registry.CompanyReport, error) {
	var u fakeUnit
	if err := f.get(ctx, "/units/"+url.PathEscape(id), &u); err != nil {
		return nil, err
	}
	r := countrykit.NewReport("XX", "fakereg", id, u.Name)
	r.Status = registry.StatusActive
	return r, nil
}

func (f *fakeModule) Search(ctx context.Context, query string, limit int) (*registry.SearchResult, error) {
	var units []fakeUnit
	if err := f.get(ctx, "/units?name="+url.QueryEscape(query), &units); err != nil {
		return nil, err
	}
	res := &registry.SearchResult{Country: "XX", Registry: "fakereg", Query: query, Hits: []registry.SearchHit{}, Total: len(units)}
	for _, u := range units {
		if len(res.Hits) == limit && f.broken != "limit" {
			break
		}
		res.Hits = append(res.Hits, countrykit.NewHit("XX", "fakereg", u.ID, u.Name))
	}
	res.Truncated = res.Total > len(res.Hits)
	return res, nil
}

func (f *fakeModule) Deadlines(rep *registry.CompanyReport, today registry.Date) (*registry.DeadlineReport, error) {
	out := &registry.DeadlineReport{Country: "XX", Registry: "fakereg", Today: today, Deadlines: []registry.Deadline{}, Notes: []string{}}
	if f.broken == "deadlines-nil" {
		out.Deadlines = nil
	}
	if rep == nil {
		return out, nil
	}
	out.CompanyID = rep.ID
	if f.broken == "deadlines-mutate" {
		rep.Notes = append(rep.Notes, "touched")
	}
	if rep.Status != registry.StatusActive || today.Year < 1 || today.Year > 9998 || today.Month < 1 || today.Month > 12 || today.Day < 1 || today.Day > 28 {
		out.Notes = append(out.Notes, "No deadlines.")
		return out, nil
	}
	due := registry.NewDate(today.Year+1, 1, 31)
	out.Deadlines = append(out.Deadlines, registry.Deadline{
		Country: "XX", Registry: "fakereg", Kind: "annual_return", Name: "Annual return", Authority: "The fake register",
		StatutoryDate: due, DueDate: due, Recurrence: registry.RecurrenceAnnual, Mandatory: true,
		AppliesBecause: "Every entity files one (fake act § " + strconv.Itoa(1) + ").", DaysUntil: countrykit.Ptr(due.DaysSince(today)),
	})
	return out, nil
}

func (f *fakeModule) Rules() string {
	if f.broken == "rules" {
		return "no heading"
	}
	return "# XX: the fake register\n\nFour-digit numbers.\n"
}

var _ registry.Country = (*fakeModule)(nil)
