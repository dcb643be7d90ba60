package generator

import (
	"cmp"
	"fmt"
	"github.com/rootsgen/rootsgen/generator/internal/model"
	"regexp"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
)

// The data-shaped declarations (types, constants, their JSON and validation
// methods) are emitted here with jennifer, one per model entry. Support code
// that is the same for every revision comes from templates/, rendered by
// Generate (generate.go) with the revision's Plan (plan.go).

const jsonPkg = "encoding/json"

// emitModel writes the declarations made from the model into files, the
// package's typeFiles by name: the constants and each type into types.go
// (emitConsts, emitType), then the type's codec into json.go (emitJSON)
// and its validation into validate.go (emitValidate), or into types.go,
// beside the type, where the package has no such file.
func (e *emitter) emitModel(m *Model, files map[string]*jen.File) {
	types := files["types.go"]
	codec, valid := cmp.Or(files["json.go"], types), cmp.Or(files["validate.go"], types)
	e.emitConsts(m, types)
	for _, t := range m.Types {
		if !e.keep.has(t, useDecl) {
			continue
		}
		e.emitType(m, t, types)
		e.emitJSON(t, codec)
		e.emitValidate(t, valid)
	}
}

// emitConsts writes the package's constants, and its Method type.
func (e *emitter) emitConsts(m *Model, f *jen.File) {
	f.Comment(protocolVersionName + " is the MCP revision these bindings were generated for.")
	f.Const().Id(protocolVersionName).Op("=").Lit(m.Revision)
	f.Line()
	f.Comment(model.MethodTypeName + " is the name of a JSON-RPC request or notification of the roots feature.")
	f.Type().Id(model.MethodTypeName).String()
	f.Line()
	f.Const().DefsFunc(func(g *jen.Group) {
		for i, c := range m.Consts {
			if i > 0 {
				g.Line()
			}
			docComments(g, e.constDoc(c), deprecation(m, c.Roots, false, m.Plan.ConstDeprecatedBy(c)))
			if c.Type != "" {
				g.Id(c.Name).Id(c.Type).Op("=").Add(untyped(c.Value))
			} else {
				g.Id(c.Name).Op("=").Add(untyped(c.Value))
			}
		}
	})
}

// emitType writes the declaration of t, with the constructors and
// accessors of a union type.
func (e *emitter) emitType(m *Model, t *Type, f *jen.File) {
	f.Line()
	doc := typeDoc(t)
	docComments(f.Group, doc, deprecation(m, t.Roots, t.Deprecated, m.Plan.TypeDeprecatedBy(t)))
	switch t.Kind {
	case KindStruct:
		f.Type().Id(t.Name).StructFunc(func(g *jen.Group) { e.structFields(m, t, g) })
	case KindMap:
		f.Type().Id(t.Name).Map(jen.String()).Add(goType(*t.Elem))
	case KindSlice:
		f.Type().Id(t.Name).Index().Add(goType(*t.Elem))
	case KindScalar:
		f.Type().Id(t.Name).Add(goType(*t.Elem))
	case KindAlias:
		f.Type().Id(t.Name).Op("=").Add(goType(*t.Elem))
	case KindAny:
		f.Type().Id(t.Name).Op("=").Any()
	case KindUnion:
		e.emitUnion(m, t, f)
	case KindRawUnion:
		e.emitRawUnion(m, t, f)
	}
}

// constDoc is c's doc; where the package leaves out the type it names,
// the doc names the schema's definition instead.
func (e *emitter) constDoc(c *Const) []string {
	if c.Owner == nil || e.keep.has(c.Owner, useDecl) {
		return c.Doc
	}
	doc := slices.Clone(c.Doc)
	doc[0] = strings.TrimSuffix(doc[0], c.Owner.Name+".") + "the schema's " + c.Owner.Name + "."
	return doc
}

func untyped(v any) jen.Code {
	if n, ok := v.(int64); ok {
		return jen.Lit(int(n))
	}
	return jen.Lit(v)
}

func typeDoc(t *Type) []string {
	doc := namedDoc(t.Name, fmt.Sprintf("%s is the schema's %s.", t.Name, t.Path), t.Doc)
	if t.Partial {
		switch t.Kind {
		case KindRawUnion:
			doc = append(doc, "", "The protocol allows other kinds of values here; only the roots ones are modelled, and every value is kept as raw JSON so that none is lost.")
		case KindStruct:
			doc = append(doc, "", "The protocol defines more members than are modelled here; "+t.ExtraName+" keeps them.")
		default:
			doc = append(doc, "", "Only the roots-related part of the protocol's definition is modelled here.")
		}
	}
	return doc
}

// deprecation returns the paragraph that marks a symbol deprecated, or
// nil: a roots symbol in a revision the registry deprecates roots in, a
// symbol whose own schema says "deprecated" (own), or one built on a
// definition the schema marks deprecated (by, a definition name).
func deprecation(m *Model, roots, own bool, by string) []string {
	switch {
	case roots && m.Deprecation != nil:
		d := m.Deprecation
		return []string{fmt.Sprintf("Deprecated: MCP %s deprecates %s (%s); a revision released on or after %s may remove them. Instead, %s.",
			m.Revision, d.Feature, d.Proposal, d.EarliestRemoval, d.Migration)}
	case own:
		return []string{fmt.Sprintf("Deprecated: the MCP %s schema marks this as deprecated.", m.Revision)}
	case by != "":
		return []string{fmt.Sprintf("Deprecated: the MCP %s schema marks %s as deprecated, and this is built on it.", m.Revision, by)}
	}
	return nil
}

// docComments writes doc text, one "//" comment per line (jennifer
// renders a multi-line Comment as a /* */ block), then the deprecation
// paragraph. The text is reflowed into paragraphs first (see paragraphs),
// so that lines a schema description broke early are joined again.
func docComments(g *jen.Group, doc, deprecated []string) {
	for _, l := range docText(doc) {
		g.Comment(l)
	}
	if len(deprecated) > 0 {
		if len(doc) > 0 {
			g.Comment("")
		}
		for _, l := range docText(deprecated) {
			g.Comment(l)
		}
	}
}

// docText is lines of text as doc comment lines: paragraphs wrapped at
// docWidth, separated by blank lines; list items and indented (code)
// lines stand as they are.
func docText(lines []string) []string {
	var out []string
	for i, p := range paragraphs(lines) {
		if i > 0 && (p.blankBefore || !p.item && !p.verbatim) {
			out = append(out, "")
		}
		switch {
		case p.verbatim:
			out = append(out, p.text)
		case p.item:
			// A list item keeps its marker; its continuation lines are
			// indented under the text, as gofmt lays out doc lists.
			marker, rest, _ := strings.Cut(strings.TrimLeft(p.text, " "), " ")
			for j, w := range wrap(rest, docWidth-len(marker)-3) {
				if j == 0 {
					out = append(out, "  "+marker+" "+w)
				} else {
					out = append(out, strings.Repeat(" ", len(marker)+3)+w)
				}
			}
		default:
			out = append(out, wrap(p.text, docWidth)...)
		}
	}
	return out
}

// A paragraph of doc text: running text, a list item or a verbatim line.
type paragraph struct {
	text                        string
	item, verbatim, blankBefore bool
}

// listItem matches the start of a list item: "-", "*", "+" or a number
// followed by "." or ")", then a space.
var listItem = regexp.MustCompile(`^\s*([-*+]|[0-9]+[.)]) `)

// paragraphs groups lines into paragraphs: a blank line ends one, a list
// item starts one, and the lines of running text between are joined with
// spaces, whatever width the description's author broke them at.
func paragraphs(lines []string) []paragraph {
	var out []paragraph
	open, blank := false, false
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		switch {
		case strings.TrimSpace(l) == "":
			open, blank = false, true
			continue
		case listItem.MatchString(l):
			out = append(out, paragraph{text: strings.TrimSpace(l), item: true, blankBefore: blank})
			open = true
		case strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "    ") && !open:
			out = append(out, paragraph{text: "\t" + strings.TrimSpace(l), verbatim: true, blankBefore: blank})
			open = false
		case open:
			out[len(out)-1].text += " " + strings.TrimSpace(l)
		default:
			out = append(out, paragraph{text: strings.TrimSpace(l), blankBefore: blank})
			open = true
		}
		blank = false
	}
	return out
}

// docWidth is where doc comment lines wrap.
const docWidth = 76

// wrap breaks a line of text at spaces so that each piece fits in width
// where it can; a word longer than width stands on its own line.
func wrap(line string, width int) []string {
	words := strings.Fields(line)
	if len(words) == 0 {
		return []string{""}
	}
	var out []string
	cur := words[0]
	for _, w := range words[1:] {
		if len(cur)+1+len(w) > width {
			out = append(out, cur)
			cur = w
			continue
		}
		cur += " " + w
	}
	return append(out, cur)
}

func (e *emitter) structFields(m *Model, t *Type, g *jen.Group) {
	for _, f := range t.Fields {
		doc := slices.Clone(f.Doc)
		if len(doc) == 0 {
			doc = []string{fmt.Sprintf("%s is the %q member.", f.Name, f.JSONName)}
		}
		docComments(g, doc, deprecation(m, f.Roots && !t.Roots, f.Deprecated, ""))
		tag := f.JSONName
		if !f.Required {
			tag += ",omitempty"
		}
		typ := goType(f.Type)
		if f.Pointer {
			typ = jen.Op("*").Add(typ)
		}
		g.Id(f.Name).Add(typ).Tag(map[string]string{"json": tag})
	}
	if t.Extra != nil {
		// A kit's front package says this once, of every Extra.
		if !e.kit || t.ExtraName != "Extra" {
			docComments(g, []string{fmt.Sprintf("%s keeps the members that have no field, so they survive a round trip.", t.ExtraName)}, nil)
		}
		g.Id(t.ExtraName).Map(jen.String()).Add(goType(*t.Extra)).Tag(map[string]string{"json": "-"})
	}
}

// goType is the Go type expression for a reference.
func goType(g GoType) *jen.Statement {
	switch {
	case g.Named != nil:
		return jen.Id(g.Named.Name)
	case g.Slice != nil:
		return jen.Index().Add(goType(*g.Slice))
	case g.Map != nil:
		return jen.Map(jen.String()).Add(goType(*g.Map))
	case g.Prim != "":
		return jen.Id(g.Prim.GoTypeName())
	case g.Raw:
		return jen.Qual(jsonPkg, "RawMessage")
	}
	return jen.Any()
}

// Union members: the unexported field that holds each and its accessor suffix.
var memberField = map[Primitive]string{String: "s", Integer: "i", Number: "f", Boolean: "b"}

func (e *emitter) emitUnion(m *Model, t *Type, f *jen.File) {
	f.Type().Id(t.Name).StructFunc(func(g *jen.Group) {
		g.Id("kind").Uint8().Comment("0: no value; otherwise 1 + the index of the member in the schema")
		for _, p := range t.Members {
			if fld := memberField[p]; fld != "" {
				g.Id(fld).Id(p.GoTypeName())
			}
		}
	})
	dep := deprecation(m, t.Roots, t.Deprecated, m.Plan.TypeDeprecatedBy(t))
	for i, p := range t.Members {
		kind := jen.Lit(i + 1)
		f.Line()
		if p == Null {
			if !e.keep.all() {
				continue // no gate uses a union's null value
			}
			docComments(f.Group, []string{fmt.Sprintf("%s is the %s that holds JSON null.", model.UnionNullName(t), t.Name)}, dep)
			f.Var().Id(model.UnionNullName(t)).Op("=").Id(t.Name).Values(jen.Dict{jen.Id("kind"): kind})
			f.Line()
			f.Comment("IsNull reports whether u holds JSON null.")
			f.Func().Params(jen.Id("u").Id(t.Name)).Id("IsNull").Params().Bool().Block(jen.Return(jen.Id("u").Dot("kind").Op("==").Add(kind)))
			continue
		}
		if e.keep.all() || p == String && e.keep.has(t, useFromString) {
			ctor := model.UnionFromName(t, p)
			docComments(f.Group, []string{fmt.Sprintf("%s returns the %s that holds the %s v.", ctor, t.Name, p)}, dep)
			f.Func().Id(ctor).Params(jen.Id("v").Id(p.GoTypeName())).Id(t.Name).Block(
				jen.Return(jen.Id(t.Name).Values(jen.Dict{jen.Id("kind"): kind, jen.Id(memberField[p]): jen.Id("v")})),
			)
			f.Line()
		}
		if e.keep.all() {
			f.Comment(fmt.Sprintf("As%s returns the %s u holds, and whether it holds one.", model.MemberName(p), p))
			f.Func().Params(jen.Id("u").Id(t.Name)).Id("As"+model.MemberName(p)).Params().Params(jen.Id(p.GoTypeName()), jen.Bool()).Block(
				jen.Return(jen.Id("u").Dot(memberField[p]), jen.Id("u").Dot("kind").Op("==").Add(kind)),
			)
		}
	}
	if e.keep.has(t, useIsZero) {
		f.Line()
		f.Comment("IsZero reports whether u holds no value, as when the member is absent.")
		f.Func().Params(jen.Id("u").Id(t.Name)).Id("IsZero").Params().Bool().Block(jen.Return(jen.Id("u").Dot("kind").Op("==").Lit(0)))
	}
	// String and the MarshalJSON it calls go with the type, kept or not:
	// fmt calls String through fmt.Stringer.
	f.Line()
	f.Comment("String returns the value as JSON text, or \"\" when u holds no value.")
	f.Func().Params(jen.Id("u").Id(t.Name)).Id("String").Params().String().Block(
		jen.List(jen.Id("b"), jen.Id("err")).Op(":=").Id("u").Dot("MarshalJSON").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Lit(""))),
		jen.Return(jen.String().Call(jen.Id("b"))),
	)
	f.Line()
	f.Comment("MarshalJSON writes the value u holds; a value with no member is an error.")
	f.Func().Params(jen.Id("u").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Switch(jen.Id("u").Dot("kind")).BlockFunc(func(g *jen.Group) {
			for i, p := range t.Members {
				var val jen.Code = jen.Nil()
				if fld := memberField[p]; fld != "" {
					val = jen.Id("u").Dot(fld)
				}
				g.Case(jen.Lit(i + 1)).Block(jen.Return(e.rt("MarshalPrimitive").Call(jen.Lit(string(p)), val)))
			}
		}),
		jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(jen.Lit(t.Name+": no value to marshal"))),
	)
	if !e.keep.has(t, useUnmarshal) {
		return
	}
	f.Line()
	want := make([]string, len(t.Members))
	for i, p := range t.Members {
		want[i] = string(p)
	}
	f.Comment(fmt.Sprintf("UnmarshalJSON accepts %s.", orList(want)))
	f.Func().Params(jen.Id("u").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Add(e.rt("ScanPrimitive")).Call(jen.Id("data")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit(t.Name+": %w"), jen.Err()))),
		jen.Switch().BlockFunc(func(g *jen.Group) {
			for _, i := range decodeOrder(t.Members) {
				p := t.Members[i]
				cond := jen.Id("v").Dot("Is").Call(jen.Lit(string(p)))
				set := jen.Op("*").Id("u").Op("=").Id(t.Name).Values(jen.Dict{jen.Id("kind"): jen.Lit(i + 1)})
				if fld := memberField[p]; fld != "" {
					set = jen.Op("*").Id("u").Op("=").Id(t.Name).Values(jen.Dict{jen.Id("kind"): jen.Lit(i + 1), jen.Id(fld): jen.Id("v").Dot(strings.ToUpper(fld))})
				}
				g.Case(cond).Block(set, jen.Return(jen.Nil()))
			}
		}),
		jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit(t.Name+": want "+orList(want)+", got %s"), jen.Id("v").Dot("Describe").Call())),
	)
}

// decodeOrder lists the indexes of union members in the order decoding
// tries them: integer before number, so that 3 is read as an integer when
// the union has both.
func decodeOrder(members []Primitive) []int {
	var order []int
	for i, p := range members {
		if p == Integer {
			order = append(order, i)
		}
	}
	for i, p := range members {
		if p != Integer {
			order = append(order, i)
		}
	}
	return order
}

func orList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

func (e *emitter) emitRawUnion(m *Model, t *Type, f *jen.File) {
	f.Type().Id(t.Name).Struct(jen.Id("raw").Qual(jsonPkg, "RawMessage"))
	dep := deprecation(m, t.Roots, t.Deprecated, m.Plan.TypeDeprecatedBy(t))
	for _, arm := range t.Arms {
		armDep := deprecation(m, t.Roots || arm.Roots, t.Deprecated, m.Plan.TypeDeprecatedBy(t))
		if e.keep.hasFrom(t, arm) {
			ctor := model.UnionFromArmName(t, arm)
			f.Line()
			docComments(f.Group, []string{fmt.Sprintf("%s returns the %s that holds v.", ctor, t.Name)}, armDep)
			f.Func().Id(ctor).Params(jen.Id("v").Id(arm.Name)).Params(jen.Id(t.Name), jen.Error()).Block(
				jen.List(jen.Id("b"), jen.Err()).Op(":=").Qual(jsonPkg, "Marshal").Call(jen.Id("v")),
				jen.Return(jen.Id(t.Name).Values(jen.Dict{jen.Id("raw"): jen.Id("b")}), jen.Err()),
			)
		}
		if !e.keep.hasAs(t, arm) {
			continue
		}
		f.Line()
		docComments(f.Group, []string{
			fmt.Sprintf("As%s decodes the value as a %s and validates it; an error means", arm.Name, arm.Name),
			"the value is of another kind or breaks the schema's rules.",
		}, armDep)
		body := []jen.Code{
			jen.Var().Id("v").Id(arm.Name),
			jen.If(jen.Len(jen.Id("u").Dot("raw")).Op("==").Lit(0)).Block(jen.Return(jen.Id("v"), jen.Qual("errors", "New").Call(jen.Lit(t.Name+": no value")))),
			jen.If(jen.Err().Op(":=").Qual(jsonPkg, "Unmarshal").Call(jen.Id("u").Dot("raw"), jen.Op("&").Id("v")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("v"), jen.Err())),
		}
		if model.HasValidate(arm) {
			body = append(body, jen.Return(jen.Id("v"), jen.Id("v").Dot("Validate").Call()))
		} else {
			body = append(body, jen.Return(jen.Id("v"), jen.Nil()))
		}
		f.Func().Params(jen.Id("u").Id(t.Name)).Id("As"+arm.Name).Params().Params(jen.Id(arm.Name), jen.Error()).Block(body...)
	}
	if e.keep.has(t, useRaw) {
		f.Line()
		docComments(f.Group, []string{"Raw returns the value as JSON, whatever its kind."}, dep)
		f.Func().Params(jen.Id("u").Id(t.Name)).Id("Raw").Params().Qual(jsonPkg, "RawMessage").Block(jen.Return(jen.Id("u").Dot("raw")))
	}
	if e.keep.has(t, useIsZero) {
		f.Line()
		f.Comment("IsZero reports whether u holds no value.")
		f.Func().Params(jen.Id("u").Id(t.Name)).Id("IsZero").Params().Bool().Block(jen.Return(jen.Len(jen.Id("u").Dot("raw")).Op("==").Lit(0)))
	}
	if e.keep.has(t, useMarshal) {
		f.Line()
		f.Comment("MarshalJSON writes the value as it was received or built.")
		f.Func().Params(jen.Id("u").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
			jen.If(jen.Len(jen.Id("u").Dot("raw")).Op("==").Lit(0)).Block(jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(jen.Lit(t.Name+": no value to marshal")))),
			jen.Return(jen.Id("u").Dot("raw"), jen.Nil()),
		)
	}
	if e.keep.has(t, useUnmarshal) {
		f.Line()
		f.Comment("UnmarshalJSON keeps a copy of the value as received.")
		f.Func().Params(jen.Id("u").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
			jen.Id("u").Dot("raw").Op("=").Append(jen.Qual(jsonPkg, "RawMessage").Call(jen.Nil()), jen.Id("data").Op("...")),
			jen.Return(jen.Nil()),
		)
	}
}
