package httplog

import (
	"context"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// AccessRecord is an access-log record without extra fields: what
// [Access] sends to a handler that is an [AccessWriter].
type AccessRecord struct {
	Time     time.Time
	Level    slog.Level
	Msg      string
	Method   string
	Route    string
	Status   int
	Bytes    int
	Duration time.Duration
	ID       string // request_id
	ClientIP string
	Aborted  bool // written as aborted=true only when set
}

// AccessWriter is a slog.Handler that can write an [AccessRecord] itself,
// the same bytes its Handle would write for the record, without a
// slog.Record (see [AccessRecord.AppendJSON]). WriteAccess reports false
// when it wrote nothing and Handle must write the record. [Access] has
// checked Enabled.
type AccessWriter interface {
	WriteAccess(ctx context.Context, rec AccessRecord) bool
}

// AppendJSON appends to b the line that slog's JSON handler, made with
// slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l}) and no attributes
// or groups, writes for rec as [Access] builds it: the same keys in the
// same order, the time in RFC 3339 with nanoseconds, the duration in
// nanoseconds, strings escaped as that handler escapes them. It reports
// false, having appended nothing, when rec's time is outside the years 0
// to 9999, where that handler writes an error of its own.
// TestAppendJSONIsSlogs and FuzzAppendJSON compare the two.
func (rec *AccessRecord) AppendJSON(b []byte) ([]byte, bool) {
	return rec.AppendJSONCached(b, nil)
}

// AppendJSONCached is [AccessRecord.AppendJSON] with the time's text made
// through c, which keeps the text of the last second it wrote (the
// records of one second share it); a nil c formats each time in full.
// The bytes are AppendJSON's.
func (rec *AccessRecord) AppendJSONCached(b []byte, c *TimeCache) ([]byte, bool) {
	b = append(b, `{"time":"`...)
	if c != nil {
		var ok bool
		if b, ok = c.appendRFC3339Nano(b, rec.Time); !ok {
			return b[:len(b)-len(`{"time":"`)], false
		}
	} else {
		if y := rec.Time.Year(); y < 0 || y >= 10000 {
			return b[:len(b)-len(`{"time":"`)], false
		}
		b = rec.Time.Round(0).AppendFormat(b, time.RFC3339Nano)
	}
	b = append(b, `","level":`...)
	b = appendJSONString(b, rec.Level.String())
	b = append(b, `,"msg":`...)
	b = appendJSONString(b, rec.Msg)
	b = append(b, `,"method":`...)
	b = appendJSONString(b, rec.Method)
	b = append(b, `,"route":`...)
	b = appendJSONString(b, rec.Route)
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(rec.Status), 10)
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, int64(rec.Bytes), 10)
	b = append(b, `,"duration":`...)
	b = strconv.AppendInt(b, int64(rec.Duration), 10)
	b = append(b, `,"request_id":`...)
	b = appendJSONString(b, rec.ID)
	b = append(b, `,"client_ip":`...)
	b = appendJSONString(b, rec.ClientIP)
	if rec.Aborted {
		b = append(b, `,"aborted":true`...)
	}
	return append(b, "}\n"...), true
}

// appendJSONString appends s quoted and escaped as slog's JSON handler
// escapes a string: ", \ and the control characters below 0x20 (\n, \r,
// \t by name, the others as \u00XX), an invalid UTF-8 byte as \ufffd, and
// U+2028 and U+2029; <, > and & are kept.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// TimeCache makes the RFC 3339 text of times (time.RFC3339Nano, as slog's
// JSON handler writes a record's time) and keeps the parts of the last
// second it made, the date, clock and zone offset, so that the next time
// in the same second and location only adds its fraction. The zero value
// is ready; it is safe for concurrent use.
type TimeCache struct {
	last atomic.Pointer[secondText]
}

// secondText is the text of one second in one location: what RFC3339Nano
// writes before the fraction and after it.
type secondText struct {
	unix int64
	loc  *time.Location
	date string // "2006-01-02T15:04:05"
	zone string // "Z" or "-07:00"
}

// appendRFC3339Nano appends t.AppendFormat(time.RFC3339Nano), and reports
// false, appending nothing, when t's year is outside 0 to 9999 (which
// RFC 3339 cannot write, and slog's handler refuses).
func (c *TimeCache) appendRFC3339Nano(b []byte, t time.Time) ([]byte, bool) {
	unix, loc := t.Unix(), t.Location()
	st := c.last.Load()
	if st == nil || st.unix != unix || st.loc != loc {
		if y := t.Year(); y < 0 || y >= 10000 {
			return b, false
		}
		st = &secondText{unix: unix, loc: loc, date: t.Format("2006-01-02T15:04:05"), zone: t.Format("Z07:00")}
		c.last.Store(st)
	}
	b = append(b, st.date...)
	if ns := t.Nanosecond(); ns != 0 {
		b = appendFraction(b, ns)
	}
	return append(b, st.zone...), true
}

// appendFraction appends a dot and ns (1 to 999,999,999) as nine digits
// without their trailing zeros, as the layout ".999999999" writes it.
func appendFraction(b []byte, ns int) []byte {
	var d [10]byte
	d[0] = '.'
	for i := 9; i >= 1; i-- {
		d[i] = byte('0' + ns%10)
		ns /= 10
	}
	n := 10
	for d[n-1] == '0' {
		n--
	}
	return append(b, d[:n]...)
}
