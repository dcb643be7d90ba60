package generator

import (
	"encoding/json"
	"fmt"
	"github.com/rootsgen/rootsgen/generator/internal/model"

	"github.com/dave/jennifer/jen"
)

func isCollection(g GoType) bool {
	return g.Slice != nil || g.Map != nil || g.Named != nil && (g.Named.Kind == KindSlice || g.Named.Kind == KindMap)
}

// zeroIsUnset: the zero value of the type holds no JSON value at all, so a
// required member left at zero cannot be marshalled validly.
func zeroIsUnset(g GoType) bool {
	switch {
	case g.Any:
		return true
	case g.Named != nil:
		switch g.Named.Kind {
		case KindUnion, KindRawUnion:
			return true
		case KindAlias:
			return zeroIsUnset(*g.Named.Elem)
		}
	}
	return false
}

func knownNames(t *Type) []jen.Code {
	var names []jen.Code
	for _, c := range t.Consts {
		names = append(names, jen.Lit(c.JSONName))
	}
	for _, f := range t.Fields {
		names = append(names, jen.Lit(f.JSONName))
	}
	return names
}

// emitJSON writes the codec of t, a struct: MarshalJSON and
// UnmarshalJSON. (A union's are part of its declaration.)
func (e *emitter) emitJSON(t *Type, f *jen.File) {
	if t.Kind != KindStruct {
		return
	}
	// Every struct decodes member by member: names match exactly
	// (encoding/json ignores case), required and fixed members are
	// checked, and errors name the member's JSON path.
	e.emitMarshal(t, f)
	if e.keep.has(t, useUnmarshal) {
		e.emitUnmarshal(t, f)
	}
}

// emitMarshal writes MarshalJSON and appendJSON: the members in schema
// order, fixed ones included, optional ones only when set, a nil required
// array or object as [] or {}, then the members kept in Extra, sorted.
// Nested generated types append to the same buffer.
func (e *emitter) emitMarshal(t *Type, f *jen.File) {
	if e.keep.has(t, useMarshal) {
		f.Line()
		docComments(f.Group, []string{"MarshalJSON writes the members in schema order, then Extra's, sorted."}, nil)
		f.Func().Params(jen.Id("x").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
			jen.Return(jen.Id("x").Dot("appendJSON").Call(jen.Make(jen.Index().Byte(), jen.Lit(0), jen.Lit(64)))),
		)
	}
	if !e.keep.has(t, useAppend) {
		return
	}
	f.Line()
	body := []jen.Code{jen.Id("o").Op(":=").Add(e.rt("StartObject")).Call(jen.Id("b"))}
	for _, c := range t.Consts {
		body = append(body, jen.Id("o").Dot("Raw").Call(jen.Lit(quotedKey(c.JSONName)), jen.Lit(constJSON(c.Const))))
	}
	for _, fl := range t.Fields {
		write := e.appendValue(fl, jen.Id("x").Dot(fl.Name))
		if cond := omitCondition(fl, jen.Id("x").Dot(fl.Name)); cond != nil {
			body = append(body, jen.If(cond).Block(write))
		} else {
			body = append(body, write)
		}
	}
	if t.Extra == nil {
		body = append(body, jen.Return(e.rt("EndObject").Call(jen.Op("&").Id("o"), jen.Map(jen.String()).Any().Parens(jen.Nil()))))
	} else {
		body = append(body, jen.Return(e.rt("EndObject").Call(
			append([]jen.Code{jen.Op("&").Id("o"), jen.Id("x").Dot(t.ExtraName)}, knownNames(t)...)...)))
	}
	f.Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("appendJSON").Params(jen.Id("b").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(body...)
}

// constJSON is a fixed member's value as JSON.
func constJSON(c *Const) string {
	b, err := json.Marshal(c.Value)
	if err != nil {
		panic(fmt.Sprintf("constant %s: %v", c.Name, err)) // the model holds JSON values only
	}
	return string(b)
}

// quotedKey is a member name as JSON, followed by a colon.
func quotedKey(name string) string {
	b, _ := json.Marshal(name)
	return string(b) + ":"
}

// omitCondition is when an optional member is written (omitempty's rule),
// or nil for a member that is always written.
func omitCondition(fl *Field, x *jen.Statement) jen.Code {
	if fl.Required {
		return nil
	}
	g := fl.Type
	switch {
	case fl.Pointer || g.Any || g.Raw:
		return x.Op("!=").Nil()
	case isCollection(g):
		return jen.Len(x).Op(">").Lit(0)
	case g.Prim == String || g.Named != nil && g.Named.Kind == KindScalar && g.Named.Elem.Prim == String:
		return x.Op("!=").Lit("")
	case g.Prim == Boolean || g.Named != nil && g.Named.Kind == KindScalar && g.Named.Elem.Prim == Boolean:
		return x
	case g.Prim == Integer || g.Prim == Number || g.Named != nil && g.Named.Kind == KindScalar:
		return x.Op("!=").Lit(0)
	case g.Named != nil && (g.Named.Kind == KindUnion || g.Named.Kind == KindRawUnion):
		return jen.Op("!").Add(x).Dot("IsZero").Call()
	}
	return nil
}

// appendValue writes a field's value as a member of the object o.
func (e *emitter) appendValue(fl *Field, x *jen.Statement) jen.Code {
	g := fl.Type
	key := jen.Lit(quotedKey(fl.JSONName))
	switch {
	case g.Prim == String:
		return jen.Id("o").Dot("String").Call(key, x)
	case g.Named != nil && g.Named.Kind == KindScalar && g.Named.Elem.Prim == String:
		return jen.Id("o").Dot("String").Call(key, jen.String().Call(x))
	case g.Prim == Boolean:
		return jen.Id("o").Dot("Bool").Call(key, x)
	case g.Prim == Integer:
		return jen.Id("o").Dot("Int").Call(key, x)
	case g.Named != nil && g.Named.Kind == KindStruct:
		return jen.Id("o").Dot("Append").Call(key, x.Dot("appendJSON"))
	case g.Slice != nil && g.Slice.Named != nil && g.Slice.Named.Kind == KindStruct:
		return jen.Id("o").Dot("Append").Call(key, jen.Func().Params(jen.Id("b").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(
			jen.Return(e.rt("AppendSlice").Call(jen.Id("b"), x, jen.Parens(jen.Op("*").Id(g.Slice.Named.Name)).Dot("appendJSON"))),
		))
	case isCollection(g) && fl.Required:
		// nil would marshal as null; the schema wants an empty array or object.
		empty := "[]"
		if g.Map != nil || g.Named != nil && g.Named.Kind == KindMap {
			empty = "{}"
		}
		return jen.If(jen.Id("x").Dot(fl.Name).Op("==").Nil()).Block(
			jen.Id("o").Dot("Raw").Call(key, jen.Lit(empty)),
		).Else().Block(jen.Id("o").Dot("Value").Call(key.Clone(), jen.Id("x").Dot(fl.Name)))
	}
	return jen.Id("o").Dot("Value").Call(key, x)
}

func (e *emitter) emitUnmarshal(t *Type, f *jen.File) {
	f.Line()
	docComments(f.Group, []string{"UnmarshalJSON decodes an object member by member; null leaves x unchanged."}, nil)
	var required []jen.Code
	cases := []jen.Code{}
	for _, c := range t.Consts {
		if c.Required {
			required = append(required, jen.Lit(c.JSONName))
		}
		want := jen.Id(c.Const.Name)
		switch c.Const.Value.(type) {
		case int64, float64:
			want = jen.Float64().Call(jen.Id(c.Const.Name))
		}
		cases = append(cases, jen.Case(jen.Lit(c.JSONName)).Block(jen.Return(e.rt("ConstIs").Call(jen.Id("v"), want))))
	}
	for _, fl := range t.Fields {
		if fl.Required {
			required = append(required, jen.Lit(fl.JSONName))
		}
		cases = append(cases, jen.Case(jen.Lit(fl.JSONName)).Block(e.decodeField(fl)))
	}
	// other decodes a member with no field; it is the whole body where
	// the type has no fields.
	other := []jen.Code{jen.Return(e.rt("ErrNotAllowed"))}
	if t.Extra != nil {
		other = []jen.Code{
			jen.List(jen.Id("p").Dot(t.ExtraName), jen.Err()).Op("=").Add(e.rt("KeepMember")).Call(jen.Id("p").Dot(t.ExtraName), jen.Id("k"), jen.Id("v")),
			jen.Return(jen.Err()),
		}
	}
	if len(cases) > 0 {
		other = []jen.Code{jen.Switch(jen.String().Call(jen.Id("k"))).Block(append(cases, jen.Default().Block(other...))...)}
	}
	if len(required) > 64 {
		panic(fmt.Sprintf("%s has %d required members; UnmarshalObject tracks 64", t.Name, len(required)))
	}
	member := jen.Func().Params(jen.List(jen.Id("k"), jen.Id("v")).Index().Byte()).Params(jen.Err().Error()).Block(other...)
	f.Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Var().Id("p").Id(t.Name),
		jen.Return(e.rt("UnmarshalObject").Call(
			append([]jen.Code{jen.Id("x"), jen.Op("&").Id("p"), jen.Id("data"), jen.Lit(t.Name), member}, required...)...)),
	)
}

// decodeField is the code that decodes the member's value v into p's field.
func (e *emitter) decodeField(fl *Field) jen.Code {
	field := jen.Op("&").Id("p").Dot(fl.Name)
	g := fl.Type
	switch {
	case fl.Pointer:
		return jen.Return(e.rt("DecodePtr").Call(jen.Id("v"), field))
	case g.Prim == String || g.Named != nil && g.Named.Kind == KindScalar && g.Named.Elem.Prim == String:
		return jen.Return(e.rt("DecodeString").Call(jen.Id("v"), field))
	case g.Named != nil && (g.Named.Kind == KindStruct || g.Named.Kind == KindUnion || g.Named.Kind == KindRawUnion):
		return jen.Return(jen.Id("p").Dot(fl.Name).Dot("UnmarshalJSON").Call(jen.Id("v")))
	case g.Slice != nil && g.Slice.Named != nil && g.Slice.Named.Kind == KindStruct:
		return jen.Return(e.rt("DecodeSlice").Call(jen.Id("v"), field))
	}
	return jen.Return(e.rt("DecodeJSON").Call(jen.Id("v"), field))
}

// emitValidate writes the validation of t, where it has rules to check:
// Validate and validate, and Valid<Field> for its arrays of such types.
func (e *emitter) emitValidate(t *Type, f *jen.File) {
	if !model.HasValidate(t) || t.Kind == KindAlias {
		return
	}
	if e.keep.has(t, useValidate) {
		f.Line()
		docComments(f.Group, []string{"Validate reports every rule of the schema x breaks, as a *ValidationError."}, nil)
		recv, self := jen.Id("x").Op("*").Id(t.Name), jen.Id("x")
		if t.Kind != KindStruct {
			recv, self = jen.Id("x").Id(t.Name), jen.Op("&").Id("x")
		}
		f.Func().Params(recv).Id("Validate").Params().Error().Block(
			jen.Return(e.rt("ValidateValue").Call(jen.Lit(t.Name), self, jen.Parens(jen.Op("*").Id(t.Name)).Dot("validate"))),
		)
	}
	if e.keep.has(t, useCheck) {
		e.emitCheck(t, f)
	}
	for _, fl := range t.Fields {
		if model.ValidElements(fl) && e.keep.hasElems(fl) {
			e.emitValidElements(t, fl, f)
		}
	}
}

// emitCheck writes validate, which Validate and the validate of the types
// that hold t call.
func (e *emitter) emitCheck(t *Type, f *jen.File) {
	f.Line()
	recv2 := jen.Id("x").Op("*").Id(t.Name)
	if t.Kind != KindStruct {
		recv2 = jen.Id("x").Id(t.Name)
	}
	f.Func().Params(recv2).Id("validate").Params(jen.Id("v").Op("*").Add(e.rt("Validator")), jen.Id("at").Op("*").Add(e.rt("Path"))).BlockFunc(func(g *jen.Group) {
		switch t.Kind {
		case KindStruct:
			for _, fl := range t.Fields {
				e.validateField(g, fl)
			}
		case KindSlice:
			g.For(jen.Id("i").Op(":=").Range().Id("x")).Block(
				jen.Id("x").Index(jen.Id("i")).Dot("validate").Call(jen.Id("v"), jen.Id("at").Dot("Elem").Call(jen.Id("i"))),
			)
		case KindScalar:
			e.validateEnum(g, t)
		case KindMap:
			g.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Add(e.rt("SortedKeys")).Call(jen.Id("x"))).Block(
				jen.Id("e").Op(":=").Id("x").Index(jen.Id("k")),
				jen.Id("e").Dot("validate").Call(jen.Id("v"), jen.Id("at").Dot("Member").Call(jen.Id("k"))),
			)
		}
	})
}

// childPath is the path of fl's member under at, and of its element index
// when index is not nil.
func (e *emitter) childPath(fl *Field, index jen.Code) *jen.Statement {
	if index == nil {
		return jen.Id("at").Dot("Member").Call(jen.Lit(fl.JSONName))
	}
	return jen.Id("at").Dot("Item").Call(jen.Lit(fl.JSONName), index)
}

func (e *emitter) validateField(g *jen.Group, fl *Field) {
	x := jen.Id("x").Dot(fl.Name)
	add := func(msg jen.Code) jen.Code {
		return jen.Id("v").Dot("Add").Call(e.childPath(fl, nil), msg)
	}
	// Decoding checks that required members are present; here only a value
	// built in Go can lack one, and only where the zero value has no JSON
	// form (a union with no member, a nil pointer or any).
	required := add(jen.Lit("required"))
	if fl.Type.Prim == String {
		// A URI is checked where the schema says "format": "uri" and where
		// the roots feature restricts its schemes (Root.uri: file://, a rule
		// of the specification that the schema may not state).
		if fl.Format != "uri" && len(fl.URISchemes) == 0 {
			return
		}
		check := jen.If(jen.Id("msg").Op(":=").Add(e.rt("CheckURI")).Call(append([]jen.Code{x.Clone()}, litStrings(fl.URISchemes)...)...), jen.Id("msg").Op("!=").Lit("")).Block(add(jen.Id("msg")))
		if fl.Required {
			g.Add(check)
		} else {
			g.If(x.Clone().Op("!=").Lit("")).Block(check)
		}
		return
	}
	switch {
	case fl.Required && (fl.Pointer || fl.Type.Any):
		g.If(x.Clone().Op("==").Nil()).Block(required)
	case fl.Required && zeroIsUnset(fl.Type):
		g.If(x.Clone().Dot("IsZero").Call()).Block(required)
	}
	switch {
	case fl.Type.Named != nil && model.HasValidate(fl.Type.Named):
		call := x.Clone().Dot("validate").Call(jen.Id("v"), e.childPath(fl, nil))
		if fl.Pointer {
			g.If(x.Clone().Op("!=").Nil()).Block(call)
		} else if cond := omitCondition(fl, x.Clone()); cond != nil && model.Resolve(fl.Type.Named).Kind == KindScalar {
			// An optional enum member left at its zero value is absent.
			g.If(cond).Block(call)
		} else {
			g.Add(call)
		}
	case fl.Type.Slice != nil && fl.Type.Slice.Named != nil && model.HasValidate(fl.Type.Slice.Named):
		g.For(jen.Id("i").Op(":=").Range().Add(x.Clone())).Block(
			x.Clone().Index(jen.Id("i")).Dot("validate").Call(jen.Id("v"), e.childPath(fl, jen.Id("i"))),
		)
	case fl.Type.Map != nil && fl.Type.Map.Named != nil && model.HasValidate(fl.Type.Map.Named):
		g.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Add(e.rt("SortedKeys")).Call(x.Clone())).Block(
			jen.Id("e").Op(":=").Add(x.Clone()).Index(jen.Id("k")),
			jen.Id("e").Dot("validate").Call(jen.Id("v"), e.childPath(fl, nil).Dot("Member").Call(jen.Id("k"))),
		)
	}
}

// validateEnum checks that scalar t holds one of the values of its enum.
func (e *emitter) validateEnum(g *jen.Group, t *Type) {
	var names []jen.Code
	var values []string
	for _, c := range t.Enum {
		names = append(names, jen.Id(c.Name))
		values = append(values, model.EnumLiteral(c.Value))
	}
	verb := "%v"
	if t.Elem.Prim == String {
		verb = "%q"
	}
	msg := verb + " is not one of the allowed values (" + orList(values) + ")"
	g.Switch(jen.Id("x")).Block(
		jen.Case(names...),
		jen.Default().Block(jen.Id("v").Dot("Add").Call(jen.Id("at"), jen.Qual("fmt", "Sprintf").Call(jen.Lit(msg), jen.Id("x")))),
	)
}

func litStrings(ss []string) []jen.Code {
	var out []jen.Code
	for _, s := range ss {
		out = append(out, jen.Lit(s))
	}
	return out
}

// emitValidElements writes Valid<Field>: the lenient reading of an array,
// which keeps the valid elements and reports each invalid one by index.
func (e *emitter) emitValidElements(t *Type, fl *Field, f *jen.File) {
	elem := fl.Type.Slice.Named.Name
	name := model.ValidElementsName(fl)
	f.Line()
	docComments(f.Group, []string{
		fmt.Sprintf("%s returns the elements of %s that pass validation, in order, and a "+
			"*ValidationError naming each one that does not by its index (nil when all pass). "+
			"Use Validate to reject the whole value instead.", name, fl.Name),
	}, nil)
	f.Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id(name).Params().Params(jen.Index().Id(elem), jen.Error()).Block(
		jen.Return(e.rt("ValidElements").Call(jen.Lit(t.Name), jen.Lit(fl.JSONName), jen.Id("x").Dot(fl.Name), jen.Parens(jen.Op("*").Id(elem)).Dot("validate"))),
	)
}
