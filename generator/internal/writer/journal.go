package writer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"time"
)

// Replacing a package, or a tree of them, is one rename per file, so a
// run that is killed midway would leave files of two revisions. Write
// therefore first records the whole change in a journal in the output
// directory, written to a temporary file and renamed into place, and
// removes it once every file is in place. A run that finds a journal
// completes the write it describes before doing anything else, and
// removes the temporary files a killed run left, so the directory always
// ends up holding one run's package or tree. A lock on the directory
// keeps two runs from writing it at once. A run asked to stop
// (WriteContext's context) needs none of this: it stops only where the
// directory holds one whole package, before the journal or after the
// last rename.

// journalName is the journal's file name in the output directory.
const journalName = ".rootsgen-journal"

// lockWait is how long a run waits for another one writing the same
// directory before it gives up.
var lockWait = time.Minute

// afterStep is called after each step of Write that changes the directory;
// tests replace it to kill the process between steps.
var afterStep = func() {}

// A journal is the change a run is about to make.
type journal struct {
	// Files are written with their content (encoded in base64).
	Files []journalFile `json:"files"`
	// Remove are the names of stale files to remove.
	Remove []string `json:"remove"`
	// RemoveDirs are the directories to remove once the files are: left
	// empty, deepest first.
	RemoveDirs []string `json:"removeDirs,omitempty"`
}

type journalFile struct {
	Name    string `json:"name"`
	Content []byte `json:"content"`
}

// ErrLocked is generator.ErrLocked.
var ErrLocked = errors.New("another rootsgen process is writing this directory")

// writeJournal records the change durably: once it returns, a later run
// completes the change even if this one is killed.
func writeJournal(root *os.Root, changes []Change, content map[string][]byte, rmdirs []string) error {
	j := journal{RemoveDirs: rmdirs}
	for _, c := range changes {
		if c.Kind == "remove" {
			j.Remove = append(j.Remove, c.Name)
		} else {
			j.Files = append(j.Files, journalFile{Name: c.Name, Content: content[c.Name]})
		}
	}
	data, err := json.Marshal(j)
	if err != nil {
		return err
	}
	tmp, err := stage(root, journalName, data)
	if err != nil {
		return err
	}
	if err := root.Rename(tmp, journalName); err != nil {
		_ = root.Remove(tmp)
		return err
	}
	syncDir(root, ".")
	return nil
}

// removeJournal marks the change complete.
func removeJournal(root *os.Root) error {
	if err := root.Remove(journalName); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	syncDir(root, ".")
	return nil
}

// hasJournal reports whether a run left a change unfinished in root.
func hasJournal(root *os.Root) bool {
	_, err := root.Lstat(journalName)
	return err == nil
}

// finishInterrupted completes the change of a run that was killed after
// writing its journal, and removes the temporary files of any killed run.
func finishInterrupted(root *os.Root) error {
	if hasJournal(root) {
		if err := replayJournal(root); err != nil {
			return err
		}
	}
	return removeLeftoverTemps(root)
}

// readJournal reads the journal a killed run left in root, refusing one
// that is damaged or names what no run writes.
func readJournal(root *os.Root) (*journal, error) {
	data, err := readRegular(root, journalName)
	if err != nil {
		return nil, err
	}
	var j journal
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("%s, left by an interrupted run, is damaged (%v); remove it and regenerate", journalName, err)
	}
	// Nothing is changed for a journal that names what no run writes.
	for _, f := range j.Files {
		if checkName(f.Name) != nil {
			return nil, fmt.Errorf("%s, left by an interrupted run, names %q; remove it and regenerate", journalName, f.Name)
		}
	}
	for _, name := range j.Remove {
		if checkName(name) != nil {
			return nil, fmt.Errorf("%s, left by an interrupted run, names %q; remove it and regenerate", journalName, name)
		}
	}
	for _, dir := range j.RemoveDirs {
		if checkDirName(dir) != nil {
			return nil, fmt.Errorf("%s, left by an interrupted run, names %q; remove it and regenerate", journalName, dir)
		}
	}
	return &j, nil
}

// replayJournal completes the change recorded in the journal a killed run
// left in root: it writes the files whose content differs (making their
// directories as needed), removes the stale files still there and the
// directories left empty, and then the journal.
func replayJournal(root *os.Root) error {
	j, err := readJournal(root)
	if err != nil {
		return err
	}
	var steps []Change
	for _, f := range j.Files {
		made, err := makeDirs(root, f.Name)
		for _, dir := range made {
			steps = append(steps, Change{Name: dir, Kind: "mkdir"})
		}
		if err != nil {
			return err
		}
		if old, err := readRegular(root, f.Name); err == nil && bytes.Equal(old, f.Content) {
			continue
		}
		tmp, err := stage(root, f.Name, f.Content)
		if err != nil {
			return err
		}
		if err := root.Rename(tmp, f.Name); err != nil {
			_ = root.Remove(tmp)
			return err
		}
		steps = append(steps, Change{Name: f.Name, Kind: "update"})
	}
	for _, name := range j.Remove {
		if ok, err := existingDir(root, path.Dir(name)); err != nil {
			return err
		} else if !ok {
			continue
		}
		if old, err := readRegular(root, name); err == nil && bytes.HasPrefix(old, []byte(headerPrefix)) {
			if err := root.Remove(name); err != nil {
				return err
			}
			steps = append(steps, Change{Name: name, Kind: "remove"})
		}
	}
	for _, dir := range j.RemoveDirs {
		removed, err := removeEmptyDir(root, dir)
		if err != nil {
			return err
		}
		if removed {
			steps = append(steps, Change{Name: dir, Kind: "rmdir"})
		}
	}
	syncDirs(root, steps)
	return removeJournal(root)
}

// removeLeftoverTemps removes the temporary files that killed runs left
// in root's directory.
func removeLeftoverTemps(root *os.Root) error {
	entries, err := fs.ReadDir(root.FS(), ".")
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Type().IsRegular() && isLeftoverTemp(e.Name()) {
			if err := root.Remove(e.Name()); err != nil {
				return err
			}
		}
	}
	return nil
}

// isGoFileName reports whether name is a plain Go file's name, as the last
// element of every generated file's name is.
func isGoFileName(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.ContainsAny(name, `/\`) && name != ".go" && !strings.HasPrefix(name, ".")
}

// isLeftoverTemp reports whether name is one of the temporary files stage
// makes: "." + a generated file's or the journal's name + "." + 12 hex
// digits + ".tmp".
func isLeftoverTemp(name string) bool {
	rest, ok := strings.CutSuffix(name, ".tmp")
	if !ok || !strings.HasPrefix(rest, ".") || len(rest) < 14 || rest[len(rest)-13] != '.' {
		return false
	}
	for _, c := range rest[len(rest)-12:] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	base := rest[1 : len(rest)-13]
	return base == journalName || isGoFileName(base)
}

// syncDir makes renames and removals in dir, a directory below root or
// "." for root's own, durable where the system can; where it cannot
// (Windows), renames are durable enough on their own.
func syncDir(root *os.Root, dir string) {
	if d, err := root.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// syncDirs syncs root's directory and each directory that steps (changes
// of files, "mkdir" and "rmdir" of directories) changed an entry of.
func syncDirs(root *os.Root, steps []Change) {
	dirs := []string{"."}
	for _, c := range steps {
		if d := path.Dir(c.Name); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	for _, d := range dirs {
		syncDir(root, d)
	}
}

// lockDir takes the lock on the output directory, waiting up to lockWait
// for another run to finish, or until ctx is done, and returns the
// function that releases it.
func lockDir(ctx context.Context, root *os.Root, dir string) (unlock func(), err error) {
	deadline := time.Now().Add(lockWait)
	for {
		unlock, err := tryLock(root)
		if !errors.Is(err, ErrLocked) {
			return unlock, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%w (waited %v): %s", ErrLocked, lockWait, lockHint(dir))
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w while %w", stopped(ctx), ErrLocked)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
