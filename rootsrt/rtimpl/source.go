package rtimpl

import "embed"

// Source holds this package's Go files but its tests, doc.go and this one: with
// rootsrt.Source, what rootsgen -runtime copy writes into generated code.
//
//go:embed answer.go asker.go codec.go errors.go problems.go revision.go version.go
var Source embed.FS
