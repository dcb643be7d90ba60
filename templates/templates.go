// Package templates holds what rootsgen writes besides the declarations it
// emits with jennifer (package generator) and the runtime that generated
// code imports (package rootsrt): the text/template sources of the glue
// that varies with the schema:
// handlers, the revision's gate descriptor, the kit's front package, the
// package documentation and the examples. The opt-in SDK adapters (rootsgen
// -sdk), the only output that imports an SDK, are real Go packages of the
// nested module sdk/, compiled and tested there, and bundled here as text
// (SDKAdapters, sdk_adapters.go).
package templates

//go:generate go run ./internal/sdkbundle

import (
	"embed"
	"sync"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

// An SDKAdapter is the source of one SDK adapter, adapter.go of its
// package under sdk/, written as if in a kit's front package (the gate's
// names unqualified), with the SDK module it imports and the version
// sdk/go.mod builds and tests it with.
type SDKAdapter struct {
	Module, Version string
	Source          string
}

// Parse returns every template, named by its file name. The templates are
// parsed once; executing them concurrently is safe.
func Parse() (*template.Template, error) { return parsed() }

var parsed = sync.OnceValues(func() (*template.Template, error) {
	return template.New("").Option("missingkey=error").ParseFS(files, "*.tmpl")
})
