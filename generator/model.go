package generator

import "github.com/rootsgen/rootsgen/generator/internal/model"

// The model stage, package model: the roots definitions selected from a
// Document (Select), the model of the revision built from them (Build),
// and the plan of what its package holds, made from the model. What the
// generator writes reads these; the names the output declares itself come
// in from declared.go (modelReserved), so that the model keeps clear of
// them.
type (
	// Model is one revision's model: its types, constants, features,
	// renames and plan.
	Model = model.Model
	// Features are what a revision's schema says of the roots feature.
	Features = model.Features
	// Type is a named Go type made from the schema.
	Type = model.Type
	// Kind is the shape of a Type.
	Kind = model.Kind
	// Field is a member of a struct Type.
	Field = model.Field
	// GoType is a reference to a type from a field or an element.
	GoType = model.GoType
	// Primitive is a JSON type with one Go type.
	Primitive = model.Primitive
	// Const is a package-level constant made from the schema.
	Const = model.Const
	// ConstField is a struct member with a fixed value.
	ConstField = model.ConstField
	// Plan is what a revision's package has of the roots feature.
	Plan = model.Plan
	// Handlers, ListChanged, AskFields, EnvelopeID, Paging and
	// ExampleFills are the parts of a Plan that have Go names.
	Handlers     = model.Handlers
	ListChanged  = model.ListChanged
	AskFields    = model.AskFields
	EnvelopeID   = model.EnvelopeID
	Paging       = model.Paging
	ExampleFills = model.ExampleFills
	Fill         = model.Fill
	// A Warning is a part of the roots feature left out of the package.
	Warning = model.Warning
	// A Rename is a name made from the schema that the package declares
	// itself, and the name it gets instead.
	Rename = model.Rename
	// Selection is the roots definitions of a schema, cut down.
	Selection = model.Selection
	// A MissingDefinitionsError is a schema without the definitions every
	// roots binding needs.
	MissingDefinitionsError = model.MissingDefinitionsError
)

// The kinds of Type, and the primitives.
const (
	KindStruct   = model.KindStruct
	KindMap      = model.KindMap
	KindSlice    = model.KindSlice
	KindScalar   = model.KindScalar
	KindUnion    = model.KindUnion
	KindRawUnion = model.KindRawUnion
	KindAny      = model.KindAny
	KindAlias    = model.KindAlias

	String  = model.String
	Integer = model.Integer
	Number  = model.Number
	Boolean = model.Boolean
	Null    = model.Null
)

// SubsetMarker is the "$comment" of a definition that holds only the
// roots part of the upstream one.
const SubsetMarker = model.SubsetMarker

// Select picks the roots definitions of doc and cuts them down (see
// package model).
func Select(doc *Document) (*Selection, error) { return model.Select(doc) }

// Build makes the model of one revision from the selected definitions,
// its names clear of those the generated package declares itself.
func Build(revision string, doc *Document, sel *Selection) (*Model, error) {
	return model.Build(revision, doc, sel, modelReserved())
}
