// Package templates holds what rootsgen writes besides the declarations it
// emits with jennifer (package generator): the runtime every revision
// shares, the real Go package rootsrt with its tests beside it (Runtime),
// and the text/template sources of the glue that varies with the schema:
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

// Runtime holds the sources of package rootsrt: the behaviour every
// revision shares, written once as real, tested Go. rootsgen writes it out
// as a package of its own, or into the package of a single revision. The
// files are listed one by one so that the tests beside them stay out of
// rootsgen's binary; TestRuntimeFiles keeps the list whole.
//
//go:embed rootsrt/asker.go rootsrt/bounds.go rootsrt/client.go rootsrt/codec.go rootsrt/dirpool.go rootsrt/errors.go rootsrt/gate.go
//go:embed rootsrt/limit_other.go rootsrt/limit_unix.go rootsrt/problems.go
//go:embed rootsrt/sealer.go rootsrt/set.go rootsrt/set_linux.go rootsrt/set_other.go rootsrt/set_wasm.go
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
