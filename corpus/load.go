package corpus

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/usage"
)

//go:embed scenarios
var builtinFS embed.FS

// builtinRoot is the folder of the built-in scenarios, as paths show it.
const builtinRoot = "corpus/scenarios"

// Families are the built-in scenario families, in listing order.
var Families = []string{"inner", "left", "right", "derived", "semi_anti", "update", "write", "point"}

// ValueList is a named list of values for list(name) placeholders, read
// from a NAME.list file in a corpus folder.
type ValueList struct {
	Name   string
	Path   string
	Values []string
}

// Corpus is a set of scenarios with unique names, and the value lists
// their list(name) placeholders may use besides the built-in ones.
type Corpus struct {
	scenarios []*Scenario
	byName    map[string]*Scenario
	lists     map[string]*ValueList
}

// LoadOptions say where scenarios come from.
type LoadOptions struct {
	Dirs []string // user corpus folders, searched recursively for *.sql and *.list
	// Files are user files named one by one (lint's arguments, which is
	// how the pre-commit hook passes them): *.sql files are scenarios,
	// *.list files value lists. The NAME.list files beside each named
	// file (in its folder, not below it) are read too, so that a file
	// resolves its lists as it does when its folder is a --corpus.
	Files     []string
	Override  bool // a user scenario or list may replace a built-in one of the same name
	NoBuiltin bool // leave the built-in scenarios out
	// LazyKinds (Check only) leaves each statement's kind to
	// Scenario.Classify (Kind is "" until then): lint parses every
	// statement itself and needs the loader's kinds for --check-plans
	// alone, so the loader's parse of each statement would be a second
	// parse of the whole corpus.
	LazyKinds bool
}

// LoadBuiltin loads the built-in corpus alone.
func LoadBuiltin() (*Corpus, error) { return Load(LoadOptions{}) }

// File is one file the loader read: a scenario or a value list, with the
// scenario it gave or the mistake that kept it out of the corpus.
type File struct {
	Path     string // as shown in errors
	Source   string
	Builtin  bool
	Scenario *Scenario // the scenario loaded; nil for a list or a file with a mistake
	Err      *Error    // the file's (first) mistake, or nil
	// More are the file's further mistakes, independent of Err (see
	// ParseFileAll): lint, list, show and rewrite report them all; run
	// stops at Err.
	More []*Error
}

// Load reads the built-in corpus and the user folders and files, checks
// every file, and resolves list names. The first mistake found is returned
// as a usage error naming file:line:col.
func Load(opts LoadOptions) (*Corpus, error) {
	c, bad, err := LoadValid(opts)
	switch {
	case err != nil:
		return nil, err
	case len(bad) > 0:
		return nil, usage.Wrap(bad[0].Err)
	}
	return c, nil
}

// LoadValid is Load that goes on past a file's mistake: it returns the
// corpus of the files that loaded and the files that did not, each with
// its mistakes (File.Mistakes), so that list, show and rewrite serve the
// rest of the corpus and still report what is broken. The error is for
// what is not a file's mistake (a missing folder, an unreadable file).
func LoadValid(opts LoadOptions) (*Corpus, []*File, error) {
	opts.LazyKinds = false
	c, files, err := Check(opts)
	if err != nil {
		return nil, nil, err
	}
	var bad []*File
	for _, f := range files {
		if f.Err != nil {
			bad = append(bad, f)
		}
	}
	return c, bad, nil
}

// Mistakes returns every mistake of the file, in file order: Err, then
// More. None for a file that loaded.
func (f *File) Mistakes() []*Error {
	if f.Err == nil {
		return nil
	}
	return append([]*Error{f.Err}, f.More...)
}

// Check reads what Load reads, in the same order and by the same rules,
// but does not stop at a mistake: it returns the corpus of the files that
// loaded and every file read (value lists first, then scenarios, in the
// order they were checked), each with its mistake if it has one, so that
// lint reports what list, show and run would refuse. The error is for
// what is not a file's mistake (a missing folder, an unreadable file).
func Check(opts LoadOptions) (*Corpus, []*File, error) {
	c := &Corpus{byName: map[string]*Scenario{}, lists: map[string]*ValueList{}}
	r := reader{seen: map[string]bool{}, listDirs: map[string]bool{}}
	if !opts.NoBuiltin {
		err := fs.WalkDir(builtinFS, "scenarios", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".sql") {
				return err
			}
			src, err := builtinFS.ReadFile(p)
			if err != nil {
				return err
			}
			r.sqls = append(r.sqls, &File{Path: path.Join("corpus", p), Source: string(src), Builtin: true})
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("built-in corpus: %w", err)
		}
	}
	for _, dir := range opts.Dirs {
		if err := r.dir(dir); err != nil {
			return nil, nil, err
		}
	}
	for _, p := range opts.Files {
		if err := r.named(p); err != nil {
			return nil, nil, err
		}
	}
	for _, f := range r.lists {
		c.addList(f, opts.Override)
	}
	parsed := parseAll(r.sqls, opts.LazyKinds)
	for i, f := range r.sqls {
		c.addScenario(f, parsed[i], opts.Override)
	}
	sort.SliceStable(c.scenarios, func(i, j int) bool {
		a, b := c.scenarios[i], c.scenarios[j]
		if a.Family != b.Family {
			fa, fb := familyRank(a.Family), familyRank(b.Family)
			if fa != fb {
				return fa < fb
			}
			return a.Family < b.Family
		}
		return a.Name < b.Name
	})
	return c, append(r.lists, r.sqls...), nil
}

// reader gathers the user files to load, each once however it was named.
type reader struct {
	sqls, lists []*File
	seen        map[string]bool // cleaned paths already gathered
	listDirs    map[string]bool // folders whose lists were gathered for a named file
}

// dir gathers a --corpus folder's scenarios and lists.
func (r *reader) dir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return usage.Errorf("--corpus %s: %v", dir, err)
	}
	if !st.IsDir() {
		return usage.Errorf("--corpus %s: not a folder", dir)
	}
	paths, err := FindFiles(dir, ".sql", ".list")
	if err != nil {
		return usage.Errorf("--corpus %s: %v", dir, err)
	}
	var unseen []string
	for _, p := range paths {
		if key := filepath.Clean(p); !r.seen[key] {
			r.seen[key] = true
			unseen = append(unseen, p)
		}
	}
	srcs, err := readAll(unseen)
	if err != nil {
		return usage.Errorf("--corpus %s: %v", dir, err)
	}
	for i, p := range unseen {
		r.add(p, srcs[i])
	}
	return nil
}

// readAll reads files side by side, a worker per processor: a folder of
// thousands of scenarios is read in the time of its share of them (lint
// of 10,000 files spent a fifth of its time here, on one core).
func readAll(paths []string) ([]string, error) {
	srcs := make([]string, len(paths))
	errs := make([]error, len(paths))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(paths)); w++ {
		wg.Go(func() {
			var buf []byte // the worker's scratch, reused file after file
			for i := int(next.Add(1) - 1); i < len(paths); i = int(next.Add(1) - 1) {
				srcs[i], buf, errs[i] = readFile(paths[i], buf)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err // the first in path order, as reading one by one stopped at
		}
	}
	return srcs, nil
}

// named gathers a file named on the command line and the lists beside it.
func (r *reader) named(p string) error {
	if err := r.read(p); err != nil {
		return usage.Errorf("%v", err)
	}
	dir := filepath.Clean(filepath.Dir(p))
	if r.listDirs[dir] {
		return nil
	}
	r.listDirs[dir] = true
	entries, err := os.ReadDir(dir)
	if err != nil {
		return usage.Errorf("%v", err)
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".list") {
			continue
		}
		if err := r.read(filepath.Join(filepath.Dir(p), e.Name())); err != nil {
			return usage.Errorf("%v", err)
		}
	}
	return nil
}

func (r *reader) read(p string) error {
	key := filepath.Clean(p)
	if r.seen[key] {
		return nil
	}
	r.seen[key] = true
	src, _, err := readFile(p, nil)
	if err != nil {
		return err
	}
	r.add(p, src)
	return nil
}

// add records a file read.
func (r *reader) add(p, src string) {
	f := &File{Path: p, Source: src}
	if strings.HasSuffix(p, ".list") {
		r.lists = append(r.lists, f)
	} else {
		r.sqls = append(r.sqls, f)
	}
}

// addList adds a value list, or records why it cannot be added.
func (c *Corpus) addList(f *File, override bool) {
	l, err := parseList(f.Path, f.Source)
	switch {
	case err != nil:
		f.Err = asError(f.Path, err)
	case c.lists[l.Name] != nil:
		f.Err = &Error{Path: f.Path, Line: 1, Col: 1, Msg: fmt.Sprintf("list %q is also defined in %s", l.Name, c.lists[l.Name].Path)}
	case isBuiltinList(l.Name) && !override:
		f.Err = &Error{Path: f.Path, Line: 1, Col: 1, Msg: fmt.Sprintf("list %q has the name of a built-in list (use --override to replace it)", l.Name)}
	default:
		c.lists[l.Name] = l
	}
}

func isBuiltinList(name string) bool {
	_, ok := ddl.Domain(name)
	return ok
}

type parsed struct {
	s    *Scenario
	errs []*Error
}

// parseAll parses the scenario files on every core: files are
// independent until their names and lists are checked, which the caller
// does in order. Linting a large corpus would otherwise wait on this.
func parseAll(files []*File, lazyKinds bool) []parsed {
	out := make([]parsed, len(files))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(files)); w++ {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return
				}
				s, errs := parsePartial(files[i].Path, files[i].Source, lazyKinds)
				out[i] = parsed{s, errs}
			}
		})
	}
	wg.Wait()
	return out
}

// addScenario adds a parsed scenario, or records why it cannot be
// added: every mistake of the file, in file order (its own, a name
// another file took, each list it names that does not exist). A user
// scenario replaces a built-in one of its name only with override; two
// user scenarios of one name are a mistake.
func (c *Corpus) addScenario(f *File, p parsed, override bool) {
	s, errs := p.s, p.errs
	s.lists = c.lists
	prev := c.byName[s.Name]
	if prev != nil && (!prev.Builtin || f.Builtin || !override) {
		hint := ""
		if prev.Builtin && !f.Builtin {
			hint = " (use --override to replace the built-in scenario)"
		}
		errs = append(errs, asError(f.Path, s.errorf(s.nameOff, "scenario %q is also defined in %s%s", s.Name, prev.Path, hint)))
	}
	for _, err := range s.listErrors() {
		errs = append(errs, asError(f.Path, err))
	}
	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool {
			if errs[i].Line != errs[j].Line {
				return errs[i].Line < errs[j].Line
			}
			return errs[i].Col < errs[j].Col
		})
		f.Err, f.More = errs[0], errs[1:]
		return
	}
	s.Builtin = f.Builtin
	if prev != nil {
		c.scenarios = slices.DeleteFunc(c.scenarios, func(x *Scenario) bool { return x == prev })
	}
	c.byName[s.Name] = s
	c.scenarios = append(c.scenarios, s)
	f.Scenario = s
}

// FindFiles returns the files under dir, searched recursively, whose names
// end in one of exts, in lexical order. Folders below dir whose names start
// with "." (.git, editor state) are skipped: they hold no scenarios.
func FindFiles(dir string, exts ...string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		for _, ext := range exts {
			if strings.HasSuffix(p, ext) {
				out = append(out, p)
				break
			}
		}
		return nil
	})
	return out, err
}

func familyRank(f string) int {
	for i, x := range Families {
		if x == f {
			return i
		}
	}
	return len(Families)
}

// Scenarios returns every scenario, sorted by family (built-in families
// in their order, then others by name) then name.
func (c *Corpus) Scenarios() []*Scenario { return c.scenarios }

// Get returns the named scenario, or nil.
func (c *Corpus) Get(name string) *Scenario { return c.byName[name] }

// List returns a value list by name: a user list, else a built-in one.
func (c *Corpus) List(name string) ([]string, bool) { return lookupList(c.lists, name) }

func lookupList(lists map[string]*ValueList, name string) ([]string, bool) {
	if l, ok := lists[name]; ok {
		return l.Values, true
	}
	return ddl.Domain(name)
}

// List returns a value list by name, as the scenario's list(name)
// parameters see it: a list of its corpus, else a built-in one.
func (s *Scenario) List(name string) ([]string, bool) { return lookupList(s.lists, name) }

// Reparse reads src as a new version of the scenario's file (once lint
// --fix has edited it): same path, built-in flag and corpus lists.
func (s *Scenario) Reparse(src []byte) (*Scenario, error) {
	if s.Plain {
		return ParsePlain(s.Path, string(src)), nil
	}
	n, err := ParseFile(s.Path, src)
	if err != nil {
		return nil, err
	}
	n.Builtin, n.lists = s.Builtin, s.lists
	if err := n.checkLists(); err != nil {
		return nil, err
	}
	return n, nil
}

func (s *Scenario) checkLists() error {
	if errs := s.listErrors(); len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// listErrors returns a mistake for each list(name) parameter whose list
// does not exist.
func (s *Scenario) listErrors() []error {
	var out []error
	for _, prm := range s.Params {
		if prm.Kind != KindList {
			continue
		}
		if _, ok := s.List(prm.Args[0]); !ok {
			out = append(out, noSuchList(s, prm))
		}
	}
	return out
}

// parseList reads a NAME.list file: one value per line; blank lines and
// lines starting with # are skipped; surrounding spaces are trimmed.
func parseList(p, src string) (*ValueList, error) {
	name := strings.TrimSuffix(filepath.Base(p), ".list")
	if !isListName(name) {
		return nil, errAt(p, src, 0, "list file name %q: use letters, digits, _ and - only", name)
	}
	l := &ValueList{Name: name, Path: p}
	for _, line := range strings.Split(src, "\n") {
		v := strings.TrimSpace(line)
		if v == "" || strings.HasPrefix(v, "#") {
			continue
		}
		l.Values = append(l.Values, v)
	}
	if len(l.Values) == 0 {
		return nil, errAt(p, src, 0, "list %q has no values", name)
	}
	return l, nil
}
