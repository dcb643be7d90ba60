package generator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/schema"
)

// bothWays are the methods the walk may keep, in a package without the
// client side, where kitKeeps does not, and why: the walk takes a value
// converted to an interface for one that encoding/json may write and
// read, where kitKeeps knows that the emitted appendJSON hands it to the
// runtime's Object.Value (an any) to be written, never read. Only a
// client reads InputRequests, a request's id or its params' progress
// token, so with the client side the two must agree.
var bothWays = map[string]string{
	"InputRequest.UnmarshalJSON":  "InputRequiredResult writes its InputRequests",
	"RequestID.UnmarshalJSON":     "ListRootsRequest writes its id",
	"ProgressToken.UnmarshalJSON": "a request's params write their progressToken",
}

// kitDecls are the type and function declarations of a kit revision
// package's files made from the model, by declKey ("type T" for a type).
func kitDecls(t *testing.T, out []File) map[string]bool {
	t.Helper()
	decls := map[string]bool{}
	for _, f := range out {
		if !slices.Contains(typeFiles, f.Name) {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Content, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				decls[declKey(d)] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						decls["type "+ts.Name.Name] = true
					}
				}
			}
		}
	}
	return decls
}

// TestKitKeepsWhatTheGateRuns: what kitKeeps decides on the model is what
// a type-checked walk of the whole emitted package finds the gate can run
// (pruneTypes: by name, and through encoding/json), on every embedded
// revision and every variant a gate can serve, with and without the
// client side; the walk may keep more only where bothWays says why.
func TestKitKeepsWhatTheGateRuns(t *testing.T) {
	type input struct {
		name, revision string
		schema         []byte
	}
	var inputs []input
	for _, rev := range schema.Revisions() {
		inputs = append(inputs, input{rev, rev, nil})
	}
	variants, err := filepath.Glob("../testdata/variants/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range variants {
		rev, data := variantSchema(t, path)
		inputs = append(inputs, input{strings.TrimSuffix(filepath.Base(path), ".json"), rev, data})
	}
	seen := map[string]bool{}
	served := 0
	for _, in := range inputs {
		for _, serverOnly := range []bool{false, true} {
			opts := Options{Revision: in.revision, Schema: in.schema, Package: "p", Runtime: RuntimeImport, Kit: true, ServerOnly: serverOnly}
			got, m, err := Generate(opts)
			if err != nil {
				continue // the variant's own tests say why it is refused
			}
			if m.Plan.Handlers == nil || m.Plan.GateProblem != "" {
				continue // no gate serves it
			}
			served++
			opts.keepAll = true
			all, _, err := Generate(opts)
			if err != nil {
				t.Fatal(err)
			}
			walked, err := pruneTypes(all, "p", RuntimeImport)
			if err != nil {
				t.Fatalf("%s: %v", in.name, err)
			}
			kept, want := kitDecls(t, got), kitDecls(t, walked)
			for _, k := range slices.Sorted(maps.Keys(kept)) {
				if !want[k] {
					t.Errorf("%s (server only: %v): keeps %s, which the gate cannot run", in.name, serverOnly, k)
				}
			}
			for _, k := range slices.Sorted(maps.Keys(want)) {
				if kept[k] {
					continue
				}
				if !serverOnly || bothWays[k] == "" {
					t.Errorf("%s (server only: %v): leaves out %s, which the gate can run", in.name, serverOnly, k)
				}
				seen[k] = true
			}
		}
	}
	if served < 2*len(schema.Revisions()) {
		t.Errorf("the gate served %d inputs; want at least the embedded revisions, both ways", served)
	}
	for k, why := range bothWays {
		if !seen[k] {
			t.Errorf("bothWays lists %s (%s), which the walk no longer keeps alone", k, why)
		}
	}
}

// TestKitConstantDocsNameWhatIsLeftOut: a constant's doc names the type
// it belongs to where the package keeps it, and the schema's definition
// where it does not.
func TestKitConstantDocsNameWhatIsLeftOut(t *testing.T) {
	for _, c := range []struct {
		revision   string
		serverOnly bool
		want       []string
	}{
		{"2025-06-18", true, []string{"MethodListRoots is the method name of the schema's ListRootsRequest."}},
		{"2025-06-18", false, []string{"MethodListRoots is the method name of the schema's ListRootsRequest."}},
		{"2026-07-28", false, []string{
			"MethodListRoots is the method name of ListRootsRequest.",
			`is the fixed value of "code" in the schema's MissingRequiredClientCapabilityErrorObject.`,
		}},
	} {
		files, _, err := Generate(Options{Revision: c.revision, Package: "p", Runtime: RuntimeImport, Kit: true, ServerOnly: c.serverOnly})
		if err != nil {
			t.Fatal(err)
		}
		// The docs as text, with the comment markers of wrapped lines gone.
		src := strings.ReplaceAll(string(files[0].Content), "\n\t// ", " ")
		for _, want := range c.want {
			if files[0].Name != "types.go" || !strings.Contains(src, want) {
				t.Errorf("%s (server only: %v): %s lacks %q", c.revision, c.serverOnly, files[0].Name, want)
			}
		}
	}
}
