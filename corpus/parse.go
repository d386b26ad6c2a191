package corpus

import (
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/joinbench/joinbench/internal/suggest"
)

// Distributions a numeric, id, list, enum, set or table parameter may take.
const (
	DistUniform  = "uniform"
	DistGaussian = "gaussian"
	DistPareto   = "pareto"
	DistZipf     = "zipf"
	DistHotspot  = "hotspot"
)

// HeaderKeys are the keys a scenario header may hold.
var HeaderKeys = []string{"scenario", "description", "tags", "count", "param"}

// Distributions lists every distribution name.
var Distributions = []string{DistUniform, DistGaussian, DistPareto, DistZipf, DistHotspot}

// part is a piece of one statement: literal SQL text, or a placeholder use.
type part struct {
	text  string
	param int // index in Scenario.Params; -1 for text
}

type stmtParts struct {
	parts []part
}

// ParseFile parses one scenario file. path is what errors show; the
// scenario's name is the file name without .sql and its family the name of
// the folder holding it. Errors carry path:line:col and are usage errors.
func ParseFile(filePath string, src []byte) (*Scenario, error) {
	p := parseFile(filePath, string(src), false)
	if len(p.errs) > 0 {
		return nil, p.errs[0]
	}
	return p.s, nil
}

// ParseFileAll is ParseFile returning every independent mistake of the
// file (as lint reports them), in the order the file is read: each bad
// header line, each bad placeholder or bare ? of the body. A mistake
// caused by another one is left out (the uses of a parameter whose
// declaration is wrong; an unused parameter when the body has a mistake).
// The first is the one ParseFile returns.
func ParseFileAll(filePath string, src []byte) (*Scenario, []*Error) {
	s, errs := parsePartial(filePath, string(src), false)
	if len(errs) > 0 {
		return nil, errs
	}
	return s, nil
}

// parsePartial is ParseFileAll returning the scenario as far as it was
// read even when the file has mistakes (the parameters declared right,
// for the loader to check their lists too), leaving the statements'
// kinds to Scenario.Classify when lazyKinds.
func parsePartial(filePath, src string, lazyKinds bool) (*Scenario, []*Error) {
	p := parseFile(filePath, src, lazyKinds)
	if len(p.errs) == 0 {
		return p.s, nil
	}
	out := make([]*Error, len(p.errs))
	for i, err := range p.errs {
		out[i] = asError(filePath, err)
	}
	return p.s, out
}

func parseFile(filePath, src string, lazyKinds bool) *parser {
	p := &parser{lazyKinds: lazyKinds, s: &Scenario{
		Path:   filePath,
		Source: src,
		Name:   strings.TrimSuffix(path.Base(filepath.ToSlash(filePath)), ".sql"),
		Family: familyOf(filePath),
	}}
	p.header()
	p.body()
	return p
}

func familyOf(filePath string) string {
	dir := path.Base(path.Dir(filepath.ToSlash(filePath)))
	if dir == "." || dir == "/" || dir == "" {
		return "custom"
	}
	return dir
}

type parser struct {
	s    *Scenario
	errs []error // the file's mistakes, in reading order
	// badParams are the names of parameters whose declaration is a
	// mistake: their uses are not mistakes of their own.
	badParams map[string]bool
	lazyKinds bool // leave the statements' kinds to Scenario.Classify
	// line and lineStart are the header line being read: its number
	// (from 1) and where it starts, for the positions of parameters
	// without counting the lines before each again.
	line, lineStart int
}

// fail records a mistake and reading goes on: a mistake of one header
// line or one placeholder does not hide the next.
func (p *parser) fail(err error) {
	if err != nil && err != errBadParam {
		p.errs = append(p.errs, err)
	}
}

func isIdentByte(c byte, first bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || !first && c >= '0' && c <= '9'
}

// ident reads an identifier at src[i:] and returns its end.
func ident(src string, i int) int {
	j := i
	for j < len(src) && isIdentByte(src[j], j == i) {
		j++
	}
	return j
}

func skipBlanks(src string, i, end int) int {
	for i < end && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// header reads the leading block of blank and `--` lines.
func (p *parser) header() {
	src := p.s.Source
	off := 0
	seen := map[string]bool{}
	for p.line = 1; off < len(src); p.line++ {
		p.lineStart = off
		end := strings.IndexByte(src[off:], '\n')
		next := len(src)
		if end < 0 {
			end = len(src)
		} else {
			end += off
			next = end + 1
		}
		lineEnd := end
		if lineEnd > off && src[lineEnd-1] == '\r' {
			lineEnd--
		}
		i := skipBlanks(src, off, lineEnd)
		if i == lineEnd {
			off = next
			continue
		}
		if !strings.HasPrefix(src[i:lineEnd], "--") {
			break
		}
		p.fail(p.headerLine(i+2, lineEnd, seen))
		off = next
	}
	if off > len(src) {
		off = len(src)
	}
	p.s.BodyOffset = off
	p.s.Body = src[off:]
}

// headerLine parses src[i:end], the text after `--` of one header line.
// A line `-- key: value` whose key is a lower-case word is a header entry;
// any other `--` line is a comment.
func (p *parser) headerLine(i, end int, seen map[string]bool) error {
	s, src := p.s, p.s.Source
	i = skipBlanks(src, i, end)
	k := i
	for k < end && (src[k] >= 'a' && src[k] <= 'z' || src[k] == '_') {
		k++
	}
	key := src[i:k]
	if key == "" {
		return nil
	}
	if key == "param" && k < end && (src[k] == ' ' || src[k] == '\t') {
		at := skipBlanks(src, k, end)
		err := p.param(at, end)
		if j := ident(src, at); err != nil && j > at {
			if p.badParams == nil {
				p.badParams = map[string]bool{}
			}
			p.badParams[src[at:j]] = true
		}
		return err
	}
	if k >= end || src[k] != ':' {
		return nil // a comment
	}
	if key == "lint" {
		return nil // lint:ignore and lint:file-ignore comments are the analyzer's
	}
	val := strings.TrimSpace(src[k+1 : end])
	valOff := skipBlanks(src, k+1, end)
	switch key {
	case "scenario":
		if seen[key] {
			return s.errorf(i, "duplicate header key %q", key)
		}
		if val != s.Name {
			return s.errorf(valOff, "scenario name %q does not match the file name %q", val, s.Name)
		}
		s.nameOff = valOff
	case "description":
		if s.Description != "" {
			s.Description += " " + val
		} else {
			s.Description = val
		}
	case "tags":
		for _, t := range strings.Split(val, ",") {
			if t = strings.TrimSpace(t); t != "" {
				s.Tags = append(s.Tags, t)
			}
		}
	case "count":
		if seen[key] {
			return s.errorf(i, "duplicate header key %q", key)
		}
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return s.errorf(valOff, "count must be a whole number of 0 or more, got %q", val)
		}
		s.Count = n
	case "param":
		return s.errorf(k, "a parameter is declared as `-- param NAME: TYPE(ARGS) [distribution]`")
	default:
		if near := suggest.Closest(key, HeaderKeys); near != "" {
			return s.errorf(i, "unknown header key %q; did you mean %s? (known: %s)", key, near, strings.Join(HeaderKeys, ", "))
		}
		return s.errorf(i, "unknown header key %q (known: %s)", key, strings.Join(HeaderKeys, ", "))
	}
	seen[key] = true
	return nil
}

// param parses `NAME: TYPE(ARGS) [DIST[(ARGS)]]` at src[i:end].
func (p *parser) param(i, end int) error {
	s, src := p.s, p.s.Source
	j := ident(src, i)
	if j == i {
		return s.errorf(i, "expected a parameter name (letters, digits, _) after `param`")
	}
	name := src[i:j]
	if s.Param(name) != nil {
		return s.errorf(i, "parameter %q is declared twice", name)
	}
	prm := &Param{Name: name, Line: p.line, Col: i - p.lineStart + 1, off: i}
	k := skipBlanks(src, j, end)
	if k >= end || src[k] != ':' {
		return s.errorf(k, "expected `:` after parameter name %q", name)
	}
	k = skipBlanks(src, k+1, end)
	kindEnd := ident(src, k)
	if kindEnd == k {
		return s.errorf(k, "expected the type of parameter %q (one of %s)", name, strings.Join(Kinds, ", "))
	}
	prm.Kind = src[k:kindEnd]
	kindOff := k
	kd := kinds[prm.Kind]
	if kd == nil {
		return s.errorf(k, "unknown parameter type %q (known: %s)", prm.Kind, strings.Join(Kinds, ", "))
	}
	args, offs, k, err := p.args(kindEnd, end)
	if err != nil {
		return err
	}
	prm.Args, prm.argOff = args, offs
	k = skipBlanks(src, k, end)
	if k < end {
		distEnd := ident(src, k)
		if distEnd == k {
			return s.errorf(k, "unexpected %q after the type of parameter %q", src[k:end], name)
		}
		prm.Distribution = src[k:distEnd]
		distOff := k
		dargs, doffs, k2, err := p.args(distEnd, end)
		if err != nil {
			return err
		}
		prm.DistArgs = dargs
		if k2 = skipBlanks(src, k2, end); k2 < end {
			return s.errorf(k2, "unexpected %q after the distribution of parameter %q", src[k2:end], name)
		}
		if err := p.checkDist(kd, prm, distOff, doffs); err != nil {
			return err
		}
	}
	if err := kd.args(decl{s: s, prm: prm, kindOff: kindOff}); err != nil {
		return err
	}
	s.Params = append(s.Params, prm)
	return nil
}

// args reads an optional `(a, b, ...)` at src[i:end]; it returns the
// trimmed arguments, their offsets and the offset after `)`.
func (p *parser) args(i, end int) ([]string, []int, int, error) {
	src := p.s.Source
	if i >= end || src[i] != '(' {
		return nil, nil, i, nil
	}
	close := strings.IndexByte(src[i:end], ')')
	if close < 0 {
		return nil, nil, 0, p.s.errorf(i, "missing `)`")
	}
	close += i
	inner := src[i+1 : close]
	if strings.TrimSpace(inner) == "" {
		return nil, nil, close + 1, nil
	}
	var args []string
	var offs []int
	start := i + 1
	for _, a := range strings.Split(inner, ",") {
		lead := len(a) - len(strings.TrimLeft(a, " \t"))
		t := strings.TrimSpace(a)
		if t == "" {
			return nil, nil, 0, p.s.errorf(start, "empty argument")
		}
		args = append(args, t)
		offs = append(offs, start+lead)
		start += len(a) + 1
	}
	return args, offs, close + 1, nil
}

func isIdent(s string) bool { return s != "" && ident(s, 0) == len(s) }

func isListName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i], false) && s[i] != '-' {
			return false
		}
	}
	return true
}

func parseInt(s string) (int64, error) { return strconv.ParseInt(s, 10, 64) }

func plural(n int, word string) string {
	switch n {
	case 0:
		return "no " + word + "s"
	case 1:
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func (p *parser) checkDist(kd *kind, prm *Param, off int, argOffs []int) error {
	s := p.s
	if !slices.Contains(Distributions, prm.Distribution) {
		return s.errorf(off, "unknown distribution %q (known: %s)", prm.Distribution, strings.Join(Distributions, ", "))
	}
	if !kd.draw.indexed() {
		return s.errorf(off, "a %s parameter takes no distribution", prm.Kind)
	}
	_, err := parseDist(prm.Distribution, prm.DistArgs)
	if err != nil {
		o := off
		if len(argOffs) > 0 {
			o = argOffs[0]
		}
		return s.errorf(o, "%v", err)
	}
	return nil
}
