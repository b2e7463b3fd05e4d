package catalog

import (
	"net/url"
	"strings"
)

// EmptyIDPath reports whether p, a request's path after /v1/ as the
// client escaped it (URL.EscapedPath), is an operation on one company
// with an empty identifier, {country}/company//{op}: a client that built
// the path from an empty field. An http.ServeMux would redirect it to the
// cleaned path, {country}/company/{op}, the lookup of the identifier op.
// Several slashes in place of the identifier (company///{op}) are the
// empty identifier too, and any segment may be escaped (N%4F, %72oles),
// as the mux matches segments unescaped. It returns the country and op
// unescaped; op is all that follows the identifier ("roles/" for a
// trailing slash), which the caller looks up among the operations. A path
// with a dot segment, a segment that does not unescape or nothing after
// the identifier is not one: the mux's cleaning decides it.
func EmptyIDPath(p string) (country, op string, ok bool) {
	c, rest, ok := strings.Cut(p, "/")
	if !ok {
		return "", "", false
	}
	company, rest, ok := strings.Cut(rest, "/")
	if !ok || !strings.HasPrefix(rest, "/") {
		return "", "", false
	}
	rest = strings.TrimLeft(rest, "/")
	if rest == "" || !unescapable(c) || !unescapable(company) || !unescapable(rest) {
		return "", "", false
	}
	country, _ = url.PathUnescape(c)
	company, _ = url.PathUnescape(company)
	if country == "" || company != "company" {
		return "", "", false
	}
	op, _ = url.PathUnescape(rest)
	return country, op, true
}

// unescapable reports whether every segment of the escaped path p
// unescapes and none is a dot segment.
func unescapable(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "." || seg == ".." {
			return false
		}
		if _, err := url.PathUnescape(seg); err != nil {
			return false
		}
	}
	return true
}
