package generator

import (
	"os"
	"syscall"
)

// renameIn renames from to to, both plain names in root's directory,
// replacing to. It is os.Root.Rename, which needs Go 1.25, for the Go 1.24
// this module supports: renameat on the directory root holds open, so a
// directory swapped in at root's path after it was opened is not touched.
func renameIn(root *os.Root, from, to string) error {
	d, err := root.Open(".")
	if err != nil {
		return err
	}
	defer d.Close()
	sc, err := d.SyscallConn()
	if err != nil {
		return err
	}
	var rerr error
	if err := sc.Control(func(fd uintptr) {
		rerr = syscall.Renameat(int(fd), from, int(fd), to)
	}); err != nil {
		return err
	}
	if rerr != nil {
		return &os.LinkError{Op: "renameat", Old: from, New: to, Err: rerr}
	}
	return nil
}
