package corpus

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/joinbench/joinbench/ddl"
	"github.com/joinbench/joinbench/internal/usage"
)

//go:embed scenarios
var builtinFS embed.FS

// builtinRoot is the folder of the built-in scenarios, as paths show it.
const builtinRoot = "corpus/scenarios"

// Families are the built-in scenario families, in listing order.
var Families = []string{"inner", "left", "right", "derived", "semi_anti", "update", "write"}

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
	Dirs      []string // user corpus folders, searched recursively for *.sql and *.list
	Override  bool     // a user scenario or list may replace a built-in one of the same name
	NoBuiltin bool     // leave the built-in scenarios out
}

// LoadBuiltin loads the built-in corpus alone.
func LoadBuiltin() (*Corpus, error) { return Load(LoadOptions{}) }

type file struct {
	path    string // as shown in errors
	src     []byte
	builtin bool
}

// Load reads the built-in corpus and the user folders, checks every file,
// and resolves list names. Errors are usage errors naming file:line:col.
func Load(opts LoadOptions) (*Corpus, error) {
	c := &Corpus{byName: map[string]*Scenario{}, lists: map[string]*ValueList{}}
	var sqls, lists []file
	if !opts.NoBuiltin {
		err := fs.WalkDir(builtinFS, "scenarios", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".sql") {
				return err
			}
			src, err := builtinFS.ReadFile(p)
			if err != nil {
				return err
			}
			sqls = append(sqls, file{path: path.Join("corpus", p), src: src, builtin: true})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("built-in corpus: %w", err)
		}
	}
	for _, dir := range opts.Dirs {
		st, err := os.Stat(dir)
		if err != nil {
			return nil, usage.Errorf("--corpus %s: %v", dir, err)
		}
		if !st.IsDir() {
			return nil, usage.Errorf("--corpus %s: not a folder", dir)
		}
		paths, err := FindFiles(dir, ".sql", ".list")
		if err != nil {
			return nil, usage.Errorf("--corpus %s: %v", dir, err)
		}
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				return nil, usage.Errorf("--corpus %s: %v", dir, err)
			}
			if strings.HasSuffix(p, ".list") {
				lists = append(lists, file{path: p, src: src})
			} else {
				sqls = append(sqls, file{path: p, src: src})
			}
		}
	}
	for _, f := range lists {
		l, err := parseList(f.path, f.src)
		if err != nil {
			return nil, err
		}
		if prev, ok := c.lists[l.Name]; ok {
			return nil, usage.Errorf("%s: list %q is also defined in %s", l.Path, l.Name, prev.Path)
		}
		if _, ok := ddl.Domain(l.Name); ok && !opts.Override {
			return nil, usage.Errorf("%s: list %q has the name of a built-in list (use --override to replace it)", l.Path, l.Name)
		}
		c.lists[l.Name] = l
	}
	for _, f := range sqls {
		s, err := ParseFile(f.path, f.src)
		if err != nil {
			return nil, err
		}
		s.Builtin = f.builtin
		s.lists = c.lists
		if prev, ok := c.byName[s.Name]; ok {
			if !prev.Builtin || s.Builtin || !opts.Override {
				hint := ""
				if prev.Builtin && !s.Builtin {
					hint = " (use --override to replace the built-in scenario)"
				}
				return nil, usage.Errorf("%s: scenario %q is also defined in %s%s", s.Path, s.Name, prev.Path, hint)
			}
			for i, x := range c.scenarios {
				if x == prev {
					c.scenarios = append(c.scenarios[:i], c.scenarios[i+1:]...)
					break
				}
			}
		}
		c.byName[s.Name] = s
		c.scenarios = append(c.scenarios, s)
		if err := s.checkLists(); err != nil {
			return nil, err
		}
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
	return c, nil
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

func (s *Scenario) list(name string) ([]string, bool) { return lookupList(s.lists, name) }

func (s *Scenario) checkLists() error {
	for _, prm := range s.Params {
		if prm.Kind != KindList {
			continue
		}
		if _, ok := s.list(prm.Args[0]); !ok {
			return s.errorf(argAt(prm, 0), "list(%s): no such list (built-in lists: %s; a corpus folder may add NAME.list files)", prm.Args[0], strings.Join(ddl.DomainNames(), ", "))
		}
	}
	return nil
}

// parseList reads a NAME.list file: one value per line; blank lines and
// lines starting with # are skipped; surrounding spaces are trimmed.
func parseList(p string, src []byte) (*ValueList, error) {
	name := strings.TrimSuffix(filepath.Base(p), ".list")
	if !isListName(name) {
		return nil, usage.Errorf("%s: list file name %q: use letters, digits, _ and - only", p, name)
	}
	l := &ValueList{Name: name, Path: p}
	for _, line := range strings.Split(string(src), "\n") {
		v := strings.TrimSpace(line)
		if v == "" || strings.HasPrefix(v, "#") {
			continue
		}
		l.Values = append(l.Values, v)
	}
	if len(l.Values) == 0 {
		return nil, usage.Errorf("%s: list %q has no values", p, name)
	}
	return l, nil
}
