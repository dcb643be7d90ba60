package writer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A File's Name may name a file in a subdirectory of the output directory,
// such as "rootsrt/rootset.go", so that one write covers a tree of
// packages: one lock and one journal, at the top directory, for all of it.
// This file holds what the write needs for that: the rules for names, the
// checks on the directories on a name's way, and the search for stale
// files below the top directory.

// maxNameDirs is how many directories deep below the output directory a
// file may be: "rootsrt/rootset.go" is one deep, "rootsrt/internal/wire.go"
// two. A tree is a front package, a runtime and one package per revision,
// so one would do; two leave room for an internal package of one of them,
// and the bound keeps the search for stale files from walking a deep tree
// that is not rootsgen's.
const maxNameDirs = 2

// checkNames refuses files that Write could not write where it is told to:
// a name that is not a clean relative path with "/" as separator, with at
// most maxNameDirs directories and a Go file at its end; a name given
// twice; a name that is also the directory of another.
func checkNames(files []File) error {
	seen := map[string]bool{}
	for _, f := range files {
		if err := checkName(f.Name); err != nil {
			return err
		}
		if seen[f.Name] {
			return fmt.Errorf("bad file name %q: given twice", f.Name)
		}
		seen[f.Name] = true
	}
	for _, f := range files {
		for _, dir := range parentDirs(f.Name) {
			if seen[dir] {
				return fmt.Errorf("bad file name %q: %s is also a file", f.Name, dir)
			}
		}
	}
	return nil
}

// checkName checks one name as checkNames does.
func checkName(name string) error {
	bad := func(why string) error { return fmt.Errorf("bad file name %q: %s", name, why) }
	switch {
	case name == "":
		return bad("empty")
	case strings.ContainsRune(name, 0):
		return bad("it holds a NUL byte")
	case strings.Contains(name, `\`):
		return bad(`it holds a backslash; the separator is "/"`)
	case strings.HasPrefix(name, "/"):
		return bad("it must be relative to the output directory")
	case strings.HasSuffix(name, "/"):
		return bad("it names a directory")
	}
	elems := strings.Split(name, "/")
	for _, e := range elems {
		switch {
		case e == "":
			return bad("an empty element")
		case e == "." || e == "..":
			return bad("it must be clean, without . or .. elements")
		case strings.HasPrefix(e, "."):
			// The journal and the temporary files are named so; the go
			// tool ignores such files and directories anyway.
			return bad("an element starts with a dot")
		}
	}
	if len(elems)-1 > maxNameDirs {
		return bad(fmt.Sprintf("more than %d directories deep", maxNameDirs))
	}
	if !isGoFileName(elems[len(elems)-1]) {
		return bad("not a Go file")
	}
	return nil
}

// checkDirName checks a directory name of a journal as checkName checks a
// file's.
func checkDirName(dir string) error {
	if checkName(dir+"/x.go") != nil {
		return fmt.Errorf("bad directory name %q", dir)
	}
	return nil
}

// parentDirs lists the directories on name's way below the top, parents
// first: "a/b/c.go" gives "a" and "a/b".
func parentDirs(name string) []string {
	var dirs []string
	for i := range len(name) {
		if name[i] == '/' {
			dirs = append(dirs, name[:i])
		}
	}
	return dirs
}

// existingDir reports whether dir, a directory below root, exists. It
// looks at each directory on the way in turn, and it is an error for any
// of them to be something else than a directory: a symbolic link, even
// one that points inside root, is refused as the output directory itself
// is, so that a name is written where it says.
func existingDir(root *os.Root, dir string) (bool, error) {
	for _, p := range append(parentDirs(dir), dir) {
		info, err := root.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return false, nil
		case err != nil:
			return false, err
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(filepath.Join(root.Name(), filepath.FromSlash(p)))
			return false, fmt.Errorf("%s in the output directory is a symbolic link (to %s); refusing to write through it", p, target)
		case !info.IsDir():
			return false, fmt.Errorf("%s in the output directory is not a directory; refusing to replace it", p)
		}
	}
	return true, nil
}

// makeDirs creates the directories on name's way that are missing, parents
// first, refusing any that is not a directory, and returns those it made.
func makeDirs(root *os.Root, name string) (made []string, err error) {
	for _, dir := range parentDirs(name) {
		ok, err := existingDir(root, dir)
		if err != nil {
			return made, err
		}
		if ok {
			continue
		}
		if err := root.Mkdir(dir, 0o755); err != nil {
			return made, err
		}
		made = append(made, dir)
	}
	return made, nil
}

// removeEmptyDir removes dir below root if it is still a directory that
// holds nothing, and reports whether it did. A directory that holds
// something, or is no longer a directory, is left as it is: it is no
// longer only rootsgen's.
func removeEmptyDir(root *os.Root, dir string) (bool, error) {
	info, err := root.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil || !info.IsDir() {
		return false, err
	}
	err = root.Remove(dir)
	if err != nil {
		if entries, rerr := fs.ReadDir(root.FS(), dir); rerr == nil && len(entries) > 0 {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// staleTree finds what an earlier run wrote below root that files no
// longer have. In dir (relative to root, "." for the top) it lists the Go
// files that start with rootsgen's header and are not among want; when
// tree is set, it does the same in the subdirectories, down to
// maxNameDirs deep, and lists those of them that are left empty by the
// removal of such files and are not named by want, deepest first, to be
// removed too. A subdirectory that holds anything else is kept: a file
// rootsgen did not write, a symbolic link, a directory it does not look
// in (hidden, or deeper). A subdirectory that is a symbolic link is not
// looked in. It reports whether dir itself is left empty by the removals.
func staleTree(root *os.Root, dir string, depth int, want, named map[string]bool, tree bool) (stale, dirs []string, emptied bool, err error) {
	entries, err := fs.ReadDir(root.FS(), dir)
	if err != nil {
		return nil, nil, false, err
	}
	kept := 0
	for _, e := range entries {
		name := e.Name()
		if dir != "." {
			name = dir + "/" + name
		}
		switch {
		case e.Type().IsRegular() && strings.HasSuffix(name, ".go") && !want[name]:
			ours, err := hasHeader(root, name)
			if err != nil {
				return nil, nil, false, err
			}
			if !ours {
				kept++
				continue
			}
			stale = append(stale, name)
		case tree && e.IsDir() && depth < maxNameDirs && !strings.HasPrefix(e.Name(), "."):
			s, d, empty, err := staleTree(root, name, depth+1, want, named, tree)
			if err != nil {
				return nil, nil, false, err
			}
			stale = append(stale, s...)
			dirs = append(dirs, d...)
			if !empty || named[name] {
				kept++
				continue
			}
			dirs = append(dirs, name)
		default:
			kept++
		}
	}
	// A directory that held nothing of rootsgen's is not rootsgen's to
	// remove, even empty.
	return stale, dirs, kept == 0 && len(stale)+len(dirs) > 0, nil
}
