// Command gen writes generated/adapters_test.go (see package adapters). It
// runs from generated/generate.go's go:generate line, in generated/.
package main

import (
	"fmt"
	"os"

	"github.com/rootsgen/rootsgen/generated/internal/adapters"
)

func main() {
	src, err := adapters.Source()
	if err == nil {
		err = os.WriteFile(adapters.FileName, src, 0o644)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "adapters: %v\n", err)
		os.Exit(1)
	}
}
