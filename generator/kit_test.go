package generator

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/generator/internal/load"
	"github.com/rootsgen/rootsgen/generator/internal/rttable"
	"github.com/rootsgen/rootsgen/schema"
	"github.com/rootsgen/rootsgen/templates"
)

// TestKitRefusesWhatItCannotConvert: the gate converts each revision's
// Root to its own; a revision whose Root lacks what that needs is refused
// with the reason, instead of a kit that does not compile.
func TestKitRefusesWhatItCannotConvert(t *testing.T) {
	base, err := schema.Open("2025-06-18")
	if err != nil {
		t.Fatal(err)
	}
	data, err := load.Patch(base, []load.PatchOp{{Op: "remove", Path: "/definitions/Root/properties/name"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = GenerateKit(KitOptions{Import: "example.com/k", Package: "k", Revisions: []GateRevision{{Revision: "2025-06-18", Schema: data}}})
	if err == nil || !strings.Contains(err.Error(), `revision 2025-06-18: Root has no string member "name" with Go field Name, so the gate cannot serve it`) {
		t.Fatalf("GenerateKit = %v; want the Root it cannot convert named", err)
	}
	// A revision whose roots/list travels neither way the gate knows.
	rev, data := variantSchema(t, "../testdata/variants/union-no-roots-arm.json")
	for _, sdk := range []string{"", "go-sdk"} {
		_, err = GenerateKit(KitOptions{Import: "example.com/k", Package: "k", SDK: sdk, Revisions: []GateRevision{{Revision: rev, Schema: data}}})
		if err == nil || !strings.Contains(err.Error(), "revision 2026-07-28: the schema carries roots/list neither as a request of its own nor in inputRequests, so the gate cannot serve it") {
			t.Errorf("GenerateKit(SDK %q) = %v; want the missing path named", sdk, err)
		}
	}
}

// TestKitsCompile generates the kit of each embedded revision alone, and
// of them all, with every adapter-free front, and vets them in one scratch
// module: whichever revisions a user serves, the kit compiles and vets.
func TestKitsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles several kits; skipped with -short")
	}
	const module = "example.com/edge" // vetPackages' scratch module
	subsets := [][]string{schema.Revisions()}
	for _, rev := range schema.Revisions() {
		subsets = append(subsets, []string{rev})
	}
	pkgs := map[string][]File{}
	for i, revs := range subsets {
		var in []GateRevision
		for _, rev := range revs {
			in = append(in, GateRevision{Revision: rev})
		}
		dir := fmt.Sprintf("kit%d", i)
		files, err := GenerateKit(KitOptions{Import: module + "/" + dir, Package: dir, Revisions: in, Version: "test"})
		if err != nil {
			t.Fatalf("kit of %s: %v", strings.Join(revs, ", "), err)
		}
		pkgs[dir] = files
	}
	// A revision whose roots/list answers in pages: the gate's
	// descriptor follows them (ListRootsParams, DecodeListRoots, Paged).
	var paged []GateRevision
	for _, rev := range []string{"2025-06-18", "2026-07-28"} {
		data, err := schema.Open(rev)
		if err != nil {
			t.Fatal(err)
		}
		defs := "definitions"
		if strings.Contains(string(data), `"$defs"`) {
			defs = "$defs"
		}
		data, err = load.Patch(data, []load.PatchOp{
			{Op: "add", Path: "/" + defs + "/ListRootsRequest/properties/params/properties/cursor", Value: []byte(`{"type": "string"}`)},
			{Op: "add", Path: "/" + defs + "/ListRootsResult/properties/nextCursor", Value: []byte(`{"type": "string"}`)},
		})
		if err != nil {
			t.Fatal(err)
		}
		paged = append(paged, GateRevision{Revision: rev, Schema: data})
	}
	files, err := GenerateKit(KitOptions{Import: module + "/paged", Package: "paged", Revisions: paged, Version: "test"})
	if err != nil {
		t.Fatalf("kit of paged revisions: %v", err)
	}
	if !slices.ContainsFunc(files, func(f File) bool {
		return strings.HasSuffix(f.Name, "gate.go") && strings.Contains(string(f.Content), "Paged:           true")
	}) {
		t.Error("the kit of paged revisions has no gate descriptor with Paged: true")
	}
	pkgs["paged"] = files
	// A kit without the client side, as -sdk go-sdk writes it, less the
	// adapter (which needs go-sdk).
	in := []GateRevision{}
	for _, rev := range schema.Revisions() {
		in = append(in, GateRevision{Revision: rev})
	}
	files, err = GenerateKit(KitOptions{Import: module + "/serveronly", Package: "serveronly", Revisions: in, SDK: "go-sdk", Version: "test"})
	if err != nil {
		t.Fatalf("kit for go-sdk: %v", err)
	}
	pkgs["serveronly"] = slices.DeleteFunc(files, func(f File) bool { return f.Name == sdkAdapters["go-sdk"].File })
	for dir, tc := range aliasKits(t, module) {
		pkgs[dir] = tc.files
	}
	vetPackages(t, pkgs)
}

// aliasKit is a kit of 2024-11-05 and 2025-06-18, the latter patched, and
// the names 2025-06-18's package should alias.
type aliasKit struct {
	files []File
	want  []string
}

// aliasKits are kits whose later revision aliases some types of the
// earlier, by directory under module.
func aliasKits(t *testing.T, module string) map[string]aliasKit {
	t.Helper()
	base, err := schema.Open("2025-06-18")
	if err != nil {
		t.Fatal(err)
	}
	describe := func(def string) []load.PatchOp {
		return []load.PatchOp{{Op: "replace", Path: "/definitions/" + def + "/description", Value: []byte(`"Written otherwise in this revision."`)}}
	}
	kits := map[string]aliasKit{}
	for dir, tc := range map[string]struct {
		patch []load.PatchOp
		want  []string
	}{
		// Only Root (a _meta member) and ListRootsResult (its Roots) differ.
		"alias_all": {nil, []string{"Method", "ListRootsRequestParams", "ListRootsRequestParamsMeta",
			"RootsListChangedNotificationParams", "ClientCapabilities",
			"RootsCapability", "ProgressToken"}},
		// A type that differs keeps its users: the params that hold a
		// ProgressToken in their _meta are own.
		"alias_down": {describe("ProgressToken"), []string{"Method", "RootsListChangedNotificationParams",
			"ClientCapabilities", "RootsCapability"}},
		// A type its own code uses is own too: ClientCapabilities differs,
		// so RootsCapability, the same, is not aliased.
		"alias_up": {describe("ClientCapabilities"), []string{"Method", "ListRootsRequestParams", "ListRootsRequestParamsMeta",
			"RootsListChangedNotificationParams", "ProgressToken"}},
	} {
		data := base
		if tc.patch != nil {
			if data, err = load.Patch(base, tc.patch); err != nil {
				t.Fatal(err)
			}
		}
		files, err := GenerateKit(KitOptions{Import: module + "/" + dir, Package: dir, Version: "test",
			Revisions: []GateRevision{{Revision: "2024-11-05"}, {Revision: "2025-06-18", Schema: data}}})
		if err != nil {
			t.Fatalf("kit %s: %v", dir, err)
		}
		kits[dir] = aliasKit{files, tc.want}
	}
	return kits
}

// TestKitTypeAliases: a revision aliases the types an earlier one writes
// the same, with everything they use, and keeps its own what its own
// declarations use.
func TestKitTypeAliases(t *testing.T) {
	// ListRootsResult reads the same in all three revisions, but only
	// 2025-06-18's holds the Root 2025-11-25 has: that is the one aliased.
	// With the client side, the glue calls ListRootsResult's appendJSON,
	// so it stays 2025-11-25's own, and so does the Root it holds.
	for sdk, want := range map[string]string{
		"go-sdk": "Root = roots20250618.Root|ListRootsResult = roots20250618.ListRootsResult",
		"":       "",
	} {
		files, err := GenerateKit(KitOptions{Import: "example.com/k", Package: "k", Version: "test", SDK: sdk,
			Revisions: []GateRevision{{Revision: "2024-11-05"}, {Revision: "2025-06-18"}, {Revision: "2025-11-25"}}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range files {
			if f.Name == "roots20251125/aliases.go" {
				got = regexp.MustCompile(`(?m)^\s*((?:Root|ListRootsResult) += \w+\.\w+)$`).FindAllString(string(f.Content), -1)
			}
		}
		for i := range got {
			got[i] = strings.Join(strings.Fields(got[i]), " ")
		}
		if strings.Join(got, "|") != want {
			t.Errorf("kit for SDK %q: 2025-11-25 aliases %q; want %q", sdk, got, want)
		}
	}

	for dir, tc := range aliasKits(t, "example.com/edge") {
		var got []string
		for _, f := range tc.files {
			if f.Name != "roots20250618/aliases.go" {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Content, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range file.Decls {
				for _, name := range rttable.DeclNames(d) {
					if name != "roots20241105" {
						got = append(got, name)
					}
				}
			}
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(tc.want))
		if !slices.Equal(got, want) {
			t.Errorf("%s: 2025-06-18 aliases %q; want %q", dir, got, want)
		}
		for _, f := range tc.files {
			if f.Name == "roots20250618/types.go" && strings.Contains(string(f.Content), "type ProgressToken ") == slices.Contains(want, "ProgressToken") {
				t.Errorf("%s: types.go declares ProgressToken: %v; aliases.go does: %v", dir, !slices.Contains(want, "ProgressToken"), slices.Contains(want, "ProgressToken"))
			}
		}
	}
}

// TestKitKeepsWhatItsGateUses: a kit's revision package declares the
// types its gate.go uses, and those they use in turn, and no others. The
// client side (kits without an SDK) answers roots/list, so it keeps the
// request's params; a go-sdk kit only asks, and keeps less.
func TestKitKeepsWhatItsGateUses(t *testing.T) {
	for sdk, want := range map[string][]string{
		"go-sdk": {"ClientCapabilities", "ListRootsResult", "Method", "Root", "RootsCapability", "RootsListChangedNotificationParams"},
		"": {"ClientCapabilities", "ListRootsRequestParams", "ListRootsRequestParamsMeta", "ListRootsResult", "Method",
			"ProgressToken", "Root", "RootsCapability", "RootsListChangedNotificationParams"},
	} {
		files, err := GenerateKit(KitOptions{Import: "example.com/k", Package: "k", Version: "test", SDK: sdk,
			Revisions: []GateRevision{{Revision: "2024-11-05"}}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range files {
			if !strings.HasPrefix(f.Name, "roots20241105/") {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Content, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range file.Decls {
				if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
					got = append(got, slices.DeleteFunc(rttable.DeclNames(d), func(n string) bool { return !ast.IsExported(n) })...)
				}
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("kit for SDK %q: 2024-11-05 declares the types %q; want %q", sdk, got, want)
		}
	}
}

// TestKitRuntimeKeepsWhatTheKitUses: with CopyRuntime, a kit's rootsrt
// holds the runtime's API and what the kit's code uses. A kit whose
// revisions all have Root._meta needs no MetaFromExtra; one with
// 2024-11-05 does.
func TestKitRuntimeKeepsWhatTheKitUses(t *testing.T) {
	for rev, want := range map[string]bool{"2024-11-05": true, "2025-06-18": false} {
		files, err := GenerateKit(KitOptions{Import: "example.com/k", Package: "k", Version: "test", SDK: "go-sdk", CopyRuntime: true,
			Revisions: []GateRevision{{Revision: rev}}})
		if err != nil {
			t.Fatal(err)
		}
		var runtime strings.Builder
		for _, f := range files {
			if strings.HasPrefix(f.Name, "rootsrt/") {
				runtime.Write(f.Content)
			}
		}
		src := runtime.String()
		if got := strings.Contains(src, "\nfunc MetaFromExtra("); got != want {
			t.Errorf("kit of %s: rootsrt declares MetaFromExtra: %v; want %v", rev, got, want)
		}
		for _, api := range []string{"func NewStateSealer(", "func NewRootSetOf[", "ErrTooManyPages", "func (s *Session) RootSet("} {
			if !strings.Contains(src, api) {
				t.Errorf("kit of %s: rootsrt lacks %s", rev, api)
			}
		}
	}
}

// TestPruneKeepsWhatTheGlueCalls: a type whose constructor the glue
// calls stays, though the glue never names it; a type nothing uses goes.
func TestPruneKeepsWhatTheGlueCalls(t *testing.T) {
	out := []File{
		{Name: "types.go", Content: []byte("package p\n\nconst K = 1\n\ntype Made struct{}\n\nfunc MadeFromInt(int) Made { return Made{} }\n\ntype Gone struct{}\n")},
		{Name: "gate.go", Content: []byte("package p\n\nvar _ = MadeFromInt(K)\n")},
	}
	got, err := pruneTypes(out, "p", "example.com/k/rootsrt")
	if err != nil {
		t.Fatal(err)
	}
	src := string(got[0].Content)
	for _, want := range []string{"type Made struct", "func MadeFromInt("} {
		if !strings.Contains(src, want) {
			t.Errorf("pruned types.go lacks %q:\n%s", want, src)
		}
	}
	if strings.Contains(src, "type Gone") {
		t.Errorf("pruned types.go keeps Gone:\n%s", src)
	}
}

// TestRuntimeCuttable: the runtime's cut-down refuses a runtime file with
// an init function or a blank declaration, which it could not keep.
func TestRuntimeCuttable(t *testing.T) {
	for src, ok := range map[string]bool{
		"package p\nfunc f() {}\nvar x int\n": true,
		"package p\nfunc init() {}\n":         false,
		"package p\nvar _ error = nil\n":      false,
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := cuttable(f); (err == nil) != ok {
			t.Errorf("cuttable(%q) = %v; want ok %v", src, err, ok)
		}
	}
	if _, err := parseRuntime(nil); err != nil {
		t.Errorf("the runtime: %v", err)
	}
}

// TestKitRefusesBadImport: the kit's import path is written between quotes
// into its sources; what could add a line or code there is refused before
// anything is generated.
func TestKitRefusesBadImport(t *testing.T) {
	revs := []GateRevision{{Revision: "2025-06-18"}}
	for _, tc := range []struct{ imp, want string }{
		{"example.com/app\"\n//go:generate echo pwned\nimport _ \"os", `invalid import path`},
		{"example.com/app\"; func init() { panic(1) }; var _ = \"", `invalid import path`},
		{"example.com/../x", `empty, . or .. element`},
		{"/abs/path", `empty, . or .. element`},
		{"example.com/a b", `it holds ' '`},
	} {
		_, err := GenerateKit(KitOptions{Import: tc.imp, Package: "k", Revisions: revs})
		var ue *UsageError
		if err == nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("GenerateKit(Import %q) = %v; want a usage error saying %q", tc.imp, err, tc.want)
		}
	}
}

// Every row of sdkAdapters puts a Go file in the kit's front package,
// named as the row says, whose header names the row's SDK and version and
// which imports the kit's runtime, the SDK and nothing of rootsgen's own
// dependencies. Past the header, it is the adapter's source as
// templates/sdk has it, moved to the front's package: the package clause,
// the error messages and comments that name the package, and nothing else.
func TestSDKAdapters(t *testing.T) {
	if len(SDKs()) == 0 {
		t.Fatal("no SDK adapters")
	}
	for _, name := range SDKs() {
		t.Run(name, func(t *testing.T) {
			row := sdkAdapters[name]
			bundled := templates.SDKAdapters[row.Dir]
			files, err := GenerateKit(KitOptions{Import: "example.com/app/mcproots", Package: "mcproots", Revisions: []GateRevision{{Revision: "2025-06-18"}}, SDK: name, Version: "v9.9.9"})
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(files, func(f File) bool { return f.Name == row.File })
			if i < 0 {
				t.Fatalf("no %s among the kit's files", row.File)
			}
			src := string(files[i].Content)
			header := "// Code generated by rootsgen v9.9.9 for " + bundled.Module + " " + bundled.Version + ". DO NOT EDIT.\n\n"
			if !strings.HasPrefix(src, header) {
				t.Errorf("header %q, want %q", src[:strings.IndexByte(src, '\n')+1], header)
			}
			if regexp.MustCompile(`\b` + row.Dir + `\b`).MatchString(src) {
				t.Errorf("the adapter still names its package %s", row.Dir)
			}
			back := strings.NewReplacer("package mcproots\n", "package "+row.Dir+"\n", `"mcproots: `, `"`+row.Dir+`: `, "mcproots.", row.Dir+".").Replace(strings.TrimPrefix(src, header))
			if back != bundled.Source {
				t.Errorf("the adapter differs from templates/sdk/%s/adapter.go by more than its package's name", row.Dir)
			}
			f, err := parser.ParseFile(token.NewFileSet(), row.File, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			if f.Name.Name != "mcproots" {
				t.Errorf("package %s, want the front's, mcproots", f.Name.Name)
			}
			// The client side is there only for an adapter that answers
			// through the gate's Client.
			for _, f := range files {
				has := strings.Contains(string(f.Content), "rootsrt.Client") || strings.Contains(string(f.Content), "func gateClient(")
				if f.Name == "rootsrt/client.go" {
					has = true
				}
				if has != row.Client && (has || f.Name == "gate.go" || f.Name == "roots20250618/gate.go") {
					t.Errorf("%s has the client side: %v; want %v", f.Name, has, row.Client)
				}
			}
			for _, imp := range f.Imports {
				p := strings.Trim(imp.Path.Value, `"`)
				for _, own := range []string{"github.com/dave/jennifer", "github.com/invopop/jsonschema", "github.com/pb33f/ordered-map", "golang.org/x/tools", ModulePath} {
					if strings.HasPrefix(p, own) {
						t.Errorf("the adapter imports %s", p)
					}
				}
			}
		})
	}
}

func TestSDKUsageErrors(t *testing.T) {
	_, err := GenerateKit(KitOptions{Import: "example.com/k", Package: "k", Revisions: []GateRevision{{Revision: "2025-06-18"}}, SDK: "nope"})
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `unknown SDK "nope"`) {
		t.Errorf("GenerateKit(SDK nope) = %v, want a usage error naming it", err)
	}
	_, err = GenerateKit(KitOptions{Import: "example.com/k", Package: "_", Revisions: []GateRevision{{Revision: "2025-06-18"}}})
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `invalid package name "_"`) {
		t.Errorf("GenerateKit(Package _) = %v, want a usage error naming it", err)
	}
}

// TestKitWithSchemas: a kit over revisions generated from schemas of the
// caller's (a revision that is not embedded, and one whose AskForRoots is
// left out by a renamed member) compiles and vets: the gate serves each
// by what its plan has, and calls nothing the revision's package lacks.
func TestKitWithSchemas(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: compiles a kit")
	}
	latest, err := schema.Open("2026-07-28")
	if err != nil {
		t.Fatal(err)
	}
	renamed, err := load.Patch(latest, []load.PatchOp{{Op: "move", From: "/$defs/InputRequiredResult/properties/inputRequests", Path: "/$defs/InputRequiredResult/properties/requests"}})
	if err != nil {
		t.Fatal(err)
	}
	revs := []GateRevision{{Revision: "2025-06-18"}, {Revision: "2026-09-01", Schema: latest}, {Revision: "2026-10-01", Schema: renamed}}
	files, err := GenerateKit(KitOptions{Import: "example.com/edge/kit", Package: "kit", Revisions: revs, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	vetPackages(t, map[string][]File{"kit": files})
}

// TestPruneKeepsWhatTheGateRuns: of the methods of the types a kit's
// revision keeps, the gate's package keeps those its gate can run: by
// name, and through encoding/json, which writes a value with its
// MarshalJSON and reads one with its UnmarshalJSON, for the values
// handed to it and what they hold, directly or through the runtime.
func TestPruneKeepsWhatTheGateRuns(t *testing.T) {
	types := `package p

import (
	"encoding/json"

	rootsrt "example.com/k/rootsrt"
)

type Read struct{ In Inner; Held []Held }

func (x *Read) UnmarshalJSON(b []byte) error { return x.In.UnmarshalJSON(b) }
func (x Read) MarshalJSON() ([]byte, error)  { return nil, nil }

type Inner struct{}

func (x *Inner) UnmarshalJSON(b []byte) error { return rootsrt.DecodeJSON(b, new(Held)) }
func (x Inner) MarshalJSON() ([]byte, error)  { return nil, nil }

type Held struct{}

func (x *Held) UnmarshalJSON(b []byte) error { return nil }
func (x Held) MarshalJSON() ([]byte, error)  { return nil, nil }
func (x *Held) Validate() error              { return nil }

type Written map[string]Held

func Unused() ([]byte, error) { return json.Marshal(Written{}) }
`
	out := []File{
		{Name: "types.go", Content: []byte(types)},
		{Name: "gate.go", Content: []byte("package p\n\nvar _ = new(Read).UnmarshalJSON\n")},
	}
	reached, err := gateReach(out, "p", "example.com/k/rootsrt", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Held.UnmarshalJSON", "Inner.UnmarshalJSON", "Read.UnmarshalJSON"}
	var got []string
	for k := range reached {
		got = append(got, k)
	}
	slices.Sort(got)
	// Held is handed to DecodeJSON's any, which only reads it; nothing
	// calls the MarshalJSON methods, Held's Validate or Unused.
	if !slices.Equal(got, want) {
		t.Errorf("reached %q; want %q", got, want)
	}

	// A value leaves as an interface through a result, a var of interface
	// type and a channel too: encoding/json may get it from there.
	for _, c := range []struct{ gate, want string }{
		{"func f() any { return Read{} }\nvar _ = f", "Read.MarshalJSON"},
		{"func f() (error, any) { return nil, Inner{} }\nvar _ = f", "Inner.MarshalJSON"},
		{"var v any = Held{}", "Held.MarshalJSON"},
		{"func f(c chan any) { c <- Written{} }\nvar _ = f", "Held.MarshalJSON"},
		{"var _ = func() any { return Read{} }", "Read.MarshalJSON"},
	} {
		out[1].Content = []byte("package p\n\n" + c.gate + "\n")
		reached, err := gateReach(out, "p", "example.com/k/rootsrt", nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reached[c.want] {
			t.Errorf("%s: reached %v; want %s", c.gate, reached, c.want)
		}
	}
}

// TestKitRevisionFiles: a kit's revision package writes its types with
// their codec and validation in types.go, while a single-revision package
// keeps json.go and validate.go; writing the kit over one of the earlier
// layout removes the json.go and validate.go it no longer has.
func TestKitRevisionFiles(t *testing.T) {
	var revs []GateRevision
	for _, rev := range schema.Revisions() {
		revs = append(revs, GateRevision{Revision: rev})
	}
	files, err := GenerateKit(KitOptions{Import: "example.com/k", Package: "k", Version: "test", SDK: "go-sdk", Revisions: revs})
	if err != nil {
		t.Fatal(err)
	}
	allowed := []string{"types.go", "doc.go", "gate.go", "aliases.go"}
	for _, f := range files {
		dir, name, ok := strings.Cut(f.Name, "/")
		if ok && strings.HasPrefix(dir, "roots20") && !slices.Contains(allowed, name) {
			t.Errorf("the kit has %s; a revision package has only %q", f.Name, allowed)
		}
	}
	single := generateRevision(t, "2024-11-05", nil)
	old := slices.Clone(files)
	for _, f := range single {
		if f.Name == "json.go" || f.Name == "validate.go" {
			old = append(old, File{Name: "roots20241105/" + f.Name, Content: f.Content})
		}
	}
	if len(old) != len(files)+2 {
		t.Fatalf("the single-revision package has not both json.go and validate.go: %d files", len(old)-len(files))
	}
	dir := t.TempDir()
	if _, err := Write(dir, old); err != nil {
		t.Fatal(err)
	}
	changes, err := Write(dir, files)
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{{Name: "roots20241105/json.go", Kind: "remove"}, {Name: "roots20241105/validate.go", Kind: "remove"}}
	if !slices.Equal(changes, want) {
		t.Errorf("writing the kit over the earlier layout: changes %v, want %v", changes, want)
	}
	if changes, err := Diff(dir, files); err != nil || len(changes) > 0 {
		t.Errorf("the kit over the earlier layout: Diff: %v %v", changes, err)
	}
	for _, c := range want {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(c.Name))); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s is still there (%v)", c.Name, err)
		}
	}
}

// A kit written with a copy of the runtime (as every kit was before the
// runtime was imported) and written again importing it: the write removes
// the copy, its directory and its internal package included, and leaves
// the tree the new kit; and back again.
func TestKitFromCopyToImport(t *testing.T) {
	var revs []GateRevision
	for _, rev := range schema.Revisions() {
		revs = append(revs, GateRevision{Revision: rev})
	}
	kit := func(copyRuntime bool) []File {
		files, err := GenerateKit(KitOptions{Import: "example.com/k", Package: "k", Version: "test", SDK: "go-sdk", Revisions: revs, CopyRuntime: copyRuntime})
		if err != nil {
			t.Fatal(err)
		}
		return files
	}
	copied, imported := kit(true), kit(false)
	dir := t.TempDir()
	for _, step := range []struct {
		what  string
		files []File
	}{{"the copy", copied}, {"the import", imported}, {"the copy again", copied}} {
		if _, err := Write(dir, step.files); err != nil {
			t.Fatalf("%s: %v", step.what, err)
		}
		if changes, err := Diff(dir, step.files); err != nil || len(changes) > 0 {
			t.Errorf("%s: Diff: %v %v", step.what, changes, err)
		}
		_, err := os.Stat(filepath.Join(dir, "rootsrt"))
		if has, want := err == nil, hasRuntimeCopy(step.files); has != want {
			t.Errorf("%s: rootsrt/ there: %t, want %t (%v)", step.what, has, want, err)
		}
	}
	if !hasRuntimeCopy(copied) || hasRuntimeCopy(imported) {
		t.Fatal("only the copy kit should have files in rootsrt/: the test tests nothing")
	}
}

// hasRuntimeCopy reports whether a kit's files copy the runtime.
func hasRuntimeCopy(files []File) bool {
	return slices.ContainsFunc(files, func(f File) bool { return strings.HasPrefix(f.Name, "rootsrt/") })
}
