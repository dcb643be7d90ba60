//go:build !linux

package writer

import (
	"os"
	"path/filepath"
	"strings"
)

// renameIn renames from, a plain name in root's directory, to to, a name
// below it (in a subdirectory, if it has a "/"), replacing to. It is
// os.Root.Rename, which needs Go 1.25, for the Go 1.24 this module
// supports; here through the directory's path, so a directory swapped in
// at that path after root was opened is followed.
func renameIn(root *os.Root, from, to string) error {
	if strings.ContainsAny(from, `/\`) || strings.Contains(to, `\`) {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: os.ErrInvalid}
	}
	return os.Rename(filepath.Join(root.Name(), from), filepath.Join(root.Name(), filepath.FromSlash(to)))
}
