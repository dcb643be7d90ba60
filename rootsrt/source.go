package rootsrt

import "embed"

// Source holds this package's Go files but its tests, doc.go and this
// one: what rootsgen -runtime copy writes into a generated package that
// must import nothing but the standard library. A program that does not
// name Source carries none of it (the linker drops it).
//
//go:embed audit.go bounds.go client.go dirpool.go gate.go limit_other.go limit_unix.go
//go:embed sealer.go set.go set_linux.go set_ops.go set_other.go set_wasm.go
//go:embed shared.go
var Source embed.FS
