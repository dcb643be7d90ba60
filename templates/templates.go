// Package templates holds the text/template sources of the behaviour-shaped
// code rootsgen writes into every generated package: validation and JSON
// support, the package documentation, and runnable examples. The
// data-shaped declarations (one per schema definition) are emitted with
// jennifer in package generator instead. The sdk_*.go.tmpl templates write
// the opt-in SDK adapters (rootsgen -sdk), the only output that imports an
// SDK.
package templates

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

// Parse returns every template, named by its file name. The templates are
// parsed once; executing them concurrently is safe.
func Parse() (*template.Template, error) { return parsed() }

var parsed = sync.OnceValues(func() (*template.Template, error) {
	return template.New("").Option("missingkey=error").ParseFS(files, "*.tmpl")
})
