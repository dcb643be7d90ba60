package generator

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/rootsrt"
	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
)

// TestContractMismatch: a package generated for this runtime's contract,
// built against a runtime of another (here, one whose Contract is a
// Contract2 that no longer serves contract 1), fails to compile with an
// error that names both; against this runtime it builds.
func TestContractMismatch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package with the go command")
	}
	files, _, err := Generate(Options{Revision: "2025-06-18", Package: "mcproots", Version: "v0.9.0", Runtime: RuntimeImport})
	if err != nil {
		t.Fatal(err)
	}
	for _, other := range []bool{false, true} {
		dir := t.TempDir()
		write := func(name string, content []byte) {
			t.Helper()
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range files {
			if !strings.HasSuffix(f.Name, "_test.go") {
				write("app/mcproots/"+f.Name, f.Content)
			}
		}
		write("app/go.mod", []byte("module example.com/app\n\ngo 1.25.0\n\nrequire github.com/rootsgen/rootsgen v0.0.0\n\nreplace github.com/rootsgen/rootsgen => ../rt\n"))
		// The runtime, from its own sources, with the contract this case
		// gives it.
		write("rt/go.mod", []byte("module github.com/rootsgen/rootsgen\n\ngo 1.25.0\n"))
		for dir, source := range map[string]embed.FS{"rt/rootsrt/": rootsrt.Source, "rt/rootsrt/rtimpl/": rtimpl.Source} {
			err := fs.WalkDir(source, ".", func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				src, err := fs.ReadFile(source, p)
				if dir+p == "rt/rootsrt/rtimpl/version.go" && other {
					src = []byte("package rtimpl\n\nvar Contract Contract2\n\ntype Contract2 struct{}\n\nfunc (Contract2) GeneratedForContract2() {}\n")
				}
				write(dir+p, src)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command("go", "build", "./...")
		cmd.Dir = filepath.Join(dir, "app")
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		switch {
		case !other && err != nil:
			t.Errorf("built against this runtime: %v\n%s", err, out)
		case other && err == nil:
			t.Error("built against a runtime of another contract")
		case other && (!strings.Contains(string(out), "rtimpl.Contract2 does not implement interface{GeneratedForContract1()}") || !strings.Contains(string(out), "runtime.go")):
			t.Errorf("the error does not name both contracts in runtime.go:\n%s", out)
		}
	}
}

// TestContractIsTheRuntimes: the contract rootsgen generates for is one
// its own runtime serves.
func TestContractIsTheRuntimes(t *testing.T) {
	want := fmt.Sprintf("GeneratedForContract%d", runtimeContract)
	if _, ok := reflect.TypeOf(rtimpl.Contract).MethodByName(want); !ok {
		t.Errorf("rootsgen generates for contract %d; its runtime's Contract, a %T, has no %s", runtimeContract, rtimpl.Contract, want)
	}
}
