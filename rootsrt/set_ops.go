package rootsrt

import (
	"cmp"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"
)

// The file methods below are os.Root's, for a set of roots: each acts
// through the directory of the root that holds its path (see RootSetOf),
// with os.Root's signature and semantics but for what the doc comments
// say. Paths are absolute; errors are *fs.PathError (*os.LinkError for
// Rename and Link) naming the paths given.

// errOtherRoot is the error of Rename and Link between two roots: each
// acts within the directory of one root. It matches [syscall.EXDEV], the
// error of rename(2) across file systems, so code that falls back to copy
// and remove for that does so here too.
var errOtherRoot error = otherRootError{}

type otherRootError struct{}

func (otherRootError) Error() string        { return "the names are in different roots of the set" }
func (otherRootError) Is(target error) bool { return target == syscall.EXDEV }

// Create is [os.Root.Create] through the root that holds p.
func (s *rootSet) Create(p string) (*os.File, error) {
	return s.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

// WriteFile is [os.Root.WriteFile] through the root that holds p, but for
// a regular file only: a FIFO, device or directory there is refused with
// [ErrNotRegularFile] (its type is read before it is opened, and again
// after, without blocking), and the file is truncated only once it is
// known to be one.
func (s *rootSet) WriteFile(p string, data []byte, perm fs.FileMode) error {
	return s.audited(s.writeFile(p, data, perm))
}

// writeFile is WriteFile, not audited.
func (s *rootSet) writeFile(p string, data []byte, perm fs.FileMode) error {
	f, err := act(s, "open", p, resolveMode{missing: true}, func(dir *os.Root, name string) (*os.File, error) {
		if info, err := dir.Stat(name); err == nil && !info.Mode().IsRegular() {
			return nil, ErrNotRegularFile
		}
		return dir.OpenFile(name, os.O_WRONLY|os.O_CREATE|oNonblock, perm)
	})
	if err != nil {
		return err
	}
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		return pathError("write", p, cmp.Or(err, ErrNotRegularFile))
	}
	err = f.Truncate(0)
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return pathError("write", p, err)
}

// RemoveAll is [os.Root.RemoveAll] through the root that holds p: a final
// link is removed, not what it points to, and a missing p is no error. It
// refuses (EBUSY) to remove the directory of a root, or a directory that
// holds one.
func (s *rootSet) RemoveAll(p string) error {
	return s.audited(s.removeAll(p))
}

// removeAll is RemoveAll, not audited.
func (s *rootSet) removeAll(p string) error {
	q, _ := s.trimFinal(p)
	real, _, _, err := s.resolveIn("removeall", q, resolveMode{keepLast: true, missing: true})
	if err != nil {
		return err
	}
	for _, dir := range s.paths {
		if within(dir, real, s.windows) {
			return &fs.PathError{Op: "removeall", Path: p, Err: syscall.EBUSY}
		}
	}
	_, err = act(s, "removeall", q, resolveMode{keepLast: true, missing: true}, func(dir *os.Root, name string) (struct{}, error) {
		info, err := identify(dir, name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return struct{}{}, nil
		case err != nil:
			return struct{}{}, err
		case info.IsDir() && s.isRootDir(info):
			return struct{}{}, syscall.EBUSY
		}
		return struct{}{}, dir.RemoveAll(name)
	})
	return pathError("removeall", p, err)
}

// Rename is [os.Root.Rename] for two paths of the set, which must lie in
// the directory of the same root (else an *os.LinkError whose Err
// matches [syscall.EXDEV]): a final link of either is renamed or replaced, not
// followed. The directory of a root is neither renamed nor replaced
// (EBUSY).
func (s *rootSet) Rename(oldpath, newpath string) error {
	return s.audited(s.pair("rename", oldpath, newpath, (*os.Root).Rename))
}

// Link is [os.Root.Link] for two paths of the set, in the directory of the
// same root: newpath becomes a hard link to what oldpath names (a final
// link itself, not what it points to).
func (s *rootSet) Link(oldpath, newpath string) error {
	return s.audited(s.pair("link", oldpath, newpath, (*os.Root).Link))
}

// pair runs f, Rename or Link, on oldpath and newpath relative to the
// directory of the root that holds both.
func (s *rootSet) pair(op, oldpath, newpath string, f func(*os.Root, string, string) error) error {
	fail := func(err error) error {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return &os.LinkError{Op: op, Old: oldpath, New: newpath, Err: err}
	}
	if s.closed.Load() {
		return fail(fs.ErrClosed)
	}
	oldq, _ := s.trimFinal(oldpath)
	newq, _ := s.trimFinal(newpath)
	_, i, oldRel, err := s.resolveIn(op, oldq, resolveMode{keepLast: true})
	if err != nil {
		return fail(err)
	}
	_, j, newRel, err := s.resolveIn(op, newq, resolveMode{keepLast: true, missing: true})
	switch {
	case err != nil:
		return fail(err)
	case i != j:
		return fail(errOtherRoot)
	case oldRel == "." || newRel == ".":
		return fail(syscall.EBUSY)
	}
	d, err := s.use(i)
	if err != nil {
		return fail(err)
	}
	defer d.done()
	dir, err := d.osRoot()
	if err == nil {
		err = f(dir, oldRel, newRel)
	}
	if err != nil {
		return fail(err)
	}
	return nil
}

// Symlink is [os.Root.Symlink] through the root that holds newpath: it
// makes newpath a link whose text is oldname, whatever it says (no file
// method follows a link out of the roots).
func (s *rootSet) Symlink(oldname, newpath string) error {
	q, _ := s.trimFinal(newpath)
	_, err := act(s, "symlink", q, resolveMode{missing: true, keepLast: true}, func(dir *os.Root, name string) (struct{}, error) {
		return struct{}{}, dir.Symlink(oldname, name)
	})
	return s.audited(pathError("symlink", newpath, err))
}

// Readlink is [os.Root.Readlink] through the root that holds p: the text
// of the link p names.
func (s *rootSet) Readlink(p string) (string, error) {
	target, err := act(s, "readlink", p, resolveMode{keepLast: true}, (*os.Root).Readlink)
	return target, s.audited(err)
}

// Chmod is [os.Root.Chmod] through the root that holds p, which a final
// link leads to.
func (s *rootSet) Chmod(p string, mode fs.FileMode) error {
	_, err := act(s, "chmod", p, resolveMode{}, func(dir *os.Root, name string) (struct{}, error) {
		return struct{}{}, dir.Chmod(name, mode)
	})
	return s.audited(err)
}

// Chown is [os.Root.Chown] through the root that holds p, which a final
// link leads to.
func (s *rootSet) Chown(p string, uid, gid int) error {
	_, err := act(s, "chown", p, resolveMode{}, func(dir *os.Root, name string) (struct{}, error) {
		return struct{}{}, dir.Chown(name, uid, gid)
	})
	return s.audited(err)
}

// Lchown is [os.Root.Lchown] through the root that holds p: a final link
// is changed itself.
func (s *rootSet) Lchown(p string, uid, gid int) error {
	_, err := act(s, "lchown", p, resolveMode{keepLast: true}, func(dir *os.Root, name string) (struct{}, error) {
		return struct{}{}, dir.Lchown(name, uid, gid)
	})
	return s.audited(err)
}

// Chtimes is [os.Root.Chtimes] through the root that holds p, which a
// final link leads to.
func (s *rootSet) Chtimes(p string, atime, mtime time.Time) error {
	_, err := act(s, "chtimes", p, resolveMode{}, func(dir *os.Root, name string) (struct{}, error) {
		return struct{}{}, dir.Chtimes(name, atime, mtime)
	})
	return s.audited(err)
}

// OpenRoot is [os.Root.OpenRoot] through the root that holds p: a new
// os.Root on the directory p names, which the caller closes; what it does
// through it stays inside that directory. Its Name is p, cleaned, where p
// still names the directory when it is opened.
func (s *rootSet) OpenRoot(p string) (*os.Root, error) {
	r, err := act(s, "openroot", p, resolveMode{}, func(dir *os.Root, name string) (*os.Root, error) {
		return dir.OpenRoot(dirSelf(name))
	})
	if err != nil {
		return nil, s.audited(err)
	}
	// The same directory by its path, for its name: looked at first, so
	// that nothing else is opened where p no longer leads to it.
	c, _ := s.canonical(p)
	id, err := identify(r, ".")
	if err != nil || !sameAs(id, c) {
		return r, nil
	}
	named, err := os.OpenRoot(c)
	if err != nil {
		return r, nil
	}
	if again, err := identify(named, "."); err != nil || !os.SameFile(again, id) {
		named.Close()
		return r, nil
	}
	r.Close()
	return named, nil
}

// FS returns the set as an [io/fs.FS], for fs.WalkDir, fs.Glob,
// http.FileServerFS and the rest: name "srv/data/f.txt" is the path
// "/srv/data/f.txt" (on Windows, "C:/x" is C:\x), and each method is the
// set's (Open, ReadFile, ReadDir, Stat), so nothing outside the roots is
// read, however the tree changes during a walk. Names must be valid
// (fs.ValidPath: no ".." or final "/"), and "." (the file system's root)
// is inside a root only when one is "/". The errors are *fs.PathError
// naming the name given. The FS implements fs.ReadFileFS, fs.ReadDirFS,
// fs.StatFS and fs.ReadLinkFS.
func (s *rootSet) FS() fs.FS { return setFS{s} }

type setFS struct{ s *rootSet }

// path is the set's path of name, an fs.FS name.
func (f setFS) path(op, name string) (string, error) {
	if !fs.ValidPath(name) || f.s.windows && name == "." {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	switch {
	case f.s.windows:
		return strings.ReplaceAll(name, "/", `\`), nil
	case name == ".":
		return "/", nil
	}
	return "/" + name, nil
}

// named is err with the fs.FS name in its *fs.PathError.
func named(err error, name string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
	}
	return err
}

func (f setFS) Open(name string) (fs.File, error) {
	p, err := f.path("open", name)
	if err != nil {
		return nil, err
	}
	file, err := f.s.Open(p)
	if err != nil {
		return nil, named(err, name)
	}
	return file, nil
}

// fsCall runs the set's method m on the path of name.
func fsCall[T any](f setFS, op, name string, m func(string) (T, error)) (T, error) {
	p, err := f.path(op, name)
	if err != nil {
		var zero T
		return zero, err
	}
	v, err := m(p)
	return v, named(err, name)
}

func (f setFS) ReadFile(name string) ([]byte, error) {
	return fsCall(f, "readfile", name, f.s.ReadFile)
}

func (f setFS) Stat(name string) (fs.FileInfo, error) { return fsCall(f, "stat", name, f.s.Stat) }

func (f setFS) Lstat(name string) (fs.FileInfo, error) { return fsCall(f, "lstat", name, f.s.Lstat) }

func (f setFS) ReadLink(name string) (string, error) {
	return fsCall(f, "readlink", name, f.s.Readlink)
}

func (f setFS) ReadDir(name string) ([]fs.DirEntry, error) {
	return fsCall(f, "readdir", name, func(p string) ([]fs.DirEntry, error) {
		dir, err := f.s.Open(p)
		if err != nil {
			return nil, err
		}
		defer dir.Close()
		entries, err := dir.ReadDir(-1)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
		return entries, nil
	})
}
