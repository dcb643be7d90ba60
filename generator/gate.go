package generator

import (
	"bytes"
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

// GateOptions say what gate package to generate.
type GateOptions struct {
	Package   string
	Revisions []GateRevision
	Version   string
	// Load limits the reading of the revisions' Schema.
	Load LoadOptions
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

// Asks reports whether the gate serves the revision's requests that carry
// roots/list in inputRequests: it has AskForRoots, RequireRoots and the
// -32021 code.
func (r gateRevision) Asks() bool { return r.Ask && r.Require && r.MissingCode }

// ParseGateFlag reads "REV=IMPORT,REV=IMPORT", the value of -gate.
func ParseGateFlag(value string) ([]GateRevision, error) {
	var revs []GateRevision
	for _, item := range strings.Split(value, ",") {
		rev, imp, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || rev == "" || imp == "" {
			return nil, &UsageError{fmt.Errorf("-gate wants REVISION=IMPORT_PATH pairs separated by commas, got %q", item)}
		}
		if err := schema.CheckRevision(rev); err != nil {
			return nil, &UsageError{err}
		}
		if err := checkImportPath(imp); err != nil {
			return nil, &UsageError{err}
		}
		revs = append(revs, GateRevision{Revision: rev, Import: imp})
	}
	return revs, nil
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

// GenerateGate produces a package that serves roots on several revisions
// with one handler, dispatching by protocol version to the package
// generated for each revision. The gate is written in terms of each
// revision's plan, made from the schema its package was generated from:
// the embedded one, or the revision's Schema.
func GenerateGate(opts GateOptions) ([]File, error) {
	if !token.IsIdentifier(opts.Package) || token.IsKeyword(opts.Package) {
		return nil, &UsageError{fmt.Errorf("invalid package name %q: it must be a Go identifier", opts.Package)}
	}
	if len(opts.Revisions) == 0 {
		return nil, &UsageError{fmt.Errorf("a gate needs at least one revision")}
	}
	revs := slices.Clone(opts.Revisions)
	slices.SortFunc(revs, func(a, b GateRevision) int { return strings.Compare(a.Revision, b.Revision) })
	var data []gateRevision
	var sums []string
	for i, r := range revs {
		if i > 0 && revs[i-1].Revision == r.Revision {
			return nil, &UsageError{fmt.Errorf("revision %s is given twice", r.Revision)}
		}
		m, err := BuildModel(Options{Revision: r.Revision, Schema: r.Schema, Load: opts.Load})
		if err != nil {
			var unknown *schema.UnknownRevisionError
			if errors.As(err, &unknown) {
				return nil, &UsageError{fmt.Errorf("unknown revision %q: embedded revisions are %s; for a package generated with -schema, give the gate that schema too: -schema %s=FILE",
					r.Revision, strings.Join(schema.Revisions(), ", "), r.Revision)}
			}
			return nil, fmt.Errorf("revision %s: %w", r.Revision, err)
		}
		alias := gateAlias(r.Revision)
		if i > 0 && slices.ContainsFunc(data, func(d gateRevision) bool { return d.Alias == alias }) {
			return nil, &UsageError{fmt.Errorf("revisions %s and another name the same package alias %s; rename one", r.Revision, alias)}
		}
		if !m.Plan.Handlers {
			return nil, &UsageError{fmt.Errorf("revision %s has no roots handlers to dispatch to", r.Revision)}
		}
		if m.Plan.GateProblem != "" {
			return nil, &UsageError{fmt.Errorf("revision %s: %s, so the gate cannot serve it", r.Revision, m.Plan.GateProblem)}
		}
		data = append(data, gateRevision{
			Version:    r.Revision,
			Import:     r.Import,
			Alias:      alias,
			Plan:       m.Plan,
			Deprecated: m.Deprecation != nil || m.Plan.DeprecatedBy != "",
		})
		sums = append(sums, fmt.Sprintf("%s (sha256 %s)", r.Revision, m.InputSHA))
	}
	version := opts.Version
	if version == "" {
		version = Version()
	}
	header := fmt.Sprintf("// Code generated by rootsgen %s from MCP schemas %s. DO NOT EDIT.", version, strings.Join(sums, ", "))
	tmpl, err := templates.Parse()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	var keys []string
	asks := false
	for _, r := range data {
		if r.VersionKey != "" && !slices.Contains(keys, r.VersionKey) {
			keys = append(keys, r.VersionKey)
		}
		asks = asks || r.Asks()
	}
	err = tmpl.ExecuteTemplate(&buf, "gate.go.tmpl", struct {
		Header, Package string
		Revisions       []gateRevision
		VersionKeys     []string
		Asks            bool
	}{header, opts.Package, data, keys, asks})
	if err != nil {
		return nil, fmt.Errorf("template gate.go: %w", err)
	}
	f := File{Name: "gate.go", Content: buf.Bytes()}
	out, err := formatFile(f)
	if err != nil {
		return nil, fmt.Errorf("formatting gate.go: %w\n%s", err, numbered(f.Content))
	}
	f.Content = out
	return []File{f}, nil
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
