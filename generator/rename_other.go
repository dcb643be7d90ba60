//go:build !linux

package generator

import (
	"os"
	"path/filepath"
	"strings"
)

// renameIn renames from to to, both plain names in root's directory,
// replacing to. It is os.Root.Rename, which needs Go 1.25, for the Go 1.24
// this module supports; here through the directory's path, so a directory
// swapped in at that path after root was opened is followed.
func renameIn(root *os.Root, from, to string) error {
	if strings.ContainsAny(from+to, `/\`) {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: os.ErrInvalid}
	}
	return os.Rename(filepath.Join(root.Name(), from), filepath.Join(root.Name(), to))
}
