package rootsrt

import (
	"errors"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// ErrNoDescriptors: a file method could not open a root's or a bound's
// directory because the process is out of file descriptors, or the
// descriptor budget (see [SetDescriptorBudget]) is held by calls in
// flight. Nothing was refused: the same call can succeed once other calls
// end. Where the kernel said so, the error wraps its errno too (EMFILE,
// ENFILE).
var ErrNoDescriptors = errors.New("out of file descriptors for roots: try again")

// The bounds of the descriptor budget when SetDescriptorBudget has not set
// one: a quarter of the soft RLIMIT_NOFILE, within these.
const (
	minDefaultBudget = 64
	maxDefaultBudget = 1 << 16
)

// dirIdleTTL is how long a directory's descriptors stay open after their
// last use, when nothing else needs the budget sooner.
const dirIdleTTL = time.Minute

// SetDescriptorBudget sets how many file descriptors the directories of
// every RootSet and Bounds of the process may hold open at once, and
// returns the budget before the call; n <= 0 restores the default, a
// quarter of the process's soft RLIMIT_NOFILE (Go raises it to the hard
// limit at start) between 64 and 65,536, or 1,024 where there is no such
// limit.
//
// A set opens a root's directory when a path first falls in it, not when
// the set is built, and keeps it open while it is used; between calls, a
// kept directory is closed when the budget is needed for another (the
// least recently used first) or a minute after its last use, and opened
// again when needed, checked to be the directory the root named when the
// set was built. So the descriptors of idle sets, cached or dropped
// unclosed, never stand in the way of another call. A call that finds the
// whole budget in use by calls in flight fails with [ErrNoDescriptors].
// The directories that walks through links hold while they resolve a path
// (with [ResolveSymlinks], for [RootSetOf.Resolve], and where a path goes
// through a link into another root) count against a second budget of the
// same size: a walk that would go over it fails with [ErrNoDescriptors].
// Other descriptors a call opens and closes before it returns (the file
// ReadFile reads) and those it returns (Open, OpenFile, OpenRoot) are not
// counted.
func SetDescriptorBudget(n int) int {
	dirs.mu.Lock()
	defer dirs.mu.Unlock()
	old := dirs.budget()
	dirs.limit = max(n, 0)
	return old
}

// dirs is the process's pool of directory descriptors.
var dirs dirPool

// dirPool counts the descriptors that sets and bounds hold open, and
// closes idle ones to keep within the budget.
type dirPool struct {
	mu    sync.Mutex
	limit int // 0: the default
	def   int // the default, once computed
	open  int // descriptors held: by handles in use, idle, and by bounds
	walks int // directories walks hold open (see takeWalk)
	// idle are the handles nothing uses that hold descriptors, the least
	// recently used first.
	head, tail *dirHandle
	timer      *time.Timer // closes handles idle for dirIdleTTL; nil when none are
}

// budget returns the limit in force. The caller holds p.mu.
func (p *dirPool) budget() int {
	if p.limit > 0 {
		return p.limit
	}
	if p.def == 0 {
		p.def = defaultBudget()
	}
	return p.def
}

// takeWalk counts one more directory that a walk through links (see
// resolvePOSIX) holds open, or returns an error wrapping ErrNoDescriptors
// when walks already hold the budget's worth. Walks have a budget of
// their own, of the same size as the directories', so that walks through
// deep trees cannot take the descriptors the process needs for anything
// else, and cannot evict the directories of calls in flight.
func (p *dirPool) takeWalk() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.walks >= p.budget() {
		return noDescriptors{}
	}
	p.walks++
	return nil
}

// releaseWalk counts n fewer directories held by walks.
func (p *dirPool) releaseWalk(n int) {
	p.mu.Lock()
	p.walks -= n
	p.mu.Unlock()
}

// defaultBudget is the budget when none is set.
func defaultBudget() int {
	soft, ok := softFileLimit()
	if !ok {
		return 1024
	}
	return int(min(max(soft/4, minDefaultBudget), maxDefaultBudget))
}

// dirHandle is the open descriptors of one directory of a set: its os.Root
// and, for ReadFile's one-call open (openBeneath), the directory as a file.
// Each is opened on first use by whoever pinned the handle; the pool closes
// them when the handle is idle and the budget or the idle time says so.
type dirHandle struct {
	mu   sync.Mutex // serializes the opening of root and file
	root atomic.Pointer[os.Root]
	file atomic.Pointer[os.File]

	// Under dirs.mu.
	pins       int  // calls using the handle: never closed while pinned
	closed     bool // its set is closed: closed on the last unpin, never opened again
	held       int  // descriptors open: root and file
	idle       bool // in the pool's idle list
	prev, next *dirHandle
	lastUse    time.Time
}

// pin marks h in use, so its descriptors stay open until unpin. It fails
// with fs.ErrClosed once h's set is closed.
func (p *dirPool) pin(h *dirHandle) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h.closed {
		return fs.ErrClosed
	}
	p.unlink(h)
	h.pins++
	return nil
}

// unpin ends a use of h that pin began.
func (p *dirPool) unpin(h *dirHandle) {
	p.mu.Lock()
	h.pins--
	var doomed []heldFDs
	switch {
	case h.pins > 0:
	case h.closed:
		doomed = p.take(h, doomed)
	case h.held > 0:
		h.lastUse = time.Now()
		p.push(h)
	}
	p.mu.Unlock()
	closeAll(doomed)
}

// reserve counts one more descriptor, which the caller is about to open
// for h (pinned), closing idle handles to make room; release undoes it
// when the open fails.
func (p *dirPool) reserve() error {
	p.mu.Lock()
	var doomed []heldFDs
	limit := p.budget()
	for p.open >= limit && p.head != nil {
		doomed = p.take(p.head, doomed)
	}
	ok := p.open < limit
	if ok {
		p.open++
	}
	p.mu.Unlock()
	closeAll(doomed)
	if !ok {
		return ErrNoDescriptors
	}
	return nil
}

func (p *dirPool) release() {
	p.mu.Lock()
	p.open--
	p.mu.Unlock()
}

// opened records a descriptor reserve counted as now held by h.
func (p *dirPool) opened(h *dirHandle) {
	p.mu.Lock()
	h.held++
	p.mu.Unlock()
}

// close marks h's set closed: h is closed now if no call uses it, else
// when the last one ends.
func (p *dirPool) close(h *dirHandle) {
	p.mu.Lock()
	var doomed []heldFDs
	if !h.closed {
		h.closed = true
		if h.pins == 0 {
			doomed = p.take(h, doomed)
		}
	}
	p.mu.Unlock()
	closeAll(doomed)
}

// take unlinks h, whose pins are 0, and moves its descriptors out of it
// and of the count onto doomed, for closeAll once p.mu is released: a call
// that pins h later opens its own.
func (p *dirPool) take(h *dirHandle, doomed []heldFDs) []heldFDs {
	p.unlink(h)
	if h.held == 0 {
		return doomed
	}
	p.open -= h.held
	h.held = 0
	return append(doomed, heldFDs{h.root.Swap(nil), h.file.Swap(nil)})
}

// heldFDs are the descriptors take moved out of a handle.
type heldFDs struct {
	root *os.Root
	file *os.File
}

// closeAll closes the descriptors take moved out.
func closeAll(doomed []heldFDs) {
	for _, d := range doomed {
		if d.root != nil {
			d.root.Close()
		}
		if d.file != nil {
			d.file.Close()
		}
	}
}

// push appends h to the idle list, and starts the timer that closes what
// stays idle.
func (p *dirPool) push(h *dirHandle) {
	h.idle, h.prev, h.next = true, p.tail, nil
	if p.tail != nil {
		p.tail.next = h
	} else {
		p.head = h
	}
	p.tail = h
	if p.timer == nil {
		p.timer = time.AfterFunc(dirIdleTTL, p.expire)
	}
}

// unlink takes h out of the idle list, if it is there.
func (p *dirPool) unlink(h *dirHandle) {
	if !h.idle {
		return
	}
	if h.prev != nil {
		h.prev.next = h.next
	} else {
		p.head = h.next
	}
	if h.next != nil {
		h.next.prev = h.prev
	} else {
		p.tail = h.prev
	}
	h.idle, h.prev, h.next = false, nil, nil
}

// expire closes the handles idle for dirIdleTTL, and runs again when the
// next one will be, while any are idle.
func (p *dirPool) expire() {
	p.mu.Lock()
	var doomed []heldFDs
	now := time.Now()
	for p.head != nil && now.Sub(p.head.lastUse) >= dirIdleTTL {
		doomed = p.take(p.head, doomed)
	}
	if p.head != nil {
		p.timer = time.AfterFunc(dirIdleTTL-now.Sub(p.head.lastUse), p.expire)
	} else {
		p.timer = nil
	}
	p.mu.Unlock()
	closeAll(doomed)
}

// starved reports whether err says the process or the budget is out of
// descriptors (or the kernel of memory for one).
func starved(err error) bool {
	return errors.Is(err, ErrNoDescriptors) || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) || errors.Is(err, syscall.ENOMEM)
}

// noDescriptors is the error of a call that could not open a directory
// for want of descriptors: it wraps ErrNoDescriptors and what the kernel
// said, if it said it.
type noDescriptors struct{ cause error }

func (e noDescriptors) Error() string {
	if e.cause == nil || errors.Is(e.cause, ErrNoDescriptors) {
		return ErrNoDescriptors.Error()
	}
	return ErrNoDescriptors.Error() + " (" + e.cause.Error() + ")"
}

func (e noDescriptors) Unwrap() []error { return []error{ErrNoDescriptors, e.cause} }

// asStarved returns err as a noDescriptors when it says descriptors ran
// out, and err otherwise.
func asStarved(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if err == nil || !starved(err) || errors.As(err, new(noDescriptors)) {
		return err
	}
	return noDescriptors{err}
}
