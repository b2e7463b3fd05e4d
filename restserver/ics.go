package restserver

import (
	"bytes"
	"net/http"
	"net/url"
	"strconv"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/ical"
	"github.com/companyregistry/registry/internal/httpmw"
	"github.com/companyregistry/registry/internal/ops"
)

// deadlinesICS serves GET /v1/{country}/company/{id}/deadlines.ics: the
// deadline report of the JSON route, with the same today rule, as an
// iCalendar feed (see package ical). A failure is the JSON error envelope
// with its status, so a calendar program shows an error instead of an empty
// calendar.
func (s *Server) deadlinesICS(w http.ResponseWriter, r *http.Request) {
	country := r.PathValue("country")
	q, qerr := url.ParseQuery(r.URL.RawQuery)
	if qerr != nil {
		s.writeError(w, s.ops.BadRequest(country, "The query string is malformed.", ops.TodayHint))
		return
	}
	raw, ok := first(q, "today")
	today, err := s.ops.ParseToday(country, raw, ok)
	if err != nil {
		s.writeError(w, err)
		return
	}
	rep, err := s.reg.Deadlines(r.Context(), country, r.PathValue("id"), today)
	if err != nil {
		s.writeError(w, err)
		return
	}
	var buf bytes.Buffer
	if err := ical.Write(&buf, rep); err != nil {
		s.writeError(w, &registry.Error{Code: registry.CodeInternalError, Message: "The calendar could not be encoded.", Err: err})
		return
	}
	h := w.Header()
	h["Content-Type"] = []string{ical.ContentType}
	h["Cache-Control"] = []string{cacheData}
	h["Content-Length"] = []string{strconv.Itoa(buf.Len())}
	// The canonical identifier is letters and digits; a filename that is
	// not kept plain is left out rather than escaped.
	if name := rep.Country + "-" + rep.CompanyID + "-deadlines.ics"; plainFilename(name) {
		h["Content-Disposition"] = []string{`inline; filename="` + name + `"`}
	}
	w.WriteHeader(http.StatusOK)
	httpmw.WriteAnswer(w, r, buf.Bytes())
}

// plainFilename reports whether name holds only letters, digits, '.', '-'
// and '_', so that it needs no quoting in Content-Disposition.
func plainFilename(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return name != ""
}
