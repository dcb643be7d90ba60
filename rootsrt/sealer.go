package rootsrt

import (
	"bytes"
	"cmp"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
)

// The errors of opening a sealed requestState, which Open returns
// unwrapped. They name the failed check and nothing of what was expected,
// as they may go back to the client. The last five are of authentic states.
var (
	// ErrStateMissing: the retried request carries no requestState.
	ErrStateMissing = errors.New("requestState: missing")
	// ErrStateTampered: the state is not one this server sealed, or was
	// altered: bad base64url, length or format, or failed authentication.
	ErrStateTampered = errors.New("requestState: failed verification")
	// ErrStateUnknownKey: the state names a key id the sealer does not
	// hold: one removed after a rotation, another deployment's, or altered.
	ErrStateUnknownKey = errors.New("requestState: sealed with an unknown key")
	// ErrStateWrongAudience: the state was sealed by a service that holds
	// the same key for another audience (see StateSealerConfig.Audience).
	ErrStateWrongAudience = errors.New("requestState: sealed for another audience")
	// ErrStateNotYetValid: the state was issued more than
	// [MaxStateClockSkew] ahead of the opener's clock.
	ErrStateNotYetValid = errors.New("requestState: issued in the future")
	// ErrStateExpired: the state's time to live has passed, or is longer
	// than the opener's (see StateSealerConfig.TTL).
	ErrStateExpired = errors.New("requestState: expired")
	// ErrStateWrongPrincipal: the state was sealed for another principal.
	ErrStateWrongPrincipal = errors.New("requestState: sealed for another principal")
	// ErrStateWrongRequest: the state was sealed for another method, or
	// other salient params.
	ErrStateWrongRequest = errors.New("requestState: sealed for another request")
)

// DefaultStateTTL is the TTL when StateSealerConfig.TTL is zero: time for
// a person to answer the client. A client answers roots/list alone; a
// server that asks for nothing else can set seconds.
const DefaultStateTTL = 5 * time.Minute

// MaxStateClockSkew is how far ahead of the opener's clock a state's issue
// time may lie: how far the clocks of the servers that seal and open may
// differ.
const MaxStateClockSkew = time.Minute

// MaxStateSize is the largest state, in bytes, a StateSealer seals. Sealed,
// it takes 4/3 of its size and of its key id plus about 190 bytes, on every
// retry: keep larger data on the server and seal a reference to it.
const MaxStateSize = 64 << 10

// The layout of a sealed state, before base64url, where the header (the
// first three parts) is the additional data the tag covers:
//
//	format (1) | key id length (1) | key id | nonce (12) | AES-GCM(plaintext) with its tag (16)
//
// The plaintext, with the times in Unix milliseconds, big-endian:
//
//	issued (8) | expiry (8) | audience digest (32) | principal digest (32) | request digest (32) | state
//
// Format 1, without issue time and audience, is refused as tampered.
const (
	stateFormat = 2
	stateNonce  = 12
	stateTag    = 16
	stateFixed  = 16 + 3*sha256.Size
	// maxSealed is the length of the longest sealed state Open reads.
	maxSealed = (2+255+stateNonce+stateFixed+MaxStateSize+stateTag+2)/3*4 + 4
)

// stateEncoding is unpadded base64url that refuses non-zero padding bits,
// so that every change to the text changes the bytes it decodes to.
var stateEncoding = base64.RawURLEncoding.Strict()

// StateKey is a key a StateSealer seals and opens requestState with.
type StateKey struct {
	// ID, 1 to 255 bytes and not secret, names the key in every state
	// sealed with it, so that the state finds it after a rotation.
	ID string
	// Secret is the AES key: 16, 24 or 32 bytes (32 recommended) from a
	// cryptographically secure source such as crypto/rand or a secret
	// store. The sealer keeps a copy.
	Secret []byte
}

// StateSealerConfig configures a StateSealer.
type StateSealerConfig struct {
	// Current seals every new state, and opens the states it sealed.
	Current StateKey
	// Older keys only open the states sealed with them before a rotation.
	// Keep a key here for TTL after it stopped being Current, then remove
	// it; its states are refused with ErrStateUnknownKey.
	Older []StateKey
	// TTL is how long after sealing a state can be opened (zero means
	// DefaultStateTTL); a state sealed with a longer TTL is refused with
	// ErrStateExpired.
	TTL time.Duration
	// Audience names the service the sealer's states are for, such as the
	// server's name, so that services sharing a key cannot take each
	// other's states (ErrStateWrongAudience); "" is one like any other.
	Audience string
	// Now, when set, is the sealer's clock (for tests); nil means time.Now.
	Now func() time.Time
}

// A StateSealer protects the requestState a server sends in an
// InputRequiredResult, which the client echoes on its retry and may have
// changed: the specification asks a server to protect its integrity and
// bind it to the principal, a short expiry and the originating request.
// Seal encrypts and authenticates the state with AES-GCM under the current
// key, with its issue time, its expiry and digests of the sealer's audience
// and of a StateBinding, all of which Open checks.
//
// Sealing bounds replay (to the principal and request, until expiry) but
// cannot prevent it: a retry looks exactly like a replay. Where a state
// must be used at most once (a payment, a one-time grant), put a unique id
// in it and record its use on the server.
//
// The nonces are random (96 bits): rotate the key well before it has
// sealed 2^32 states. A StateSealer is safe for concurrent use, and
// rotates its keys in place with SetKeys, so that whatever holds it (a
// Session, an adapter) seals with the new key from then on.
type StateSealer struct {
	ring     atomic.Pointer[keyRing] // swapped whole by SetKeys
	lifetime int64                   // the TTL in milliseconds, rounded up
	audience [sha256.Size]byte
	now      func() time.Time
}

// keyRing is a sealer's keys: current seals, and keys, current among
// them, open.
type keyRing struct {
	current *sealKey
	keys    map[string]*sealKey
}

// sealKey is one key, ready to use.
type sealKey struct {
	header []byte // format, id length, id: how its states begin
	aead   cipher.AEAD
}

// NewStateSealer returns a sealer configured by c. It refuses a key whose
// id is empty, longer than 255 bytes or given twice, a secret that is not
// an AES key, and a negative TTL.
func NewStateSealer(c StateSealerConfig) (*StateSealer, error) {
	if c.TTL < 0 {
		return nil, fmt.Errorf("StateSealer: negative TTL %v", c.TTL)
	}
	ttl := cmp.Or(c.TTL, DefaultStateTTL)
	s := &StateSealer{
		lifetime: int64(ttl / time.Millisecond), // rounded up below, without overflow
		audience: sha256.Sum256([]byte("mcp requestState audience\x00" + c.Audience)),
		now:      c.Now,
	}
	if ttl%time.Millisecond != 0 {
		s.lifetime++
	}
	if s.now == nil {
		s.now = time.Now
	}
	if err := s.SetKeys(c.Current, c.Older...); err != nil {
		return nil, err
	}
	return s, nil
}

// SetKeys replaces the sealer's keys, as a key rotation does: current
// seals every new state from then on, and opens the states it sealed;
// older only open theirs. The states of a key no longer given are refused
// with ErrStateUnknownKey. It refuses keys as NewStateSealer does, and
// then leaves the keys as they were. It is safe to call while the sealer
// is in use: each Seal and Open uses the keys before or after the call,
// never a mix.
//
// To rotate without failing a request in flight, give every replica the
// new key as an older one first, then make it current everywhere with
// the old key as an older one, and remove the old key TTL after that.
func (s *StateSealer) SetKeys(current StateKey, older ...StateKey) error {
	if s == nil {
		return errors.New("StateSealer: SetKeys on a nil sealer")
	}
	r := &keyRing{keys: make(map[string]*sealKey, 1+len(older))}
	for i, k := range append([]StateKey{current}, older...) {
		if len(k.ID) == 0 || len(k.ID) > 255 {
			return fmt.Errorf("StateSealer: key %d: the id must have 1 to 255 bytes, not %d", i, len(k.ID))
		}
		if r.keys[k.ID] != nil {
			return fmt.Errorf("StateSealer: key id %q is given twice", k.ID)
		}
		block, err := aes.NewCipher(k.Secret) // keeps its own copy of the secret
		var aead cipher.AEAD
		if err == nil {
			aead, err = cipher.NewGCM(block)
		}
		if err != nil {
			return fmt.Errorf("StateSealer: key %q: %w", k.ID, err)
		}
		r.keys[k.ID] = &sealKey{header: append([]byte{stateFormat, byte(len(k.ID))}, k.ID...), aead: aead}
	}
	r.current = r.keys[current.ID]
	s.ring.Store(r)
	return nil
}

// StateBinding is the request a sealed state belongs to: Open refuses a
// state unless given the binding it was sealed with.
type StateBinding struct {
	// Principal is who made the request, as the server authenticated them
	// (a user or client id from an access token, for example). Without
	// authentication, use a value that stands for the connection, or a
	// fixed one such as "anonymous" that lets states move between callers.
	Principal string
	Method    string // the request's method, such as "tools/call"
	// Params are the bytes of the request's params that the state is
	// about, in a form the retry reproduces exactly, as SalientParams
	// makes. Nil binds the state to the method alone.
	Params []byte
}

// SalientParams returns the part of a request's params that a sealed
// requestState is bound to by default: every member but _meta,
// inputResponses and requestState, which differ between the first attempt
// and the retry (for tools/call, the tool's name and arguments), as
// canonical JSON: members sorted by name at every level, no white space,
// numbers as written, strings escaped as encoding/json escapes them.
// Absent or null params give {}.
//
// It refuses params that are not a JSON object, nest deeper than 10000
// levels, or that JSON decoders read in different ways: an object with a
// member name twice (at any depth, also in the members it drops, however
// escaped), text that is not UTF-8, and an escaped surrogate that is not
// half of a pair (such as "\ud800").
func SalientParams(params []byte) ([]byte, error) {
	i := rtimpl.SkipSpace(params, 0)
	if len(params) == 0 || rtimpl.IsNullValue(params[i:]) {
		return []byte("{}"), nil
	}
	c := salientPool.Get().(*salientCanon)
	defer c.release()
	c.in, c.pos = params, i
	root, err := c.value(0)
	if err == nil && rtimpl.SkipSpace(params, c.pos) != len(params) {
		err = errSalientSyntax
	}
	if err != nil {
		return nil, err
	}
	if c.nodes[root].kind != '{' {
		return nil, errors.New("SalientParams: params are not a JSON object")
	}
	c.out = c.write(c.out[:0], root, true)
	return bytes.Clone(c.out), nil
}

var (
	errSalientSyntax    = errors.New("SalientParams: params are not JSON")
	errSalientDepth     = errors.New("SalientParams: params nest deeper than 10000 levels")
	errSalientDuplicate = errors.New("SalientParams: an object has a duplicate member name")
	errSalientUTF8      = errors.New("SalientParams: params are not valid UTF-8")
	errSalientSurrogate = errors.New("SalientParams: a string has an unpaired surrogate escape")
)

// salientCanon reads params into a tree of nodes, then writes the tree
// as canonical JSON. Its slices are kept between calls, in a pool.
type salientCanon struct {
	in    []byte
	pos   int
	text  []byte        // the decoded strings: member names and string values
	nodes []salientNode // every value read
	stack []salientKid  // the children of the containers being read
	kids  []salientKid  // the children of every container read, each container's together
	out   []byte
}

// salientNode is one value: for '{' and '[', its children are
// kids[start:end]; for '"', it is text[start:end]; for 0 (a number,
// true, false or null), it is in[start:end].
type salientNode struct {
	kind       byte
	start, end int
}

// salientKid is a child of a container: its node, and in an object its
// name, text[name:nameEnd]. Both types stay within the 4 fields and 32
// bytes the compiler keeps in registers: larger kids sort much slower.
type salientKid struct {
	name, nameEnd, node int
}

var salientPool = sync.Pool{New: func() any { return new(salientCanon) }}

// release clears what c read, so that no params linger, and gives c back
// to the pool unless it grew large.
func (c *salientCanon) release() {
	clear(c.text)
	clear(c.out)
	c.in, c.text, c.nodes, c.stack, c.kids, c.out = nil, c.text[:0], c.nodes[:0], c.stack[:0], c.kids[:0], c.out[:0]
	if cap(c.text)+cap(c.out) <= 1<<20 && cap(c.nodes)+cap(c.stack)+cap(c.kids) <= 1<<16 {
		salientPool.Put(c)
	}
}

// value reads the value after the white space at c.pos, depth containers
// deep, and returns its node.
func (c *salientCanon) value(depth int) (int, error) {
	in := c.in
	c.pos = rtimpl.SkipSpace(in, c.pos)
	if c.pos >= len(in) {
		return 0, errSalientSyntax
	}
	n := salientNode{start: c.pos}
	var err error
	switch b := in[c.pos]; {
	case b == '{' || b == '[':
		if depth++; depth > 10000 { // as in encoding/json
			return 0, errSalientDepth
		}
		base := len(c.stack)
		if err := c.items(depth, b); err != nil {
			return 0, err
		}
		n.kind, n.start, n.end = b, len(c.kids), len(c.kids)+len(c.stack)-base
		c.kids, c.stack = append(c.kids, c.stack[base:]...), c.stack[:base]
		if b == '{' {
			members := c.kids[n.start:n.end]
			slices.SortFunc(members, c.compareNames)
			if len(slices.CompactFunc(members, func(a, b salientKid) bool { return c.compareNames(a, b) == 0 })) < len(members) {
				return 0, errSalientDuplicate
			}
		}
	case b == '"':
		n.kind = b
		n.start, n.end, err = c.str()
	case bytes.HasPrefix(in[c.pos:], []byte("true")), bytes.HasPrefix(in[c.pos:], []byte("null")):
		c.pos += 4
		n.end = c.pos
	case bytes.HasPrefix(in[c.pos:], []byte("false")):
		c.pos += 5
		n.end = c.pos
	case b == '-' || '0' <= b && b <= '9':
		err = c.number()
		n.end = c.pos
	default:
		err = errSalientSyntax
	}
	c.nodes = append(c.nodes, n)
	return len(c.nodes) - 1, err
}

// compareNames orders the members of an object by their decoded names.
func (c *salientCanon) compareNames(a, b salientKid) int {
	return bytes.Compare(c.text[a.name:a.nameEnd], c.text[b.name:b.nameEnd])
}

// items reads the members of the object, or the elements of the array,
// that open begins at c.pos onto c.stack.
func (c *salientCanon) items(depth int, open byte) error {
	c.eat(open)
	for first := true; !c.eat(open + 2); first = false { // '}' or ']'
		if !first && !c.eat(',') {
			return errSalientSyntax
		}
		var kid salientKid
		var err error
		if open == '{' {
			if kid.name, kid.nameEnd, err = c.str(); err != nil {
				return err
			}
			if !c.eat(':') {
				return errSalientSyntax
			}
		}
		if kid.node, err = c.value(depth); err != nil {
			return err
		}
		c.stack = append(c.stack, kid)
	}
	return nil
}

// eat skips white space, then b if it is there, and says whether it was.
func (c *salientCanon) eat(b byte) bool {
	c.pos = rtimpl.SkipSpace(c.in, c.pos)
	if c.pos < len(c.in) && c.in[c.pos] == b {
		c.pos++
		return true
	}
	return false
}

// number reads the number at c.pos: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (c *salientCanon) number() error {
	// skip moves c.pos past a byte of set (all of them if many) and says
	// whether it moved.
	skip := func(set string, many bool) bool {
		start := c.pos
		for c.pos < len(c.in) && strings.IndexByte(set, c.in[c.pos]) >= 0 && (many || c.pos == start) {
			c.pos++
		}
		return c.pos > start
	}
	skip("-", false)
	ok := skip("0", false) || skip("0123456789", true)
	if ok && skip(".", false) {
		ok = skip("0123456789", true)
	}
	if ok && skip("eE", false) {
		skip("+-", false)
		ok = skip("0123456789", true)
	}
	if !ok {
		return errSalientSyntax
	}
	return nil
}

// str decodes the string after the white space at c.pos onto c.text and
// returns where it lies there.
func (c *salientCanon) str() (start, end int, err error) {
	c.pos = rtimpl.SkipSpace(c.in, c.pos)
	in, i := c.in, c.pos+1
	if c.pos >= len(in) || in[c.pos] != '"' {
		return 0, 0, errSalientSyntax
	}
	start = len(c.text)
	for {
		j := i
		for j < len(in) && in[j] >= 0x20 && in[j] != '"' && in[j] != '\\' {
			j++
		}
		if !utf8.Valid(in[i:j]) {
			return 0, 0, errSalientUTF8
		}
		c.text = append(c.text, in[i:j]...)
		if i = j; i >= len(in) || in[i] < 0x20 || in[i] == '\\' && i+1 == len(in) {
			return 0, 0, errSalientSyntax
		}
		if in[i] == '"' {
			c.pos = i + 1
			return start, len(c.text), nil
		}
		// A backslash: an escape of one byte, or \uXXXX.
		if k := strings.IndexByte(`"\/bfnrt`, in[i+1]); k >= 0 {
			c.text = append(c.text, "\"\\/\b\f\n\r\t"[k])
			i += 2
			continue
		}
		r := hexEscape(in[i:])
		if r < 0 {
			return 0, 0, errSalientSyntax
		}
		if i += 6; utf16.IsSurrogate(r) {
			// Only a high half followed by a low half's escape.
			if r = utf16.DecodeRune(r, hexEscape(in[i:])); r == utf8.RuneError {
				return 0, 0, errSalientSurrogate
			}
			i += 6
		}
		c.text = utf8.AppendRune(c.text, r)
	}
}

// hexEscape is the value of the \uXXXX escape b begins with, or -1.
func hexEscape(b []byte) rune {
	var v [2]byte
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return -1
	}
	if _, err := hex.Decode(v[:], b[2:6]); err != nil {
		return -1
	}
	return rune(v[0])<<8 | rune(v[1])
}

// write appends node n to out as canonical JSON, leaving out the members
// that differ between the attempts of a request if top.
func (c *salientCanon) write(out []byte, n int, top bool) []byte {
	v := c.nodes[n]
	switch v.kind {
	case '{', '[':
		out = append(out, v.kind)
		first := true
		for _, m := range c.kids[v.start:v.end] {
			name := c.text[m.name:m.nameEnd] // empty in an array
			if top && (string(name) == "_meta" || string(name) == "inputResponses" || string(name) == "requestState") {
				continue
			}
			if !first {
				out = append(out, ',')
			}
			if first = false; v.kind == '{' {
				out = append(rtimpl.AppendString(out, name), ':')
			}
			out = c.write(out, m.node, false)
		}
		return append(out, v.kind+2) // '}' or ']'
	case '"':
		return rtimpl.AppendString(out, c.text[v.start:v.end])
	}
	return append(out, c.in[v.start:v.end]...)
}

// stateBuffers holds scratch space, so that sealing and opening allocate
// nothing beyond their result. A buffer is cleared before it goes back,
// so that no state or digest input lingers in it.
var stateBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// getStateBuffer returns a buffer with room for n bytes; give it back with
// putStateBuffer and the same n.
func getStateBuffer(n int) *[]byte {
	b := stateBuffers.Get().(*[]byte)
	if cap(*b) < n {
		*b = make([]byte, 0, n)
	}
	return b
}

func putStateBuffer(b *[]byte, n int) {
	clear((*b)[:n])
	if cap(*b) <= 1<<16 {
		stateBuffers.Put(b)
	}
}

// digests returns the digests of b's principal and of its method and
// params, each under its own label, using scratch for their input.
func (b *StateBinding) digests(scratch []byte) (principal, request [sha256.Size]byte) {
	in := append(scratch[:0], "mcp requestState principal\x00"...)
	principal = sha256.Sum256(append(in, b.Principal...))
	in = append(scratch[:0], "mcp requestState request\x00"...)
	in = binary.AppendUvarint(in, uint64(len(b.Method)))
	in = append(in, b.Method...)
	request = sha256.Sum256(append(in, b.Params...))
	return principal, request
}

// digestInput is the length of the input digests reads, at most.
func (b *StateBinding) digestInput() int {
	return 32 + binary.MaxVarintLen64 + len(b.Method) + max(len(b.Principal), len(b.Params))
}

// ready says why s cannot seal or open, or nil when it can.
func (s *StateSealer) ready() error {
	switch {
	case s == nil:
		return errors.New("requestState: nil StateSealer")
	case s.ring.Load() == nil:
		return errors.New("requestState: a StateSealer not made by NewStateSealer has no key")
	}
	return nil
}

// Seal seals state for the request b describes, to be opened within the
// sealer's TTL, and returns the requestState to send: unpadded base64url
// that the client can neither read nor change unnoticed.
func (s *StateSealer) Seal(state []byte, b StateBinding) (string, error) {
	text, err := s.AppendSeal(nil, state, b)
	if err != nil {
		return "", err
	}
	return unsafe.String(&text[0], len(text)), nil // text is new, and no one else holds it
}

// AppendSeal is Seal, appending the sealed state to dst and returning the
// extended slice; it allocates nothing when dst has room.
func (s *StateSealer) AppendSeal(dst, state []byte, b StateBinding) ([]byte, error) {
	if err := s.ready(); err != nil {
		return dst, err
	}
	if len(state) > MaxStateSize {
		return dst, fmt.Errorf("requestState: a state of %d bytes is larger than MaxStateSize", len(state))
	}
	k := s.ring.Load().current
	off := len(k.header) + stateNonce // where the plaintext begins
	size := max(off+stateFixed+len(state)+stateTag, b.digestInput())
	buf := getStateBuffer(size)
	defer putStateBuffer(buf, size)
	principal, request := b.digests(*buf)
	raw := append((*buf)[:0], k.header...)[:off]
	if _, err := rand.Read(raw[len(k.header):]); err != nil {
		return dst, fmt.Errorf("requestState: %w", err)
	}
	issued := s.now().UnixMilli()
	raw = binary.BigEndian.AppendUint64(raw, uint64(issued))
	raw = binary.BigEndian.AppendUint64(raw, uint64(issued+s.lifetime))
	raw = append(append(append(raw, s.audience[:]...), principal[:]...), request[:]...)
	raw = append(raw, state...)
	raw = k.aead.Seal(raw[:off], raw[len(k.header):off], raw[off:], k.header)
	return stateEncoding.AppendEncode(dst, raw), nil
}

// Open checks a requestState that came back with the request b describes
// and returns the state sealed in it (nil for an empty one). It returns
// the error of the first check that fails, in this order: ErrStateMissing
// (an empty string), ErrStateTampered (encoding, length, format),
// ErrStateUnknownKey, ErrStateTampered (authentication),
// ErrStateWrongAudience, ErrStateNotYetValid, ErrStateExpired,
// ErrStateWrongPrincipal, ErrStateWrongRequest. A state that opens is
// authentic and fresh, not unused: see [StateSealer] on replay.
func (s *StateSealer) Open(sealed string, b StateBinding) ([]byte, error) {
	return s.AppendOpen(nil, sealed, b)
}

// AppendOpen is Open, appending the state to dst and returning the
// extended slice; it allocates nothing when dst has room. On an error,
// dst is returned unchanged.
func (s *StateSealer) AppendOpen(dst []byte, sealed string, b StateBinding) ([]byte, error) {
	if err := s.ready(); err != nil {
		return dst, err
	}
	if sealed == "" {
		return dst, ErrStateMissing
	}
	if len(sealed) > maxSealed {
		return dst, ErrStateTampered
	}
	room := stateEncoding.DecodedLen(len(sealed))
	size := room + max(len(sealed), b.digestInput())
	buf := getStateBuffer(size)
	defer putStateBuffer(buf, size)
	text := append((*buf)[room:room], sealed...)
	n, err := stateEncoding.Decode((*buf)[:room], text)
	raw := (*buf)[:n]
	if err != nil || n < 2 || raw[0] != stateFormat || n < 2+int(raw[1])+stateNonce+stateFixed+stateTag {
		return dst, ErrStateTampered
	}
	off := 2 + int(raw[1]) + stateNonce
	k := s.ring.Load().keys[string(raw[2:off-stateNonce])]
	if k == nil {
		return dst, ErrStateUnknownKey
	}
	plain, err := k.aead.Open(raw[off:off], raw[off-stateNonce:off], raw[off:], raw[:off-stateNonce])
	if err != nil {
		return dst, ErrStateTampered
	}
	if subtle.ConstantTimeCompare(plain[16:16+sha256.Size], s.audience[:]) != 1 {
		return dst, ErrStateWrongAudience
	}
	now := s.now().UnixMilli()
	issued, expiry := int64(binary.BigEndian.Uint64(plain)), int64(binary.BigEndian.Uint64(plain[8:]))
	if issued > now+MaxStateClockSkew.Milliseconds() {
		return dst, ErrStateNotYetValid
	}
	// Past the check above, issued is at most MaxStateClockSkew ahead of
	// the clock, so issued+lifetime cannot overflow.
	if expiry <= issued || expiry > issued+s.lifetime || now >= expiry {
		return dst, ErrStateExpired
	}
	principal, request := b.digests((*buf)[room:cap(*buf)])
	if subtle.ConstantTimeCompare(plain[16+sha256.Size:16+2*sha256.Size], principal[:]) != 1 {
		return dst, ErrStateWrongPrincipal
	}
	if subtle.ConstantTimeCompare(plain[16+2*sha256.Size:stateFixed], request[:]) != 1 {
		return dst, ErrStateWrongRequest
	}
	return append(dst, plain[stateFixed:]...), nil
}
