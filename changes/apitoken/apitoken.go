// Package apitoken holds the API tokens that guard change monitoring's
// watch and feed routes. A token is known only by its SHA-256 hash and the
// name of its holder (the owner of the watches it creates); a presented
// token is hashed and compared with every hash in constant time. Neither a
// token nor a hash ever appears in an error.
//
// Two ways to configure them (the example server's settings):
//
//	REGISTRY_API_TOKENS="erp=0f8e…long random…,crm=…"       name=token, comma-separated
//	REGISTRY_API_TOKENS_FILE=/etc/registry/tokens           lines "name sha256-hex"
//
// The file keeps no token at all: an operator writes the line of a new
// token with [Line] (or `printf %s "$TOKEN" | sha256sum`).
package apitoken

import (
	"bufio"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Limits of a token and a name.
const (
	// MinTokenLength is the shortest token accepted in plain text: 16
	// characters (use 32 random bytes, hex or base64, in practice).
	MinTokenLength = 16
	// MaxTokenLength is the longest token accepted.
	MaxTokenLength = 512
	// MaxNameLength is the longest name.
	MaxNameLength = 64
	// MaxTokens is the most tokens one set holds.
	MaxTokens = 10_000
)

// Set is a set of named tokens, kept as hashes. The zero value and nil are
// empty sets. A Set is immutable and safe for concurrent use.
type Set struct {
	entries []entry
}

type entry struct {
	name string
	hash [sha256.Size]byte
}

// Len returns the number of tokens.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.entries)
}

// Names returns the names of the tokens, in the order given.
func (s *Set) Names() []string {
	if s == nil {
		return nil
	}
	out := make([]string, len(s.entries))
	for i, e := range s.entries {
		out[i] = e.name
	}
	return out
}

// Lookup returns the name of token, hashing it and comparing the hash with
// every hash of the set in constant time (the time does not depend on
// which entry matches, or whether one does).
func (s *Set) Lookup(token string) (name string, ok bool) {
	if s == nil || token == "" || len(token) > MaxTokenLength {
		return "", false
	}
	h := sha256.Sum256([]byte(token))
	found := -1
	for i := range s.entries {
		if subtle.ConstantTimeCompare(h[:], s.entries[i].hash[:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return "", false
	}
	return s.entries[found].name, true
}

// Hash returns the lower-case hexadecimal SHA-256 of token, as a tokens
// file holds it.
func Hash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// Line returns the tokens file line of a token: "name sha256-hex".
func Line(name, token string) string { return name + " " + Hash(token) }

// builder collects entries, refusing duplicates.
type builder struct {
	names  map[string]bool
	hashes map[[sha256.Size]byte]bool
	set    *Set
}

func newBuilder() *builder {
	return &builder{names: map[string]bool{}, hashes: map[[sha256.Size]byte]bool{}, set: &Set{}}
}

func (b *builder) add(where, name string, hash [sha256.Size]byte) error {
	if err := checkName(name); err != nil {
		return fmt.Errorf("apitoken: %s: %w", where, err)
	}
	if b.names[name] {
		return fmt.Errorf("apitoken: %s: its name is given before", where)
	}
	if b.hashes[hash] {
		return fmt.Errorf("apitoken: %s: its token is given before, to another name", where)
	}
	if len(b.set.entries) == MaxTokens {
		return fmt.Errorf("apitoken: more than %d tokens", MaxTokens)
	}
	b.names[name], b.hashes[hash] = true, true
	b.set.entries = append(b.set.entries, entry{name, hash})
	return nil
}

func checkName(name string) error {
	if name == "" || len(name) > MaxNameLength {
		return fmt.Errorf("a name must have 1 to %d characters", MaxNameLength)
	}
	for _, r := range name {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '_' || r == '.') {
			return errors.New("a name has only letters, digits, hyphens, underscores and dots")
		}
	}
	return nil
}

// Parse reads tokens in plain text, "name=token" entries separated by
// commas (spaces around an entry are dropped). A token has
// [MinTokenLength] to [MaxTokenLength] characters, no comma and no space;
// names and tokens are unique. "" is the empty set. The errors name the
// entry by its position only: neither its token nor its name (which may be
// a token written in the wrong place).
func Parse(s string) (*Set, error) {
	b := newBuilder()
	if strings.TrimSpace(s) == "" {
		return b.set, nil
	}
	for i, part := range strings.Split(s, ",") {
		where := fmt.Sprintf("entry %d", i+1)
		part = strings.TrimSpace(part)
		name, token, ok := strings.Cut(part, "=")
		switch {
		case part == "":
			return nil, fmt.Errorf("apitoken: %s is empty; write name=token entries separated by commas", where)
		case !ok:
			return nil, fmt.Errorf("apitoken: %s has no '=': write name=token", where)
		case len(token) < MinTokenLength || len(token) > MaxTokenLength:
			return nil, fmt.Errorf("apitoken: %s: a token must have %d to %d characters", where, MinTokenLength, MaxTokenLength)
		case strings.ContainsFunc(token, isSpace):
			return nil, fmt.Errorf("apitoken: %s: a token has no spaces", where)
		}
		if err := b.add(where, name, sha256.Sum256([]byte(token))); err != nil {
			return nil, err
		}
	}
	return b.set, nil
}

// ParseFile reads a tokens file: one "name sha256-hex" per line (64
// hexadecimal digits of the token's SHA-256, see [Line]); blank lines and
// lines starting with # are skipped. At most 1 MiB is read.
func ParseFile(r io.Reader) (*Set, error) {
	b := newBuilder()
	sc := bufio.NewScanner(io.LimitReader(r, 1<<20))
	sc.Buffer(make([]byte, 0, 4096), 4096)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		where := fmt.Sprintf("line %d", n)
		fields := strings.Fields(line)
		if len(fields) != 2 {
			return nil, fmt.Errorf("apitoken: %s is not \"name sha256-hex\"", where)
		}
		raw, err := hex.DecodeString(fields[1])
		if err != nil || len(raw) != sha256.Size {
			return nil, fmt.Errorf("apitoken: %s: the hash is not 64 hexadecimal digits (the SHA-256 of the token, not the token)", where)
		}
		if err := b.add(where, fields[0], [sha256.Size]byte(raw)); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("apitoken: line %d: %w", n+1, err)
	}
	return b.set, nil
}

func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }
