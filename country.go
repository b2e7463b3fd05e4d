package registry

import (
	"context"
	"errors"
)

// Country is what a national module implements to plug into a [Registry].
// A module is a value built by its own constructor (for example no.New);
// there is no global registration.
//
// The Registry calls a module only with inputs it has already checked: a
// country-scoped call reaches Lookup, Search or Deadlines only after Ready
// returned nil, Lookup only with an identifier that Validate accepted (in its
// normalised form), and Search only with a non-empty query and a limit from 1
// to 100. The Registry owns caching, collapsing of identical concurrent
// fetches, the one retry of a retryable failure and the per-attempt timeout,
// so a module does none of these.
//
// Failures are returned as [*Error] values. An upstream failure that may
// succeed on a second try (a timeout, a connection error, a 5xx, a malformed
// or truncated body) sets [Error.Retryable]; the Registry retries it once.
// A module may also return a plain error from its HTTP client: the Registry
// classifies timeouts and connection errors itself. A panic in a module is
// recovered and answered as internal_error.
type Country interface {
	// Info describes the module. It is read once, when the Registry is built.
	Info() CountryInfo

	// Ready returns nil when the module can answer lookups, searches and
	// deadlines now, or an [*Error] (upstream_error) saying why not, whose
	// hint names the missing configuration, e.g. an operator credential.
	// Validation works whether or not the module is ready.
	Ready() error

	// Validate checks an identifier offline, with no I/O. A valid result
	// carries the canonical form in Normalized; an invalid one carries a
	// Reason and the Hint that the invalid_id error repeats.
	Validate(input string) ValidationResult

	// Lookup fetches the full report of the entity whose canonical
	// identifier is id. An entity that does not exist is a not_found
	// [*Error].
	Lookup(ctx context.Context, id string) (*CompanyReport, error)

	// Search finds entities by name and returns at most limit thin hits,
	// best first.
	Search(ctx context.Context, query string, limit int) (*SearchResult, error)

	// Deadlines computes the next occurrence of each filing obligation of
	// the entity described by report, counted from today. It is pure: no
	// I/O and no clock; the same inputs always give the same output.
	Deadlines(report *CompanyReport, today Date) (*DeadlineReport, error)

	// Rules returns the module's rules document in Markdown: identifier
	// format, legal forms, status mapping and deadline rules, with sources.
	Rules() string
}

// LocalAnswers is implemented, beside [Country], by a module that answers
// some operations from data it keeps itself (an index of its register's
// bulk file) rather than by calling its register. The Registry takes
// nothing from the country's upstream budget ([WithUpstreamBudget]) for an
// operation the module answers locally, since the register is not called;
// caching, collapsing and the timeout apply as usual.
type LocalAnswers interface {
	// AnswersLocally reports whether the module answers operation,
	// "lookup" (deadlines included) or "search", without calling its
	// register, as it is configured now.
	AnswersLocally(operation string) bool
}

// QueryChecker is implemented, beside [Country], by a module that refuses
// some search queries outright, whatever its register holds: Sweden
// refuses a query that holds a personal identity number (which the
// Registry itself refuses first, for every country; see
// [Registry.Search]). The Registry calls CheckQuery after its own checks
// of the query (trimmed, non-empty, at most [MaxQueryLength] bytes, no
// personal identity number) and before anything else, so a refused
// query is never part of a cache key, never sent to a shared cache and
// never reaches Search.
type QueryChecker interface {
	// CheckQuery returns nil when query may be searched for, or an [*Error]
	// (bad_request) saying why not, which must not repeat the query. It
	// works offline and whether or not the module is ready. Any other
	// error is answered as a bad_request with a generic message.
	CheckQuery(query string) error
}

// IDNormalizer is implemented, beside [Country], by a module that can give
// the canonical form of a valid identifier without building a
// [ValidationResult]. NormalizeID(id) must report what Validate(id)
// reports: valid exactly when Validate's Valid is true, and then
// Validate's Normalized. The Registry calls it before a lookup, a refresh,
// a deadline report or a roles query of one identifier, where only that
// canonical form is needed, and calls Validate only for an identifier it
// reports invalid (for the reason and hint of the invalid_id error); the
// validate operation calls Validate alone. A module without it is
// validated with Validate alone.
//
// A type that embeds a module implementing it gets NormalizeID promoted:
// if it overrides Validate, it must override NormalizeID to agree, or the
// Registry skips its Validate for the identifiers the embedded module
// accepts.
type IDNormalizer interface {
	NormalizeID(id string) (normalized string, valid bool)
}

// checkQuery asks the module of e whether it refuses query
// ([QueryChecker]). A panic in the module's method is internal_error.
func (r *Registry) checkQuery(e entry, query string) (err error) {
	qc, ok := e.c.(QueryChecker)
	if !ok {
		return nil
	}
	defer r.recoverInto(e.info, "search", &err)
	err = qc.CheckQuery(query)
	if err == nil {
		return nil
	}
	var me *Error
	if !errors.As(err, &me) {
		return r.badRequest(e, "The search query is refused by the "+e.info.Country+" module.", "Search with a company name.")
	}
	return r.decorate(e.info, me)
}

// unbudgeted returns e without its upstream budget when its module answers
// operation locally ([LocalAnswers]). A panic in the module's method
// keeps the budget.
func unbudgeted(e entry, operation string) (out entry) {
	out = e
	l, ok := e.c.(LocalAnswers)
	if !ok || e.budget == nil {
		return out
	}
	defer func() {
		if recover() != nil {
			out = e
		}
	}()
	if l.AnswersLocally(operation) {
		out.budget = nil
	}
	return out
}
