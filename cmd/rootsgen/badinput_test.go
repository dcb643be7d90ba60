package main

// The bad-input catalogue: what rootsgen does with every kind of input it
// should refuse, and with odd input it should handle. Each case checks the
// message, the exit status, and that nothing on disk changed, with a package
// already generated in -out so that a partial write would show.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/schema"
	"github.com/rootsgen/rootsgen/testdata/gotest/gocheck"
)

// rootsSchema is the embedded 2025-06-18 schema with edit applied to its
// decoded definitions, as JSON.
func rootsSchema(t *testing.T, edit func(defs map[string]any)) []byte {
	t.Helper()
	data, err := schema.Open("2025-06-18")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc["definitions"].(map[string]any))
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// rootProps returns the properties of the schema's Root definition.
func rootProps(defs map[string]any) map[string]any {
	return defs["Root"].(map[string]any)["properties"].(map[string]any)
}

// clientDefinition adds a definition named Client, which the package's
// own Client would clash with, referenced from Root.
func clientDefinition(defs map[string]any) {
	rootProps(defs)["client"] = map[string]any{"$ref": "#/definitions/Client"}
	defs["Client"] = map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}
}

// nested is a JSON value of depth levels of arrays.
func nested(depth int) []byte {
	return []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"Root":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}}`)
}

func TestBadInputCatalogue(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	enumOf := func(n int) []byte {
		return rootsSchema(t, func(d map[string]any) {
			values := make([]string, n)
			for i := range values {
				values[i] = fmt.Sprintf("v%07d", i)
			}
			rootProps(d)["name"].(map[string]any)["enum"] = values
		})
	}
	bigEnum := enumOf(950000)
	rootFields := func(n int) []byte {
		return rootsSchema(t, func(d map[string]any) {
			for i := range n {
				rootProps(d)[fmt.Sprintf("p%06d", i)] = map[string]any{"type": "string"}
			}
		})
	}

	// A 50 MB schema: the 2025-06-18 schema with a long top-level comment.
	big := rootsSchema(t, func(map[string]any) {})
	big = append([]byte(`{"$comment":"`+strings.Repeat("x", 50<<20)+`",`), big[1:]...)

	for _, tc := range []struct {
		name   string
		schema []byte // written to a file and passed with -schema, if set
		args   []string
		code   int
		want   []string
		// compiles: the run succeeds and its output must type-check.
		compiles bool
	}{
		{name: "empty file", schema: []byte{}, code: exitUsage, want: []string{"empty input"}},
		{name: "white space only", schema: []byte(" \n\t"), code: exitUsage, want: []string{"empty input"}},
		{name: "not JSON", schema: []byte("roots: yes\n"), code: exitUsage, want: []string{"not_JSON.json:1:1: malformed JSON"}},
		{name: "YAML", schema: []byte("$schema: http://json-schema.org/draft-07/schema#\ndefinitions: {}\n"), code: exitUsage, want: []string{"YAML.json:1:1: malformed JSON: invalid character '$'"}},
		{name: "a directory as -schema", args: []string{"-schema", dir}, code: exitUsage, want: []string{"schema file: " + dir + " is a directory\n"}},
		{name: "truncated JSON", schema: []byte(`{"$defs": {"Root": `), code: exitUsage, want: []string{"truncated_JSON.json:1:20: ", "unexpected end of input"}},
		{name: "array", schema: []byte(`[{"$defs": {}}]`), code: exitUsage, want: []string{"must be a JSON object"}},
		{name: "string", schema: []byte(`"schema"`), code: exitUsage, want: []string{"must be a JSON object"}},
		{name: "null", schema: []byte(`null`), code: exitUsage, want: []string{"must be a JSON object"}},
		{name: "trailing data", schema: append(rootsSchema(t, func(map[string]any) {}), "{}"...), code: exitUsage, want: []string{"malformed JSON: invalid character '{' after top-level value"}},
		{name: "unknown dialect", schema: []byte(`{"$schema":"http://json-schema.org/draft-04/schema#","definitions":{}}`), code: exitUsage, want: []string{`unsupported JSON Schema dialect "http://json-schema.org/draft-04/schema#"`, "draft-07, 2020-12"}},
		{name: "dangling ref", schema: rootsSchema(t, func(d map[string]any) {
			rootProps(d)["owner"] = map[string]any{"$ref": "#/definitions/Owner"}
		}), code: exitUsage, want: []string{"/definitions/Root/properties/owner/$ref", `dangling reference "#/definitions/Owner"`}},
		{name: "external ref", schema: rootsSchema(t, func(d map[string]any) {
			rootProps(d)["owner"] = map[string]any{"$ref": "https://example.com/owner.json"}
		}), code: exitUsage, want: []string{"unsupported reference"}},
		{name: "ref to itself", schema: rootsSchema(t, func(d map[string]any) {
			rootProps(d)["loop"] = map[string]any{"$ref": "#/definitions/Loop"}
			d["Loop"] = map[string]any{"$ref": "#/definitions/Loop"}
		}), code: exitUsage, want: []string{"Loop: definitions that only reference each other in a cycle"}},
		// A union outside the roots definitions keeps only roots arms, so a
		// cycle through a union runs through a roots definition.
		{name: "indirect ref cycle", schema: rootsSchema(t, func(d map[string]any) {
			d["ListRootsRequest"] = map[string]any{"anyOf": []any{map[string]any{"$ref": "#/definitions/A"}}}
			d["A"] = map[string]any{"$ref": "#/definitions/B"}
			d["B"] = map[string]any{"allOf": []any{map[string]any{"$ref": "#/definitions/ListRootsRequest"}}}
		}), code: exitUsage, want: []string{"definitions that only reference each other in a cycle"}},
		{name: "allOf that includes itself", schema: rootsSchema(t, func(d map[string]any) {
			rootProps(d)["loop"] = map[string]any{"$ref": "#/definitions/A"}
			d["A"] = map[string]any{"allOf": []any{map[string]any{"$ref": "#/definitions/B"}}}
			d["B"] = map[string]any{"allOf": []any{map[string]any{"$ref": "#/definitions/A"}}}
		}), code: exitUsage, want: []string{"allOf includes itself through references"}},
		// A recursive type through an array is a tree, not a loop: it
		// generates (a slice breaks the cycle in Go).
		{name: "recursive type through an array", schema: rootsSchema(t, func(d map[string]any) {
			rootProps(d)["children"] = map[string]any{"type": "array", "items": map[string]any{"$ref": "#/definitions/Root"}}
		}), code: exitOK, compiles: true},
		// Through an optional object member it becomes a pointer.
		{name: "recursive type through an optional member", schema: rootsSchema(t, func(d map[string]any) {
			rootProps(d)["parent"] = map[string]any{"$ref": "#/definitions/Root"}
		}), code: exitOK, compiles: true},
		{name: "50 MB schema", schema: big, code: exitUsage, want: []string{"larger than the limit of 4194304 bytes", "-max-bytes"}},
		{name: "50 MB schema, -max-bytes raised", schema: big, args: []string{"-max-bytes", "67108864"}, code: exitOK, compiles: true},
		{name: "10000 levels of nesting", schema: nested(10000), code: exitUsage, want: []string{"nesting deeper than 256 levels", "-max-depth"}},
		{name: "10000 levels, -max-depth 20", schema: nested(10000), args: []string{"-max-depth", "20"}, code: exitUsage, want: []string{"nesting deeper than 20 levels", "-max-depth"}},
		{name: "10000 levels, -max-depth 100000", schema: nested(10000), args: []string{"-max-depth", "100000"}, code: exitUsage, want: []string{"-max-depth 100000: at most 1000"}},
		{name: "-max-bytes 0", schema: []byte("{}"), args: []string{"-max-bytes", "0"}, code: exitUsage, want: []string{"-max-bytes, -max-depth and -max-enum must be at least 1"}},
		{name: "negative -max-depth", schema: []byte("{}"), args: []string{"-max-depth", "-5"}, code: exitUsage, want: []string{"(got 4194304, -5, 1024 and 0)"}},
		{name: "negative -max-output", schema: []byte("{}"), args: []string{"-max-output", "-1"}, code: exitUsage, want: []string{"-max-output not negative"}},
		// An enum of 950,000 values in 11 MB: over -max-bytes, and with it
		// raised, over -max-enum; its package would take gigabytes to make.
		{name: "11 MB enum", schema: bigEnum, code: exitUsage, want: []string{"larger than the limit of 4194304 bytes", "-max-bytes"}},
		{name: "11 MB enum, -max-bytes raised", schema: bigEnum, args: []string{"-max-bytes", "16777216"}, code: exitUsage, want: []string{"an enum of 950000 values, more than the limit of 1024", "-max-enum"}},
		{name: "enum of 1025 values", schema: enumOf(1025), code: exitUsage, want: []string{"an enum of 1025 values", "-max-enum"}},
		{name: "enum of 1025 values, -max-enum raised", schema: enumOf(1025), args: []string{"-max-enum", "2000"}, code: exitOK, compiles: true},
		// More JSON values than the size limit allows (2 bytes each).
		{name: "600000 values", schema: rootsSchema(t, func(d map[string]any) {
			rootProps(d)["name"].(map[string]any)["examples"] = make([]int, 600000)
		}), code: exitUsage, want: []string{"more than 524288 JSON values", "-max-bytes"}},
		// A package larger than -max-output: refused before it is made
		// (70,000 fields would be over 4 MiB), or once made (20,000 fields
		// make some 4 MB).
		{name: "70000 fields", schema: rootFields(70000), code: exitUsage, want: []string{"the package would be at least", "-max-output"}},
		{name: "20000 fields, -max-output 2000000", schema: rootFields(20000), args: []string{"-max-output", "2000000"}, code: exitUsage, want: []string{"the package would be", "more than the limit of 2000000", "-max-output"}},
		// Loading is linear in the number of members (duplicates are
		// found through an index), so this takes a moment, not hours.
		{name: "object with 100000 members", schema: rootsSchema(t, func(d map[string]any) {
			props := map[string]any{}
			var required []any
			for i := range 100000 {
				props[fmt.Sprintf("p%d", i)] = map[string]any{"type": "string"}
				required = append(required, fmt.Sprintf("p%d", i))
			}
			d["Wide"] = map[string]any{"type": "object", "properties": props, "required": required}
		}), code: exitOK, compiles: true},
		{name: "Go keywords as property names", schema: rootsSchema(t, func(d map[string]any) {
			p := rootProps(d)
			p["type"] = map[string]any{"type": "string"}
			p["func"] = map[string]any{"type": "integer"}
			p["range"] = map[string]any{"type": "object", "properties": map[string]any{"map": map[string]any{"type": "boolean"}}}
		}), code: exitOK, compiles: true},
		{name: "non-ASCII property names", schema: rootsSchema(t, func(d map[string]any) {
			p := rootProps(d)
			p["ünïcode"] = map[string]any{"type": "string"}
			p["名前"] = map[string]any{"type": "string"}
			p["ǅemo"] = map[string]any{"type": "string"}
		}), code: exitOK, compiles: true},
		{name: "empty property name", schema: rootsSchema(t, func(d map[string]any) {
			rootProps(d)[""] = map[string]any{"type": "string"}
		}), code: exitOK, compiles: true},
		{name: "property names that collide as Go names", schema: rootsSchema(t, func(d map[string]any) {
			p := rootProps(d)
			p["foo_bar"] = map[string]any{"type": "string"}
			p["fooBar"] = map[string]any{"type": "string"}
			p["FooBar"] = map[string]any{"type": "integer"}
			p["Extra"] = map[string]any{"type": "string"}
			p["Validate"] = map[string]any{"type": "string"}
		}), code: exitOK, compiles: true},
		// A definition named after a declaration of the package's own API
		// is renamed, with a warning; -strict refuses it. Names made from
		// the schema that clash with each other where no renaming keeps
		// them apart (a union's constructor and a definition) are refused.
		{name: "a definition named Client", schema: rootsSchema(t, clientDefinition), code: exitOK, compiles: true,
			want: []string{"rootsgen: warning: Client: named ClientDef in Go, as the generated package declares Client itself\n"}},
		{name: "a definition named Client, -strict", schema: rootsSchema(t, clientDefinition), args: []string{"-strict"}, code: exitUsage,
			want: []string{"rootsgen: warning: Client: named ClientDef", "-strict: the schema of 2099-01-01 gives a declaration the name Client, which the generated package declares itself (warnings above); nothing was written"}},
		// So is a member whose Go name is that of a method of its type.
		{name: "a member named like a method", schema: rootsSchema(t, func(d map[string]any) {
			rootProps(d)["validate"] = map[string]any{"type": "string"}
		}), code: exitOK, compiles: true,
			want: []string{"rootsgen: warning: Root.validate: named Validate2 in Go, as the generated package declares Validate itself\n"}},
		{name: "a member named like a method, -strict", schema: rootsSchema(t, func(d map[string]any) {
			rootProps(d)["validate"] = map[string]any{"type": "string"}
		}), args: []string{"-strict"}, code: exitUsage,
			want: []string{"-strict: the schema of 2099-01-01 gives a declaration the name Validate (at Root.validate), which the generated package declares itself (warnings above); nothing was written"}},
		{name: "a union constructor named like a definition", schema: rootsSchema(t, func(d map[string]any) {
			rootProps(d)["token"] = map[string]any{"$ref": "#/definitions/Token"}
			rootProps(d)["other"] = map[string]any{"$ref": "#/definitions/TokenFromString"}
			d["Token"] = map[string]any{"type": []any{"string", "integer"}}
			d["TokenFromString"] = map[string]any{"type": "object"}
		}), code: exitUsage, want: []string{"the Go name TokenFromString is both the type of TokenFromString and a constructor of Token"}},
		// Root.uri must be the Go field URI, which the handlers use; a
		// member listed before it that takes the name is an error, not a
		// silent renaming of the feature's core member.
		{name: "a member that takes the Go name of uri", schema: rootsSchema(t, func(d map[string]any) {
			rootProps(d)["URI"] = map[string]any{"type": "string"}
		}), code: exitUsage, want: []string{`definition Root: the roots feature needs a string member "uri" with Go field URI (it is URI2: a member listed before it has the Go name URI)`}},
		{name: "a result without roots", schema: rootsSchema(t, func(d map[string]any) {
			props := d["ListRootsResult"].(map[string]any)["properties"].(map[string]any)
			props["rooTs"] = props["roots"]
			delete(props, "roots")
			d["ListRootsResult"].(map[string]any)["required"] = []any{"rooTs"}
		}), code: exitUsage, want: []string{`definition ListRootsResult: the roots feature needs a member "roots" that is an array of Root with Go field Roots`}},
		{name: "unknown revision", args: []string{"-revision", "2030-01-01"}, code: exitUsage, want: []string{`unknown revision "2030-01-01"`, "-schema"}},
		{name: "revision that is a path", args: []string{"-revision", "../../etc"}, code: exitUsage, want: []string{`invalid revision "../../etc"`, "YYYY-MM-DD"}},
		// The revision is written into every file's header and doc
		// comments: what is not a date or a simple name is refused before
		// anything is written, whatever the schema.
		{name: "revision with a newline", args: []string{"-revision", "draft\n//go:generate sh -c 'echo pwned'"}, schema: rootsSchema(t, func(map[string]any) {}),
			code: exitUsage, want: []string{"rootsgen: invalid revision \"draft\\n//go:generate sh -c 'echo pwned'\"", `it holds '\n'`}},
		{name: "revision with code after a line break", args: []string{"-revision", "x\r\nfunc init() { panic(1) }"}, schema: rootsSchema(t, func(map[string]any) {}),
			code: exitUsage, want: []string{"invalid revision", `it holds '\r'`}},
		{name: "revision with a slash", args: []string{"-revision", "drafts/next"}, schema: rootsSchema(t, func(map[string]any) {}),
			code: exitUsage, want: []string{`invalid revision "drafts/next"`, `it holds '/'`}},
		{name: "revision with a space", args: []string{"-revision", "next draft"}, schema: rootsSchema(t, func(map[string]any) {}),
			code: exitUsage, want: []string{`invalid revision "next draft"`, `it holds ' '`}},
		{name: "revision with a quote", args: []string{"-revision", `draft"+x+"`}, schema: rootsSchema(t, func(map[string]any) {}),
			code: exitUsage, want: []string{"invalid revision", `it holds '"'`}},
		{name: "revision shaped like a date that is none", args: []string{"-revision", "2026-13-45"}, schema: rootsSchema(t, func(map[string]any) {}),
			code: exitUsage, want: []string{`invalid revision "2026-13-45"`, "no calendar date"}},
		{name: "empty revision with a schema", args: []string{"-revision", ""}, schema: rootsSchema(t, func(map[string]any) {}),
			code: exitUsage, want: []string{"-revision is required"}},
		{name: "revision too long", args: []string{"-revision", strings.Repeat("d", schema.MaxRevisionLen+1)}, schema: rootsSchema(t, func(map[string]any) {}),
			code: exitUsage, want: []string{"invalid revision", "longer than 64 bytes"}},
		// A union of other features' definitions is not generated: the
		// package keeps it as an untyped value and says so.
		{name: "a union without a roots arm", schema: rootsSchema(t, func(d map[string]any) {
			rootProps(d)["icon"] = map[string]any{"$ref": "#/definitions/Icon"}
			d["Icon"] = map[string]any{"anyOf": []any{map[string]any{"$ref": "#/definitions/ImageContent"}, map[string]any{"$ref": "#/definitions/AudioContent"}}}
			d["ImageContent"] = map[string]any{"type": "object", "properties": map[string]any{"data": map[string]any{"type": "string"}}}
			d["AudioContent"] = map[string]any{"type": "object", "properties": map[string]any{"data": map[string]any{"type": "string"}}}
		}), code: exitOK, compiles: true, want: []string{"rootsgen: warning: Icon: the union (anyOf) has no arm of the roots feature, so it is kept as an untyped JSON value and its arm(s) ImageContent, AudioContent are not generated\n"}},
		{name: "revision named draft", args: []string{"-revision", "draft"}, schema: rootsSchema(t, func(map[string]any) {}),
			code: exitOK, compiles: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "mcproots")
			if code, _, stderr := rootsgen(t, nil, "-revision", "2025-06-18", "-out", out); code != exitOK {
				t.Fatalf("generating the package already in -out: exit %d: %s", code, stderr)
			}
			args := tc.args
			if !containsFlag(args, "-revision") {
				args = append(args, "-revision", "2099-01-01")
			}
			schemaFile := ""
			if tc.schema != nil {
				schemaFile = write(strings.ReplaceAll(tc.name, " ", "_")+".json", tc.schema)
				args = append(args, "-schema", schemaFile)
			}
			before := snapshot(t, out)
			code, _, stderr := rootsgen(t, nil, append(args, "-out", out)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%.2000s", code, tc.code, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%.2000s", w, stderr)
				}
			}
			// A schema that cannot be used is named (flag errors aside), and no
			// path twice.
			if schemaFile != "" && len(tc.args) == 0 && code != exitOK && !strings.Contains(stderr, schemaFile) {
				t.Errorf("stderr does not name the schema file %s:\n%.2000s", schemaFile, stderr)
			}
			if strings.Count(stderr, dir) > 1 {
				t.Errorf("stderr names a path twice:\n%.2000s", stderr)
			}
			if code != exitOK {
				sameSnapshot(t, before, snapshot(t, out))
			}
			if tc.compiles {
				files := map[string][]byte{}
				for p, c := range snapshot(t, out) {
					files[filepath.Base(p)] = []byte(c)
				}
				if err := gocheck.Package("mcproots", files); err != nil {
					t.Errorf("the generated package does not compile: %v", err)
				}
			}
		})
	}
}

func containsFlag(args []string, flag string) bool {
	for _, a := range args {
		if a == flag {
			return true
		}
	}
	return false
}

// TestBadOutputCatalogue: output directories rootsgen must not write into,
// or must write into without reaching outside them. The whole scratch tree
// (the output and what links point at) must be unchanged after a refusal.
func TestBadOutputCatalogue(t *testing.T) {
	for _, tc := range []struct {
		name string
		// setup prepares tree and returns the -out to pass.
		setup func(t *testing.T, tree string) string
		code  int
		want  string
	}{
		{name: "out is a regular file", code: exitFail, want: "nothing was changed", setup: func(t *testing.T, tree string) string {
			return writeFile(t, filepath.Join(tree, "file"), "keep")
		}},
		{name: "out is below a regular file", code: exitFail, want: "not a directory", setup: func(t *testing.T, tree string) string {
			return filepath.Join(writeFile(t, filepath.Join(tree, "file"), "keep"), "sub")
		}},
		{name: "out is a symlink to a directory outside", code: exitFail, want: "is a symbolic link", setup: func(t *testing.T, tree string) string {
			outside := generateInto(t, filepath.Join(tree, "outside"))
			link := filepath.Join(tree, "link")
			mustSymlink(t, outside, link)
			return link
		}},
		{name: "out is a dangling symlink", code: exitFail, want: "is a symbolic link", setup: func(t *testing.T, tree string) string {
			link := filepath.Join(tree, "link")
			mustSymlink(t, filepath.Join(tree, "nowhere"), link)
			return link
		}},
		{name: "a generated file's name is a symlink out", code: exitFail, want: "types.go in the output directory is not a regular file", setup: func(t *testing.T, tree string) string {
			out := generateInto(t, filepath.Join(tree, "out"))
			outside := writeFile(t, filepath.Join(tree, "outside.go"), "// Code generated by rootsgen devel from MCP schema x (sha256 000000000000). DO NOT EDIT.\n\npackage outside\n")
			os.Remove(filepath.Join(out, "types.go"))
			mustSymlink(t, outside, filepath.Join(out, "types.go"))
			return out
		}},
		// A symlink named like a stale generated file is not rootsgen's to
		// remove: only regular files are. The run succeeds and leaves both
		// the link and its target alone.
		{name: "a stale file's name is a symlink out", code: exitOK, setup: func(t *testing.T, tree string) string {
			out := generateInto(t, filepath.Join(tree, "out"))
			outside := writeFile(t, filepath.Join(tree, "outside.go"), "// Code generated by rootsgen devel from MCP schema x (sha256 000000000000). DO NOT EDIT.\n\npackage outside\n")
			mustSymlink(t, outside, filepath.Join(out, "old.go"))
			return out
		}},
		{name: "out is read-only", code: exitFail, want: "permission denied", setup: func(t *testing.T, tree string) string {
			out := generateInto(t, filepath.Join(tree, "out"))
			// Make the next run change a file, so it has something to write.
			types := filepath.Join(out, "types.go")
			b, _ := os.ReadFile(types)
			writeFile(t, types, string(b)+"// edited\n")
			if err := os.Chmod(out, 0o555); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(out, 0o755) })
			if f, err := os.Create(filepath.Join(out, "probe")); err == nil {
				f.Close()
				os.Remove(f.Name())
				t.Skip("a read-only directory is writable here (running as root?); the read-only case cannot be shown")
			}
			return out
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree := t.TempDir()
			out := tc.setup(t, tree)
			before := snapshot(t, tree)
			code, _, stderr := rootsgen(t, nil, "-revision", "2025-06-18", "-package", "mcproots", "-out", out)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, stderr)
			}
			if code != exitOK {
				sameSnapshot(t, before, snapshot(t, tree))
				if code, _, stderr := rootsgen(t, nil, "-revision", "2025-06-18", "-package", "mcproots", "-out", out, "-check"); code == exitOK {
					t.Errorf("-check passes on an output that cannot be written: %s", stderr)
				}
				return
			}
			after := snapshot(t, tree)
			for p, c := range before {
				if !strings.HasPrefix(p, out+string(filepath.Separator)) && after[p] != c {
					t.Errorf("%s, outside -out, changed", p)
				}
			}
			if link := filepath.Join(out, "old.go"); after[link] != before[link] {
				t.Errorf("the symlink %s was changed or removed", link)
			}
		})
	}
}

func writeFile(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot create symlinks here: %v", err)
	}
}

// generateInto generates the 2025-06-18 package into dir and returns dir.
func generateInto(t *testing.T, dir string) string {
	t.Helper()
	if code, _, stderr := rootsgen(t, nil, "-revision", "2025-06-18", "-package", "mcproots", "-out", dir); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	return dir
}
