package generator

import (
	"fmt"
	"github.com/rootsgen/rootsgen/generator/internal/model"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/generator/internal/load"
	"github.com/rootsgen/rootsgen/generator/internal/rttable"
	"github.com/rootsgen/rootsgen/schema"
)

// declaredNames are the exported package-level identifiers of files, each
// with the file that declares it, and the exported methods declared on
// types outside the files written from the model (typeFiles), as
// "Type.Method" with their file.
func declaredNames(t *testing.T, files []File) (names, methods map[string]string) {
	t.Helper()
	names, methods = map[string]string{}, map[string]string{}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f.Name, f.Content, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
				if fd.Name.IsExported() && !slices.Contains(typeFiles, f.Name) {
					methods[receiverName(fd)+"."+fd.Name.Name] = f.Name
				}
				continue
			}
			for _, n := range rttable.DeclNames(d) {
				if !token.IsExported(n) {
					continue
				}
				if prev, ok := names[n]; ok {
					t.Errorf("%s declares %s, which %s declares too", f.Name, n, prev)
				}
				names[n] = f.Name
			}
		}
	}
	return names, methods
}

// declarationInputs are the schemas whose packages TestOwnNamesAreWhatPackagesDeclare
// reads: each embedded revision and each variant, so that every part of
// a plan is there at least once.
func declarationInputs(t *testing.T) map[string]Options {
	t.Helper()
	inputs := map[string]Options{}
	for _, rev := range schema.Revisions() {
		inputs[rev] = Options{Revision: rev}
	}
	variants, err := filepath.Glob("../testdata/variants/*.json")
	if err != nil || len(variants) == 0 {
		t.Fatalf("no variants found: %v", err)
	}
	for _, v := range variants {
		rev, data := variantSchema(t, v)
		inputs[strings.TrimSuffix(filepath.Base(v), ".json")] = Options{Revision: rev, Schema: data}
	}
	return inputs
}

// TestOwnNamesAreWhatPackagesDeclare: the package-level names a generated
// package declares are those its plan says it declares itself
// (Plan.ownNames), in the files the tables say, and those made from its
// schema (Model.schemaDecls), nothing else: in a single-revision package
// that imports the runtime, one with the runtime copied in, and a kit's
// revision package. The methods its glue declares on the schema's types are
// glueMethods. And every name of the tables is declared by some package, so
// the tables hold nothing the templates no longer declare.
func TestOwnNamesAreWhatPackagesDeclare(t *testing.T) {
	seen, seenMethods := map[string]bool{}, map[string]bool{}
	for name, opts := range declarationInputs(t) {
		for _, mode := range []struct {
			name    string
			runtime string
			kit     bool
		}{{"import", RuntimeImport, false}, {"copy", "", false}, {"kit", RuntimeImport, true}} {
			t.Run(name+"/"+mode.name, func(t *testing.T) {
				opts := opts
				// A kit keeps of the schema's names what its gate uses
				// (TestKitKeepsWhatTheGateRuns); here it writes them all.
				opts.Package, opts.Runtime, opts.Kit, opts.keepAll = "p", mode.runtime, mode.kit, mode.kit
				files, m, err := Generate(opts)
				if err != nil {
					t.Fatal(err)
				}
				names, methods := declaredNames(t, files)
				want := checkOwnNames(t, m, names, mode.runtime == "", mode.kit, seen)
				checkGlueMethods(t, m, methods, want, mode.kit, seenMethods)
			})
		}
	}
	for n := range reservedNames() {
		if !seen[n] {
			t.Errorf("the tables of declared.go list %s, which no package declares", n)
		}
	}
	for _, g := range glueMethods {
		if !seenMethods[g.on+"."+g.name] {
			t.Errorf("glueMethods lists %s.%s, which no package declares", g.on, g.name)
		}
	}
	if t.Failed() {
		t.Logf("reserved: %s", strings.Join(slices.Sorted(maps.Keys(reservedNames())), " "))
	}
}

// runtimeFile stands for the file of an ownName that is the runtime's API:
// runtime.go where the package imports the runtime, the runtime's own
// file where it is copied in.
const runtimeFile = "(runtime)"

// An ownName is a package-level identifier a generated package declares
// itself, and the file that declares it.
type ownName struct{ name, file string }

// ownNames are the package-level identifiers the package of plan p
// declares itself: the emitter's, the glue's and, in a single-revision
// package, the runtime's API it offers. Everything else it declares at
// package level is made from the schema (Model.SchemaDecls) or unexported.
func ownNames(p *Plan, kit bool) []ownName {
	var out []ownName
	for _, part := range ownParts {
		if part.has(p, kit) {
			for _, n := range part.names {
				out = append(out, ownName{n, part.file})
			}
		}
	}
	if !kit {
		for _, n := range apiNames(p) {
			out = append(out, ownName{n, runtimeFile})
		}
	}
	return out
}

// schemaFile stands, in checkOwnNames, for the files of a name made from
// the schema.
const schemaFile = "(schema)"

// checkOwnNames checks names, what the package of m declares by file, against
// its own names and its schema's, marking in seen the own names it
// declares, and returns the names wanted, each with its file (runtimeFile,
// schemaFile). copied: the runtime is copied into the package.
func checkOwnNames(t *testing.T, m *Model, names map[string]string, copied, kit bool, seen map[string]bool) map[string]string {
	t.Helper()
	want := map[string]string{}
	for _, d := range m.SchemaDecls() {
		want[d.Name] = schemaFile
	}
	for _, o := range ownNames(m.Plan, kit) {
		if prev, ok := want[o.name]; ok {
			t.Errorf("%s is both %s's and %s's", o.name, o.file, prev)
		}
		want[o.name] = o.file
		if _, ok := names[o.name]; ok {
			seen[o.name] = true
		}
	}
	for n, file := range names {
		where, ok := want[n]
		switch {
		case !ok:
			t.Errorf("%s declares %s, which is neither in the tables of declared.go nor made from the schema", file, n)
		case where == runtimeFile && !copied && file != "runtime.go",
			where == runtimeFile && copied && (slices.Contains(typeFiles, file) || slices.Contains(templateFiles, file)),
			where != runtimeFile && where != schemaFile && where != file:
			t.Errorf("%s declares %s; the tables say %s does", file, n, where)
		}
	}
	for n, where := range want {
		if _, ok := names[n]; !ok {
			t.Errorf("%s is not declared; want it in %s", n, where)
		}
	}
	return want
}

// checkGlueMethods checks methods, the methods the package of m declares
// outside typeFiles, against glueMethods where they are on types made from
// the schema (want says which), marking in seen the ones it declares.
func checkGlueMethods(t *testing.T, m *Model, methods, want map[string]string, kit bool, seen map[string]bool) {
	t.Helper()
	wantMethods := map[string]string{}
	for _, g := range glueMethods {
		if g.has(m.Plan, kit) {
			wantMethods[g.on+"."+g.name] = g.file
		}
	}
	for method, file := range methods {
		typ, _, _ := strings.Cut(method, ".")
		if want[typ] == schemaFile && wantMethods[method] != file {
			t.Errorf("%s declares the method %s on a type made from the schema; glueMethods has it in %q", file, method, wantMethods[method])
		}
	}
	for method, file := range wantMethods {
		if methods[method] != file {
			t.Errorf("glueMethods has %s in %s; it is not declared there", method, file)
		} else {
			seen[method] = true
		}
	}
}

// collisionSchema is variant's schema with a definition named after each
// name a generated package may declare itself (reservedNames), each
// referenced from Root so that it is generated, and with other names made
// from the schema that would be the package's: a nested type (Root.set,
// RootSet), a method constant (Request.method, Method), an enum constant
// (ListRoots "page", ListRootsPage), and members of ListRootsResult named
// after its methods RootSet (the glue's) and ValidRoots (the lenient
// reading of its roots).
func collisionSchema(t *testing.T, variant string) (string, []byte) {
	t.Helper()
	rev, data := variantSchema(t, filepath.Join("..", "testdata", "variants", variant+".json"))
	defs := "definitions"
	if strings.Contains(string(data), `"$defs"`) {
		defs = "$defs"
	}
	var ops []load.PatchOp
	add := func(path, value string) {
		ops = append(ops, load.PatchOp{Op: "add", Path: "/" + defs + "/" + path, Value: []byte(value)})
	}
	ref := func(def string) string { return `{"$ref": "#/` + defs + `/` + def + `"}` }
	const object = `{"type": "object", "properties": {"x": {"type": "string"}}}`
	for i, n := range slices.Sorted(maps.Keys(reservedNames())) {
		add(n, object)
		add(fmt.Sprintf("Root/properties/own%d", i), ref(n))
	}
	add("Root/properties/set", object)
	add("Request", `{"type": "object", "properties": {"method": {"type": "string", "const": "own/method"}}}`)
	add("Root/properties/request", ref("Request"))
	add("ListRoots", `{"type": "string", "enum": ["page", "other"]}`)
	add("Root/properties/listRoots", ref("ListRoots"))
	add("ListRootsResult/properties/rootSet", `{"type": "string"}`)
	add("ListRootsResult/properties/validRoots", `{"type": "string"}`)
	data, err := load.Patch(data, ops)
	if err != nil {
		t.Fatal(err)
	}
	return rev, data
}

// TestSchemaNamesClearOfOwnNames: a schema that names its definitions (and
// its nested types, constants and members) after what the generated
// package declares itself gets a package that compiles, with its own API
// under its own names and the schema's declarations renamed, each rename
// reported. The schemas are two variants whose plans between them have
// every part, so that every name of the tables is declared beside its
// namesake; each is built in a single-revision package that imports the
// runtime, one with the runtime copied in, and a kit (one go vet for all,
// the examples included).
func TestSchemaNamesClearOfOwnNames(t *testing.T) {
	pkgs := map[string][]File{}
	declared := map[string]bool{}
	var kit []GateRevision
	for _, variant := range []string{"pagination", "pagination-input"} {
		rev, data := collisionSchema(t, variant)
		kit = append(kit, GateRevision{Revision: rev, Schema: data})
		for _, mode := range []struct{ name, runtime string }{{"import", RuntimeImport}, {"copy", ""}} {
			pkg := "own" + strings.ReplaceAll(variant, "-", "") + mode.name
			files, m, err := Generate(Options{Revision: rev, Schema: data, Package: pkg, Runtime: mode.runtime, Version: "test"})
			if err != nil {
				t.Fatalf("%s, runtime %s: %v", variant, mode.name, err)
			}
			pkgs[pkg] = files
			for _, o := range ownNames(m.Plan, false) {
				declared[o.name] = true
			}
			checkRenames(t, variant, m)
		}
	}
	files, err := GenerateKit(KitOptions{Import: "example.com/edge/ownkit", Package: "ownkit", Revisions: kit, Version: "test"})
	if err != nil {
		t.Fatalf("kit: %v", err)
	}
	pkgs["ownkit"] = files
	declared["Gate"] = true
	for n := range reservedNames() {
		if !declared[n] {
			t.Errorf("no package here declares %s: the test does not show that a definition of that name compiles beside it", n)
		}
	}
	if testing.Short() {
		t.Skip("-short: not compiling the packages")
	}
	vetModule(t, pkgs, true)
}

// checkRenames checks the names collisionSchema's schema got in m.
func checkRenames(t *testing.T, variant string, m *Model) {
	t.Helper()
	renamed := map[string]Rename{}
	for _, r := range m.Renamed {
		renamed[r.Path] = r
	}
	// Fields named as a method of their struct are renamed too, and said.
	for path, field := range map[string]string{"ListRootsResult.rootSet": "RootSet", "ListRootsResult.validRoots": "ValidRoots"} {
		if r, ok := renamed[path]; !ok || r.Name != field || r.GoName != field+"2" {
			t.Errorf("%s: %s: renamed %+v; want the field %s renamed to %s2", variant, path, r, field, field)
		}
		delete(renamed, path)
	}
	want := map[string]string{"Root.set": "RootSet", "Request.method": "Method", `ListRoots (the value "page")`: "ListRootsPage"}
	for n := range reservedNames() {
		if model.GoName(n) == n {
			want[n] = n
		}
	}
	for path, name := range want {
		r, ok := renamed[path]
		if !ok || r.Name != name || !strings.HasPrefix(r.GoName, name+model.RenamedSuffix) {
			t.Errorf("%s: %s: renamed %+v; want %s renamed to %s%s", variant, path, r, name, name, model.RenamedSuffix)
		}
	}
	if len(renamed) != len(want) {
		t.Errorf("%s: %d package-level renames, want %d: %v", variant, len(renamed), len(want), m.Renamed)
	}
	result := model.Resolve(m.Types[slices.IndexFunc(m.Types, func(t *Type) bool { return t.Path == "ListRootsResult" })])
	for member, field := range map[string]string{"rootSet": "RootSet2", "validRoots": "ValidRoots2", "roots": "Roots"} {
		if f := model.FieldOf(result, member); f == nil || f.Name != field {
			t.Errorf("%s: ListRootsResult.%s: field %+v; want %s", variant, member, f, field)
		}
	}
}
