package generator

import (
	"errors"
	"fmt"
	"go/token"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rootsgen/rootsgen/schema"
	"github.com/rootsgen/rootsgen/templates"
)

// GateRevision is one revision a gate serves, and where its package is.
type GateRevision struct {
	Revision string
	// Import is the import path of the package rootsgen generated for it.
	Import string
	// Schema is the schema the package was generated from; nil means the
	// embedded schema of Revision.
	Schema []byte
}

// gateRevision is what the gate template knows of one revision: its
// package, and its plan, made from its schema like everything else.
type gateRevision struct {
	Version string
	Import  string
	Alias   string
	*Plan
	Deprecated bool
}

// checkImportPath refuses what cannot be a Go import path: the path is
// written between quotes into the gate's import block, so a quote or a line
// break in it would add code to the package.
func checkImportPath(path string) error {
	for _, elem := range strings.Split(path, "/") {
		if elem == "" || elem == "." || elem == ".." {
			return fmt.Errorf("invalid import path %q: empty, . or .. element", path)
		}
		for _, c := range elem {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-._~+", c)) {
				return fmt.Errorf("invalid import path %q: it holds %q (an import path is letters, digits and -._~+ between slashes)", path, c)
			}
		}
	}
	return nil
}

// KitOptions say what kit to generate: a runtime package, one package
// per revision importing it, and a front package that serves them all.
type KitOptions struct {
	// Import is the import path of the kit's directory, where the front
	// package is; the revisions (and a copied runtime) are in
	// subdirectories.
	Import string
	// CopyRuntime writes the runtime into the kit, as its subdirectory
	// rootsrt, instead of importing RuntimeImport: a kit that imports only
	// the standard library and its SDK.
	CopyRuntime bool
	// Package is the front package's name.
	Package   string
	Revisions []GateRevision
	// SDK names the MCP SDK whose adapter the front package has (see
	// SDKs); empty means none, for a server that speaks JSON-RPC itself.
	SDK     string
	Version string
	// Load limits the reading of the revisions' Schema.
	Load LoadOptions
}

// GenerateKit produces a kit: files named with the subdirectory they go
// in (roots20250618/types.go, gate.go for the front; rootsrt/set.go with
// CopyRuntime). The revisions' packages are written in terms of their
// plans and import the runtime; the front lists them and names the gate's
// API.
func GenerateKit(opts KitOptions) ([]File, error) {
	if !token.IsIdentifier(opts.Package) || token.IsKeyword(opts.Package) || opts.Package == "_" {
		return nil, &UsageError{fmt.Errorf("invalid package name %q: it must be a Go identifier", opts.Package)}
	}
	if _, ok := sdkAdapters[opts.SDK]; opts.SDK != "" && !ok {
		return nil, &UsageError{fmt.Errorf("unknown SDK %q; known: %s", opts.SDK, strings.Join(SDKs(), ", "))}
	}
	if err := checkImportPath(opts.Import); err != nil {
		return nil, &UsageError{err}
	}
	if len(opts.Revisions) == 0 {
		return nil, &UsageError{fmt.Errorf("a kit needs at least one revision")}
	}
	revs := slices.Clone(opts.Revisions)
	slices.SortFunc(revs, func(a, b GateRevision) int { return strings.Compare(a.Revision, b.Revision) })
	version := opts.Version
	if version == "" {
		version = Version()
	}
	runtimeImport := RuntimeImport
	if opts.CopyRuntime {
		runtimeImport = opts.Import + "/rootsrt"
	}
	clientSide := opts.SDK == "" || sdkAdapters[opts.SDK].Client
	var files []File
	var data []gateRevision
	var sums []string
	kept := map[string][]File{} // the revisions not aliased whole, by version, as generated
	var types []typeDecls       // their types, oldest first
	for i, r := range revs {
		if i > 0 && revs[i-1].Revision == r.Revision {
			return nil, &UsageError{fmt.Errorf("revision %s is given twice", r.Revision)}
		}
		pkg := PackageName(r.Revision)
		out, m, err := Generate(Options{Revision: r.Revision, Schema: r.Schema, Package: pkg, Version: version, Runtime: runtimeImport, Kit: true, ServerOnly: !clientSide, Load: opts.Load})
		if err != nil {
			var unknown *schema.UnknownRevisionError
			if errors.As(err, &unknown) {
				return nil, &UsageError{fmt.Errorf("unknown revision %q: embedded revisions are %s", r.Revision, strings.Join(schema.Revisions(), ", "))}
			}
			return nil, fmt.Errorf("revision %s: %w", r.Revision, err)
		}
		if m.Plan.Handlers == nil {
			return nil, &UsageError{fmt.Errorf("revision %s has no roots handlers to serve", r.Revision)}
		}
		if m.Plan.GateProblem != "" {
			return nil, &UsageError{fmt.Errorf("revision %s: %s, so the gate cannot serve it", r.Revision, m.Plan.GateProblem)}
		}
		imp := opts.Import + "/" + pkg
		if same := sameAs(out, pkg, r.Revision, data, kept); same != nil {
			if out, err = aliasPackage(out, pkg, same, kept[same.Version], m, runtimeImport); err != nil {
				return nil, fmt.Errorf("revision %s: %w", r.Revision, err)
			}
		} else {
			kept[r.Revision] = out
			var decls typeDecls
			if out, decls, err = aliasTypes(out, pkg, imp, types, clientSide); err != nil {
				return nil, fmt.Errorf("revision %s: %w", r.Revision, err)
			}
			types = append(types, decls)
		}
		for _, f := range out {
			files = append(files, File{Name: pkg + "/" + f.Name, Content: f.Content})
		}
		data = append(data, gateRevision{Version: r.Revision, Import: imp, Alias: gateAlias(r.Revision), Plan: m.Plan})
		sums = append(sums, fmt.Sprintf("%s (sha256 %s)", r.Revision, m.InputSHA))
	}
	tmpl, err := templates.Parse()
	if err != nil {
		return nil, err
	}
	front, err := render(tmpl, "front.go", struct {
		Header, Package, Runtime string
		Revisions                []gateRevision
		ClientSide               bool
		ContractCheck            string
	}{
		fmt.Sprintf("// Code generated by rootsgen %s from MCP schemas %s. DO NOT EDIT.", version, strings.Join(sums, ", ")),
		opts.Package, runtimeImport, data, clientSide, contractCheck(version, "rootsrt"),
	})
	if err != nil {
		return nil, err
	}
	front.Name = "gate.go"
	files = append(files, front)
	if opts.SDK != "" {
		f, err := sdkFile(opts.SDK, opts.Package, version)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if !opts.CopyRuntime {
		return splitRuntime(files)
	}
	rt, err := kitRuntime(fmt.Sprintf("// Code generated by rootsgen %s. DO NOT EDIT.", version), runtimeImport, files)
	if err != nil {
		return nil, err
	}
	for _, f := range rt {
		files = append(files, File{Name: "rootsrt/" + f.Name, Content: f.Content})
	}
	return files, nil
}

// PackageName is the name rootsgen gives the package of revision in a
// kit: "roots" and the revision's letters and digits.
func PackageName(revision string) string {
	return "roots" + strings.TrimPrefix(gateAlias(revision), "r")
}

// gateAlias is the name the gate imports a revision's package under: "r"
// and the revision's letters and digits.
func gateAlias(revision string) string {
	var b strings.Builder
	b.WriteString("r")
	for _, c := range revision {
		if c < utf8.RuneSelf && (unicode.IsLetter(c) || unicode.IsDigit(c)) {
			b.WriteRune(c)
		}
	}
	return b.String()
}
