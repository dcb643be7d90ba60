//go:build linux && !mips && !mipsle && !mips64 && !mips64le

package rootsrt

import (
	"cmp"
	"io"
	"io/fs"
	"os"
	"strconv"
	"sync/atomic"
	"syscall"
	"unsafe"
)

const (
	haveOpenBeneath = true               // openBeneath exists on this system
	oNonblock       = syscall.O_NONBLOCK // opens a FIFO without waiting for its other end
	// oPath (O_PATH) opens a handle on a name, not the file: no device is
	// opened, no FIFO's writer met. One value on every Linux but MIPS.
	oPath               = 0x200000
	sysOpenat2          = 437 // likewise
	resolveNoMagiclinks = 0x02
	resolveBeneath      = 0x08
	atFDCWD             = -0x64  // AT_FDCWD: a path relative to the working directory, or absolute
	procSuperMagic      = 0x9fa0 // the file system type of procfs (PROC_SUPER_MAGIC)
	maxWalkDepth        = 256    // bounds the directories a walk holds open at once
)

// openHow is the kernel's struct open_how.
type openHow struct{ flags, mode, resolve uint64 }

// noProcFD is set once /proc/self/fd is found unusable (see procSelfFD),
// noOpenat2 once the kernel or a sandbox refuses openat2; then os.Root
// does all the work.
var noProcFD, noOpenat2 atomic.Bool

// openBeneath opens name under dir in one system call, openat2 (Linux
// 5.6) with RESOLVE_BENEATH: the kernel refuses any link or ".." that
// leaves dir. handled is false when it cannot: with an error, os.Root is
// to open this file (openat2 refused it on its own); without, there is no
// openat2, or the path leads out of dir or changed, and resolving it
// again decides.
func openBeneath(dir *os.File, name string, flag int) (fd int, handled bool, err error) {
	if noOpenat2.Load() {
		return -1, false, nil
	}
	p, err := syscall.BytePtrFromString(name)
	if err != nil {
		return -1, true, err
	}
	flags := flag | syscall.O_CLOEXEC
	if flag&oPath == 0 {
		flags |= syscall.O_LARGEFILE // which openat2 refuses beside O_PATH
	}
	how := openHow{flags: uint64(flags), resolve: resolveBeneath | resolveNoMagiclinks}
	var opened uintptr
	var errno syscall.Errno
	refused := false
	// Control keeps dir's descriptor open while the call uses it.
	conn, cerr := dir.SyscallConn()
	if cerr == nil {
		cerr = conn.Control(func(dirfd uintptr) {
			opened, errno = openat2(dirfd, p, &how)
			switch errno {
			case syscall.ENOSYS, syscall.EPERM, syscall.EINVAL, syscall.E2BIG:
				// A refusal of openat2 (a kernel before 5.6, a sandbox) or of
				// this file (EPERM if immutable, EINVAL for its flags)? Opening
				// dir's "." tells them apart.
				dot := openHow{flags: syscall.O_RDONLY | syscall.O_DIRECTORY | syscall.O_CLOEXEC, resolve: resolveBeneath}
				probe, perr := openat2(dirfd, &[]byte(".\x00")[0], &dot)
				if perr == 0 {
					syscall.Close(int(probe))
				}
				refused = perr != 0
			}
		})
	}
	switch {
	case cerr != nil:
		return -1, false, nil
	case errno == 0:
		return int(opened), true, nil
	case refused:
		noOpenat2.Store(true)
		return -1, false, nil
	case errno == syscall.ENOSYS || errno == syscall.EPERM || errno == syscall.EINVAL || errno == syscall.E2BIG:
		return -1, false, errno // this file's answer: os.Root gives it
	case errno == syscall.EXDEV || errno == syscall.ELOOP || errno == syscall.EAGAIN:
		return -1, false, nil
	}
	return -1, true, &fs.PathError{Op: "open", Path: name, Err: errno}
}

// openRegularBeneath opens name under dir for reading if it is a regular
// file, and opens nothing else: the name is opened with oPath, its type
// and size read through that handle, and only a regular file reopened
// through /proc/self/fd, which reaches the file the handle holds; the
// file reopened must be that one (device and inode), or /proc is not
// trusted again and os.Root does the work. The file is a bare descriptor,
// spared os.File's set-up. handled is as for openBeneath, and false where
// /proc is not there.
func openRegularBeneath(dir *os.File, name string) (f io.ReadCloser, size int64, handled bool, err error) {
	proc, err := procSelfFD()
	if proc < 0 {
		return nil, 0, err != nil, err
	}
	h, handled, err := openBeneath(dir, name, oPath)
	if h < 0 {
		return nil, 0, handled, err
	}
	defer syscall.Close(h)
	var st syscall.Stat_t
	if err := syscall.Fstat(h, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, 0, true, &fs.PathError{Op: "open", Path: name, Err: cmp.Or(err, ErrNotRegularFile)}
	}
	var buf [24]byte
	num := append(strconv.AppendInt(buf[:0], int64(h), 10), 0)
	for { // not openat, whose string name would be copied to the heap
		fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(proc), uintptr(unsafe.Pointer(&num[0])), uintptr(syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC|syscall.O_LARGEFILE), 0, 0, 0)
		if errno == 0 {
			// What /proc/self/fd/N opened must be the file the handle holds:
			// something mounted over /proc/self/fd could name another.
			var again syscall.Stat_t
			if err := syscall.Fstat(int(fd), &again); err != nil || again.Dev != st.Dev || again.Ino != st.Ino {
				syscall.Close(int(fd))
				noProcFD.Store(true) // the reopen cannot be trusted here: os.Root does the work
				return nil, 0, false, nil
			}
			return fdFile(fd), st.Size, true, nil
		}
		if errno != syscall.EINTR {
			return nil, 0, true, &fs.PathError{Op: "open", Path: name, Err: errno}
		}
	}
}

// procDir is /proc/self/fd, opened once and kept for the life of the
// process, so a reopen does not look up /proc and self each time.
var procDir atomic.Pointer[procHandle]

// procHandle is a descriptor and the file it was opened on.
type procHandle struct {
	fd       int
	dev, ino uint64
}

// procSelfFD returns the kept handle on /proc/self/fd, opening it the
// first time: -1 and the error for want of descriptors or memory, -1 and
// no error where it cannot be used at all (no /proc, unreadable, or not
// procfs: noProcFD is then set). Each call checks the handle is still the
// directory it opened, so code that closes it by mistake, and a file given
// its number, cannot make a reopen look up a name elsewhere: the number is
// then forgotten (no longer ours to close) and /proc/self/fd reopened.
func procSelfFD() (int, error) {
	var st syscall.Stat_t
	if d := procDir.Load(); d != nil {
		if syscall.Fstat(d.fd, &st) == nil && uint64(st.Dev) == d.dev && uint64(st.Ino) == d.ino {
			return d.fd, nil
		}
		procDir.CompareAndSwap(d, nil)
	}
	fd, err := openat(atFDCWD, "/proc/self/fd", oPath|syscall.O_DIRECTORY)
	switch err {
	case nil:
	case syscall.EMFILE, syscall.ENFILE, syscall.ENOMEM:
		return -1, &fs.PathError{Op: "open", Path: "/proc/self/fd", Err: err}
	default:
		noProcFD.Store(true) // a handle cannot be reopened here
		return -1, nil
	}
	var sfs syscall.Statfs_t
	if syscall.Fstatfs(fd, &sfs) != nil || sfs.Type != procSuperMagic || syscall.Fstat(fd, &st) != nil {
		syscall.Close(fd)
		noProcFD.Store(true) // not the kernel's: what it holds cannot be trusted
		return -1, nil
	}
	if procDir.CompareAndSwap(nil, &procHandle{fd, uint64(st.Dev), uint64(st.Ino)}) {
		return fd, nil
	}
	syscall.Close(fd) // another call opened it first
	return procSelfFD()
}

// fdFile is a descriptor read with plain system calls.
type fdFile int

func (f fdFile) Read(b []byte) (n int, err error) {
	for n, err = syscall.Read(int(f), b); err == syscall.EINTR; n, err = syscall.Read(int(f), b) {
	}
	if n == 0 && err == nil && len(b) > 0 {
		err = io.EOF
	}
	return max(n, 0), err
}

func (f fdFile) Close() error { return syscall.Close(int(f)) }

// openat2 opens name under dirfd as how says, again after an interrupt.
func openat2(dirfd uintptr, name *byte, how *openHow) (uintptr, syscall.Errno) {
	for {
		fd, _, errno := syscall.Syscall6(sysOpenat2, dirfd, uintptr(unsafe.Pointer(name)), uintptr(unsafe.Pointer(how)), unsafe.Sizeof(*how), 0, 0)
		if errno != syscall.EINTR {
			return fd, errno
		}
	}
}

// fdWalker holds the directories its walk went through, from "/", each
// opened from the one before: every name is looked up in the directory
// the walk reached, whatever has become of its path since. Each it enters
// is counted by dirs.takeWalk; "/" and the name lstat looked at, two per
// walk, are not.
type fdWalker struct {
	fds []int // "/" first
	// last is the handle lstat opened on lastName, a directory or a link,
	// kept for enter or readlink; -1 if none.
	last     int
	lastName string
}

// newWalker holds "/" for a walk, or walks by path where "/" cannot be
// opened. A variable, for tests.
var newWalker = newFDWalker

func newFDWalker() walker {
	fd, err := syscall.Open("/", oPath|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return &pathWalker{dir: "/"}
	}
	return &fdWalker{fds: []int{fd}, last: -1}
}

func (w *fdWalker) top() int { return w.fds[len(w.fds)-1] }

func (w *fdWalker) lstat(name string) (fs.FileMode, error) {
	w.forget()
	fd, err := openat(w.top(), name, oPath|syscall.O_NOFOLLOW)
	if err != nil {
		return 0, err
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return 0, err
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		w.last, w.lastName = fd, name // the directory enter goes into
		return fs.ModeDir, nil
	case syscall.S_IFLNK:
		w.last, w.lastName = fd, name // the link readlink reads
		return fs.ModeSymlink, nil
	}
	syscall.Close(fd)
	return 0, nil
}

func (w *fdWalker) readlink(name string) (string, error) {
	// Read the link lstat held through its handle (an empty name), so a
	// swap since cannot answer for another name.
	at, rel := w.top(), name
	if w.last >= 0 && w.lastName == name {
		at, rel = w.last, ""
	}
	defer w.forget()
	p, err := syscall.BytePtrFromString(rel)
	if err != nil {
		return "", err
	}
	for size := 256; ; {
		buf := make([]byte, size)
		n, _, errno := syscall.Syscall6(syscall.SYS_READLINKAT, uintptr(at), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&buf[0])), uintptr(size), 0, 0)
		switch {
		case errno == syscall.EINTR:
		case errno != 0:
			return "", errno
		case int(n) < size:
			return string(buf[:n]), nil
		default:
			size *= 2 // the target may be longer than what was read
		}
	}
}

func (w *fdWalker) enter(name string) error {
	if len(w.fds) > maxWalkDepth {
		w.forget()
		return syscall.ENAMETOOLONG
	}
	if err := dirs.takeWalk(); err != nil {
		w.forget()
		return err
	}
	fd := w.last
	if fd < 0 || w.lastName != name {
		w.forget()
		var err error
		if fd, err = openat(w.top(), name, oPath|syscall.O_DIRECTORY|syscall.O_NOFOLLOW); err != nil {
			dirs.releaseWalk(1)
			return err
		}
	}
	w.last = -1
	w.fds = append(w.fds, fd)
	return nil
}

// forget closes the handle lstat kept.
func (w *fdWalker) forget() {
	if w.last >= 0 {
		syscall.Close(w.last)
		w.last = -1
	}
}

func (w *fdWalker) up() {
	w.forget()
	if len(w.fds) > 1 {
		syscall.Close(w.top())
		w.fds = w.fds[:len(w.fds)-1]
		dirs.releaseWalk(1)
	}
}

func (w *fdWalker) toRoot() {
	for len(w.fds) > 1 {
		w.up()
	}
}

func (w *fdWalker) close() {
	w.forget()
	for _, fd := range w.fds {
		syscall.Close(fd)
	}
	if len(w.fds) > 1 {
		dirs.releaseWalk(len(w.fds) - 1) // "/" is not counted
	}
	w.fds = nil
}

// openat opens name in dirfd, again after an interrupt.
func openat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := syscall.Openat(dirfd, name, flags|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
