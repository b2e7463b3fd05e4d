package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// manyNamesArgs returns a tool's arguments object of n distinct short names
// with empty string values, which scanArgs takes: {"aa":"","ab":"",...}.
// 2000 members fit maxArgumentsBytes (8 bytes each).
func manyNamesArgs(n int) []byte {
	var sb strings.Builder
	sb.WriteByte('{')
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		sb.WriteString(`"` + alnum[i/len(alnum):i/len(alnum)+1] + alnum[i%len(alnum):i%len(alnum)+1] + `":""`)
	}
	sb.WriteByte('}')
	return []byte(sb.String())
}

// BenchmarkReview_ScanArgsManyNames (rev-end8, mcpalloc 1570723): scanArgs
// now checks each name against every name before it (argMembers.get) where
// it looked the name up in a map: quadratic in the members of an arguments
// object a client chooses, up to maxArgumentsBytes (16 KiB, about 2000 members),
// before handlers.args refuses the unknown names. "map" is the code before
// mcpalloc on the same input. Compare ns/op per member across n: scanArgs'
// grows with n, the map's does not.
func BenchmarkReview_ScanArgsManyNames(b *testing.B) {
	for _, n := range []int{64, 512, 2000} {
		raw := manyNamesArgs(n)
		if len(raw) > maxArgumentsBytes {
			b.Fatalf("%d members: %d bytes, over maxArgumentsBytes", n, len(raw))
		}
		b.Run(fmt.Sprintf("scanArgs/members=%d", n), func(b *testing.B) {
			var room [4]argMember
			for b.Loop() {
				// As handlers.args reads them: scanArgs, else unmarshalArgs
				// (since the fix scanArgs takes at most maxScanArgs members).
				m, ok := scanArgs(raw, room[:0])
				if !ok {
					m, ok = unmarshalArgs(raw)
				}
				if !ok || len(m) != n {
					b.Fatalf("scanArgs: %v, %d members", ok, len(m))
				}
			}
		})
		b.Run(fmt.Sprintf("map/members=%d", n), func(b *testing.B) {
			for b.Loop() {
				m, ok := scanArgsMapBefore(raw)
				if !ok || len(m) != n {
					b.Fatalf("map: %v, %d members", ok, len(m))
				}
			}
		})
	}
}

// scanArgsMapBefore is scanArgs as it was before mcpalloc (cc6563b): the
// names in a map.
func scanArgsMapBefore(raw []byte) (map[string]json.RawMessage, bool) {
	b, ok := scanSep(raw, '{')
	if !ok {
		return nil, false
	}
	m := make(map[string]json.RawMessage, 2)
	if len(b) > 0 && b[0] == '}' {
		return m, len(skipSpace(b[1:])) == 0
	}
	for {
		_, key, r, ok := scanPlainString(b)
		if !ok || !printableASCII(key) {
			return nil, false
		}
		if b, ok = scanSep(r, ':'); !ok {
			return nil, false
		}
		v, _, r, ok := scanPlainString(b)
		if !ok {
			return nil, false
		}
		if _, dup := m[string(key)]; dup {
			return nil, false
		}
		m[string(key)] = v
		b = skipSpace(r)
		if len(b) == 0 {
			return nil, false
		}
		if b[0] == '}' {
			return m, len(skipSpace(b[1:])) == 0
		}
		if b[0] != ',' {
			return nil, false
		}
		b = skipSpace(b[1:])
	}
}

// TestScanArgsTakesAtMostMaxScanArgs: scanArgs takes an object of
// maxScanArgs members and refuses one more (handlers.args then reads it
// with unmarshalArgs), so its check of each name against those before it
// stays bounded (rev-end8).
func TestScanArgsTakesAtMostMaxScanArgs(t *testing.T) {
	var room [4]argMember
	got := map[int]bool{}
	for _, n := range []int{0, 1, maxScanArgs, maxScanArgs + 1, 2000} {
		m, ok := scanArgs(manyNamesArgs(n), room[:0])
		got[n] = ok && len(m) == n
	}
	want := map[int]bool{0: true, 1: true, maxScanArgs: true, maxScanArgs + 1: false, 2000: false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scanArgs took the object of n members (-want +got):\n%s", diff)
	}
	u, ok := unmarshalArgs(manyNamesArgs(2000))
	if !ok || len(u) != 2000 {
		t.Errorf("unmarshalArgs of 2000 members: %v, %d", ok, len(u))
	}
}
