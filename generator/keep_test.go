package generator

import (
	"fmt"
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

// kitInputs are the schemas the kit tests generate from: every embedded
// revision, every variant (testdata/variants) and the shapes of
// testdata/kit, which only a kit's decision of what it keeps could get
// wrong (typed Extra, unions of other arms, aliases of maps, ...), in the
// same format as the variants.
func kitInputs(t *testing.T) []kitInput {
	t.Helper()
	var inputs []kitInput
	for _, rev := range schema.Revisions() {
		inputs = append(inputs, kitInput{rev, rev, nil})
	}
	for _, glob := range []string{"../testdata/variants/*.json", "../testdata/kit/*.json"} {
		paths, err := filepath.Glob(glob)
		if err != nil || len(paths) == 0 {
			t.Fatalf("no schemas in %s: %v", glob, err)
		}
		for _, path := range paths {
			rev, data := variantSchema(t, path)
			inputs = append(inputs, kitInput{strings.TrimSuffix(filepath.Base(path), ".json"), rev, data})
		}
	}
	return inputs
}

// A kitInput is a schema the kit tests generate from.
type kitInput struct {
	name, revision string
	schema         []byte
}

// TestKitKeepsWhatTheGateRuns: what kitKeeps decides on the model is what
// a type-checked walk of the whole emitted package finds the gate can run
// (pruneTypes: by name, and through encoding/json), on every kitInput a
// gate can serve, with and without the client side: neither keeps what
// the other does not. And the kit of each, both sides, compiles and
// passes go vet.
func TestKitKeepsWhatTheGateRuns(t *testing.T) {
	const module = "example.com/edge" // vetPackages' scratch module
	kits := map[string][]File{}
	for i, in := range kitInputs(t) {
		for _, serverOnly := range []bool{false, true} {
			opts := Options{Revision: in.revision, Schema: in.schema, Package: "p", Runtime: RuntimeImport, Kit: true, ServerOnly: serverOnly}
			got, m, err := Generate(opts)
			if err != nil {
				continue // the variant's own tests say why it is refused
			}
			if m.Plan.Handlers == nil || m.Plan.GateProblem != "" {
				continue // no gate serves it
			}
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
				if !kept[k] {
					t.Errorf("%s (server only: %v): leaves out %s, which the gate can run", in.name, serverOnly, k)
				}
			}
			dir := fmt.Sprintf("kit%d", 2*i)
			sdk := ""
			if serverOnly {
				dir, sdk = fmt.Sprintf("kit%d", 2*i+1), "go-sdk"
			}
			files, err := GenerateKit(KitOptions{Import: module + "/" + dir, Package: dir, Version: "test", SDK: sdk,
				Revisions: []GateRevision{{Revision: in.revision, Schema: in.schema}}})
			if err != nil {
				t.Fatalf("%s (server only: %v): %v", in.name, serverOnly, err)
			}
			// The go-sdk adapter needs go-sdk; the rest is the kit of a server.
			kits[dir] = slices.DeleteFunc(files, func(f File) bool { return f.Name == sdkAdapters["go-sdk"].File })
		}
	}
	if len(kits) < 2*len(schema.Revisions()) {
		t.Errorf("the gate served %d inputs; want at least the embedded revisions, both ways", len(kits))
	}
	if testing.Short() {
		t.Log("-short: the kits are not compiled")
		return
	}
	vetPackages(t, kits)
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
