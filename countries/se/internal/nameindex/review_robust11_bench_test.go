package nameindex

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/companyregistry/registry/countries/se/internal/bulkfile"
)

// BenchmarkReview_SearchRepeatedWord times searches of the scale
// generator's file (100,000 rows, or NAMEINDEX_SCALE_ROWS): the
// most common word "ab" alone (its total stored at build time), and the
// same word written k times, which is the same search (every word of the
// query, the last as a start) but is counted when asked, one FTS5 phrase
// per repetition: the query's 256 bytes allow 85 of them. The cost grows
// with k times the rows that hold the word, for a query any caller may
// send (REST, MCP; Sweden's searches draw on no upstream budget).
func BenchmarkReview_SearchRepeatedWord(b *testing.B) {
	rows := 100_000
	if n, err := strconv.Atoi(os.Getenv(scaleRowsEnv)); err == nil && n > 0 {
		rows = n
	}
	var buf bytes.Buffer
	if err := writeScaleFile(&buf, rows, 26); err != nil {
		b.Fatal(err)
	}
	rd, err := bulkfile.NewReader(&buf)
	if err != nil {
		b.Fatal(err)
	}
	dbPath := filepath.Join(b.TempDir(), "index.db")
	if _, err := Build(b.Context(), rd, dbPath, map[string]string{"source": "benchmark"}); err != nil {
		b.Fatal(err)
	}
	x, err := Open(b.Context(), dbPath)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	for _, k := range []int{1, 2, 10, 85} {
		q := strings.TrimSpace(strings.Repeat("ab ", k))
		b.Run("k="+strconv.Itoa(k), func(b *testing.B) {
			res, err := x.Search(b.Context(), q, 20)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(res.Total), "total")
			for b.Loop() {
				if _, err := x.Search(b.Context(), q, 20); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
