// Command gen writes the generator's runtime_table.go (go generate in
// package generator runs it there).
package main

import (
	"log"
	"os"

	"github.com/rootsgen/rootsgen/generator/internal/rttable"
)

func main() {
	src, err := rttable.Source()
	if err != nil {
		log.Fatalf("rttable: %v", err)
	}
	if err := os.WriteFile("runtime_table.go", src, 0o644); err != nil {
		log.Fatalf("rttable: %v", err)
	}
}
