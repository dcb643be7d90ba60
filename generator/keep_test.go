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

// A bothWay is a method the walk keeps where kitKeeps rightly does not:
// the walk takes a value converted to an interface (an argument of the
// runtime's Object.Value or DecodeJSON, which take any, or of maps.Keys,
// which the walk does not read) for one encoding/json may both write and
// read, where kitKeeps knows what the emitted code does with it. when
// says in which packages the model is sure nothing runs the method.
type bothWay struct {
	method string
	when   func(p *Plan, serverOnly bool) bool
	why    string
}

func serverOnly(_ *Plan, serverOnly bool) bool { return serverOnly }

// bothWays are the methods the walk may keep alone, and where.
var bothWays = []bothWay{
	{"InputRequest.UnmarshalJSON", serverOnly, "a server writes InputRequests (Object.Value); only a client reads them"},
	{"RequestID.UnmarshalJSON", serverOnly, "a server writes a request's id (Object.Value); only a client reads it"},
	{"ProgressToken.UnmarshalJSON", serverOnly, "a server writes its params' progressToken (Object.Value); only a client reads it"},
	{"InputResponse.MarshalJSON", serverOnly, "a server reads InputResponses (DecodeJSON); only a client writes them"},
	{"InputRequest.MarshalJSON", func(p *Plan, _ bool) bool { return !p.Asks() },
		"only askForRoots writes InputRequests; a client reads them and takes their keys with maps.Keys"},
}

// walkedAlone reports whether the walk may keep method alone in a package
// of plan p, and notes it in seen.
func walkedAlone(method string, p *Plan, serverOnly bool, seen map[string]bool) bool {
	for _, b := range bothWays {
		if b.method == method && b.when(p, serverOnly) {
			seen[method] = true
			return true
		}
	}
	return false
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
				if !walkedAlone(k, m.Plan, serverOnly, seen) {
					t.Errorf("%s (server only: %v): leaves out %s, which the gate can run", in.name, serverOnly, k)
				}
			}
		}
	}
	if served < 2*len(schema.Revisions()) {
		t.Errorf("the gate served %d inputs; want at least the embedded revisions, both ways", served)
	}
	for _, b := range bothWays {
		if !seen[b.method] {
			t.Errorf("bothWays lists %s (%s), which the walk no longer keeps alone", b.method, b.why)
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
