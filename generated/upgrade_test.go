package generated_test

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/schema"
)

// upgradeHandler is a user's client handler, written once against the
// stable names (ListRootsParams) and never edited when the generated
// package it imports moves to another revision.
const upgradeHandler = `package app

import (
	"context"

	mcproots "example.com/app/mcproots" // each revision's package, whatever its name
)

type roots struct{ mcproots.UnimplementedListRootsHandler }

func (roots) ListRoots(ctx context.Context, params *mcproots.ListRootsParams) (*mcproots.ListRootsResult, error) {
	return &mcproots.ListRootsResult{Roots: []mcproots.Root{{URI: "file:///src", Name: "src"}}}, nil
}

var (
	_ mcproots.ListRootsHandler = roots{}
	_                           = &mcproots.Client{Handler: roots{}}
	_                           = mcproots.ListRootsHandlerFunc(func(ctx context.Context, params *mcproots.ListRootsParams) (*mcproots.ListRootsResult, error) {
		return nil, nil
	})
)
`

// upgradeNotificationHandler is a user's server-side handler of the
// list-changed notification, for the revisions that have it.
const upgradeNotificationHandler = `package app

import (
	"context"

	mcproots "example.com/app/mcproots" // each revision's package, whatever its name
)

type changed struct{}

func (changed) RootsListChanged(ctx context.Context, params *mcproots.RootsListChangedParams) error { return nil }

var (
	_ mcproots.ListChangedHandler = changed{}
	_                             = mcproots.ListChangedHandlerFunc(func(ctx context.Context, params *mcproots.RootsListChangedParams) error { return nil })
)
`

// TestHandlerSurvivesUpgrade type-checks one handler source against the
// committed package of every revision (schema.Revisions()): a handler
// written against one revision must compile unchanged against every other
// revision that has the handler. The list-changed handler is checked
// against every revision whose package declares ListChangedHandler.
func TestHandlerSurvivesUpgrade(t *testing.T) {
	fset := token.NewFileSet()
	std := importer.ForCompiler(fset, "source", nil)
	notified := 0
	for _, rev := range schema.Revisions() {
		t.Run(rev, func(t *testing.T) {
			dir := "roots" + strings.ReplaceAll(rev, "-", "")
			pkg, err := checkDir(fset, std, dir)
			if err != nil {
				t.Fatalf("%s (the package of revision %s; see generate.go): %v", dir, rev, err)
			}
			if pkg.Scope().Lookup("ListRootsHandler") == nil {
				t.Skipf("%s has no ListRootsHandler", dir)
			}
			imp := importerFunc(func(path string) (*types.Package, error) {
				if path == "example.com/app/mcproots" {
					return pkg, nil
				}
				return std.Import(path)
			})
			sources := []string{upgradeHandler}
			if pkg.Scope().Lookup("ListChangedHandler") != nil {
				sources = append(sources, upgradeNotificationHandler)
				notified++
			}
			for i, src := range sources {
				f, err := parser.ParseFile(fset, fmt.Sprintf("%s/handler%d.go", rev, i), src, 0)
				if err != nil {
					t.Fatal(err)
				}
				conf := types.Config{Importer: imp}
				if _, err := conf.Check("example.com/app", fset, []*ast.File{f}, nil); err != nil {
					t.Errorf("the handler does not compile against %s: %v", dir, err)
				}
			}
		})
	}
	if notified == 0 {
		t.Error("no revision has a ListChangedHandler: the notification handler was never checked")
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// checkDir type-checks the non-test Go files of dir that build on this
// system.
func checkDir(fset *token.FileSet, imp types.Importer, dir string) (*types.Package, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("no Go files (%v)", err)
	}
	var files []*ast.File
	for _, name := range names {
		if ok, err := build.Default.MatchFile(dir, filepath.Base(name)); err != nil || !ok || strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return (&types.Config{Importer: imp}).Check("example.com/app/mcproots", fset, files, nil)
}
