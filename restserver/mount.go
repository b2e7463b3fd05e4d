package restserver

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/companyregistry/registry/internal/httplog"
)

// Placeholders of the texts built once at construction (the text resources
// and the 404 and 405 envelopes) for what depends on where the handler is
// mounted; see [Server.locate].
const (
	// basePlaceholder is the base URL: scheme, host and base path, e.g.
	// "https://example.com/registry".
	basePlaceholder = "{{BASE_URL}}"
	// pathPlaceholder is the base path alone, "" at the host root, e.g.
	// "/registry".
	pathPlaceholder = "{{BASE_PATH}}"
	// rootPlaceholder is the base path, "/" at the host root (the form
	// OpenAPI's servers list wants).
	rootPlaceholder = "{{BASE_ROOT}}"
)

// location is where clients reach the handler: the base URL and the base
// path every link, the MCP URL and every hint start with.
type location struct {
	url  string // scheme://host[:port]/base/path, no trailing slash
	path string // /base/path, "" at the host root
}

// locate returns where r reached the handler. With [WithPublicURL] that is
// the public URL, the same for every request. Otherwise the scheme is https
// when the connection is TLS, the host is the Host header, and the path is
// the [WithBasePath] path; a request from a trusted proxy (see
// [WithTrustedProxies]) may override the scheme and host with
// X-Forwarded-Proto and X-Forwarded-Host and put X-Forwarded-Prefix in front
// of the path. A host that is not a plain host[:port] becomes "localhost";
// a prefix that is not a plain absolute path is ignored.
func (s *Server) locate(r *http.Request) location {
	if s.publicURL != "" {
		return location{url: s.publicURL, path: s.basePath}
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := r.Host
	path := s.basePath
	if peer := httplog.PeerAddr(r.RemoteAddr); peer.IsValid() && httplog.IsTrusted(peer, s.trusted) {
		if p := strings.ToLower(lastToken(r.Header.Values("X-Forwarded-Proto"))); p == "http" || p == "https" {
			scheme = p
		}
		if h := lastToken(r.Header.Values("X-Forwarded-Host")); h != "" {
			host = h
		}
		if v := r.Header.Values("X-Forwarded-Prefix"); len(v) > 0 {
			if p, ok := cleanBasePath(lastToken(v)); ok {
				path = p + path
			}
		}
	}
	if !validHost(host) {
		host = "localhost"
	}
	return location{url: scheme + "://" + host + path, path: path}
}

// cleanBasePath checks a base path: "" or "/" is the host root (""),
// otherwise an absolute path of letters, digits and -._~/ without "." or
// ".." segments, returned without its trailing slash.
func cleanBasePath(p string) (string, bool) {
	if p == "" || p == "/" {
		return "", true
	}
	if p[0] != '/' || len(p) > 256 {
		return "", false
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~/", c) >= 0) {
			return "", false
		}
	}
	p = strings.TrimRight(p, "/")
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", false
		}
	}
	return p, true
}

// lastToken is the last comma-separated value of the last header line: the
// one the trusted proxy next to us added (a value the client sent comes
// before it).
func lastToken(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	v := lines[len(lines)-1]
	if i := strings.LastIndexByte(v, ','); i >= 0 {
		v = v[i+1:]
	}
	return strings.TrimSpace(v)
}

func validHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(".-:[]", c) >= 0) {
			return false
		}
	}
	return true
}

// template is a text built once at construction with placeholders for the
// location. What the server's options fix is filled in at once; when
// nothing is left to fill, static holds the final bytes, otherwise each
// request's location is put between parts.
type template struct {
	static []byte
	parts  [][]byte
	vars   []string // vars[i] is the placeholder between parts[i] and parts[i+1]
	json   bool     // the values are JSON-escaped when filled in
}

var placeholders = []string{basePlaceholder, pathPlaceholder, rootPlaceholder}

// newTemplate builds a template of text; fixed holds the placeholders
// whose value is the same for every request.
func newTemplate(text string, isJSON bool, fixed map[string]string) *template {
	for k, v := range fixed {
		text = strings.ReplaceAll(text, k, escapeJSON(v, isJSON))
	}
	t := &template{json: isJSON}
	for {
		i, ph := -1, ""
		for _, p := range placeholders {
			if j := strings.Index(text, p); j >= 0 && (i < 0 || j < i) {
				i, ph = j, p
			}
		}
		if i < 0 {
			break
		}
		t.parts = append(t.parts, []byte(text[:i]))
		t.vars = append(t.vars, ph)
		text = text[i+len(ph):]
	}
	if len(t.vars) == 0 {
		return &template{static: []byte(text)}
	}
	t.parts = append(t.parts, []byte(text))
	return t
}

func escapeJSON(v string, isJSON bool) string {
	if !isJSON {
		return v
	}
	b, _ := json.Marshal(v) // a string always encodes
	return string(b[1 : len(b)-1])
}

// render returns the text for r and whether it is the same for every
// request.
func (t *template) render(s *Server, r *http.Request) ([]byte, bool) {
	if t.static != nil {
		return t.static, true
	}
	loc := s.locate(r)
	vals := map[string]string{
		basePlaceholder: escapeJSON(loc.url, t.json),
		pathPlaceholder: escapeJSON(loc.path, t.json),
		rootPlaceholder: escapeJSON(rootOf(loc.path), t.json),
	}
	n := 0
	for _, p := range t.parts {
		n += len(p)
	}
	for _, v := range t.vars {
		n += len(vals[v])
	}
	out := make([]byte, 0, n)
	for i, p := range t.parts {
		if i > 0 {
			out = append(out, vals[t.vars[i-1]]...)
		}
		out = append(out, p...)
	}
	return out, false
}

func rootOf(path string) string {
	if path == "" {
		return "/"
	}
	return path
}

// fixedLocation returns the placeholders whose value no request can
// change: all three with a public URL, the base path when no proxy is
// trusted (X-Forwarded-Prefix is then never believed).
func fixedLocation(o options) map[string]string {
	switch {
	case o.publicURL != "":
		return map[string]string{basePlaceholder: o.publicURL, pathPlaceholder: o.basePath, rootPlaceholder: rootOf(o.basePath)}
	case len(o.trusted) == 0:
		return map[string]string{pathPlaceholder: o.basePath, rootPlaceholder: rootOf(o.basePath)}
	}
	return nil
}
