// Command gen writes generated/adapters_test.go and the test module's
// cmd/internal/peers/generated/adapters_test.go (see package adapters). It
// runs from generated/generate.go's go:generate line, in generated/.
package main

import (
	"fmt"
	"os"

	"github.com/rootsgen/rootsgen/generated/internal/adapters"
)

func main() {
	for _, f := range []struct {
		name   string
		source func() ([]byte, error)
	}{{adapters.FileName, adapters.Source}, {adapters.PeersFileName, adapters.PeersSource}} {
		src, err := f.source()
		if err == nil {
			err = os.WriteFile(f.name, src, 0o644)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "adapters: %v\n", err)
			os.Exit(1)
		}
	}
}
