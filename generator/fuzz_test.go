package generator

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
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
// either fails or returns files that parse and type-check as one package.
func FuzzGenerate(f *testing.F) {
	addSchemaSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		// Half the inputs get a revision the registry deprecates roots in,
		// so that the deprecation paragraphs are generated too.
		revision := "2025-06-18"
		if len(data)%2 == 1 {
			revision = "2026-07-28"
		}
		files, _, err := Generate(Options{Revision: revision, Schema: data, Package: "fuzzed", Version: goldenVersion, Load: fuzzLimits})
		if err != nil {
			return
		}
		contents := map[string][]byte{}
		for _, f := range files {
			contents[f.Name] = f.Content
		}
		if err := gocheck.Package("fuzzed", contents); err != nil {
			t.Fatalf("generated code does not compile: %v", err)
		}
	})
}
