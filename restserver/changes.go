package restserver

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/apitoken"
)

// WithChanges serves change monitoring's routes (see the package
// documentation) from svc: the watch and feed routes for the holders of
// tokens, each seeing only its own watches and changes (the token's name
// is the owner), and a company's recorded changes for anyone. With no
// token (tokens nil or empty) the watch and feed routes answer 403
// forbidden with a hint on how to enable them. Without this option none of
// these routes exists and the texts do not mention them.
func WithChanges(svc *changes.Service, tokens *apitoken.Set) Option {
	return func(o *options) error {
		if svc == nil {
			return errors.New("restserver: WithChanges: nil Service")
		}
		o.changes, o.tokens = svc, tokens
		return nil
	}
}

// changeRoute reports whether path belongs to the watch and feed routes,
// which are served by a mux of their own: their patterns
// (/v1/watches/{id}/test …) would conflict with /v1/{country}/… in one.
func changeRoute(path string) bool {
	return path == "/v1/watches" || strings.HasPrefix(path, "/v1/watches/") || path == "/v1/changes"
}

// changeHandlers returns the handlers of change monitoring's operations.
func (s *Server) changeHandlers() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"createWatch":       s.authed(s.createWatch),
		"listWatches":       s.authed(s.listWatches),
		"getWatch":          s.authed(s.getWatch),
		"updateWatch":       s.authed(s.updateWatch),
		"deleteWatch":       s.authed(s.deleteWatch),
		"testWatch":         s.authed(s.testWatch),
		"rotateWatchSecret": s.authed(s.rotateWatchSecret),
		"listDeliveries":    s.authed(s.listDeliveries),
		"redeliver":         s.authed(s.redeliver),
		"changeFeed":        s.authed(s.changeFeed),
		"companyChanges":    s.companyChanges,
	}
}

// realm is the realm of the WWW-Authenticate challenge.
const realm = `Bearer realm="companyregistry"`

// authed checks the request's API token and calls h with its name. No
// token configured: 403 forbidden. No token or an unknown one: 401 with a
// WWW-Authenticate challenge. The token is never logged or echoed.
func (s *Server) authed(h func(w http.ResponseWriter, r *http.Request, owner string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.tokens.Len() == 0 {
			s.writeError(w, &registry.Error{Code: registry.CodeForbidden,
				Message: "Watches and the change feed are not enabled on this deployment: no API token is configured."})
			return
		}
		raw := r.Header.Get("Authorization")
		if raw == "" {
			w.Header().Set("WWW-Authenticate", realm)
			s.writeError(w, &registry.Error{Code: registry.CodeUnauthorized, Message: "The request carries no API token."})
			return
		}
		scheme, token, _ := strings.Cut(raw, " ")
		name, ok := "", false
		if strings.EqualFold(scheme, "Bearer") {
			name, ok = s.tokens.Lookup(strings.TrimSpace(token))
		}
		if !ok {
			w.Header().Set("WWW-Authenticate", realm+`, error="invalid_token"`)
			s.writeError(w, &registry.Error{Code: registry.CodeUnauthorized,
				Message: "The API token is not valid (or not sent as Authorization: Bearer <token>)."})
			return
		}
		h(w, r, name)
	}
}

// writeDoc sends a document of change monitoring with status. Watches,
// secrets and the feed are private: no cache may keep them.
func (s *Server) writeDoc(w http.ResponseWriter, status int, doc any, err error) {
	if err != nil {
		s.writeError(w, err)
		return
	}
	b, err := json.Marshal(doc)
	if err != nil {
		s.writeError(w, &registry.Error{Code: registry.CodeInternalError, Message: "The answer could not be encoded.", Err: err})
		return
	}
	s.writeJSON(w, status, cacheError, b)
}

// readBody reads a watch request's body up to one byte past
// changes.MaxRequestBytes: the body's parser (changes.ParseWatchRequest,
// ParseWatchPatch, ParseRotateRequest) refuses one too large with its own
// route's hint. Only a body that cannot be read is answered here.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, changes.MaxRequestBytes+1))
	if tooLarge := (*http.MaxBytesError)(nil); err != nil && !errors.As(err, &tooLarge) {
		return nil, &registry.Error{Code: registry.CodeBadRequest, Message: "The body could not be read.",
			Hint: "Send the request again with a complete body."}
	}
	return b, nil
}

// query parses the query string; a malformed one is bad_request.
func query(r *http.Request) (url.Values, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, &registry.Error{Code: registry.CodeBadRequest, Message: "The query string is malformed.",
			Hint: "Percent-encode the query parameters."}
	}
	return q, nil
}

// queryLimit reads the limit parameter: absent is def.
func queryLimit(q url.Values, def int) (int, error) {
	raw, ok := first(q, "limit")
	return changes.ParseLimit(raw, ok, def)
}

func (s *Server) createWatch(w http.ResponseWriter, r *http.Request, owner string) {
	body, err := readBody(w, r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	req, err := changes.ParseWatchRequest(body)
	if err != nil {
		s.writeError(w, err)
		return
	}
	created, err := s.changes.CreateWatch(r.Context(), owner, req)
	if err == nil {
		// Where the new watch is read, changed and deleted, under the
		// handler's base path.
		w.Header().Set("Location", s.locate(r).path+"/v1/watches/"+url.PathEscape(created.Watch.ID))
	}
	s.writeDoc(w, http.StatusCreated, created, err)
}

func (s *Server) listWatches(w http.ResponseWriter, r *http.Request, owner string) {
	list, err := s.changes.Watches(r.Context(), owner)
	s.writeDoc(w, http.StatusOK, list, err)
}

func (s *Server) getWatch(w http.ResponseWriter, r *http.Request, owner string) {
	watch, err := s.changes.Watch(r.Context(), owner, r.PathValue("id"))
	s.writeDoc(w, http.StatusOK, watch, err)
}

func (s *Server) updateWatch(w http.ResponseWriter, r *http.Request, owner string) {
	body, err := readBody(w, r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	p, err := changes.ParseWatchPatch(body)
	if err != nil {
		s.writeError(w, err)
		return
	}
	updated, err := s.changes.UpdateWatch(r.Context(), owner, r.PathValue("id"), p)
	s.writeDoc(w, http.StatusOK, updated, err)
}

func (s *Server) deleteWatch(w http.ResponseWriter, r *http.Request, owner string) {
	if err := s.changes.DeleteWatch(r.Context(), owner, r.PathValue("id")); err != nil {
		s.writeError(w, err)
		return
	}
	w.Header()["Cache-Control"] = []string{cacheError}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) testWatch(w http.ResponseWriter, r *http.Request, owner string) {
	res, err := s.changes.TestWatch(r.Context(), owner, r.PathValue("id"))
	s.writeDoc(w, http.StatusOK, res, err)
}

func (s *Server) rotateWatchSecret(w http.ResponseWriter, r *http.Request, owner string) {
	body, err := readBody(w, r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	if err := changes.ParseRotateRequest(body); err != nil {
		s.writeError(w, err)
		return
	}
	rotated, err := s.changes.RotateSecret(r.Context(), owner, r.PathValue("id"))
	s.writeDoc(w, http.StatusOK, rotated, err)
}

func (s *Server) listDeliveries(w http.ResponseWriter, r *http.Request, owner string) {
	q, err := query(r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	limit, err := queryLimit(q, changes.DefaultDeliveriesLimit)
	if err != nil {
		s.writeError(w, err)
		return
	}
	list, err := s.changes.Deliveries(r.Context(), owner, r.PathValue("id"), limit)
	s.writeDoc(w, http.StatusOK, list, err)
}

func (s *Server) redeliver(w http.ResponseWriter, r *http.Request, owner string) {
	d, err := s.changes.Redeliver(r.Context(), owner, r.PathValue("id"), r.PathValue("delivery"))
	s.writeDoc(w, http.StatusAccepted, d, err)
}

func (s *Server) changeFeed(w http.ResponseWriter, r *http.Request, owner string) {
	q, err := query(r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	limit, err := queryLimit(q, changes.DefaultFeedLimit)
	if err != nil {
		s.writeError(w, err)
		return
	}
	cursor, _ := first(q, "cursor")
	feed, err := s.changes.Feed(r.Context(), owner, cursor, limit)
	s.writeDoc(w, http.StatusOK, feed, err)
}

// companyChanges serves GET /v1/{country}/company/{id}/changes: the same
// bytes as the MCP tool company_changes.
func (s *Server) companyChanges(w http.ResponseWriter, r *http.Request) {
	q, err := query(r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	// limit is read as for a search, as the MCP tool reads it.
	raw, ok := first(q, "limit")
	limit, err := s.ops.ParseLimit(r.PathValue("country"), raw, ok)
	if err != nil {
		s.writeError(w, err)
		return
	}
	b, err := s.changes.CompanyChangesJSON(r.Context(), r.PathValue("country"), r.PathValue("id"), limit)
	s.respondJSON(w, r, b, err)
}
