package writer

import (
	"os"
	"path"
	"syscall"
)

// renameIn renames from, a plain name in root's directory, to to, a name
// below it (in a subdirectory, if it has a "/"), replacing to. It is
// os.Root.Rename, which needs Go 1.25, for the Go 1.24 this module
// supports: renameat from the directory root holds open into to's
// directory opened through root, so a directory swapped in at root's path
// after it was opened is not touched, and to's directory is the one root
// finds.
func renameIn(root *os.Root, from, to string) error {
	src, err := root.Open(".")
	if err != nil {
		return err
	}
	defer src.Close()
	dst := src
	if dir := path.Dir(to); dir != "." {
		if dst, err = root.Open(dir); err != nil {
			return err
		}
		defer dst.Close()
	}
	srcConn, err := src.SyscallConn()
	if err != nil {
		return err
	}
	dstConn, err := dst.SyscallConn()
	if err != nil {
		return err
	}
	var rerr, cerr error
	if err := srcConn.Control(func(srcFd uintptr) {
		cerr = dstConn.Control(func(dstFd uintptr) {
			rerr = syscall.Renameat(int(srcFd), from, int(dstFd), path.Base(to))
		})
	}); err != nil {
		return err
	}
	if cerr != nil {
		return cerr
	}
	if rerr != nil {
		return &os.LinkError{Op: "renameat", Old: from, New: to, Err: rerr}
	}
	return nil
}
