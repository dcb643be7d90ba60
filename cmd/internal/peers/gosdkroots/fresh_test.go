package gosdkroots_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/rootsgen/rootsgen/generator"
)

var sdkDirective = regexp.MustCompile(`(?m)^//go:generate go run github.com/rootsgen/rootsgen/cmd/rootsgen -sdk (\S+) -gate-import (\S+) -out \.$`)

// TestAdapterFresh fails when gosdk.go is not what rootsgen writes for the
// directive in generate.go; regenerate with
//
//	go -C cmd/internal/peers generate ./gosdkroots
func TestAdapterFresh(t *testing.T) {
	src, err := os.ReadFile("generate.go")
	if err != nil {
		t.Fatal(err)
	}
	m := sdkDirective.FindStringSubmatch(string(src))
	if m == nil {
		t.Fatal("generate.go has no rootsgen -sdk line")
	}
	files, err := generator.GenerateSDK(generator.SDKOptions{SDK: m[1], Package: "gosdkroots", GateImport: m[2]})
	if err != nil {
		t.Fatal(err)
	}
	changes, err := generator.Diff(".", files)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		t.Errorf("gosdkroots is stale: %s (run go -C cmd/internal/peers generate ./gosdkroots)", c)
	}
	// The header names the SDK and the version the file was written
	// for, which is the one this module pins and the test is built with.
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.ParseLax("go.mod", gomod, nil)
	if err != nil {
		t.Fatal(err)
	}
	pinned := ""
	for _, r := range mf.Require {
		if r.Mod.Path == "github.com/modelcontextprotocol/go-sdk" {
			pinned = r.Mod.Version
		}
	}
	got, err := os.ReadFile("gosdk.go")
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(got), "\n")
	if want := " for github.com/modelcontextprotocol/go-sdk " + pinned + ". DO NOT EDIT."; pinned == "" || !strings.HasSuffix(first, want) {
		t.Errorf("gosdk.go's header does not name the pinned go-sdk %q: %s", pinned, first)
	}
}
