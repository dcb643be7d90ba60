package rootsrt_test

import (
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"

	"github.com/rootsgen/rootsgen/rootsrt"
)

// project makes a directory for the examples to use as a client's root:
// notes.txt, src/main.go, src/util.go, and, beside the root, a file the
// client did not share, with a link to it from inside. The caller removes
// the returned parent.
func project() (parent, root string) {
	parent, err := os.MkdirTemp("", "rootsrt-example")
	if err != nil {
		log.Fatal(err)
	}
	parent, _ = filepath.EvalSymlinks(parent)
	root = filepath.Join(parent, "project")
	for name, content := range map[string]string{
		"project/notes.txt":   "remember the milk\n",
		"project/src/main.go": "package main\n",
		"project/src/util.go": "package main\n",
		"private.key":         "not for the client\n",
	} {
		p := filepath.Join(parent, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	if err := os.Symlink("../private.key", filepath.Join(root, "key")); err != nil {
		log.Fatal(err)
	}
	return parent, root
}

// clientRoots is the set of the roots a client gave, as file URIs. A
// server gets its set from its kit's adapter instead; this builds one from
// plain URIs.
func clientRoots(uris ...string) *rootsrt.RootSetOf[string] {
	set, err := rootsrt.NewRootSetOf(uris, func(u *string) string { return *u }, nil)
	if err != nil {
		log.Fatal(err)
	}
	return set
}

// A tool that reads a file for the client reads it through the set: inside
// a root it reads, and a path that leads out, by ".." or by a link, is
// refused.
func ExampleRootSetOf_ReadFile() {
	parent, root := project()
	defer os.RemoveAll(parent)
	set := clientRoots("file://" + root)
	defer set.Close()

	data, err := set.ReadFile(filepath.Join(root, "notes.txt"))
	fmt.Printf("%q %v\n", data, err)
	for _, p := range []string{root + "/../private.key", root + "/key"} {
		_, err := set.ReadFile(p)
		fmt.Println(errors.Is(err, rootsrt.ErrOutsideRoots))
	}
	// Output:
	// "remember the milk\n" <nil>
	// true
	// true
}

// WriteFile writes regular files inside the roots, and only there.
func ExampleRootSetOf_WriteFile() {
	parent, root := project()
	defer os.RemoveAll(parent)
	set := clientRoots("file://" + root)
	defer set.Close()

	err := set.WriteFile(filepath.Join(root, "src", "gen.go"), []byte("package main\n"), 0o644)
	fmt.Println(err)
	err = set.WriteFile(filepath.Join(root, "key"), []byte("overwritten"), 0o644) // a link out
	fmt.Println(errors.Is(err, rootsrt.ErrOutsideRoots))
	// Output:
	// <nil>
	// true
}

// A directory is listed through the set's FS, whose names are the paths
// without their leading "/".
func ExampleRootSetOf_FS_list() {
	parent, root := project()
	defer os.RemoveAll(parent)
	set := clientRoots("file://" + root)
	defer set.Close()

	entries, err := fs.ReadDir(set.FS(), filepath.ToSlash(root[1:])+"/src")
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range entries {
		fmt.Println(e.Name())
	}
	// Output:
	// main.go
	// util.go
}

// fs.WalkDir walks a root through the set: the link out is listed as the
// link it is, and reading it is refused.
func ExampleRootSetOf_FS_walk() {
	parent, root := project()
	defer os.RemoveAll(parent)
	set := clientRoots("file://" + root)
	defer set.Close()

	fsys := set.FS()
	top := filepath.ToSlash(root[1:])
	err := fs.WalkDir(fsys, top, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		_, err = fs.ReadFile(fsys, name)
		rel, _ := filepath.Rel(top, name)
		fmt.Printf("%s: outside=%v\n", rel, errors.Is(err, rootsrt.ErrOutsideRoots))
		return nil
	})
	fmt.Println(err)
	// Output:
	// key: outside=true
	// notes.txt: outside=false
	// src/main.go: outside=false
	// src/util.go: outside=false
	// <nil>
}

// fs.Glob finds names inside the roots only.
func ExampleRootSetOf_FS_glob() {
	parent, root := project()
	defer os.RemoveAll(parent)
	set := clientRoots("file://" + root)
	defer set.Close()

	top := filepath.ToSlash(root[1:])
	matches, err := fs.Glob(set.FS(), top+"/src/*.go")
	for _, m := range matches {
		rel, _ := filepath.Rel(top, m)
		fmt.Println(rel)
	}
	fmt.Println(err)
	// Output:
	// src/main.go
	// src/util.go
	// <nil>
}
