// Package ops holds what the REST and MCP adapters share about the
// operations beyond the Registry's own methods: the parameter rules of a
// call as a transport receives it (limit and today as text, the default
// country), the error envelope, the rewriting of the library's neutral
// operation names to the adapters' route and tool names ([SurfaceText]),
// and the Registry's zero-copy answers.
package ops

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/idcheck"
	"github.com/companyregistry/registry/internal/seal"
)

// Backend is what the adapters need of a Registry beyond its public
// operations; [registry.Registry.Internal] returns a value that has it.
type Backend interface {
	LookupJSON(ctx context.Context, country, id string) ([]byte, error)
	SearchJSON(ctx context.Context, country, query string, limit int) ([]byte, error)
	RolesJSON(ctx context.Context, country, id string) ([]byte, error)
	Module(country string) (registry.CountryInfo, error)
	Modules() []registry.CountryInfo
	Now() time.Time
	// LocalCache reports whether the cache is the in-process memory cache
	// itself, whose Get neither blocks nor fails.
	LocalCache() bool
}

// Ops is the adapters' view of one Registry.
type Ops struct {
	Reg *registry.Registry
	Backend
}

// New returns the adapters' view of reg.
func New(reg *registry.Registry) *Ops {
	return &Ops{Reg: reg, Backend: reg.Internal(seal.Key{})}
}

// BadRequest returns the error for a parameter problem that an adapter
// found before calling an operation for country: unsupported_country when
// no module serves country (the country is checked first, as every
// operation does), else a bad_request with message and hint and the
// module's country and registry.
func (o *Ops) BadRequest(country, message, hint string) *registry.Error {
	info, err := o.Module(country)
	if err != nil {
		return registry.AsError(err)
	}
	return &registry.Error{Code: registry.CodeBadRequest, Country: info.Country, Registry: info.Registry, Message: message, Hint: hint}
}

// ServerName and ServerTitle name this server wherever it names itself: the
// MCP serverInfo, /server.json, the title of /openapi.json and the text
// resources.
const (
	ServerName  = "io.github.companyregistry/registry"
	ServerTitle = "Company registry"
)

// TodayHint is the hint of a today parameter that is not a date.
const TodayHint = "Pass today as YYYY-MM-DD (for example 2026-01-15), or leave it out for the current UTC date."

// InvalidToday returns the error of a today parameter that is not a date
// (including one given but empty), or unsupported_country for an unknown
// country.
func (o *Ops) InvalidToday(country string) *registry.Error {
	return o.BadRequest(country, "today must be a date written YYYY-MM-DD.", TodayHint)
}

// ParseToday reads the today parameter as the caller wrote it: absent is
// the current UTC date by the Registry's clock (the adapters' default); a
// given one must be a real date written YYYY-MM-DD, else the error is
// bad_request (or unsupported_country).
func (o *Ops) ParseToday(country, raw string, present bool) (registry.Date, error) {
	if !present {
		return registry.DateOf(o.Now().UTC()), nil
	}
	d, err := registry.ParseDate(raw)
	if err != nil {
		return registry.Date{}, o.InvalidToday(country)
	}
	return d, nil
}

// LimitHint is the hint of a search limit that is not an integer from 1 to
// the maximum.
var LimitHint = fmt.Sprintf("Retry with limit between 1 and %d (default %d).", registry.MaxSearchLimit, registry.DefaultSearchLimit)

// ShownMax is the most bytes of a caller's value that an error message
// quotes (see [Shown]).
const ShownMax = 40

// Shown returns a caller's value as an error message may quote it: whole
// when it is at most ShownMax bytes, else its first ShownMax bytes and
// "...", cut before the last rune instead when that valid rune starts
// within the first ShownMax bytes and ends after them. The bytes kept are
// the value's own, valid UTF-8 or not. An answer's size never follows the
// size of what was sent.
func Shown(s string) string {
	if len(s) <= ShownMax {
		return s
	}
	cut := ShownMax
	for j := ShownMax - 1; j >= ShownMax-(utf8.UTFMax-1) && j >= 0; j-- {
		if !utf8.RuneStart(s[j]) {
			continue
		}
		if r, size := utf8.DecodeRuneInString(s[j:]); (r != utf8.RuneError || size > 1) && j+size > ShownMax {
			cut = j // a valid rune the cut would split
		}
		break
	}
	return s[:cut] + "..."
}

// NotQuoted stands in an error message for a caller's value that [Quote]
// does not show.
const NotQuoted = "(not quoted: it has the form of a personal identity number)"

// Quotable returns a caller's value as an error message may show it
// ([Shown]) and whether it may be shown at all: not when the value, its
// shown form or that form as %q writes it (an invalid byte written \xHH
// can join the digits after it) holds what has the form of a Swedish
// personal identity number ([idcheck.ContainsPersonalNumber], the rule by
// which the Swedish module refuses a search query without echoing it).
// Personal data is never part of an error, not even the caller's own:
// errors are logged and shown further than the caller.
func Quotable(s string) (shown string, ok bool) {
	shown = Shown(s)
	if idcheck.ContainsPersonalNumber(s) || idcheck.ContainsPersonalNumber(shown) ||
		idcheck.ContainsPersonalNumber(strconv.Quote(shown)) {
		return "", false
	}
	return shown, true
}

// Quote returns a caller's value as an error message writes it: its
// [Shown] form quoted (as %q writes it) when it is [Quotable], else
// [NotQuoted].
func Quote(s string) string {
	if shown, ok := Quotable(s); ok {
		return strconv.Quote(shown)
	}
	return NotQuoted
}

// UnknownMember returns the least name (in byte order) among members that
// is not one of allowed, and whether there is one (the empty name
// included): a body's refusal names it, so that the answer does not
// depend on map order. The tools' arguments, read into a slice of byte
// names on MCP's hot path, apply the same rule in their own loop
// (mcpserver's args).
func UnknownMember[V any](members map[string]V, allowed ...string) (name string, found bool) {
	for k := range members {
		if !slices.Contains(allowed, k) && (!found || k < name) {
			name, found = k, true
		}
	}
	return name, found
}

// Number returns a caller's integer as an error message writes it: its
// digits, or [NotQuoted] when they have the form of a personal identity
// number (the rule of [Quotable]). The Registry's own range error for a
// search limit applies the same rule.
func Number(n int) string {
	if s := strconv.Itoa(n); !idcheck.ContainsPersonalNumber(s) {
		return s
	}
	return NotQuoted
}

// ParseLimit reads the search limit of a call for country as the caller
// wrote it: absent (present false) is [registry.DefaultSearchLimit];
// present, it must be a decimal integer (an empty value is not), else the
// error is bad_request, or unsupported_country for an unknown country. The
// range is checked by the Registry.
func (o *Ops) ParseLimit(country, raw string, present bool) (int, error) {
	if !present {
		return registry.DefaultSearchLimit, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		return 0, o.BadRequest(country, fmt.Sprintf("limit must be an integer from 1 to %d; got %s.", registry.MaxSearchLimit, Quote(raw)), LimitHint)
	}
	return n, nil
}

// envelopeFallback is the envelope [EnvelopeJSON] returns when an error
// cannot be encoded.
const envelopeFallback = `{"error":{"code":"internal_error","message":"The error could not be encoded.",` +
	`"hint":"Retry once; if it fails again, report the problem to the operator of this service.",` +
	`"country":null,"registry":null,"details":{}}}`

// EnvelopeJSON returns the error envelope of [registry.AsError](err), the
// body that the REST and MCP adapters send, and the *Error it encodes. The
// message and hint name the REST route and MCP tool where the library's
// text names an operation ([SurfaceText]); the *Error is then a copy, and
// err is never modified. It never fails: when err is nil or cannot be
// encoded (a Details value that JSON cannot hold), the body is a fixed
// internal_error envelope and the *Error is that internal_error.
func EnvelopeJSON(err error) ([]byte, *registry.Error) {
	if e := registry.AsError(err); e != nil {
		e = surfaceError(e)
		if b, merr := json.Marshal(e); merr == nil {
			return b, e
		}
	}
	return []byte(envelopeFallback), &registry.Error{Code: registry.CodeInternalError, Message: "The error could not be encoded.", Err: err}
}
