package generator

import (
	"fmt"
	"github.com/rootsgen/rootsgen/generator/internal/model"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
)

// Overview is the API overview of the given revisions as Markdown: a
// table with a column per revision, giving its dialect, how roots/list
// travels, the list-changed notification, the capability, the
// deprecation and, with declarations, every declaration of the generated
// single-revision package that some revisions have and others lack (a
// field or method only where it is not simply where its type is); the
// declarations every revision has follow the table. The declarations are
// read from the generated code itself, so the overview cannot drift from
// it.
func Overview(revisions []string, declarations bool) (string, error) {
	type column struct {
		m     *Model
		decls map[string]bool
	}
	var cols []column
	for _, rev := range revisions {
		files, m, err := Generate(Options{Revision: rev, Package: "mcproots"})
		if err != nil {
			return "", fmt.Errorf("revision %s: %w", rev, err)
		}
		decls, err := exportedDecls(files)
		if err != nil {
			return "", fmt.Errorf("revision %s: %w", rev, err)
		}
		cols = append(cols, column{m, decls})
	}

	var b strings.Builder
	row := func(cells ...string) { fmt.Fprintf(&b, "| %s |\n", strings.Join(cells, " | ")) }
	header := []string{"revision"}
	for _, c := range cols {
		header = append(header, c.m.Revision)
	}
	row(header...)
	row(slices.Repeat([]string{"---"}, len(header))...)
	facts := []struct {
		name string
		cell func(m *Model) string
	}{
		{"schema dialect", func(m *Model) string { return string(m.Dialect) }},
		{"roots/list travels as", func(m *Model) string {
			var ways []string
			if m.Plan.Direct {
				way := "a server request"
				if m.Plan.Envelope {
					way += " (whole JSON-RPC request)"
				}
				ways = append(ways, way)
			}
			if m.Plan.InputRequests {
				ways = append(ways, "an `inputRequests` entry")
			}
			return strings.Join(ways, ", ")
		}},
		{"list_changed notification", func(m *Model) string { return yesNo(m.Plan.ListChanged != nil) }},
		{"roots capability", func(m *Model) string {
			c := "`roots: {}`"
			if m.Plan.CapabilityListChanged {
				c = "`roots: {listChanged}`"
			}
			if m.Plan.CapabilitiesInMeta {
				c += " in every request's `_meta`"
			}
			return c
		}},
		{"status", func(m *Model) string {
			if d := m.Deprecation; d != nil {
				return fmt.Sprintf("deprecated (%s), removable from %s", d.Proposal, d.EarliestRemoval)
			}
			return "current"
		}},
	}
	for _, f := range facts {
		cells := []string{f.name}
		for _, c := range cols {
			cells = append(cells, f.cell(c.m))
		}
		row(cells...)
	}

	if !declarations {
		return b.String(), nil
	}
	all := map[string]bool{}
	for _, c := range cols {
		for d := range c.decls {
			all[d] = true
		}
	}
	// presence is the row of a declaration: in which revisions it is.
	presence := func(d string) string {
		var p strings.Builder
		for _, c := range cols {
			p.WriteString(" | " + yesNo(c.decls[d]))
		}
		return p.String()
	}
	everywhere := strings.Repeat(" | yes", len(cols))
	var common []string
	for _, d := range model.SortedKeys(all) {
		typ, member, isMember := strings.Cut(d, ".")
		p := presence(d)
		switch {
		case isMember && (member == "Extra" || p == presence(typ)):
			// Every object keeps unknown members in Extra; a member
			// is where its type is, or it would tell revisions apart.
		case p == everywhere:
			common = append(common, "`"+d+"`")
		default:
			fmt.Fprintf(&b, "| `%s`%s |\n", d, p)
		}
	}
	fmt.Fprintf(&b, "\nIn every revision, with the members the table does not list: %s.\n", strings.Join(common, ", "))
	return b.String(), nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// overviewSkipped are methods every type of a kind has (encoding,
// validation, union accessors); listing them per type would hide the
// declarations that tell revisions apart.
var overviewSkipped = map[string]bool{
	"MarshalJSON": true, "UnmarshalJSON": true, "Validate": true,
	"IsZero": true, "Raw": true, "String": true, "Error": true, "Unwrap": true,
}

// exportedDecls names the exported declarations of the generated files
// (tests excluded): types, functions, constants, variables, and, as
// Type.Name, the fields and methods of exported types.
func exportedDecls(files []File) (map[string]bool, error) {
	decls := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f.Name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f.Name, f.Content, 0)
		if err != nil {
			return nil, err
		}
		for _, decl := range file.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				name := d.Name.Name
				if d.Recv != nil {
					id := receiver(d)
					if id == nil || !id.IsExported() || overviewSkipped[name] {
						continue
					}
					name = id.Name + "." + name
				}
				if d.Name.IsExported() {
					decls[name] = true
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						decls[s.Name.Name] = true
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									if n.IsExported() {
										decls[s.Name.Name+"."+n.Name] = true
									}
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								decls[n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	return decls, nil
}

// receiver is the name of the type a method is declared on, or nil.
func receiver(d *ast.FuncDecl) *ast.Ident {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return nil
	}
	recv := d.Recv.List[0].Type
	if star, ok := recv.(*ast.StarExpr); ok {
		recv = star.X
	}
	id, _ := recv.(*ast.Ident)
	return id
}
