// Package gocheck parses and type-checks generated Go source against the
// standard library, in-process, for tests that must show generated code
// compiles without running the go command.
package gocheck

import (
	"bytes"
	"errors"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"path/filepath"
	"sort"
	"sync"
)

// The standard library is type-checked from source once per process and
// kept; go/types importers are not safe for concurrent use.
var (
	mu   sync.Mutex
	fset = token.NewFileSet()
	imp  = importer.ForCompiler(fset, "source", nil)
)

// Package parses the files (name to content) of one package, its
// in-package tests included, and type-checks those that build on this
// system (file name suffixes and //go:build lines, as the go command
// reads them). It returns the parse error, or up to ten type errors joined.
func Package(path string, files map[string][]byte) error {
	mu.Lock()
	defer mu.Unlock()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	ctxt := build.Default
	ctxt.OpenFile = func(name string) (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(files[filepath.Base(name)])), nil
	}
	var parsed []*ast.File
	for _, name := range names {
		if ok, err := ctxt.MatchFile(".", name); err != nil {
			return err
		} else if !ok {
			continue
		}
		f, err := parser.ParseFile(fset, name, files[name], parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		parsed = append(parsed, f)
	}
	var errs []error
	conf := types.Config{Importer: imp, Error: func(err error) {
		if len(errs) < 10 {
			errs = append(errs, err)
		}
	}}
	_, _ = conf.Check(path, fset, parsed, nil)
	return errors.Join(errs...)
}
