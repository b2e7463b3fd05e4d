package mcpserver

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

// memoDoc is a report of about 3 KB, as LookupJSON answers it; employees
// is the one figure that changes.
func memoDoc(t testing.TB, employees int) []byte {
	t.Helper()
	r := countrykit.NewReport("NO", "brreg", "923609016", "EQUINOR ASA")
	r.Status = registry.StatusActive
	r.Employees = countrykit.Ptr(employees)
	r.Notes = []string{strings.Repeat(`The register says "active"; `, 80)}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// encoded is the result appendOutput writes for doc, without the memo.
func encoded(t testing.TB, doc []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if !appendOutput(&buf, toolOutput{doc: doc}) {
		t.Fatalf("appendOutput refused %.80s", doc)
	}
	return buf.String()
}

// TestResultMemoAnswersTheBytesItIsGiven: the memo answers each call with
// the result of the document's current bytes: when the slice it saw is
// changed in place (a cache that reuses an entry's storage), when the same
// bytes come in another slice (a cache that copies on every hit), and
// after the memo was emptied.
func TestResultMemoAnswersTheBytesItIsGiven(t *testing.T) {
	t.Parallel()
	m := newResultMemo()
	doc := memoDoc(t, 21000)
	answer := func(doc []byte) string {
		t.Helper()
		var buf bytes.Buffer
		buf.WriteString("prefix:")
		if !m.append(&buf, toolOutput{doc: doc}) {
			t.Fatal("the memo refused a document appendOutput takes")
		}
		s, ok := strings.CutPrefix(buf.String(), "prefix:")
		if !ok {
			t.Fatalf("the memo changed what was in the buffer: %.40s", buf.String())
		}
		return s
	}
	want := encoded(t, doc)
	for i := range 3 { // first sighting, second (kept), third (from the memo)
		if diff := cmp.Diff(want, answer(doc)); diff != "" {
			t.Fatalf("call %d (-want +got):\n%s", i+1, diff)
		}
	}
	if e := m.m[maphash64(m, doc)]; e.result == nil {
		t.Fatal("the memo did not keep a document seen twice")
	}
	// Same length, changed in place: 21000 -> 21001.
	copy(doc, memoDoc(t, 21001))
	want = encoded(t, doc)
	for i := range 3 {
		if diff := cmp.Diff(want, answer(doc)); diff != "" {
			t.Fatalf("call %d after the change in place (-want +got):\n%s", i+1, diff)
		}
	}
	// The same bytes in a fresh slice: answered from the memo, and right.
	if diff := cmp.Diff(want, answer(bytes.Clone(doc))); diff != "" {
		t.Fatalf("a copy of the document (-want +got):\n%s", diff)
	}
	// More documents than the memo keeps: it is emptied, and still right.
	for i := range memoMax + 2 {
		d := memoDoc(t, 30000+i)
		answer(d)
		if diff := cmp.Diff(encoded(t, d), answer(d)); diff != "" {
			t.Fatalf("document %d (-want +got):\n%s", i, diff)
		}
	}
	if len(m.m) > memoMax {
		t.Errorf("the memo holds %d documents, at most %d", len(m.m), memoMax)
	}
}

func maphash64(m *resultMemo, doc []byte) uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, e := range m.m {
		if e.result != nil && bytes.Equal(e.doc, doc) {
			return k
		}
	}
	return 0
}

// BenchmarkResultMemo measures what the memo costs and saves for a cached
// report of about 3 KB: "memo" is a call answered from the memo (a hash
// and a comparison of the document, then a copy of the result), "encode"
// the same result made by appendOutput on every call, as without a memo.
func BenchmarkResultMemo(b *testing.B) {
	doc := memoDoc(b, 21000)
	b.Logf("document: %d bytes", len(doc))
	var buf bytes.Buffer
	b.Run("memo", func(b *testing.B) {
		m := newResultMemo()
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			m.append(&buf, toolOutput{doc: doc})
		}
	})
	b.Run("encode", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			appendOutput(&buf, toolOutput{doc: doc})
		}
	})
}
