package restserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/catalog"
	"github.com/companyregistry/registry/internal/httpmw"
	"github.com/companyregistry/registry/internal/ops"
)

// Limits of POST /v1/{country}/deadlines:batch.
const (
	// MaxBatchIDs is the most identifiers one batch request may hold.
	MaxBatchIDs = catalog.MaxBatchIDs
	// MaxBatchBodyBytes is the largest request body of a batch.
	MaxBatchBodyBytes = catalog.MaxBatchBodyBytes
	// BatchTimeout bounds the work of one batch request: identifiers not
	// answered by then (a slow register, or one whose allowance is used up)
	// carry upstream_timeout or rate_limited, and the others their answers.
	BatchTimeout = catalog.BatchTimeout
)

// batchHint is the hint of every problem with the body of a batch.
var batchHint = fmt.Sprintf(`Send a JSON object like {"ids": ["923609016", "974760673"], "today": "2026-01-15"}: `+
	`ids holds 1 to %d identifiers, today is optional (YYYY-MM-DD, default the current UTC date); no other field.`, MaxBatchIDs)

// isBatchPath reports whether r is a POST to /v1/{country}/deadlines:batch,
// which its handler charges to the rate limit by its identifiers.
func isBatchPath(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	country, tail, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/v1/"), "/")
	return ok && country != "" && tail == "deadlines:batch"
}

// charge takes n requests' worth from the client's allowance; when it is
// exhausted it writes the 429 envelope and returns false.
func (s *Server) charge(w http.ResponseWriter, r *http.Request, n int) bool {
	q := httpmw.Of(w)
	if !q.Limited() {
		return true
	}
	ok, retry := q.Charge(r.Context(), n)
	if !ok {
		s.writeError(w, httpmw.RateLimited(retry))
	}
	return ok
}

// postOnly answers another method than POST on the batch route.
func (s *Server) postOnly(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Allow", "POST")
	s.writeJSON(w, http.StatusMethodNotAllowed, cacheError, mustEnvelope(&registry.Error{
		Code:    registry.CodeBadRequest,
		Message: "This route accepts only POST.",
		Hint:    "Retry with POST and a JSON body; " + batchHint,
	}))
}

// deadlinesBatch serves POST /v1/{country}/deadlines:batch: the deadline
// reports of up to MaxBatchIDs identifiers computed from one today, in the
// order of the request, each a report or that identifier's error envelope.
// The rate limit is charged one request per identifier (one for a body that
// cannot be read) before any work.
func (s *Server) deadlinesBatch(w http.ResponseWriter, r *http.Request) {
	country := r.PathValue("country")
	req, perr := s.readBatch(w, r, country)
	cost := 1
	if perr == nil {
		cost = len(req.ids)
	}
	if !s.charge(w, r, cost) {
		return
	}
	if perr != nil {
		s.writeError(w, perr)
		return
	}
	today, err := s.ops.ParseToday(country, req.today, req.hasToday)
	if err != nil {
		s.writeError(w, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), BatchTimeout)
	defer cancel()
	items, err := s.reg.DeadlinesBatch(ctx, country, req.ids, today)
	if err != nil {
		s.writeError(w, err)
		return
	}
	info, err := s.ops.Module(country)
	if err != nil {
		s.writeError(w, err)
		return
	}
	parts, size := encodeBatch(info.Country, today, items)
	s.writeParts(w, parts, size)
}

// batchRequest is a decoded batch body.
type batchRequest struct {
	ids      []string
	today    string
	hasToday bool
}

// readBatch reads and checks the body: a JSON object with ids (1 to
// MaxBatchIDs strings) and an optional today (a string, or null for
// absent), no other member, at most MaxBatchBodyBytes. Members are matched
// by their exact names.
func (s *Server) readBatch(w http.ResponseWriter, r *http.Request, country string) (*batchRequest, error) {
	bad := func(format string, args ...any) error {
		return s.ops.BadRequest(country, fmt.Sprintf(format, args...), batchHint)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBatchBodyBytes))
	if err != nil {
		if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
			return nil, bad("The body is larger than %d bytes.", MaxBatchBodyBytes)
		}
		return nil, bad("The body could not be read.")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, bad("The body is empty; it must be a JSON object with ids.")
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil || members == nil {
		return nil, bad("The body is not a JSON object.")
	}
	if unknown, found := ops.UnknownMember(members, "ids", "today"); found {
		return nil, bad("The body has an unknown field %s; only ids and today are accepted.", ops.Quote(unknown))
	}
	req := &batchRequest{}
	if raw, ok := members["today"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &req.today); err != nil {
			return nil, s.ops.InvalidToday(country)
		}
		req.hasToday = true
	}
	raw, ok := members["ids"]
	if !ok {
		return nil, bad("The body has no ids.")
	}
	var ids []*string
	if err := json.Unmarshal(raw, &ids); err != nil {
		return nil, bad("ids must be an array of strings.")
	}
	switch {
	case len(ids) == 0:
		return nil, bad("ids is empty; a batch takes 1 to %d identifiers.", MaxBatchIDs)
	case len(ids) > MaxBatchIDs:
		return nil, bad("ids holds %d identifiers; a batch takes at most %d. Split it into several batches.", len(ids), MaxBatchIDs)
	}
	req.ids = make([]string, len(ids))
	for i, id := range ids {
		if id == nil {
			return nil, bad("ids[%d] is null; ids must be an array of strings.", i)
		}
		req.ids[i] = *id
	}
	return req, nil
}

// encodeBatch returns the batch document as pieces to write in order, and
// their total length: the reports' and envelopes' own bytes are written as
// they are, not copied into one buffer. Each item's error member holds the
// very bytes of the envelope the single deadlines route sends for that
// identifier.
func encodeBatch(country string, today registry.Date, items []registry.DeadlinesItem) ([][]byte, int) {
	failed := 0
	parts := make([][]byte, 1, 2+3*len(items))
	for i, it := range items {
		id, _ := json.Marshal(it.ID) // a string always encodes
		head := make([]byte, 0, len(id)+48)
		if i > 0 {
			head = append(head, ',')
		}
		head = append(head, `{"id":`...)
		head = append(head, id...)
		err := it.Err
		if err == nil && it.Report == nil {
			err = &registry.Error{Code: registry.CodeInternalError, Message: "The operation returned no answer."}
		}
		var rep []byte
		if err == nil {
			if rep, err = it.Report.MarshalJSON(); err != nil {
				err = &registry.Error{Code: registry.CodeInternalError, Message: "The answer could not be encoded.", Err: err}
			}
		}
		if err != nil {
			failed++
			env, e := ops.EnvelopeJSON(err)
			head = append(head, `,"status":`...)
			head = strconv.AppendInt(head, int64(e.HTTPStatus()), 10)
			head = append(head, `,"report":null,`...)
			parts = append(parts, head, env[1:]) // "error":{...}}
			continue
		}
		head = append(head, `,"status":200,"report":`...)
		parts = append(parts, head, rep, itemTail)
	}
	parts[0] = fmt.Appendf(nil, `{"country":%q,"today":"%s","count":%d,"failed":%d,"items":[`, country, today, len(items), failed)
	parts = append(parts, batchTail)
	size := 0
	for _, p := range parts {
		size += len(p)
	}
	return parts, size
}

var (
	itemTail  = []byte(`,"error":null}`)
	batchTail = []byte("]}")
)

// writeParts sends a 200 JSON answer made of parts, size bytes in all.
func (s *Server) writeParts(w http.ResponseWriter, parts [][]byte, size int) {
	h := w.Header()
	h["Content-Type"] = []string{"application/json"}
	h["Cache-Control"] = []string{cacheData}
	h["Content-Length"] = []string{strconv.Itoa(size)}
	w.WriteHeader(http.StatusOK)
	for _, p := range parts {
		if _, err := w.Write(p); err != nil {
			return // the client is gone
		}
	}
}
