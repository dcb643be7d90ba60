package generator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// The schema variants of the tests are small edits of the embedded schemas,
// written as a list of operations in the manner of JSON Patch (RFC 6902):
// add, remove, replace and move, each at a JSON Pointer. The edits keep the
// order of object members, which the generator follows.

// jnode is a JSON value that keeps the order of object members.
type jnode struct {
	keys   []string // object: member names, in order
	vals   []*jnode // object: member values; array: elements
	isObj  bool
	isArr  bool
	scalar json.RawMessage
}

func parseJSON(data []byte) (*jnode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseNode(dec)
	if err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return n, nil
}

func parseNode(dec *json.Decoder) (*jnode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &jnode{isObj: t == '{', isArr: t == '['}
		for dec.More() {
			if n.isObj {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k.(string))
			}
			v, err := parseNode(dec)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, v)
		}
		_, err := dec.Token() // the closing delimiter
		return n, err
	default:
		raw, err := json.Marshal(t)
		return &jnode{scalar: raw}, err
	}
}

func (n *jnode) encode(b *bytes.Buffer) {
	switch {
	case n.isObj:
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			n.vals[i].encode(b)
		}
		b.WriteByte('}')
	case n.isArr:
		b.WriteByte('[')
		for i, v := range n.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			v.encode(b)
		}
		b.WriteByte(']')
	default:
		b.Write(n.scalar)
	}
}

// patchOp is one edit: op is add, remove, replace or move (from From).
type patchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	From  string          `json:"from,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
}

// applyPatch returns doc with the edits applied in order.
func applyPatch(doc []byte, ops []patchOp) ([]byte, error) {
	root, err := parseJSON(doc)
	if err != nil {
		return nil, err
	}
	for _, op := range ops {
		var v *jnode
		switch op.Op {
		case "add", "replace":
			if v, err = parseJSON(op.Value); err != nil {
				return nil, fmt.Errorf("%s %s: value: %w", op.Op, op.Path, err)
			}
		case "move":
			if v, err = root.take(op.From, true); err != nil {
				return nil, fmt.Errorf("move from %s: %w", op.From, err)
			}
		case "remove":
			if _, err = root.take(op.Path, true); err != nil {
				return nil, fmt.Errorf("remove %s: %w", op.Path, err)
			}
			continue
		default:
			return nil, fmt.Errorf("unknown op %q", op.Op)
		}
		if op.Op == "replace" {
			if _, err := root.take(op.Path, true); err != nil {
				return nil, fmt.Errorf("replace %s: %w", op.Path, err)
			}
		}
		if err := root.put(op.Path, v); err != nil {
			return nil, fmt.Errorf("%s %s: %w", op.Op, op.Path, err)
		}
	}
	var b bytes.Buffer
	root.encode(&b)
	return b.Bytes(), nil
}

func splitPointer(p string) (parent []string, last string, err error) {
	if !strings.HasPrefix(p, "/") {
		return nil, "", fmt.Errorf("pointer %q does not start with /", p)
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		parts[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
	}
	return parts[:len(parts)-1], parts[len(parts)-1], nil
}

func (n *jnode) walk(path []string) (*jnode, error) {
	for _, k := range path {
		i, err := n.index(k)
		if err != nil {
			return nil, err
		}
		n = n.vals[i]
	}
	return n, nil
}

func (n *jnode) index(k string) (int, error) {
	switch {
	case n.isObj:
		for i, key := range n.keys {
			if key == k {
				return i, nil
			}
		}
		return 0, fmt.Errorf("no member %q", k)
	case n.isArr:
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= len(n.vals) {
			return 0, fmt.Errorf("no element %q", k)
		}
		return i, nil
	}
	return 0, fmt.Errorf("%q: not an object or array", k)
}

// take removes and returns the value at pointer p.
func (n *jnode) take(p string, remove bool) (*jnode, error) {
	parent, last, err := splitPointer(p)
	if err != nil {
		return nil, err
	}
	c, err := n.walk(parent)
	if err != nil {
		return nil, err
	}
	i, err := c.index(last)
	if err != nil {
		return nil, err
	}
	v := c.vals[i]
	if remove {
		c.vals = append(c.vals[:i], c.vals[i+1:]...)
		if c.isObj {
			c.keys = append(c.keys[:i], c.keys[i+1:]...)
		}
	}
	return v, nil
}

// put sets the member at pointer p (appending a new member at the end of
// its object) or, for an array, inserts before the index ("-": appends).
func (n *jnode) put(p string, v *jnode) error {
	parent, last, err := splitPointer(p)
	if err != nil {
		return err
	}
	c, err := n.walk(parent)
	if err != nil {
		return err
	}
	switch {
	case c.isObj:
		if i, err := c.index(last); err == nil {
			c.vals[i] = v
			return nil
		}
		c.keys, c.vals = append(c.keys, last), append(c.vals, v)
	case c.isArr:
		i := len(c.vals)
		if last != "-" {
			if i, err = strconv.Atoi(last); err != nil || i < 0 || i > len(c.vals) {
				return fmt.Errorf("bad array index %q", last)
			}
		}
		c.vals = append(c.vals[:i], append([]*jnode{v}, c.vals[i:]...)...)
	default:
		return fmt.Errorf("parent of %q is not an object or array", p)
	}
	return nil
}
