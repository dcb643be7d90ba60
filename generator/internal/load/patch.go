package load

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The generator's tests make schema variants by small edits of the
// embedded schemas, written as a list of operations in the manner of JSON
// Patch (RFC 6902): add, remove, replace and move, each at a JSON Pointer.
// The edits work on the loader's ordered nodes, so they keep the order of
// object members, which the generator follows.

// A PatchOp is one edit: Op is add, remove, replace or move (from From).
type PatchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	From  string          `json:"from,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
}

// Patch returns doc with the edits applied in order.
func Patch(doc []byte, ops []PatchOp) ([]byte, error) {
	root, err := parseOrdered(doc, DefaultMaxDepth, 0)
	if err != nil {
		return nil, err
	}
	for _, op := range ops {
		var v *node
		switch op.Op {
		case "add", "replace":
			if v, err = parseOrdered(op.Value, DefaultMaxDepth, 0); err != nil {
				return nil, fmt.Errorf("%s %s: value: %w", op.Op, op.Path, err)
			}
			if op.Op == "replace" {
				_, err = take(root, op.Path)
			}
		case "move":
			v, err = take(root, op.From)
		case "remove":
			_, err = take(root, op.Path)
		default:
			err = fmt.Errorf("unknown op")
		}
		if err == nil && v != nil {
			err = put(root, op.Path, v)
		}
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", op.Op, op.Path, err)
		}
	}
	var b bytes.Buffer
	root.encode(&b)
	return b.Bytes(), nil
}

// locate returns the container of pointer p's target and the target's
// last reference token.
func locate(root *node, p string) (*node, string, error) {
	if !strings.HasPrefix(p, "/") {
		return nil, "", fmt.Errorf("pointer %q does not start with /", p)
	}
	tokens := strings.Split(p[1:], "/")
	for i := range tokens {
		tokens[i] = unescapePointer(tokens[i])
	}
	c := root
	for _, tok := range tokens[:len(tokens)-1] {
		switch c.kind {
		case '{':
			c = c.get(tok)
		case '[':
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c.elems) {
				return nil, "", fmt.Errorf("no element %q", tok)
			}
			c = c.elems[i]
		default:
			c = nil
		}
		if c == nil {
			return nil, "", fmt.Errorf("no member %q", tok)
		}
	}
	return c, tokens[len(tokens)-1], nil
}

// take removes and returns the value at pointer p.
func take(root *node, p string) (*node, error) {
	c, last, err := locate(root, p)
	if err != nil {
		return nil, err
	}
	switch c.kind {
	case '{':
		if v := c.get(last); v != nil {
			c.del(last)
			return v, nil
		}
	case '[':
		if i, err := strconv.Atoi(last); err == nil && i >= 0 && i < len(c.elems) {
			v := c.elems[i]
			c.elems = slices.Delete(c.elems, i, i+1)
			return v, nil
		}
	}
	return nil, fmt.Errorf("nothing at %s", p)
}

// put sets the member at pointer p (a new member goes last in its object)
// or, in an array, inserts before the index ("-": appends).
func put(root *node, p string, v *node) error {
	c, last, err := locate(root, p)
	if err != nil {
		return err
	}
	switch c.kind {
	case '{':
		c.set(last, v)
	case '[':
		i := len(c.elems)
		if last != "-" {
			if i, err = strconv.Atoi(last); err != nil || i < 0 || i > len(c.elems) {
				return fmt.Errorf("bad array index %q", last)
			}
		}
		c.elems = slices.Insert(c.elems, i, v)
	default:
		return fmt.Errorf("the parent of %s is not an object or array", p)
	}
	return nil
}
