package work

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// node is one JSON value; an object keeps its members in their order, which
// is the order of the plan.
type node struct {
	kind    byte // '{' object, '[' array, '"' string, '0' number, 'l' true, false or null
	members []member
	items   []*node
	text    string // a string's value, a number's or a literal's text
}

type member struct {
	key string
	val *node
}

// get returns the member key of an object, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != '{' {
		return nil
	}
	for _, m := range n.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// str is a string's value, "" for anything else.
func (n *node) str() string {
	if n == nil || n.kind != '"' {
		return ""
	}
	return n.text
}

// num is a number's value (MariaDB writes some numbers as strings).
func (n *node) num() (float64, bool) {
	if n == nil || n.kind != '0' && n.kind != '"' {
		return 0, false
	}
	v, err := strconv.ParseFloat(n.text, 64)
	return v, err == nil
}

// maxDepth bounds the nesting parseLenient accepts: plans nest a few dozen
// levels, and a bound keeps hostile input from exhausting the stack.
const maxDepth = 256

// parseLenient parses JSON as MariaDB writes its plans: conditions go into
// strings as SQL text, with escapes JSON does not have (\' or \Z), raw
// control characters and unescaped double quotes. An unknown escape keeps
// both characters, and a quote ends a string only when a separator (, : } ]
// or the end) follows it.
func parseLenient(s string) (*node, error) {
	p := &parser{s: s}
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, p.errorf("text after the JSON value")
	}
	return n, nil
}

type parser struct {
	s string
	i int
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("plan JSON at byte %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *parser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (*node, error) {
	if depth > maxDepth {
		return nil, p.errorf("nested deeper than %d", maxDepth)
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, p.errorf("unexpected end")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		t, err := p.string()
		return &node{kind: '"', text: t}, err
	case c == '-' || c >= '0' && c <= '9':
		j := p.i
		for p.i < len(p.s) && isNumberByte(p.s[p.i]) {
			p.i++
		}
		return &node{kind: '0', text: p.s[j:p.i]}, nil
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if len(p.s)-p.i >= len(lit) && p.s[p.i:p.i+len(lit)] == lit {
				p.i += len(lit)
				return &node{kind: 'l', text: lit}, nil
			}
		}
		return nil, p.errorf("unexpected %q", c)
	}
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

func (p *parser) object(depth int) (*node, error) {
	n := &node{kind: '{'}
	p.i++ // {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return n, nil
	}
	for {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.errorf("want a member name")
		}
		key, err := p.string()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errorf("want ':' after %q", key)
		}
		p.i++
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, member{key, v})
		p.space()
		if p.i >= len(p.s) {
			return nil, p.errorf("unexpected end of object")
		}
		p.i++
		switch p.s[p.i-1] {
		case ',':
		case '}':
			return n, nil
		default:
			return nil, p.errorf("want ',' or '}'")
		}
	}
}

func (p *parser) array(depth int) (*node, error) {
	n := &node{kind: '['}
	p.i++ // [
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return n, nil
	}
	for {
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, v)
		p.space()
		if p.i >= len(p.s) {
			return nil, p.errorf("unexpected end of array")
		}
		p.i++
		switch p.s[p.i-1] {
		case ',':
		case ']':
			return n, nil
		default:
			return nil, p.errorf("want ',' or ']'")
		}
	}
}

// string reads a string from the quote at p.i and returns its value.
func (p *parser) string() (string, error) {
	p.i++ // "
	var b []byte
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"' && p.closes(p.i+1):
			p.i++
			return string(b), nil
		case c == '\\' && p.i+1 < len(p.s):
			e := p.s[p.i+1]
			if r, ok := escaped(e); ok {
				b = append(b, r)
				p.i += 2
				continue
			}
			if e == 'u' && p.i+6 <= len(p.s) {
				if v, err := strconv.ParseUint(p.s[p.i+2:p.i+6], 16, 16); err == nil {
					b = utf8.AppendRune(b, rune(v))
					p.i += 6
					continue
				}
			}
			b = append(b, c, e) // SQL's escape, kept as written
			p.i += 2
		default:
			b = append(b, c)
			p.i++
		}
	}
	return "", p.errorf("unterminated string")
}

func escaped(e byte) (byte, bool) {
	switch e {
	case '"', '\\', '/':
		return e, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// closes reports whether a quote before s[i:] ends a string: what follows
// it, past white space, is a separator or the end.
func (p *parser) closes(i int) bool {
	for ; i < len(p.s); i++ {
		switch p.s[i] {
		case ' ', '\t', '\n', '\r':
		case ',', ':', '}', ']':
			return true
		default:
			return false
		}
	}
	return true
}
