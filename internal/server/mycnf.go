package server

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/joinbench/joinbench/internal/usage"
)

// OptionFile holds the options read from MySQL option files ("my.cnf") for
// the groups asked for. Keys are normalised the way the server normalises
// them: lower case, '_' for '-', and a "loose-" prefix removed.
type OptionFile struct {
	values map[string]string
	// Files lists the files actually read, in order.
	Files []string
}

// Get returns an option's value and whether it was set.
func (o *OptionFile) Get(name string) (string, bool) {
	if o == nil {
		return "", false
	}
	v, ok := o.values[normKey(name)]
	return v, ok
}

// Keys returns the names of the options that are set, sorted.
func (o *OptionFile) Keys() []string {
	if o == nil {
		return nil
	}
	keys := make([]string, 0, len(o.values))
	for k := range o.values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func normKey(k string) string {
	k = strings.ToLower(strings.TrimSpace(k))
	k = strings.ReplaceAll(k, "-", "_")
	return strings.TrimPrefix(k, "loose_")
}

// ReadOptionFile reads path the way the mysql client reads an option file
// and keeps the options of the given groups (e.g. "client", "joinbench").
// As with the client, options are applied in file order, so a later line
// wins whichever of the groups it is in. Supported: '#' and ';' comment
// lines, '#' comments after a value, [group] headers, "name",
// "name = value", single- and double-quoted values, the escapes \b \t \n \r
// \\ \s \" \' in values, "loose-" prefixes, and the !include FILE and
// !includedir DIR directives (the latter reads *.cnf in name order).
// A missing file is an error; a syntax error names file:line.
func ReadOptionFile(path string, groups ...string) (*OptionFile, error) {
	o := &OptionFile{values: map[string]string{}}
	want := map[string]bool{}
	for _, g := range groups {
		want[strings.ToLower(g)] = true
	}
	if err := o.read(path, want, 0); err != nil {
		return nil, err
	}
	return o, nil
}

func (o *OptionFile) read(path string, want map[string]bool, depth int) error {
	if depth > 10 {
		return usage.Errorf("%s: !include nested too deeply", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return usage.Errorf("option file: %w", err)
	}
	defer f.Close()
	o.Files = append(o.Files, path)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	inGroup := false
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
			continue
		case line[0] == '!':
			dir, arg, _ := strings.Cut(line, " ")
			arg = strings.TrimSpace(arg)
			if arg == "" {
				return usage.Errorf("%s:%d: %s needs a path", path, n, dir)
			}
			if !filepath.IsAbs(arg) {
				arg = filepath.Join(filepath.Dir(path), arg)
			}
			switch dir {
			case "!include":
				if err := o.read(arg, want, depth+1); err != nil {
					return err
				}
			case "!includedir":
				names, err := filepath.Glob(filepath.Join(arg, "*.cnf"))
				if err != nil {
					return usage.Errorf("%s:%d: %v", path, n, err)
				}
				sort.Strings(names)
				for _, name := range names {
					if err := o.read(name, want, depth+1); err != nil {
						return err
					}
				}
			default:
				return usage.Errorf("%s:%d: unknown directive %s", path, n, dir)
			}
		case line[0] == '[':
			end := strings.IndexByte(line, ']')
			if end < 0 {
				return usage.Errorf("%s:%d: group header without ']'", path, n)
			}
			inGroup = want[strings.ToLower(strings.TrimSpace(line[1:end]))]
		default:
			if !inGroup {
				continue
			}
			key, val, hasVal := strings.Cut(line, "=")
			key = normKey(key)
			if key == "" {
				return usage.Errorf("%s:%d: option without a name", path, n)
			}
			if hasVal {
				v, err := parseValue(strings.TrimSpace(val))
				if err != nil {
					return usage.Errorf("%s:%d: %s: %v", path, n, key, err)
				}
				val = v
			} else {
				// A bare "name" is a boolean switch, e.g. "ssl". Strip a
				// trailing comment.
				key = normKey(stripComment(key))
			}
			o.values[key] = val
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

func stripComment(s string) string {
	if i := strings.IndexAny(s, "#"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// parseValue decodes an option value: quoted ('...' or "...") with escapes,
// or unquoted up to a '#' comment, trailing space trimmed, with escapes.
func parseValue(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	quote := byte(0)
	if s[0] == '\'' || s[0] == '"' {
		quote = s[0]
		s = s[1:]
	} else {
		if i := strings.IndexByte(s, '#'); i >= 0 {
			s = s[:i]
		}
		s = strings.TrimRight(s, " \t")
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			rest := strings.TrimSpace(s[i+1:])
			if rest != "" && rest[0] != '#' {
				return "", fmt.Errorf("text after closing quote: %q", rest)
			}
			return b.String(), nil
		case c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'b':
				b.WriteByte('\b')
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 's':
				b.WriteByte(' ')
			case '\\', '"', '\'':
				b.WriteByte(s[i])
			default:
				// The client keeps unknown escapes as written (this is
				// what makes Windows paths work).
				b.WriteByte('\\')
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	if quote != 0 {
		return "", fmt.Errorf("missing closing %c", quote)
	}
	return b.String(), nil
}
