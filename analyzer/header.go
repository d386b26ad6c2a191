package analyzer

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/joinbench/joinbench/corpus"
)

// headerError is a malformed header line.
type headerError struct {
	Line, Col int
	Msg       string
}

func (e *headerError) Error() string { return e.Msg }

// parseScenario reads the `-- key: value` header and `-- param` lines of a
// scenario file and locates the placeholders of its body. A file without a
// header is plain SQL: its body is the whole file.
func parseScenario(path, src string) (*corpus.Scenario, error) {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	sc := &corpus.Scenario{Name: name, Path: path, Source: src}
	off, line := 0, 1
	for off < len(src) {
		end := strings.IndexByte(src[off:], '\n')
		next := len(src)
		if end >= 0 {
			next = off + end + 1
			end = off + end
		} else {
			end = len(src)
		}
		l := strings.TrimRight(src[off:end], "\r")
		t := strings.TrimSpace(l)
		if t != "" && !strings.HasPrefix(t, "--") {
			break
		}
		if strings.HasPrefix(t, "--") {
			kv := strings.TrimSpace(strings.TrimPrefix(t, "--"))
			if strings.HasPrefix(kv, "param ") {
				p, err := parseParamDecl(kv[len("param "):])
				if err != nil {
					return nil, &headerError{line, strings.Index(l, "param") + 1, err.Error()}
				}
				p.Line, p.Col = line, strings.Index(l, "param")+1
				if sc.Param(p.Name) != nil {
					return nil, &headerError{line, p.Col, fmt.Sprintf("parameter %q declared twice", p.Name)}
				}
				sc.Params = append(sc.Params, p)
			} else if k, v, ok := strings.Cut(kv, ":"); ok && !strings.ContainsAny(k, " \t") {
				switch strings.ToLower(k) {
				case "scenario":
					sc.Name = strings.TrimSpace(v)
				case "description":
					sc.Description = strings.TrimSpace(v)
				case "tags":
					for _, tag := range strings.Split(v, ",") {
						if tag = strings.TrimSpace(tag); tag != "" {
							sc.Tags = append(sc.Tags, tag)
						}
					}
				}
			}
		}
		off, line = next, line+1
	}
	sc.BodyOffset = off
	sc.Body = src[off:]
	for _, m := range placeholderRE.FindAllStringSubmatchIndex(sc.Body, -1) {
		sc.Uses = append(sc.Uses, corpus.Use{Param: sc.Param(sc.Body[m[2]:m[3]]), Start: off + m[0], End: off + m[1]})
	}
	return sc, nil
}

// parseParamDecl reads `name: kind(args) [distribution]`.
func parseParamDecl(s string) (*corpus.Param, error) {
	name, rest, ok := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return nil, fmt.Errorf("param declaration %q: want `-- param NAME: TYPE(ARGS)`", s)
	}
	rest = strings.TrimSpace(rest)
	p := &corpus.Param{Name: name}
	kind, args, hasArgs := strings.Cut(rest, "(")
	p.Kind = strings.ToLower(strings.TrimSpace(kind))
	if hasArgs {
		argText, after, closed := strings.Cut(args, ")")
		if !closed {
			return nil, fmt.Errorf("param %s: missing ) in %q", name, rest)
		}
		for _, a := range splitArgs(argText) {
			p.Args = append(p.Args, a)
		}
		p.Distribution = strings.TrimSpace(after)
	} else if f := strings.Fields(kind); len(f) > 1 {
		p.Kind, p.Distribution = strings.ToLower(f[0]), f[1]
	}
	return p, nil
}

func splitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			q = c
		case c == ',':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	if t := strings.TrimSpace(cur.String()); t != "" || len(out) > 0 {
		out = append(out, t)
	}
	return out
}
