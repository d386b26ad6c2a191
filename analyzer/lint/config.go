package lint

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/joinbench/joinbench/analyzer"
	"github.com/joinbench/joinbench/analyzer/rules"
	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/suggest"
)

// ConfigName is the file, in a corpus folder or any folder above it, that
// sets rule severities and the target:
//
//	# lines of key = value; # starts a comment
//	flavor = mariadb        # mysql, mariadb, percona, tidb
//	galera = true
//	right-join = off        # off, info, warning, error
//	large-dml = error
const ConfigName = "lint.conf"

// Config is a parsed lint.conf.
type Config struct {
	Path     string
	Flavor   flavor.Name // "" when not set
	Galera   *bool
	Severity map[string]analyzer.Severity
}

// ParseConfig reads a lint.conf; errors name path:line.
func ParseConfig(path string, src []byte) (*Config, error) {
	c := &Config{Path: path, Severity: map[string]analyzer.Severity{}}
	sc := bufio.NewScanner(strings.NewReader(string(src)))
	for line := 1; sc.Scan(); line++ {
		l := sc.Text()
		if i := strings.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			k, v, ok = strings.Cut(l, ":")
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			return nil, fmt.Errorf("%s:%d: want `rule = severity` or `flavor = NAME`, got %q", path, line, l)
		}
		switch k {
		case "flavor":
			f, err := flavor.ParseName(v)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, line, err)
			}
			c.Flavor = f
		case "galera":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: galera: want true or false, got %q", path, line, v)
			}
			c.Galera = &b
		default:
			if rules.Lookup(k) == nil {
				return nil, fmt.Errorf("%s:%d: unknown rule %q%s", path, line, k, suggest.DidYouMean(k, rules.Names()))
			}
			if k == analyzer.ScenarioFormat.Name {
				return nil, fmt.Errorf("%s:%d: %s cannot be changed: list, show and run refuse such a file, so lint reports it as an error", path, line, k)
			}
			s, err := analyzer.ParseSeverity(v)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %v", path, line, k, err)
			}
			c.Severity[k] = s
		}
	}
	return c, sc.Err()
}

// Apply returns opts with the config's settings laid over them; explicit
// command-line choices (set) win over the file.
func (c *Config) Apply(opts analyzer.Options, flavorSet, galeraSet bool) *analyzer.Options {
	o := opts
	if c == nil {
		return &o
	}
	if c.Flavor != "" && !flavorSet {
		o.Flavor.Name = c.Flavor
	}
	if c.Galera != nil && !galeraSet {
		o.Flavor.Galera = *c.Galera
	}
	sev := map[string]analyzer.Severity{}
	for k, v := range c.Severity {
		sev[k] = v
	}
	for k, v := range opts.Severity {
		sev[k] = v
	}
	o.Severity = sev
	return &o
}

// ConfigFinder finds the lint.conf nearest to a file, looking in its
// folder and then each folder above; results are cached per folder.
type ConfigFinder struct {
	mu    sync.Mutex
	cache map[string]*Config
	errs  map[string]error
}

// Find returns the nearest config for a file (nil when there is none).
func (f *ConfigFinder) Find(file string) (*Config, error) {
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return nil, err
	}
	return f.find(dir)
}

func (f *ConfigFinder) find(dir string) (*Config, error) {
	f.mu.Lock()
	if f.cache == nil {
		f.cache, f.errs = map[string]*Config{}, map[string]error{}
	}
	if c, ok := f.cache[dir]; ok {
		err := f.errs[dir]
		f.mu.Unlock()
		return c, err
	}
	f.mu.Unlock()
	var c *Config
	var err error
	path := filepath.Join(dir, ConfigName)
	if b, rerr := os.ReadFile(path); rerr == nil {
		c, err = ParseConfig(path, b)
	} else if parent := filepath.Dir(dir); parent != dir {
		c, err = f.find(parent)
	}
	f.mu.Lock()
	f.cache[dir], f.errs[dir] = c, err
	f.mu.Unlock()
	return c, err
}
