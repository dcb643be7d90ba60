// Package generator turns the JSON schema of an MCP revision into Go
// bindings for the roots feature. Data flows one way, a stage a package:
//
//	Load (internal/load: parse, normalize dialects)
//	-> Select, Build, plan (internal/model: the roots closure, the
//	   revision's model, what its package holds)
//	-> emit (this package: jennifer, templates; in a kit, what the gate
//	   uses) -> format (goimports, for the templates' output)
//	-> Files, which Write (internal/writer) puts on disk.
//
// This package names the stages' types and functions as its own.
package generator

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/printer"
	"go/token"
	"runtime/debug"
	"slices"
	"strings"
	"text/template"

	"github.com/dave/jennifer/jen"
	"golang.org/x/tools/imports"

	"github.com/rootsgen/rootsgen/generator/internal/writer"
	"github.com/rootsgen/rootsgen/schema"
	"github.com/rootsgen/rootsgen/templates"
)

// ModulePath is the module rootsgen is built from.
const ModulePath = "github.com/rootsgen/rootsgen"

// Options say what to generate.
type Options struct {
	// Revision names the protocol revision, such as "2025-06-18".
	Revision string
	// Schema is the schema to generate from; nil means the embedded schema
	// of Revision.
	Schema []byte
	// Package is the name of the generated package.
	Package string
	// Version goes into the header of every file; empty means Version().
	Version string
	// Runtime is the import path of the runtime package the revision's
	// package imports (RuntimeImport, or a kit's copy of the runtime);
	// empty means the runtime is written into the package itself (see
	// runtime.go).
	Runtime string
	// Kit: the package is a revision's package in a kit, which the kit's
	// gate alone uses (see GenerateKit).
	Kit bool
	// ServerOnly: in a kit, the package leaves out the client side that
	// the gate's Client calls (for an SDK whose client answers roots/list
	// itself).
	ServerOnly bool
	Load       LoadOptions
	// MaxOutput is the largest package, in bytes, Generate returns; one
	// that would be larger is refused with a *UsageError. Zero means ten
	// times the schema, between MinDefaultMaxOutput and MaxDefaultMaxOutput.
	MaxOutput int
	// keepAll, in a kit, writes every type and method, as a
	// single-revision package has them (for tests of kitKeeps).
	keepAll bool
}

// The bounds of the default MaxOutput. The floor is room for the runtime
// written into a single-revision package (some 200 KB) and the types of a
// small schema; the ceiling keeps a run of any schema the default limits
// take within seconds and a few hundred MiB.
const (
	MinDefaultMaxOutput = 1 << 20
	MaxDefaultMaxOutput = 4 << 20
)

// minOutputPerElement is less than any type, field, constant or union arm
// of the model adds to the package: the elements times this is a size the
// package surely reaches, checked before anything is emitted.
const minOutputPerElement = 64

// outputLimit is the MaxOutput in force for a schema of size bytes.
func outputLimit(maxOutput, size int) int {
	if maxOutput > 0 {
		return maxOutput
	}
	return min(max(10*size, MinDefaultMaxOutput), MaxDefaultMaxOutput)
}

// tooLarge is the error for a package of size bytes (at least) over limit.
func tooLarge(size, limit int, atLeast bool) error {
	what := fmt.Sprintf("%d bytes", size)
	if atLeast {
		what = "at least " + what
	}
	return &UsageError{fmt.Errorf("the package would be %s, more than the limit of %d (raise it with -max-output)", what, limit)}
}

// elements counts what model m declares: types, their fields, constant
// fields, union arms and enum values, and the schema's constants.
func elements(m *Model) int {
	n := len(m.Consts)
	for _, t := range m.Types {
		n += 1 + len(t.Fields) + len(t.Consts) + len(t.Arms) + len(t.Enum)
	}
	return n
}

// File is one generated file: Name is its path relative to the output
// directory, with "/" as separator ("types.go", "rootsrt/rootset.go"), and
// Content what it holds.
type File = writer.File

// A UsageError is a request the generator cannot act on as given: an
// unknown revision, a bad package name, a schema without roots.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Version is the rootsgen version recorded in generated headers: the module
// version when rootsgen is built from the module cache, as the main module
// (go run module@version, go install module@version) or as a dependency (go
// tool after go get -tool), and "devel" when it is built from a source
// checkout (or replaced by one).
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return versionFrom(info)
}

func versionFrom(info *debug.BuildInfo) string {
	if info.Main.Path == ModulePath {
		// A build in a checkout is "(devel)", or, when the go command
		// stamps VCS information (-buildvcs), a version derived from the
		// repository, which may hold uncommitted changes: not a release.
		for _, s := range info.Settings {
			if s.Key == "vcs" {
				return "devel"
			}
		}
		if isRelease(info.Main.Version) && info.Main.Replace == nil {
			return info.Main.Version
		}
		return "devel"
	}
	for _, dep := range info.Deps {
		if dep.Path == ModulePath {
			if dep.Replace != nil || !isRelease(dep.Version) {
				return "devel"
			}
			return dep.Version
		}
	}
	return "devel"
}

// isRelease reports whether v is a module version the go command resolved,
// as opposed to the "(devel)" or empty version of a source build.
func isRelease(v string) bool {
	return strings.HasPrefix(v, "v") && v != "(devel)"
}

// BuildModel loads, selects and models a revision: the front half of Generate.
func BuildModel(opts Options) (*Model, error) {
	if opts.Revision == "" {
		return nil, &UsageError{fmt.Errorf("no revision given")}
	}
	// The name goes into every file's header and doc comments: a line
	// break in it would add lines of code to the package.
	if err := schema.CheckRevision(opts.Revision); err != nil {
		return nil, &UsageError{err}
	}
	data := opts.Schema
	if data == nil {
		var err error
		if data, err = schema.Open(opts.Revision); err != nil {
			return nil, &UsageError{err}
		}
	}
	doc, err := Load(data, opts.Load)
	if err != nil {
		return nil, err
	}
	sel, err := Select(doc)
	if err != nil {
		return nil, &UsageError{err}
	}
	m, err := Build(opts.Revision, doc, sel)
	if err != nil {
		// The schema has a shape the model cannot take.
		return nil, &UsageError{err}
	}
	return m, nil
}

// Generate produces the files of one revision's package, formatted, in a
// fixed order. It writes nothing.
func Generate(opts Options) ([]File, *Model, error) {
	if !token.IsIdentifier(opts.Package) || token.IsKeyword(opts.Package) || opts.Package == "_" {
		return nil, nil, &UsageError{fmt.Errorf("invalid package name %q: it must be a Go identifier", opts.Package)}
	}
	m, err := BuildModel(opts)
	if err != nil {
		return nil, nil, err
	}
	limit := outputLimit(opts.MaxOutput, m.InputSize)
	if least := elements(m) * minOutputPerElement; least > limit {
		return nil, nil, tooLarge(least, limit, true)
	}
	version := opts.Version
	if version == "" {
		version = Version()
	}
	header := fmt.Sprintf("Code generated by rootsgen %s from MCP schema %s (sha256 %s). DO NOT EDIT.", version, m.Revision, m.InputSHA)
	names := planFiles(m.Plan, opts.Kit)
	decls, err := emitDecls(m, opts, names, header)
	if err != nil {
		return nil, nil, err
	}
	tmpl, err := templates.Parse()
	if err != nil {
		return nil, nil, err
	}
	data := templateData{Header: "// " + header, Package: opts.Package, Model: m, Plan: m.Plan, Runtime: opts.Runtime, InKit: opts.Kit, ClientSide: !opts.Kit || !opts.ServerOnly}
	if opts.Runtime == RuntimeImport && !opts.Kit {
		data.RuntimeImpl = RuntimeImplImport
	}
	var files []File
	for _, name := range names {
		if f := decls[name]; f != nil {
			// jennifer's Render runs gofmt, and its files import exactly
			// what they use.
			var buf bytes.Buffer
			if err := f.Render(&buf); err != nil {
				return nil, nil, fmt.Errorf("rendering %s: %w", name, err)
			}
			files = append(files, File{Name: name, Content: buf.Bytes()})
			continue
		}
		// The templates import everything their optional parts might
		// need, and are formatted once rendered.
		f, err := render(tmpl, name, data)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
	}
	if opts.Kit {
		if m.Plan.Handlers != nil && m.Plan.GateProblem == "" {
			gate, err := render(tmpl, "gate.go", data)
			if err != nil {
				return nil, nil, err
			}
			files = append(files, gate)
		}
		if err := checkSize(files, limit); err != nil {
			return nil, nil, err
		}
		return files, m, nil
	}
	deprecated := strings.Split(strings.TrimPrefix(data.DeprecatedDoc(), "\n"), "\n")
	if data.DeprecatedDoc() == "" {
		deprecated = nil
	}
	if opts.Runtime != "" {
		rt, err := runtimeAPIFile(opts.Package, "// "+header, opts.Runtime, version, m.Plan, deprecated)
		if err != nil {
			return nil, nil, fmt.Errorf("naming the runtime's API in the package: %w", err)
		}
		files = append(files, rt)
	} else {
		var own []File
		for _, f := range files {
			if !strings.HasSuffix(f.Name, "_test.go") {
				own = append(own, f)
			}
		}
		rt, err := inlineRuntime(opts.Package, "// "+header, m.Plan, own, deprecated)
		if err != nil {
			return nil, nil, fmt.Errorf("writing the runtime into the package: %w", err)
		}
		files = append(files, rt...)
	}
	if err := checkSize(files, limit); err != nil {
		return nil, nil, err
	}
	return files, m, nil
}

// emitDecls emits the declarations made from model m into those of the
// package's files, names, that are typeFiles, by name; in a kit, only
// what its gate uses (kitKeeps).
func emitDecls(m *Model, opts Options, names []string, header string) (map[string]*jen.File, error) {
	em := &emitter{m: m, runtime: opts.Runtime, kit: opts.Kit}
	if opts.Kit && !opts.keepAll && m.Plan.Handlers != nil && m.Plan.GateProblem == "" {
		var err error
		if em.keep, err = kitKeeps(m, !opts.ServerOnly); err != nil {
			return nil, err
		}
	}
	decls := map[string]*jen.File{}
	for _, name := range names {
		if slices.Contains(typeFiles, name) {
			f := jen.NewFile(opts.Package)
			f.ImportName(opts.Runtime, "rootsrt")
			f.ImportName(RuntimeImplImport, "rtimpl")
			f.HeaderComment(header)
			decls[name] = f
		}
	}
	em.emitModel(m, decls)
	return decls, nil
}

// checkSize refuses files over limit bytes in all.
func checkSize(files []File, limit int) error {
	size := 0
	for _, f := range files {
		size += len(f.Content)
	}
	if size > limit {
		return tooLarge(size, limit, false)
	}
	return nil
}

// formatFile drops the imports a file does not use (the templates import
// everything their optional parts might need) and formats it the way
// goimports does. Every import the code needs is already there, so
// goimports' search for missing packages, which runs the go command and
// would dominate the generator's run time, is switched off.
func formatFile(f File) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, f.Name, f.Content, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	deleteUnusedImports(fset, file)
	var buf bytes.Buffer
	if err := printer.Fprint(&buf, fset, file); err != nil {
		return nil, err
	}
	return imports.Process(f.Name, buf.Bytes(), &imports.Options{Comments: true, TabIndent: true, TabWidth: 8, FormatOnly: true})
}

// render executes the template of file name with data and formats it.
func render(tmpl *template.Template, name string, data any) (File, error) {
	var buf bytes.Buffer
	if err := tmpl.ExecuteTemplate(&buf, name+".tmpl", data); err != nil {
		return File{}, fmt.Errorf("template %s: %w", name, err)
	}
	f := File{Name: name, Content: buf.Bytes()}
	out, err := formatFile(f)
	if err != nil {
		return File{}, fmt.Errorf("formatting %s: %w\n%s", name, err, numbered(f.Content))
	}
	f.Content = out
	return f, nil
}

func numbered(src []byte) string {
	var b strings.Builder
	for i, l := range strings.Split(string(src), "\n") {
		fmt.Fprintf(&b, "%4d %s\n", i+1, l)
	}
	return b.String()
}

// typeFiles are the files written from the model, with jennifer, in
// output order: types.go, the constants and types; json.go, their codec;
// validate.go, their validation (emitModel). Where a package has types.go
// alone (planFiles), each type's methods are beside it there.
var typeFiles = []string{"types.go", "json.go", "validate.go"}

// templateFiles are the files rendered from templates/, in output order,
// after typeFiles.
var templateFiles = []string{"doc.go", "roots.go", "rootset.go", "example_test.go"}

// templateData is what the templates of a revision's package see: the
// model, and its plan, which says what the package has and the Go names
// each part is written in terms of.
type templateData struct {
	Header  string
	Package string
	*Model
	Plan *Plan
	// Runtime is the import path of the runtime package the package
	// imports; "" when the runtime is written into the package.
	Runtime string
	// RuntimeImpl is the import path of rtimpl where the package names it
	// itself (a single revision's package importing the runtime); "" where
	// the package names the merged runtime at Runtime.
	RuntimeImpl string
	// InKit: the package is a revision's package in a kit.
	InKit bool
	// ClientSide: the package has what its own Client, or the kit's, calls
	// to answer roots/list (false in a kit with Options.ServerOnly).
	ClientSide bool
}

// Asks says that the kit's gate serves the revision's requests that carry
// roots/list in inputRequests: its plan has what asking for roots (Ask),
// the -32021 error's data (Require) and its code (MissingCode) need.
func (d templateData) Asks() bool { return d.Plan.Asks() }

// Deprecated says that the revision deprecates roots.
func (d templateData) Deprecated() bool {
	return d.Model.Deprecation != nil || d.Plan.DeprecatedBy != ""
}

// Kit says that the package is a revision's package in a kit: its gate
// alone uses it.
func (d templateData) Kit() bool { return d.InKit }

// RT is the runtime identifier name as the package's code names it (see
// emitter.rt).
func (d templateData) RT(name string) string {
	switch {
	case d.Runtime == "":
		return inlineName(d.Plan, name)
	case d.RuntimeImpl != "" && inImpl(name):
		return "rtimpl." + name
	}
	return "rootsrt." + name
}

// DeprecatedDoc is the Deprecated paragraph of the roots declarations
// written by templates, as comment lines that follow a doc comment.
func (d templateData) DeprecatedDoc() string {
	return commentLines(deprecation(d.Model, true, false, d.Plan.DeprecatedBy))
}

// ListChangedDeprecatedDoc is DeprecatedDoc for the declarations built on
// the list_changed notification.
func (d templateData) ListChangedDeprecatedDoc() string {
	return commentLines(deprecation(d.Model, true, false, d.Plan.ListChangedDeprecatedBy))
}

// WarningsDoc states in doc.go, as comment lines, the parts of the roots
// feature the package leaves out, one list item each.
func (d templateData) WarningsDoc() string {
	if len(d.Plan.Warnings) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n//\n// Left out: the schema has these parts of the roots feature in a shape\n// rootsgen cannot write (rootsgen -strict refuses such a schema):\n//")
	for _, w := range d.Plan.Warnings {
		for i, l := range wrap(w.String(), docWidth-4) {
			if i == 0 {
				b.WriteString("\n//   - " + l)
			} else {
				b.WriteString("\n//     " + l)
			}
		}
	}
	return b.String()
}

// commentLines are paragraphs as comment lines that follow a doc comment.
func commentLines(paragraphs []string) string {
	var b strings.Builder
	for _, p := range paragraphs {
		b.WriteString("\n//")
		for _, l := range wrap(p, docWidth) {
			b.WriteString("\n// " + l)
		}
	}
	return b.String()
}
