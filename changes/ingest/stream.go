package ingest

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strings"
	"time"
)

// errLineTooLong is a stream line longer than the bound; it is skipped.
var errLineTooLong = errors.New("ingest: stream line too long")

// lineReader reads the lines of a newline-delimited stream, each at most
// max bytes: a longer line is read to its end and skipped, never held.
type lineReader struct{ r *bufio.Reader }

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, max)}
}

// next returns the next line without its line ending; the slice is valid
// until the next call. A line longer than the bound is errLineTooLong; a
// last line without a newline (a connection cut mid-event) is dropped
// and the read error returned.
func (l *lineReader) next() ([]byte, error) {
	b, err := l.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = l.r.ReadSlice('\n')
		}
		if err != nil {
			return nil, err
		}
		return nil, errLineTooLong
	}
	if err != nil {
		return nil, err
	}
	return bytes.TrimRight(b, "\r\n"), nil
}

// event is what the processing of a stream keeps of one event line.
type event struct {
	stream    string
	timepoint int64
	// company is the company number the event is about ("" when its
	// resource_uri names none).
	company   string
	published *time.Time
	// deleted is a deleted company profile.
	deleted bool
	// reset says the stream's timepoint was refused as too old (416).
	reset bool
}

// companyInURI finds the company number in a resource_uri such as
// /company/03743582/charges/… (Companies House's own events omit the
// leading slash on some streams).
var companyInURI = regexp.MustCompile(`(?:^|/)company/([A-Za-z0-9]{8})(?:/|$)`)

// streamName is a stream's path without its slash.
var streamName = regexp.MustCompile(`^[a-z][a-z-]{0,63}$`)

// decodeStreamLine reads one event line of a Companies House stream: its
// timepoint (an integer, or a string of digits in the old envelope), the
// company number of its resource_uri, when it was published and whether
// it deletes a company profile. data is not read: what changed is read
// from the register, never from the event. ok is false for a line that
// is not an event with a positive timepoint. A published_at without a
// zone is read in loc (UK time).
func decodeStreamLine(stream string, line []byte, loc *time.Location) (event, bool) {
	var e struct {
		ResourceKind string `json:"resource_kind"`
		ResourceURI  string `json:"resource_uri"`
		Event        struct {
			Timepoint   json.RawMessage `json:"timepoint"`
			PublishedAt string          `json:"published_at"`
			Type        string          `json:"type"`
		} `json:"event"`
	}
	if json.Unmarshal(line, &e) != nil {
		return event{}, false
	}
	tp, ok := parseID(e.Event.Timepoint)
	if !ok {
		return event{}, false
	}
	ev := event{stream: stream, timepoint: tp, published: parseStreamTime(e.Event.PublishedAt, loc),
		deleted: e.Event.Type == "deleted" && e.ResourceKind == "company-profile"}
	if m := companyInURI.FindStringSubmatch(e.ResourceURI); m != nil {
		ev.company = strings.ToUpper(m[1])
	}
	return ev, true
}

// parseStreamTime reads published_at, seen as 2022-11-15T18:59:02.333257Z,
// 2022-08-02T14:51:01.704338+01:00 and 2022-08-02T15:21:06 (no zone: UK
// time).
func parseStreamTime(s string, loc *time.Location) *time.Time {
	s = strings.TrimSpace(s)
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		if t, err = time.ParseInLocation("2006-01-02T15:04:05.999999999", s, loc); err != nil {
			return nil
		}
	}
	t = t.UTC()
	return &t
}

// redactor hides a credential in the text of an error.
type redactor []string

func newRedactor(key string) redactor {
	return redactor{key, base64.StdEncoding.EncodeToString([]byte(key + ":"))}
}

// redact returns err unless its text holds the credential; then an error
// with the credential replaced and no cause.
func (r redactor) redact(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	hit := false
	for _, s := range r {
		if s != "" && strings.Contains(msg, s) {
			msg, hit = strings.ReplaceAll(msg, s, "[redacted]"), true
		}
	}
	if !hit {
		return err
	}
	return errors.New(msg)
}
