// Package restserver serves a [registry.Registry] over HTTP: the REST routes
// of the interface, the error envelope, a per-client rate limit, request IDs,
// a structured access log and the text resources (/llms.txt,
// /llms-full.txt, /server.json, /openapi.json). It imports the standard
// library and this module's own packages only.
//
// Routes:
//
//	GET /health                                  HealthResponse (never rate limited)
//	GET /v1/countries                            CountriesResponse
//	GET /v1/{country}/company/{id}               CompanyReport
//	GET /v1/{country}/search?q=&limit=           SearchResult
//	GET /v1/{country}/company/{id}/deadlines?today=  DeadlineReport
//	GET /v1/{country}/company/{id}/roles         RolesReport
//	GET /v1/{country}/validate/{id}              ValidationResult
//	GET /v1/{country}/company/{id}/deadlines.ics?today=  text/calendar (RFC 5545)
//	POST /v1/{country}/deadlines:batch           DeadlinesBatchResponse
//	GET /llms.txt, /llms-full.txt                text/plain; charset=utf-8
//	GET /server.json, /openapi.json              application/json
//
// With [WithChanges], change monitoring's routes too (the watch and feed
// routes need an API token, Authorization: Bearer):
//
//	POST /v1/watches                             CreatedWatch (201)
//	GET /v1/watches                              WatchList
//	GET, PATCH, DELETE /v1/watches/{id}          Watch, UpdatedWatch, 204
//	POST /v1/watches/{id}/test                   TestResult
//	POST /v1/watches/{id}/secret                 RotatedSecret (a new signing secret)
//	GET /v1/watches/{id}/deliveries?limit=       DeliveryList
//	POST /v1/watches/{id}/deliveries/{delivery}/redeliver  Delivery (202)
//	GET /v1/changes?cursor=&limit=               ChangeFeed
//	GET /v1/{country}/company/{id}/changes?limit=  CompanyChanges (no token)
//
// Every failure is the interface's error envelope with the status of its
// code. An unknown route is a 404 not_found envelope whose hint names
// /llms.txt. A known route called with another method than GET or HEAD (POST
// for the batch) is a 405 envelope with code bad_request and an Allow
// header. No response is ever 422.
//
// The handler serves no MCP endpoint; mount the MCP handler beside it (see
// [WithMCPPath]).
//
// Mounted under a path next to an application's own routes, with
// http.StripPrefix("/registry", server), the handler needs to know where it
// is so that its links and hints are right: [WithBasePath] says so, or
// [WithPublicURL] with a path, or a trusted proxy's X-Forwarded-Prefix (see
// [WithTrustedProxies]). The mount example shows REST and MCP together.
package restserver

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/apitoken"
	"github.com/companyregistry/registry/internal/catalog"
	"github.com/companyregistry/registry/internal/httpmw"
	"github.com/companyregistry/registry/internal/ops"
)

// Server is the REST handler over a [registry.Registry]. Build it with
// [New]; it is safe for concurrent use.
type Server struct {
	reg       *registry.Registry
	ops       *ops.Ops
	mux       *http.ServeMux
	changeMux *http.ServeMux // the watch and feed routes; nil without change monitoring
	// lookupPattern is the lookup's pattern ("GET /v1/{country}/company/{id}"),
	// which route serves without the mux (see lookupRoute); "" if the
	// catalogue's lookup has another.
	lookupPattern string
	// underCompany are the operations under /v1/{country}/company/{id}/,
	// by the segment after the identifier, which route serves with an
	// empty identifier (see emptyIDRoute).
	underCompany map[string]*companyRoute
	changes      *changes.Service
	tokens       *apitoken.Set
	handler      http.Handler // the middleware stack around mux
	trusted      []netip.Prefix
	log          *slog.Logger
	publicURL    string
	basePath     string
	text         *textResources

	notFoundBody         *template
	methodNotAllowedBody *template
}

var _ http.Handler = (*Server)(nil)

// Cache-Control values. Data is never stored by shared caches (a lookup may
// concern a sole proprietor); errors are never stored at all.
const (
	cacheData   = "no-cache"
	cacheError  = "no-store"
	cacheStatic = "public, max-age=300"
)

// New builds the handler. It returns an error for a nil Registry or an
// invalid option.
func New(reg *registry.Registry, opts ...Option) (*Server, error) {
	if reg == nil {
		return nil, fmt.Errorf("restserver: New: nil Registry")
	}
	o := options{
		rateLimit:  DefaultRateLimit,
		maxClients: DefaultMaxClients,
		mcpPath:    DefaultMCPPath,
		now:        time.Now,
	}
	for _, opt := range opts {
		if opt == nil {
			return nil, fmt.Errorf("restserver: New: nil option")
		}
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	if o.logger == nil {
		o.logger = slog.New(slog.DiscardHandler)
	}
	if o.publicURL != "" {
		if o.basePath != "" && o.basePath != o.publicPath {
			return nil, fmt.Errorf("restserver: New: WithBasePath %q and the path of WithPublicURL %q disagree", o.basePath, o.publicPath)
		}
		o.basePath = o.publicPath
	}
	s := &Server{
		reg:       reg,
		ops:       ops.New(reg),
		mux:       http.NewServeMux(),
		trusted:   o.trusted,
		log:       o.logger,
		publicURL: o.publicURL,
		basePath:  o.basePath,
		changes:   o.changes,
		tokens:    o.tokens,
	}
	if s.changes != nil {
		s.changeMux = http.NewServeMux()
	}
	lim := o.rateLimiter()
	text, err := buildText(reg, o)
	if err != nil {
		return nil, err
	}
	s.text = text
	fixed := fixedLocation(o)
	s.notFoundBody = newTemplate(string(mustEnvelope(&registry.Error{
		Code:    registry.CodeNotFound,
		Message: "There is no route at this path.",
		Hint:    "Read " + pathPlaceholder + "/llms.txt for the routes of this service; GET " + pathPlaceholder + "/v1/countries lists the supported countries.",
	})), false, fixed)
	s.methodNotAllowedBody = newTemplate(string(mustEnvelope(&registry.Error{
		Code:    registry.CodeBadRequest,
		Message: "This route accepts only GET (and HEAD).",
		Hint:    "Retry with GET; read " + pathPlaceholder + "/llms.txt for the routes of this service.",
	})), false, fixed)
	if err := s.routes(); err != nil {
		return nil, err
	}
	stack := httpmw.New(httpmw.Config{Trusted: o.trusted, Logger: o.logger, Now: o.now, Limiter: lim})
	inner := s.limitV1(http.HandlerFunc(s.route))
	if o.maxHeader > 0 {
		inner = httpmw.MaxHeaderBytes(o.maxHeader)(inner)
	}
	s.handler = stack.Handler("", "request", inner)
	return s, nil
}

// route hands a request to the mux of its route: the watch and feed
// routes have one of their own (see [changeRoute]).
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	if s.changeMux != nil && changeRoute(r.URL.Path) {
		s.changeMux.ServeHTTP(w, r)
		return
	}
	if country, id, ok := s.lookupRoute(r); ok {
		r.Pattern = s.lookupPattern
		s.lookupOf(w, r, country, id)
		return
	}
	// After the lookup, off its path: no lookup's path is company//{op}
	// (lookupRoute takes no identifier with a slash).
	if country, op, ok := emptyIDRoute(r); ok {
		s.emptyID(w, r, country, op)
		return
	}
	if slashSegment(r.URL.EscapedPath()) && s.slashValue(w, r) {
		return
	}
	s.mux.ServeHTTP(w, r)
}

// lookupPath is the lookup's path pattern that lookupRoute recognises.
const lookupPath = "/v1/{country}/company/{id}"

// lookupRoute reports whether r is a GET or HEAD of a clean path
// /v1/{country}/company/{id} whose two values need no unescaping, and
// returns them: the mux would hand such a request to the lookup with
// these values (TestLookupRouteAgreesWithTheMux), after a walk of its tree
// and an allocation for each value. Anything else goes to the mux.
func (s *Server) lookupRoute(r *http.Request) (country, id string, ok bool) {
	if s.lookupPattern == "" || r.Method != http.MethodGet && r.Method != http.MethodHead {
		return "", "", false
	}
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), "/v1/")
	if !ok {
		return "", "", false
	}
	country, rest, _ = strings.Cut(rest, "/")
	id, ok = strings.CutPrefix(rest, "company/")
	if !ok || !plainSegment(country) || !plainSegment(id) {
		return "", "", false
	}
	return country, id, true
}

// companyPrefix starts the patterns of the operations on one company
// beyond its lookup.
const companyPrefix = "/v1/{country}/company/{id}/"

// companyRoute is an operation under companyPrefix: its patterns and
// handlers by method ("" for the route's other methods, the 405 envelope).
type companyRoute struct {
	patterns map[string]string
	handlers map[string]http.HandlerFunc
}

// emptyIDRoute reports whether r's path is /v1/{country}/company//{op}, an
// operation on one company with an empty identifier (a client that built
// the path from an empty field), and returns the country and op,
// unescaped ([catalog.EmptyIDPath]: several slashes, escaped segments).
// The mux would answer it with its own redirect to the cleaned path,
// /v1/{country}/company/{op}, which is the lookup of the identifier op.
func emptyIDRoute(r *http.Request) (country, op string, ok bool) {
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), "/v1/")
	if !ok {
		return "", "", false
	}
	return catalog.EmptyIDPath(rest)
}

// slashSegment reports whether the escaped path p has a segment that is
// a slash written %2F.
func slashSegment(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if strings.EqualFold(seg, "%2F") {
			return true
		}
	}
	return false
}

// slashProbe is the segment slashValue asks the mux about in place of
// %2F: a value no literal segment of a pattern has.
const slashProbe = "%00"

// slashValue serves a request whose path has a segment %2F, "/"
// unescaped, which http.ServeMux takes for a trailing slash and so
// matches to no pattern (/v1/NO/company/%2F/roles would be 404 where
// %2F%2F is the operation's invalid_id): it finds the pattern the mux
// matches with each such segment written as another value, and calls
// its handler with the path values of the real path, "/" for each
// such segment. It reports false, having done nothing, when such a
// segment is no wildcard of that pattern (or the mux would clean the
// path): the mux answers as it does.
func (s *Server) slashValue(w http.ResponseWriter, r *http.Request) bool {
	segs := strings.Split(r.URL.EscapedPath(), "/")
	probe := slices.Clone(segs)
	for i, seg := range probe {
		if strings.EqualFold(seg, "%2F") {
			probe[i] = slashProbe
		}
	}
	u := *r.URL
	u.RawPath = strings.Join(probe, "/")
	var err error
	if u.Path, err = url.PathUnescape(u.RawPath); err != nil {
		return false
	}
	probeReq := *r
	probeReq.URL = &u
	h, pattern := s.mux.Handler(&probeReq)
	path := pattern // the mux's answer for another method (405) names no method
	if _, p, ok := strings.Cut(pattern, " "); ok {
		path = p
	}
	psegs := strings.Split(path, "/")
	if len(psegs) != len(segs) {
		return false
	}
	values := map[string]string{}
	for i, ps := range psegs {
		name, wild := strings.CutPrefix(ps, "{")
		name, wild2 := strings.CutSuffix(name, "}")
		if !wild || !wild2 || strings.HasSuffix(name, "...") {
			if probe[i] != segs[i] {
				return false
			}
			continue
		}
		v, err := url.PathUnescape(segs[i])
		if err != nil {
			return false
		}
		values[name] = v
	}
	r.Pattern = pattern
	for name, v := range values {
		r.SetPathValue(name, v)
	}
	h.ServeHTTP(w, r)
	return true
}

// emptyID serves an operation on one company whose identifier is empty as
// the mux serves it with any other identifier, so that the operation
// answers as the Go API does for "" (the module's invalid_id); an op that
// is no operation's is the not_found envelope, never a redirect.
func (s *Server) emptyID(w http.ResponseWriter, r *http.Request, country, op string) {
	route, ok := s.underCompany[op]
	if !ok {
		s.notFound(w, r)
		return
	}
	method := r.Method
	if method == http.MethodHead && route.handlers[http.MethodHead] == nil {
		method = http.MethodGet
	}
	h, ok := route.handlers[method]
	if !ok {
		method = ""
		h = route.handlers[""]
	}
	r.Pattern = route.patterns[method]
	r.SetPathValue("country", country)
	r.SetPathValue("id", "")
	h(w, r)
}

// plainSegment reports whether s is a path segment that the mux takes as it
// is: not empty, not a dot segment it would clean, no slash, nothing
// escaped.
func plainSegment(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, "/%")
}

func mustEnvelope(e *registry.Error) []byte {
	b, _ := ops.EnvelopeJSON(e)
	return b
}

// handlers returns the handler of each operation of the catalogue, by
// the operation's name.
func (s *Server) handlers() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"getHealth":             s.health,
		"listCountries":         s.listCountries,
		"lookupCompany":         s.lookup,
		"searchCompanies":       s.search,
		"companyDeadlines":      s.deadlines,
		"companyRoles":          s.roles,
		"validateCompanyID":     s.validate,
		"companyDeadlinesICS":   s.deadlinesICS,
		"companyDeadlinesBatch": s.deadlinesBatch,
		"llmsTxt":               s.textHandler(s.text.llms, "text/plain; charset=utf-8"),
		"llmsFullTxt":           s.textHandler(s.text.llmsFull, "text/plain; charset=utf-8"),
		"serverJSON":            s.textHandler(s.text.serverJSON, "application/json"),
		"openAPI":               s.textHandler(s.text.openAPI, "application/json"),
	}
}

// routes registers the route of every operation of the catalogue (change
// monitoring's only with [WithChanges]). Each pattern is registered with
// each of its operations' methods, and once without a method for the 405
// envelope, so that the mux never answers with its own plain-text 404 or
// 405. An operation without a handler, or a handler without an operation,
// is an error.
func (s *Server) routes() error {
	hs := s.handlers()
	all := catalog.Operations()
	if s.changes != nil {
		for name, h := range s.changeHandlers() {
			hs[name] = h
		}
		all = append(all, catalog.ChangeOperations()...)
	}
	methods := map[string][]string{} // pattern: methods, in order
	var patterns []string
	for _, op := range all {
		h, ok := hs[op.Name]
		if !ok {
			return fmt.Errorf("restserver: no handler for operation %s", op.Name)
		}
		delete(hs, op.Name)
		s.muxOf(op.Pattern).HandleFunc(op.Method+" "+op.Pattern, h)
		s.companyRoute(op.Pattern, op.Method, h)
		if op.Name == "lookupCompany" && op.Method == http.MethodGet && op.Pattern == lookupPath {
			s.lookupPattern = op.Method + " " + op.Pattern
		}
		if methods[op.Pattern] == nil {
			patterns = append(patterns, op.Pattern)
		}
		methods[op.Pattern] = append(methods[op.Pattern], op.Method)
	}
	for name := range hs {
		return fmt.Errorf("restserver: handler %s has no operation", name)
	}
	for _, p := range patterns {
		var other http.HandlerFunc
		switch m := methods[p]; {
		case len(m) == 1 && m[0] == http.MethodPost && !changeRoute(p):
			other = s.postOnly
		case len(m) == 1 && m[0] == http.MethodGet:
			other = s.methodNotAllowed
		default:
			other = s.onlyMethods(m)
		}
		s.muxOf(p).HandleFunc(p, other)
		s.companyRoute(p, "", other)
	}
	s.mux.HandleFunc("/", s.notFound)
	if s.changeMux != nil {
		s.changeMux.HandleFunc("/", s.notFound)
	}
	return nil
}

// companyRoute records the handler of method (a pattern's other methods:
// "") on pattern when pattern is one segment under companyPrefix.
func (s *Server) companyRoute(pattern, method string, h http.HandlerFunc) {
	op, ok := strings.CutPrefix(pattern, companyPrefix)
	if !ok || !plainSegment(op) {
		return
	}
	if s.underCompany == nil {
		s.underCompany = map[string]*companyRoute{}
	}
	route := s.underCompany[op]
	if route == nil {
		route = &companyRoute{patterns: map[string]string{}, handlers: map[string]http.HandlerFunc{}}
		s.underCompany[op] = route
	}
	route.patterns[method] = strings.TrimSpace(method + " " + pattern)
	route.handlers[method] = h
}

// muxOf returns the mux a pattern is registered on.
func (s *Server) muxOf(pattern string) *http.ServeMux {
	if s.changeMux != nil && changeRoute(strings.TrimRight(strings.Split(pattern, "{")[0], "/")) {
		return s.changeMux
	}
	return s.mux
}

// onlyMethods answers a method other than methods on a route of change
// monitoring: 405 with the error envelope and an Allow header.
func (s *Server) onlyMethods(methods []string) http.HandlerFunc {
	allow := slices.Clone(methods)
	if slices.Contains(allow, http.MethodGet) {
		allow = append(allow, http.MethodHead)
	}
	list := strings.Join(allow, ", ")
	body := mustEnvelope(&registry.Error{
		Code:    registry.CodeBadRequest,
		Message: "This route accepts only " + list + ".",
		Hint:    "Retry with one of these methods; /llms.txt lists the routes of this service.",
	})
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Allow", list)
		s.writeJSON(w, http.StatusMethodNotAllowed, cacheError, body)
	}
}

// ServeHTTP implements [http.Handler]: the middleware stack (security
// headers, request ID and client address, access log, panic recovery, the
// rate limit of the /v1 routes) around the routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

// limitV1 charges a /v1 request one request of the client's allowance; a
// batch is charged by its identifiers, in its handler.
func (s *Server) limitV1(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/v1/") && !isBatchPath(r) && !s.charge(w, r, 1) {
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) writeJSON(w http.ResponseWriter, status int, cacheControl string, body []byte) {
	setJSONHeaders(w.Header(), cacheControl, len(body))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeData sends body, a document of the Registry, as a 200 answer
// through httpmw.WriteAnswer: in one write where the server's connection
// gathers (a report with many officers exceeds net/http's 4 KiB buffer).
func (s *Server) writeData(w http.ResponseWriter, r *http.Request, body []byte) {
	setJSONHeaders(w.Header(), cacheData, len(body))
	w.WriteHeader(http.StatusOK)
	httpmw.WriteAnswer(w, r, body)
}

// setJSONHeaders sets the headers of a JSON answer of n bytes. One
// allocation for the three values; each header gets a slice of its own
// (capacity 1), so that appending to one never touches another.
func setJSONHeaders(h http.Header, cacheControl string, n int) {
	v := []string{"application/json", cacheControl, strconv.Itoa(n)}
	h["Content-Type"], h["Cache-Control"], h["Content-Length"] = v[0:1:1], v[1:2:2], v[2:3:3]
}

// respond encodes *v, or sends the error envelope of err. A document of the
// root package encodes through its own MarshalJSON directly: its output is
// already what json.Marshal would give (compact, HTML-escaped), and calling
// it directly saves json.Marshal's second pass over the bytes.
func respond[T any](s *Server, w http.ResponseWriter, r *http.Request, v *T, err error) {
	var b []byte
	if err == nil && v != nil {
		if m, ok := any(*v).(json.Marshaler); ok {
			b, err = m.MarshalJSON()
		} else {
			b, err = json.Marshal(v)
		}
		if err != nil {
			err = &registry.Error{Code: registry.CodeInternalError, Message: "The answer could not be encoded.", Err: err}
		}
	}
	s.respondJSON(w, r, b, err)
}

// respondJSON sends b, an encoded document of the Registry (which the
// handler must not modify), or the error envelope of err.
func (s *Server) respondJSON(w http.ResponseWriter, r *http.Request, b []byte, err error) {
	if err == nil && len(b) == 0 {
		err = &registry.Error{Code: registry.CodeInternalError, Message: "The operation returned no answer."}
	}
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.writeData(w, r, b)
}

func (s *Server) writeError(w http.ResponseWriter, err error) {
	b, e := ops.EnvelopeJSON(err)
	if e.Code == registry.CodeRateLimited {
		if ra := e.RetryAfter(); ra > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(ra))
		}
	}
	s.writeJSON(w, e.HTTPStatus(), cacheError, b)
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	b, _ := s.notFoundBody.render(s, r)
	s.writeJSON(w, http.StatusNotFound, cacheError, b)
}

func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Allow", "GET, HEAD")
	b, _ := s.methodNotAllowedBody.render(s, r)
	s.writeJSON(w, http.StatusMethodNotAllowed, cacheError, b)
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	b, err := json.Marshal(s.reg.Health(r.Context()))
	if err != nil {
		s.writeError(w, err)
		return
	}
	s.writeJSON(w, http.StatusOK, cacheError, b)
}

func (s *Server) listCountries(w http.ResponseWriter, r *http.Request) {
	respond(s, w, r, s.reg.Countries(), nil)
}

func (s *Server) lookup(w http.ResponseWriter, r *http.Request) {
	s.lookupOf(w, r, r.PathValue("country"), r.PathValue("id"))
}

func (s *Server) lookupOf(w http.ResponseWriter, r *http.Request, country, id string) {
	b, err := s.ops.LookupJSON(r.Context(), country, id)
	s.respondJSON(w, r, b, err)
}

func (s *Server) validate(w http.ResponseWriter, r *http.Request) {
	res, err := s.reg.Validate(r.PathValue("country"), r.PathValue("id"))
	respond(s, w, r, ops.SurfaceValidation(res), err)
}

func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	country := r.PathValue("country")
	q, qerr := url.ParseQuery(r.URL.RawQuery)
	if qerr != nil {
		s.writeError(w, s.ops.BadRequest(country, "The query string is malformed.",
			"Percent-encode the query parameters, for example q=s%C3%B8r+as."))
		return
	}
	raw, ok := first(q, "limit")
	limit, err := s.ops.ParseLimit(country, raw, ok)
	if err != nil {
		s.writeError(w, err)
		return
	}
	query, _ := first(q, "q")
	b, err := s.ops.SearchJSON(r.Context(), country, query, limit)
	s.respondJSON(w, r, b, err)
}

func (s *Server) deadlines(w http.ResponseWriter, r *http.Request) {
	country := r.PathValue("country")
	q, qerr := url.ParseQuery(r.URL.RawQuery)
	if qerr != nil {
		s.writeError(w, s.ops.BadRequest(country, "The query string is malformed.",
			"Pass today as YYYY-MM-DD (for example 2026-01-15), or leave it out for the current UTC date."))
		return
	}
	// "today=" is given but is not a date; only an absent today means the
	// current UTC date.
	raw, ok := first(q, "today")
	today, err := s.ops.ParseToday(country, raw, ok)
	if err != nil {
		s.writeError(w, err)
		return
	}
	rep, err := s.reg.Deadlines(r.Context(), country, r.PathValue("id"), today)
	respond(s, w, r, rep, err)
}

// first returns the first value of key in q and whether key is present.
func first(q url.Values, key string) (string, bool) {
	v, ok := q[key]
	if !ok || len(v) == 0 {
		return "", false
	}
	return v[0], true
}

func (s *Server) textHandler(t *template, contentType string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, static := t.render(s, r)
		h := w.Header()
		h["Content-Type"] = []string{contentType}
		if static {
			h["Cache-Control"] = []string{cacheStatic}
		} else {
			h["Cache-Control"] = []string{"no-cache"}
		}
		h["Content-Length"] = []string{strconv.Itoa(len(body))}
		w.WriteHeader(http.StatusOK)
		httpmw.WriteAnswer(w, r, body)
	}
}
