package nameindex

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/companyregistry/registry/countries/se/internal/bulkfile"
)

// The scale benchmark (BENCHMARKS.md, "Sweden: the bulk file's index"):
// a synthetic bulk file of NAMEINDEX_SCALE_ROWS rows (default 1,900,000,
// the size of Bolagsverket's file; 50,000 with -short) is generated into a
// temporary directory, indexed by a child process (this test binary run
// again) whose peak resident set size the kernel reports (VmHWM), and then
// searched with realistic queries.

// scaleRowsEnv sets the number of rows of the generated file.
const scaleRowsEnv = "NAMEINDEX_SCALE_ROWS"

// scaleChildEnv tells the child process which file to index where:
// the directory holding bolagsverket_bulkfil.txt, where index.db is written.
const scaleChildEnv = "NAMEINDEX_SCALE_CHILD"

// The files of the scale benchmark in its temporary directory.
const (
	scaleFileName  = "bolagsverket_bulkfil.txt"
	scaleIndexName = "index.db"
)

// Vocabularies of the generated names. Each list is drawn from with a
// Zipf-like weight (the first entries far more often than the last), as
// surnames, trades and towns are in real company names.
var (
	scaleSurnames = strings.Fields(`Andersson Johansson Karlsson Nilsson Eriksson Larsson Olsson Persson Svensson Gustafsson
		Pettersson Jonsson Jansson Hansson Bengtsson Jönsson Lindberg Jakobsson Magnusson Lindström Olofsson Lindqvist Lindgren
		Berg Axelsson Bergström Lundberg Lind Lundgren Lundqvist Mattsson Berglund Fredriksson Sandberg Henriksson Forsberg
		Sjöberg Wallin Ali Engström Mohammed Eklund Danielsson Lundin Håkansson Björk Bergman Gunnarsson Holm Wikström
		Samuelsson Isaksson Fransson Bergqvist Nyström Holmberg Arvidsson Löfgren Söderberg Nyberg Blomqvist Claesson
		Nordström Mårtensson Lundström Ahmed Viklund Björklund Eliasson Pålsson Hassan Berggren Sandström Lund Nordin
		Ström Åberg Hermansson Ekström Holmgren Sundberg Hedlund Dahlberg Hellström Sjögren Abdullahi Falk Martinsson`)
	scaleFirstNames = strings.Fields(`Anna Erik Lars Karl Maria Johan Per Anders Eva Nils Sara Mikael Lena Peter Jan
		Karin Thomas Emma Daniel Kristina Fredrik Linnea Magnus Elin Henrik Sofia Mats Ida Ahmed Mohammed Hanna Oskar`)
	scaleTrades = strings.Fields(`Bygg Fastighets Fastigheter Konsult Consulting Invest Holding Förvaltning Service Transport
		Måleri El VVS Redovisning Ekonomi Städ Media Design IT Data Handel Import Export Restaurang Café Frisör Hälsa Vård
		Tandvård Bil Åkeri Entreprenad Mark Trädgård Skog Lantbruk Energi Solenergi Teknik Elektronik Mekaniska Verkstad
		Plåt Snickeri Golv Kakel Rör Tak Fönster Säkerhet Kommunikation Marknadsföring Reklam Film Musik Event Resor Logistik
		Försäljning Partner Partners Group Gruppen Nordic Sverige Sweden Scandinavia International Management Development
		Solutions Systems Capital Ventures Properties Advisory Studio Kompaniet Bolaget Byrån Huset Tillverkning Utveckling
		Installation Montage Service Juridik Advokatbyrå Revision Fysioterapi Träning Hund Häst Fiske Jakt Båt Marin`)
	scalePlaces = strings.Fields(`Stockholm Göteborg Malmö Uppsala Västerås Örebro Linköping Helsingborg Jönköping Norrköping
		Lund Umeå Gävle Borås Södertälje Eskilstuna Halmstad Växjö Karlstad Sundsvall Östersund Trollhättan Luleå Kalmar
		Skövde Kristianstad Falun Nacka Solna Täby Sollentuna Huddinge Värmdö Lidingö Kungsbacka Varberg Visby Kiruna
		Norrland Skåne Dalarna Småland Västkusten Roslagen Gotland Halland Värmland Jämtland Lappland Söder Norr Öster`)
	scaleStems   = strings.Fields(`Al Berg Björk Ek Gran Hag Lunn Mal Nor Sol Stjern Kvarn Lind Ros Sjö Vik Ås Ström Dal Fjäll Hav Äng`)
	scaleEndings = strings.Fields(`lunda berga vik holm sta by åsen dalen hult näs torp strand backen gården hem ängen fors mo udden`)
	scaleStreets = strings.Fields(`Storgatan Kungsgatan Drottninggatan Skolgatan Järnvägsgatan Parkvägen Industrivägen Kyrkogatan
		Torggatan Nygatan Ringvägen Strandvägen Björkvägen Sveavägen Hamngatan Östra Västra Allén Backen Vägen`)
	scaleDescriptions = []string{
		"Bolaget ska bedriva %s samt därmed förenlig verksamhet.",
		"Föreningen har till ändamål att främja medlemmarnas ekonomiska intressen genom %s.",
		"Konsultverksamhet inom %s, äga och förvalta fast och lös egendom samt idka därmed förenlig verksamhet.",
		"Handel med och tillverkning av produkter inom %s.",
	}
)

// zipf picks an element of list, the first ones far more often.
func zipf[T any](r *rand.Rand, list []T) T {
	// The square of a uniform number, scaled: index i is drawn with a
	// probability falling as about 1/sqrt(i).
	u := r.Float64()
	return list[int(u*u*float64(len(list)))]
}

// pseudoWord is an invented word of 4 to 9 letters, as brand names are;
// it gives the file the long tail of rare words a register has.
func pseudoWord(r *rand.Rand) string {
	const cons, vows = "bdfgklmnprstvzjh", "aeiouyåäö"
	n := 2 + r.IntN(3)
	var b strings.Builder
	for i := range n {
		c := cons[r.IntN(len(cons))]
		if i == 0 {
			c -= 'a' - 'A'
		}
		b.WriteByte(c)
		v := []rune(vows)[r.IntN(len([]rune(vows)))]
		b.WriteRune(v)
		if r.IntN(3) == 0 {
			b.WriteByte(cons[r.IntN(len(cons))])
		}
	}
	return b.String()
}

// luhnDigit is the check digit that makes digits+check pass Luhn.
func luhnDigit(digits string) byte {
	sum := 0
	for i := range len(digits) {
		d := int(digits[len(digits)-1-i] - '0')
		if i%2 == 0 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return byte('0' + (10-sum%10)%10)
}

// scaleForm is a legal form of the generated file: its code, its share of
// the rows (per mille) and the first digits of its organisation numbers.
type scaleForm struct {
	code   string
	permil int
	prefix string
}

// scaleForms approximate the mix of Bolagsverket's register: mostly
// aktiebolag, then sole traders (keyed by a personal identity number,
// skipped by the reader), partnerships, housing co-operatives and
// associations. The shares are this benchmark's assumption, not a count.
var scaleForms = []scaleForm{
	{"AB", 742, "55"}, {"E", 110, ""}, {"HB", 55, "96"}, {"KB", 15, "969"}, {"BRF", 16, "769"},
	{"EK", 15, "76"}, {"I", 20, "802"}, {"S", 10, "817"}, {"FL", 10, "516"}, {"BF", 4, "716"}, {"EB", 3, "94"},
}

// scaleGen writes a synthetic bulk file.
type scaleGen struct {
	r    *rand.Rand
	next map[string]int // the next serial number per number prefix
}

func newScaleGen(seed uint64) *scaleGen {
	return &scaleGen{r: rand.New(rand.NewPCG(seed, seed^0x5eed)), next: map[string]int{}}
}

// orgnr returns a new valid organisation number with the prefix (two or
// three digits), its third digit at least 2 as Bolagsverket's are.
func (g *scaleGen) orgnr(prefix string) string {
	n := g.next[prefix]
	g.next[prefix] = n + 1
	if len(prefix) == 2 {
		n += 2_000_000
	}
	body := fmt.Sprintf("%s%0*d", prefix, 9-len(prefix), n)
	return body + string(luhnDigit(body))
}

// personnummer returns a twelve-digit personal identity number.
func (g *scaleGen) personnummer() string {
	y, m, d := 1940+g.r.IntN(65), 1+g.r.IntN(12), 1+g.r.IntN(28)
	ten := fmt.Sprintf("%02d%02d%02d%03d", y%100, m, d, g.r.IntN(1000))
	return fmt.Sprintf("%d", y/100) + ten + string(luhnDigit(ten))
}

func (g *scaleGen) date(from, to int) string {
	y := from + int(float64(to-from)*(1-g.r.Float64()*g.r.Float64())) // recent years more often
	return fmt.Sprintf("%04d-%02d-%02d", min(y, to), 1+g.r.IntN(12), 1+g.r.IntN(28))
}

// core is the distinctive part of a company name.
func (g *scaleGen) core() string {
	r := g.r
	trade := func() string { return zipf(r, scaleTrades) }
	switch k := r.IntN(100); {
	case k < 18:
		return zipf(r, scaleSurnames) + " " + trade()
	case k < 24:
		return zipf(r, scaleSurnames) + "s " + trade()
	case k < 44:
		return pseudoWord(r) + " " + trade()
	case k < 54:
		return pseudoWord(r)
	case k < 60:
		return trade() + " i " + zipf(r, scalePlaces)
	case k < 66:
		return zipf(r, scalePlaces) + " " + trade()
	case k < 72:
		return pseudoWord(r) + " " + trade() + " " + trade()
	case k < 78:
		return zipf(r, scaleFirstNames) + " " + zipf(r, scaleSurnames) + " " + trade()
	case k < 84:
		return string(rune('A'+r.IntN(26))) + string(rune('A'+r.IntN(26))) + " " + trade()
	case k < 92:
		return zipf(r, scaleStems) + zipf(r, scaleEndings) + " " + trade()
	default:
		return zipf(r, scaleStems) + zipf(r, scaleEndings) + " " + strconv.Itoa(1+r.IntN(40))
	}
}

// name returns the företagsnamn of a new organisation of the form.
func (g *scaleGen) name(form string) string {
	r := g.r
	core := g.core()
	switch form {
	case "AB":
		switch k := r.IntN(1000); {
		case k < 850:
			return core + " AB"
		case k < 920:
			return core + " Aktiebolag"
		case k < 950:
			return "Aktiebolaget " + core
		case k < 960:
			return core + " AB (publ)"
		case k < 980:
			return "Fastighets AB " + zipf(r, scaleStems) + zipf(r, scaleEndings) + " " + strconv.Itoa(1+r.IntN(30))
		default:
			return core
		}
	case "E":
		return zipf(r, scaleFirstNames) + " " + zipf(r, scaleSurnames) + " " + zipf(r, scaleTrades)
	case "HB":
		if r.IntN(2) == 0 {
			return zipf(r, scaleSurnames) + " & " + zipf(r, scaleSurnames) + " Handelsbolag"
		}
		return core + " HB"
	case "KB":
		if r.IntN(2) == 0 {
			return "Kommanditbolaget " + core
		}
		return core + " KB"
	case "BRF":
		place := zipf(r, scaleStems) + zipf(r, scaleEndings)
		switch k := r.IntN(100); {
		case k < 65:
			return "Bostadsrättsföreningen " + place + " " + strconv.Itoa(1+r.IntN(30))
		case k < 80:
			return "Brf " + place
		case k < 92:
			return "HSB Bostadsrättsförening " + place + " i " + zipf(r, scalePlaces)
		default:
			return "Riksbyggen Bostadsrättsförening " + zipf(r, scalePlaces) + " nr " + strconv.Itoa(1+r.IntN(200))
		}
	case "EK":
		if r.IntN(3) == 0 {
			return core + " ek. för."
		}
		return core + " Ekonomisk förening"
	case "I":
		if r.IntN(2) == 0 {
			return "Föreningen " + core
		}
		return core + " Ideell förening"
	case "S":
		return "Stiftelsen " + core
	case "FL":
		return pseudoWord(r) + " " + zipf(r, []string{"Ltd", "GmbH", "Oy", "AS", "ApS", "Inc."}) + ", filial i Sverige"
	case "BF":
		return "Bostadsföreningen " + zipf(r, scaleStems) + zipf(r, scaleEndings)
	default:
		return core + " Enkla bolag"
	}
}

// row writes one record of the form, quoted as Bolagsverket's file is.
func (g *scaleGen) row(w *bufio.Writer, f scaleForm) {
	r := g.r
	q := func(s string) {
		w.WriteByte('"')
		w.WriteString(strings.ReplaceAll(s, `"`, `""`))
		w.WriteByte('"')
	}
	sep := func() { w.WriteByte(';') }
	id, lopnr := "", ""
	if f.code == "E" {
		id, lopnr = g.personnummer()+"$PERSON-IDORG", strconv.Itoa(1+r.IntN(2))
	} else {
		id = g.orgnr(f.prefix) + "$ORGNR-IDORG"
	}
	registered := g.date(1900, 2026)
	names := g.name(f.code) + "$FORETAGSNAMN-ORGNAM$" + registered
	if r.IntN(100) < 4 {
		names += "|" + g.core() + "$SARSKILT_FORETAGSNAMN-ORGNAM$" + g.date(2000, 2026)
	}
	var deregDate, deregReason, procs string
	switch k := r.IntN(1000); {
	case k < 330:
		deregDate = g.date(max(1990, atoi(registered[:4])), 2026)
		deregReason = zipf(r, []string{"AVREG", "LIAV", "KKAV", "FUAV", "ARSEED", "OVERK"}) + "-AVORS"
	case k < 350:
		procs = "|" + zipf(r, []string{"LI", "KK", "FR", "FUOL"}) + "-AVOMFO$" + g.date(2020, 2026)
	}
	desc := ""
	if r.IntN(100) < 25 {
		desc = fmt.Sprintf(zipf(r, scaleDescriptions), strings.ToLower(zipf(r, scaleTrades))+"verksamhet")
	}
	city := strings.ToUpper(zipf(r, scalePlaces))
	postcode := fmt.Sprintf("%03d %02d", 100+r.IntN(890), r.IntN(100))
	street := zipf(r, scaleStreets) + " " + strconv.Itoa(1+r.IntN(120))
	co := ""
	switch k := r.IntN(100); {
	case k < 5:
		co = "c/o " + zipf(r, scaleSurnames)
	case k < 10:
		street = "Box " + strconv.Itoa(1+r.IntN(9000))
	}
	q(id)
	sep()
	q(lopnr)
	sep()
	q("SE-LAND")
	sep()
	q(names)
	sep()
	q(f.code + "-ORGFO")
	sep()
	q(deregDate)
	sep()
	q(deregReason)
	sep()
	q(procs)
	sep()
	q(registered)
	sep()
	q(desc)
	sep()
	q(street + "$" + co + "$" + city + "$" + postcode + "$SE-LAND")
	w.WriteByte('\n')
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// writeScaleFile writes a synthetic bulk file of rows rows to w.
func writeScaleFile(w io.Writer, rows int, seed uint64) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	g := newScaleGen(seed)
	bw.WriteString("organisationsidentitet;namnskyddslopnummer;registreringsland;organisationsnamn;organisationsform;" +
		"avregistreringsdatum;avregistreringsorsak;pagandeAvvecklingsEllerOmstruktureringsforfarande;registreringsdatum;" +
		"verksamhetsbeskrivning;postadress\n")
	total := 0
	for _, f := range scaleForms {
		total += f.permil
	}
	for range rows {
		k := g.r.IntN(total)
		for _, f := range scaleForms {
			if k < f.permil {
				g.row(bw, f)
				break
			}
			k -= f.permil
		}
	}
	return bw.Flush()
}

// TestScaleFileParses: the generator writes a file the reader takes whole,
// with the mix it promises (sole traders skipped, no invalid numbers).
func TestScaleFileParses(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := writeScaleFile(&buf, 5000, 1); err != nil {
		t.Fatal(err)
	}
	rd, err := bulkfile.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ids[rec.ID] {
			t.Fatalf("organisation number %s twice", rec.ID)
		}
		ids[rec.ID] = true
	}
	st := rd.Stats()
	if st.Invalid != 0 || st.Personal < 400 || st.Personal > 700 || st.Records+st.Personal != 5000 {
		t.Errorf("stats %+v, want 5000 rows, about 550 personal, none invalid", st)
	}
}

// scaleBuild is what the child process reports.
type scaleBuild struct {
	Seconds  float64 `json:"seconds"`
	PeakRSS  int64   `json:"peak_rss_kib"` // the kernel's VmHWM of the child
	GoSys    uint64  `json:"go_sys"`       // what the Go runtime took from the OS, at the end
	Records  int     `json:"records"`
	Personal int     `json:"personal"`
}

// TestScaleBuildChild is the child process of BenchmarkScale; it does
// nothing unless NAMEINDEX_SCALE_CHILD is set.
func TestScaleBuildChild(t *testing.T) {
	spec := os.Getenv(scaleChildEnv)
	if spec == "" {
		t.Skip("run by BenchmarkScale")
	}
	file, dbPath := filepath.Join(spec, scaleFileName), filepath.Join(spec, scaleIndexName)
	start := time.Now()
	f, err := bulkfile.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := bulkfile.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Build(t.Context(), rd, dbPath, map[string]string{"source": "benchmark"})
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	out := scaleBuild{Seconds: time.Since(start).Seconds(), PeakRSS: procStatus(t)["VmHWM"], GoSys: ms.Sys, Records: st.Records,
		Personal: st.Personal}
	b, _ := json.Marshal(out)
	fmt.Printf("scale-build: %s\n", b)
}

// procStatus reads the kB figures of /proc/self/status.
func procStatus(t testing.TB) map[string]int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status on this system")
	}
	out := map[string]int64{}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || !strings.HasSuffix(v, " kB") {
			continue
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(v, " kB")), 10, 64); err == nil {
			out[k] = n
		}
	}
	return out
}

// scaleQueries are the searches timed: a very common word ("ab", in most
// names), other common words, a common surname, a two-word name, a place,
// a prefix being typed, a single letter, a distinctive name, and a name
// nothing has.
var scaleQueries = []string{
	"ab", "aktiebolag", "bostadsrättsföreningen", "bostadsrättsförening", "andersson", "andersson bygg", "stockholm",
	"fastig", "a", "kvarnlunda bygg", "zzyzx",
}

// BenchmarkScale: see the comment at the top of this file. The build runs
// once, in a child process; b.N is the number of times each query runs.
//
//	go test -run '^$' -bench Scale -benchtime 200x -timeout 60m ./countries/se/internal/nameindex
func BenchmarkScale(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("no /proc/self/status on this system")
	}
	rows := 1_900_000
	if testing.Short() {
		rows = 50_000
	}
	if v := os.Getenv(scaleRowsEnv); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			b.Fatalf("%s=%q is not a number of rows", scaleRowsEnv, v)
		}
		rows = n
	}
	dir := b.TempDir()
	file, dbPath := filepath.Join(dir, scaleFileName), filepath.Join(dir, scaleIndexName)
	fh, err := os.Create(file)
	if err != nil {
		b.Fatal(err)
	}
	genStart := time.Now()
	if err := writeScaleFile(fh, rows, 26); err != nil {
		b.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		b.Fatal(err)
	}
	genTook := time.Since(genStart)
	fileInfo, err := os.Stat(file)
	if err != nil {
		b.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestScaleBuildChild$", "-test.v")
	cmd.Env = append(os.Environ(), scaleChildEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("child: %v\n%s", err, out)
	}
	var built scaleBuild
	for _, line := range strings.Split(string(out), "\n") {
		if j, ok := strings.CutPrefix(line, "scale-build: "); ok {
			if err := json.Unmarshal([]byte(j), &built); err != nil {
				b.Fatal(err)
			}
		}
	}
	if built.Records == 0 {
		b.Fatalf("the child reported nothing:\n%s", out)
	}
	dbInfo, err := os.Stat(dbPath)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d rows (%.0f MiB, generated in %v): %d organisations indexed, %d sole traders skipped",
		rows, mib(fileInfo.Size()), genTook.Round(time.Second), built.Records, built.Personal)

	b.Run("build", func(b *testing.B) {
		b.ReportMetric(built.Seconds, "build-s")
		b.ReportMetric(mib(dbInfo.Size()), "index-MiB")
		b.ReportMetric(mib(fileInfo.Size()), "file-MiB")
		b.ReportMetric(float64(built.PeakRSS)/1024, "peak-RSS-MiB")
		b.ReportMetric(mib(int64(built.GoSys)), "go-sys-MiB")
		b.ReportMetric(float64(built.Records), "organisations")
	})

	x, err := Open(b.Context(), dbPath)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	for _, q := range scaleQueries {
		for _, limit := range []int{20, 100} {
			b.Run(fmt.Sprintf("search/%s/limit=%d", strings.ReplaceAll(q, " ", "_"), limit), func(b *testing.B) {
				res, err := x.Search(b.Context(), q, limit) // warm, and the figures to report
				if err != nil {
					b.Fatal(err)
				}
				took := make([]time.Duration, 0, b.N)
				b.ResetTimer()
				for range b.N {
					start := time.Now()
					if _, err := x.Search(b.Context(), q, limit); err != nil {
						b.Fatal(err)
					}
					took = append(took, time.Since(start))
				}
				b.StopTimer()
				slices.Sort(took)
				b.ReportMetric(float64(percentile(took, 50).Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(percentile(took, 99).Microseconds())/1000, "p99-ms")
				b.ReportMetric(float64(res.Total), "total")
				b.ReportMetric(float64(len(res.Orgs)), "hits")
			})
		}
	}
}

// percentile returns the p-th percentile of sorted durations.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, (len(sorted)*p+99)/100-1)]
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }
