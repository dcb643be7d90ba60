package generator

import "github.com/rootsgen/rootsgen/generator/internal/load"

// The load stage, package load: a schema file read within limits and
// normalized into one dialect-free Document.
type (
	// LoadOptions bound the work the loader does on untrusted input.
	LoadOptions = load.Options
	// Document is a schema file after loading and normalization.
	Document = load.Document
	// A LoadError is a schema that cannot be loaded, with where it went
	// wrong.
	LoadError = load.Error
)

// Default limits of the loader, and the bound of MaxDepth.
const (
	DefaultMaxBytes = load.DefaultMaxBytes
	DefaultMaxDepth = load.DefaultMaxDepth
	DefaultMaxEnum  = load.DefaultMaxEnum
	MaxMaxDepth     = load.MaxMaxDepth
)

// Load parses a schema file and normalizes it (see package load).
func Load(data []byte, opts LoadOptions) (*Document, error) { return load.Load(data, opts) }

// RefName is the definition name a local $ref names.
func RefName(ref string) string { return load.RefName(ref) }
