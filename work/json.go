package work

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/joinbench/joinbench/explain"
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

// parseLenient parses JSON as MariaDB writes its plans, conditions as SQL
// text inside strings: explain.RepairJSON makes it JSON first (the one
// repair of that dialect), and the members of objects are kept in their
// order, which is the order of the plan.
func parseLenient(s string) (*node, error) {
	dec := json.NewDecoder(strings.NewReader(explain.RepairJSON(s)))
	dec.UseNumber()
	n, err := decodeValue(dec, 0)
	if err != nil {
		return nil, planError(dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, planError(dec, errors.New("text after the JSON value"))
	}
	return n, nil
}

func planError(dec *json.Decoder, err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("plan JSON at byte %d: %w", dec.InputOffset(), err)
}

// decodeValue reads the next value of dec into a node.
func decodeValue(dec *json.Decoder, depth int) (*node, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("nested deeper than %d", maxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			n := &node{kind: '{'}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := k.(string)
				if !ok {
					return nil, errors.New("want a member name")
				}
				val, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				n.members = append(n.members, member{key, val})
			}
			_, err := dec.Token() // }
			return n, err
		case '[':
			n := &node{kind: '['}
			for dec.More() {
				val, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				n.items = append(n.items, val)
			}
			_, err := dec.Token() // ]
			return n, err
		}
		return nil, fmt.Errorf("unexpected %q", rune(v))
	case string:
		return &node{kind: '"', text: v}, nil
	case json.Number:
		return &node{kind: '0', text: v.String()}, nil
	case bool:
		return &node{kind: 'l', text: strconv.FormatBool(v)}, nil
	case nil:
		return &node{kind: 'l', text: "null"}, nil
	}
	return nil, fmt.Errorf("unexpected %v", tok)
}
