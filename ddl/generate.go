package ddl

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Distribution shapes the id-like columns (main l1_id..l5_id, level
// parent_id and l1_id..l5_id): values in 1..table_size.
type Distribution int

const (
	Uniform  Distribution = iota // every id equally likely (the default)
	Gaussian                     // normal around table_size/2, sd table_size/6, clamped
	Pareto                       // sysbench's pareto, h = 0.2: 80% of draws hit 20% of ids
	Zipf                         // zipf with exponent 1.1 (continuous approximation)
)

var distributionNames = []string{"uniform", "gaussian", "pareto", "zipf"}

// DistributionNames lists the accepted --distribution values.
func DistributionNames() []string { return append([]string(nil), distributionNames...) }

// ParseDistribution maps a name (as in DistributionNames) to a Distribution.
func ParseDistribution(s string) (Distribution, error) {
	for i, n := range distributionNames {
		if strings.EqualFold(s, n) {
			return Distribution(i), nil
		}
	}
	return 0, fmt.Errorf("unknown distribution %q (want one of %s)", s, strings.Join(distributionNames, ", "))
}

func (d Distribution) String() string {
	if int(d) < len(distributionNames) {
		return distributionNames[d]
	}
	return "Distribution(" + strconv.Itoa(int(d)) + ")"
}

// GenOptions configure the data generator.
type GenOptions struct {
	Seed         uint64
	TableSize    int64 // rows per table; ids are 1..TableSize
	Distribution Distribution
}

// Generator produces the rows of the built-in tables. A row depends only
// on (seed, table kind, table number, row id): its random source is a PCG
// seeded from those, so the same seed and size give byte-identical rows
// whatever the thread count, chunk size or server, and a load can resume
// at any row.
type Generator struct {
	opts     GenOptions
	loadTime string // formatted DATETIME/TIMESTAMP value
	seedMix  uint64
}

// NewGenerator checks opts and returns a generator.
func NewGenerator(opts GenOptions) (*Generator, error) {
	if opts.TableSize < 1 {
		return nil, fmt.Errorf("table size must be at least 1, got %d", opts.TableSize)
	}
	if opts.TableSize > math.MaxInt32 {
		return nil, fmt.Errorf("table size %d exceeds %d: the l1_id..l5_id columns are INT", opts.TableSize, math.MaxInt32)
	}
	if opts.Distribution < Uniform || opts.Distribution > Zipf {
		return nil, fmt.Errorf("unknown distribution %d", opts.Distribution)
	}
	return &Generator{opts: opts, loadTime: LoadTime(opts.Seed).Format(time.DateTime), seedMix: splitmix(opts.Seed)}, nil
}

// LoadTime is the value of the "load time" columns (datetime_field,
// timestamp_field, time_accessed) for a seed: a fixed instant in 2024
// derived from the seed, in UTC. NOW() would make every load differ, so two
// servers loaded with one seed would no longer hold equal rows (CHECKSUM
// TABLE and result checksums would differ). Loads set the session time
// zone to UTC so TIMESTAMP columns store the same instant everywhere.
func LoadTime(seed uint64) time.Time {
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	return base.Add(time.Duration(splitmix(seed^0x6c6f616474696d65)%(365*24*3600)) * time.Second)
}

// Options returns the options the generator was made with.
func (g *Generator) Options() GenOptions { return g.opts }

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// streamKey identifies a table's random stream: its kind and number, not
// its name, so renaming the main tables (--table-name) keeps the data.
func (g *Generator) streamKey(kind TableKind, n int) uint64 {
	return splitmix(g.seedMix ^ splitmix(uint64(kind)<<32|uint64(uint32(n))))
}

// Encoding is how a row is written.
type Encoding int

const (
	// TSV is LOAD DATA's default format: tab-separated fields, one row per
	// line, backslash escapes, \N for NULL. Read it with CHARACTER SET binary.
	TSV Encoding = iota
	// SQLValues is a parenthesised VALUES tuple for INSERT.
	SQLValues
)

// MainColumns and LevelColumns list the columns the generator fills, in
// table order (every column).
var (
	MainColumns = []string{"id", "l1_id", "l2_id", "l3_id", "l4_id", "l5_id", "small_number", "integer_number",
		"myvalue", "decimal_number", "float_number", "char_field", "varchar_field", "color", "continent", "uuid",
		"uuid_bin", "text_field", "datetime_field", "timestamp_field", "year_field", "binary_field",
		"varbinary_field", "enum_field", "set_field", "is_active"}
	LevelColumns = []string{"id", "continent", "parent_id", "time_accessed", "l1_id", "l2_id", "l3_id", "l4_id",
		"l5_id", "record_name", "record_code", "record_value", "record_status", "record_priority"}
)

// Columns returns the generated columns of a table kind.
func Columns(kind TableKind) []string {
	if kind == LevelTable {
		return LevelColumns
	}
	return MainColumns
}

// rowWriter appends one encoded row.
type rowWriter struct {
	buf   []byte
	enc   Encoding
	first bool
}

func (w *rowWriter) sep() {
	if w.first {
		w.first = false
		return
	}
	if w.enc == TSV {
		w.buf = append(w.buf, '\t')
	} else {
		w.buf = append(w.buf, ',')
	}
}

func (w *rowWriter) int(v int64) {
	w.sep()
	w.buf = strconv.AppendInt(w.buf, v, 10)
}

// raw appends text that needs no escaping in either encoding (numbers,
// dates, the domains' plain ASCII words); SQL quotes it.
func (w *rowWriter) raw(s string) {
	w.sep()
	if w.enc == SQLValues {
		w.buf = append(w.buf, '\'')
		w.buf = append(w.buf, s...)
		w.buf = append(w.buf, '\'')
		return
	}
	w.buf = append(w.buf, s...)
}

// needsEscape marks the bytes str escapes in either encoding.
var needsEscape = [256]bool{'\\': true, 0: true, '\t': true, '\n': true, '\r': true, '\'': true, 0x1a: true}

// str appends a string or byte string, escaped for the encoding.
func (w *rowWriter) str(b []byte) {
	w.sep()
	if w.enc == SQLValues {
		w.buf = append(w.buf, '\'')
	}
	// Most values (letters, UUIDs) need no escape: copy them at once.
	i := 0
	for i < len(b) && !needsEscape[b[i]] {
		i++
	}
	w.buf = append(w.buf, b[:i]...)
	for _, c := range b[i:] {
		switch c {
		case '\\':
			w.buf = append(w.buf, '\\', '\\')
		case 0:
			w.buf = append(w.buf, '\\', '0')
		case '\t':
			w.buf = append(w.buf, '\\', 't')
		case '\n':
			w.buf = append(w.buf, '\\', 'n')
		case '\r':
			w.buf = append(w.buf, '\\', 'r')
		case '\'':
			if w.enc == SQLValues {
				w.buf = append(w.buf, '\\', '\'')
			} else {
				w.buf = append(w.buf, c)
			}
		case 0x1a:
			w.buf = append(w.buf, '\\', 'Z')
		default:
			w.buf = append(w.buf, c)
		}
	}
	if w.enc == SQLValues {
		w.buf = append(w.buf, '\'')
	}
}

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// letterOf maps a random byte b to letters[b%len(letters)] without the
// division.
var letterOf = func() (t [256]byte) {
	for i := range t {
		t[i] = letters[i%len(letters)]
	}
	return t
}()

// rowRand is the random source of one row.
type rowRand struct{ pcg rand.PCG }

func (r *rowRand) u64() uint64 { return r.pcg.Uint64() }

// intn returns a value in [0, n) (n > 0), by Lemire's multiply-shift; the
// tiny bias does not matter here, determinism does.
func (r *rowRand) intn(n uint64) uint64 {
	hi, _ := bits.Mul64(r.u64(), n)
	return hi
}

// between returns a value in [lo, hi].
func (r *rowRand) between(lo, hi int64) int64 { return lo + int64(r.intn(uint64(hi-lo+1))) }

// float returns a value in [0, 1).
func (r *rowRand) float() float64 { return float64(r.u64()>>11) / (1 << 53) }

// letters fills dst with random letters.
func (r *rowRand) letters(dst []byte) {
	// Eight letters from each draw, the low byte first; unrolled, since
	// letters are most of a main row's bytes.
	for len(dst) >= 8 {
		x := r.u64()
		d := dst[:8]
		d[0], d[1], d[2], d[3] = letterOf[byte(x)], letterOf[byte(x>>8)], letterOf[byte(x>>16)], letterOf[byte(x>>24)]
		d[4], d[5], d[6], d[7] = letterOf[byte(x>>32)], letterOf[byte(x>>40)], letterOf[byte(x>>48)], letterOf[byte(x>>56)]
		dst = dst[8:]
	}
	if len(dst) > 0 {
		x := r.u64()
		for i := range dst {
			dst[i] = letterOf[byte(x)]
			x >>= 8
		}
	}
}

func pick[T any](r *rowRand, vals []T) T { return vals[r.intn(uint64(len(vals)))] }

// id draws an id-like value in 1..TableSize from the distribution.
func (g *Generator) id(r *rowRand) int64 {
	n := g.opts.TableSize
	var v int64
	switch g.opts.Distribution {
	case Gaussian:
		// Box-Muller
		u1, u2 := r.float(), r.float()
		z := math.Sqrt(-2*math.Log(1-u1)) * math.Cos(2*math.Pi*u2)
		v = int64(math.Round(float64(n)/2 + z*float64(n)/6))
	case Pareto:
		const h = 0.2
		p := math.Log(h) / math.Log(1-h)
		v = 1 + int64(float64(n)*math.Pow(r.float(), p))
	case Zipf:
		const s = 1.1
		u := r.float()
		x := math.Pow((math.Pow(float64(n)+1, 1-s)-1)*u+1, 1/(1-s))
		v = int64(x)
	default:
		v = 1 + int64(r.intn(uint64(n)))
	}
	return min(max(v, 1), n)
}

var hexDigits = "0123456789abcdef"

// uuid writes a random version-4 UUID as text into dst (36 bytes).
func (r *rowRand) uuid(dst []byte) {
	var b [16]byte
	x, y := r.u64(), r.u64()
	for i := 0; i < 8; i++ {
		b[i] = byte(x >> (8 * i))
		b[8+i] = byte(y >> (8 * i))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	j := 0
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst[j] = '-'
			j++
		}
		dst[j], dst[j+1] = hexDigits[c>>4], hexDigits[c&0xf]
		j += 2
	}
}

// AppendRow appends row id (1-based) of table n of the given kind, encoded,
// followed by a newline for TSV.
func (g *Generator) AppendRow(buf []byte, kind TableKind, n int, id int64, enc Encoding) []byte {
	var r rowRand
	r.pcg.Seed(g.streamKey(kind, n), uint64(id))
	w := rowWriter{buf: buf, enc: enc, first: true}
	if enc == SQLValues {
		w.buf = append(w.buf, '(')
	}
	if kind == LevelTable {
		g.levelRow(&w, &r, id)
	} else {
		g.mainRow(&w, &r, id)
	}
	if enc == SQLValues {
		w.buf = append(w.buf, ')')
	} else {
		w.buf = append(w.buf, '\n')
	}
	return w.buf
}

func (g *Generator) mainRow(w *rowWriter, r *rowRand, id int64) {
	w.int(id)
	for i := 0; i < 5; i++ {
		w.int(g.id(r))
	}
	w.int(r.between(0, math.MaxInt16))          // small_number
	w.int(r.between(0, math.MaxInt32))          // integer_number
	w.int(r.between(0, math.MaxInt32))          // myvalue
	cents := r.between(-9999999999, 9999999999) // decimal_number: DECIMAL(10,2)
	w.sep()
	if cents < 0 {
		w.buf = append(w.buf, '-')
		cents = -cents
	}
	w.buf = strconv.AppendInt(w.buf, cents/100, 10)
	w.buf = append(w.buf, '.', byte('0'+cents%100/10), byte('0'+cents%10))
	// float_number: the same range as decimal_number, so both can be
	// compared; written with the fewest digits that read back exactly.
	f := float32((r.float()*2 - 1) * 1e8)
	w.sep()
	w.buf = strconv.AppendFloat(w.buf, float64(f), 'g', -1, 32)
	w.letters(r, 1, 10)  // char_field
	w.letters(r, 1, 255) // varchar_field
	w.raw(pick(r, Colors))
	w.raw(pick(r, Continents))
	// uuid, written reversed so the unique index fills out of order
	var u [36]byte
	r.uuid(u[:])
	for i, j := 0, len(u)-1; i < j; i, j = i+1, j-1 {
		u[i], u[j] = u[j], u[i]
	}
	w.str(u[:])
	var bin [16]byte // uuid_bin
	x, y := r.u64(), r.u64()
	for i := 0; i < 8; i++ {
		bin[i] = byte(x >> (8 * i))
		bin[8+i] = byte(y >> (8 * i))
	}
	w.str(bin[:])
	w.letters(r, 1, 16) // text_field: a few bytes
	w.raw(g.loadTime)   // datetime_field
	w.raw(g.loadTime)   // timestamp_field
	w.int(r.between(MinYear, MaxYear))
	w.letters(r, 5, 50) // binary_field (the server pads to 50)
	w.letters(r, 5, 50) // varbinary_field
	w.raw(pick(r, Statuses))
	w.raw(pick(r, Permissions))
	w.int(int64(r.u64() & 1)) // is_active
}

// letters appends between lo and hi random letters, drawn straight into
// the row: letters never need escaping.
func (w *rowWriter) letters(r *rowRand, lo, hi int64) {
	n := int(r.between(lo, hi))
	w.sep()
	if w.enc == SQLValues {
		w.buf = append(w.buf, '\'')
	}
	start := len(w.buf)
	w.buf = slices.Grow(w.buf, n)[:start+n]
	r.letters(w.buf[start:])
	if w.enc == SQLValues {
		w.buf = append(w.buf, '\'')
	}
}

func (g *Generator) levelRow(w *rowWriter, r *rowRand, id int64) {
	w.int(id)
	w.raw(pick(r, Continents))
	w.int(g.id(r))    // parent_id
	w.raw(g.loadTime) // time_accessed
	for i := 0; i < 5; i++ {
		w.int(g.id(r))
	}
	var u [36]byte
	r.uuid(u[:])
	w.str(u[:]) // record_name
	w.raw(pick(r, RecordCodes))
	w.int(r.between(0, math.MaxInt32)) // record_value
	w.raw(pick(r, Statuses))
	w.int(r.between(1, 10)) // record_priority
}
