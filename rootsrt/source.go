package rootsrt

import "embed"

// Source holds this package's Go files but its tests, doc.go and this
// one: what rootsgen -runtime copy writes into a generated package that
// must import nothing but the standard library. A program that does not
// name Source carries none of it (the linker drops it).
//
//go:embed asker.go bounds.go client.go codec.go dirpool.go errors.go gate.go
//go:embed limit_other.go limit_unix.go problems.go sealer.go set.go
//go:embed set_linux.go set_ops.go set_other.go set_wasm.go version.go
var Source embed.FS
