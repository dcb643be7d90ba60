// Package templates holds the text/template sources of the behaviour-shaped
// code rootsgen writes into every generated package: validation and JSON
// support, the package documentation, and runnable examples. The
// data-shaped declarations (one per schema definition) are emitted with
// jennifer in package generator instead. The opt-in SDK adapters (rootsgen
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

// Runtime holds the sources of package rootsrt (rootsrt/*.go): the
// behaviour every revision shares, written once as real, tested Go, its
// tests beside it (rootsgen leaves the _test.go files out). rootsgen
// writes it out as a package of its own, or into the package of a single
// revision.
//
//go:embed rootsrt/*.go
var Runtime embed.FS

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
