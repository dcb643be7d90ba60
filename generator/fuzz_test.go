package generator

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"go/scanner"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/schema"
	"github.com/rootsgen/rootsgen/testdata/gotest/gocheck"
)

// Fuzz targets for the generator, which runs in users' builds on schema
// files they may not have written: it must never panic or hang, and what it
// accepts must become Go that compiles. Run one with, for example,
//
//	go test ./generator -run '^$' -fuzz '^FuzzLoad$' -fuzztime 3m
//
// Inputs that once failed are kept in testdata/fuzz/<target>/ and run with
// every go test.

// addSchemaSeeds seeds f with the embedded schemas and the edge cases.
func addSchemaSeeds(f *testing.F) {
	for _, rev := range schema.Revisions() {
		data, err := schema.Open(rev)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	edge, err := filepath.Glob("../testdata/edge/*.json")
	if err != nil || len(edge) == 0 {
		f.Fatalf("no edge-case schemas: %v", err)
	}
	for _, p := range edge {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// fuzzLimits are small enough that the fuzzer reaches them.
var fuzzLimits = LoadOptions{MaxBytes: 64 << 10, MaxDepth: 24}

// FuzzLoad: on any bytes the loader returns a document or a *LoadError,
// never panics, and accepts nothing beyond its limits. What it accepts goes
// on through selection and modelling, which must not panic either.
func FuzzLoad(f *testing.F) {
	addSchemaSeeds(f)
	f.Add([]byte(""))
	f.Add([]byte("[]"))
	f.Add([]byte(`{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"A":{"$ref":"#/$defs/A"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Load(data, fuzzLimits)
		if err != nil {
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("error %T is not a *LoadError: %v", err, err)
			}
			if doc != nil {
				t.Fatal("a document and an error")
			}
			return
		}
		if len(data) > fuzzLimits.MaxBytes {
			t.Fatalf("accepted %d bytes, limit %d", len(data), fuzzLimits.MaxBytes)
		}
		if d := jsonDepth(t, data); d > fuzzLimits.MaxDepth {
			t.Fatalf("accepted nesting %d, limit %d", d, fuzzLimits.MaxDepth)
		}
		if len(doc.Order) != len(doc.Defs) {
			t.Fatalf("%d names in order, %d definitions", len(doc.Order), len(doc.Defs))
		}
		sel, err := Select(doc)
		if err != nil {
			return
		}
		_, _ = Build("2025-06-18", doc, sel)
	})
}

// jsonDepth is the deepest nesting of arrays and objects in valid JSON.
func jsonDepth(t *testing.T, data []byte) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	depth, deepest := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return deepest
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			deepest = max(deepest, depth)
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
}

// FuzzGenerate mutates the schemas and generates from them: Generate
// either fails or returns files that parse and type-check as one package,
// and a package a kit's gate could serve generates for a kit too, both
// sides (what the kit keeps is decided without an error).
//
// An input that generates costs a generation and a type-check, tens of
// milliseconds each, so the target is kept lean for short runs: its seeds
// are the embedded schemas without their descriptions and white space (a
// fifth of the size; the fuzzer mutates and minimizes fewer bytes), and a
// package whose code, comments aside, was already type-checked by this
// process is not checked again (most mutations change only text).
func FuzzGenerate(f *testing.F) {
	for _, rev := range schema.Revisions() {
		data, err := schema.Open(rev)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(compactSchema(f, data))
	}
	edge, err := filepath.Glob("../testdata/edge/*.json")
	if err != nil || len(edge) == 0 {
		f.Fatalf("no edge-case schemas: %v", err)
	}
	for _, p := range edge {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(compactSchema(f, data))
	}
	checked := map[[sha256.Size]byte]bool{}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Half the inputs get a revision the registry deprecates roots in,
		// so that the deprecation paragraphs are generated too.
		revision := "2025-06-18"
		if len(data)%2 == 1 {
			revision = "2026-07-28"
		}
		files, m, err := Generate(Options{Revision: revision, Schema: data, Package: "fuzzed", Version: goldenVersion, Load: fuzzLimits})
		if err != nil {
			return
		}
		if m.Plan.Handlers != nil && m.Plan.GateProblem == "" {
			// A gate serves it: what a kit keeps of it is decided too.
			for _, serverOnly := range []bool{false, true} {
				if _, _, err := Generate(Options{Revision: revision, Schema: data, Package: "fuzzed", Version: goldenVersion, Load: fuzzLimits,
					Runtime: RuntimeImport, Kit: true, ServerOnly: serverOnly}); err != nil {
					t.Fatalf("the package generates, but not for a kit (server only: %v): %v", serverOnly, err)
				}
			}
		}
		contents := map[string][]byte{}
		for _, f := range files {
			contents[f.Name] = f.Content
		}
		key, err := codeKey(contents)
		if err != nil {
			t.Fatalf("generated code does not scan: %v", err)
		}
		if checked[key] {
			return
		}
		if err := gocheck.Package("fuzzed", contents); err != nil {
			t.Fatalf("generated code does not compile: %v", err)
		}
		checked[key] = true
	})
}

// compactSchema returns a schema without its "description" strings (a
// property may be named description: that one is an object and stays),
// re-encoded without white space. Input that is not JSON is kept as it is.
func compactSchema(f *testing.F, data []byte) []byte {
	var doc any
	if json.Unmarshal(data, &doc) != nil {
		return data
	}
	var strip func(v any)
	strip = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if _, ok := v["description"].(string); ok {
				delete(v, "description")
			}
			for _, m := range v {
				strip(m)
			}
		case []any:
			for _, e := range v {
				strip(e)
			}
		}
	}
	strip(doc)
	out, err := json.Marshal(doc)
	if err != nil {
		f.Fatal(err)
	}
	return out
}

// codeKey hashes what decides whether files type-check: their names and
// tokens, and the //go: directives among their comments (build
// constraints), but not the other comments or the layout.
func codeKey(files map[string][]byte) ([sha256.Size]byte, error) {
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(h, "file %q\n", name)
		fset := token.NewFileSet()
		src := files[name]
		var s scanner.Scanner
		var scanErr error
		s.Init(fset.AddFile(name, -1, len(src)), src, func(_ token.Position, msg string) { scanErr = errors.New(msg) }, scanner.ScanComments)
		for {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok == token.COMMENT && !strings.HasPrefix(lit, "//go:") {
				continue
			}
			fmt.Fprintf(h, "%d %q\n", tok, lit)
		}
		if scanErr != nil {
			return [sha256.Size]byte{}, fmt.Errorf("%s: %w", name, scanErr)
		}
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key, nil
}
