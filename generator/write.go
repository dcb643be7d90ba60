package generator

import (
	"context"

	"github.com/rootsgen/rootsgen/generator/internal/writer"
)

// The generated files reach the disk through the writer package, which
// these declarations make the generator's API.

// ErrLeftChanged is wrapped by an error of Write when Write failed and
// could not undo all it had done; the error says what is left.
var ErrLeftChanged = writer.ErrLeftChanged

// ErrLocked is wrapped by an error of Write when another process held the
// output directory's lock for longer than Write waits (a minute), or when
// the context of WriteContext was done while it waited.
var ErrLocked = writer.ErrLocked

// Change is how one file on disk differs from what the generator produces.
type Change = writer.Change

// Diff compares files with the contents of dir without changing anything.
// A missing dir means every file is to be created. A file's Name may name
// a file in a subdirectory of dir ("rootsrt/rootset.go"), and the changes
// name files so too; see Write for what a tree of files changes.
func Diff(dir string, files []File) ([]Change, error) { return writer.Diff(dir, files) }

// Write puts files into dir, creating it if needed, and removes the files
// an earlier run wrote that are no longer produced. Every file is first
// written in full to a temporary file in dir, then renamed into place,
// so a reader never sees half a file; if any step fails, the files already
// replaced are put back and the error is returned (wrapping ErrLocked when
// another process held the directory too long, ErrLeftChanged if putting
// back failed too). All access goes through
// an os.Root for dir, so nothing outside dir can be written, whatever
// symlinks it holds; a dir that is itself a symlink is refused, and so is a
// symlink where a generated file goes. It returns what changed.
//
// A file's Name is a path relative to dir with "/" as separator, at most
// maxNameDirs (2) directories deep, ending in a Go file's name; no element
// may be empty, "." or "..", or start with a dot. A bad name is an error
// before anything is looked at. Files with such paths make one tree,
// written as one change under one lock and one journal, both in dir: the
// directories files go into are created as needed (and removed again if
// the write fails), a symlink where one goes is refused, and the Go files
// that start with rootsgen's header and are no longer produced are removed
// throughout dir, down to maxNameDirs, with each directory that held only
// such files and is no longer written to. A directory that holds a file
// rootsgen did not write is kept, with that file. When every Name is a
// plain file name, Write looks at dir alone, not below it.
//
// When dir or some of its parents are missing, Write creates them, and
// removes them again if it then fails, so that a failed Write leaves the
// file system as it found it.
func Write(dir string, files []File) ([]Change, error) { return writer.Write(dir, files) }

// WriteContext is Write that stops early when ctx is done. The change is
// committed once its journal is in place, after every new file is staged
// and before the first directory is made or file renamed into place. If
// ctx is done before that, including while WriteContext waits for another
// process's lock, it removes its temporary files and the directories it
// created and returns an error wrapping ctx.Err(): dir holds what it held
// before (its old package or tree). Once committed, it completes the
// change whatever ctx says, as the renames that remain are quick and
// undoing them would take longer, and returns as Write does: dir holds the
// new package, and a caller that needs to know whether ctx was done by
// then asks ctx. Either way nothing of the write is left in dir and the
// lock is released when it returns. ctx is only read: WriteContext starts
// nothing that outlives it.
func WriteContext(ctx context.Context, dir string, files []File) ([]Change, error) {
	return writer.WriteContext(ctx, dir, files)
}
