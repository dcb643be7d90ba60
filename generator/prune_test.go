package generator

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
)

// The walk TestKitKeepsWhatTheGateRuns checks kitKeeps against: from the
// whole emitted package of a kit revision, pruneTypes keeps the functions
// and methods the gate can run (gateReach: by name, and MarshalJSON and
// UnmarshalJSON through encoding/json), the types those, the glue and the
// package's constants and variables use, and every type those use in
// turn. It reads the emitted code, type-checked, where kitKeeps reads the
// model: the two are written apart so that each checks the other.

// pruneTypes is out, the files of kit revision package pkg importing the
// runtime at rt, without the functions and methods its gate cannot run
// (gateReach) and the declarations of the types nothing it keeps uses.
func pruneTypes(out []File, pkg, rt string) ([]File, error) {
	if !slices.ContainsFunc(out, func(f File) bool { return f.Name == "gate.go" }) {
		return nil, errors.New("the package has no gate.go to keep types for")
	}
	t, err := readTypes(out, pkg, "")
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(out, func(f File) bool { return f.Name == "gate.go" })
	gate, err := parser.ParseFile(token.NewFileSet(), "gate.go", out[i].Content, 0)
	if err != nil {
		return nil, err
	}
	// fmt calls String through an interface: a kept type keeps it, and
	// what it runs.
	methods := map[string]bool{}
	for _, f := range t.files {
		for _, d := range f.file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
				methods[declKey(fd)] = true
			}
		}
	}
	stringers := map[string]bool{}
	var reached, need map[string]bool
	for {
		if reached, err = gateReach(out, pkg, rt, stringers); err != nil {
			return nil, err
		}
		need = t.needed(gate, reached)
		more := false
		for name := range need {
			if key := name + ".String"; methods[key] && !stringers[key] {
				stringers[key], more = true, true
			}
		}
		if !more {
			break
		}
	}
	kept := func(d ast.Decl) bool {
		fd, ok := d.(*ast.FuncDecl)
		return !ok || reached[declKey(fd)]
	}
	return t.without(out, func(d ast.Decl, owner string) bool {
		return owner != "" && !need[owner] || !kept(d)
	}, nil)
}

// needed are the types the declarations of t that stay use: gate, the
// constants and variables, the functions and methods of reached, and the
// types those use, in turn.
func (t *revisionTypes) needed(gate *ast.File, reached map[string]bool) map[string]bool {
	// A type's declaration uses the types of its fields; everything else
	// that stays uses what it names.
	typeUses := map[string][]string{}
	uses := [][]string{localUses(gate, t.local)}
	for _, f := range t.files {
		for _, d := range f.file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				continue
			}
			if fd, ok := d.(*ast.FuncDecl); ok && !reached[declKey(fd)] {
				continue
			}
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				if owner := declOwner(d, t.local); owner != "" {
					typeUses[owner] = localUses(d, t.local)
					continue
				}
			}
			uses = append(uses, localUses(d, t.local))
		}
	}
	need := map[string]bool{}
	var keep func(names []string)
	keep = func(names []string) {
		for _, name := range names {
			if !need[name] {
				need[name] = true
				keep(typeUses[name])
			}
		}
	}
	for _, u := range uses {
		keep(u)
	}
	return need
}
