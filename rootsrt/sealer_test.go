package rootsrt_test

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rootsgen/rootsgen/rootsrt"
)

// These tests check the sealed requestState: what StateSealer.Open
// refuses, and why, and SalientParams, the params a state is bound to.
// The gate's Session is tested with a sealer in gate_test.go.

// stateClock is a clock the tests move by hand.
type stateClock struct{ now time.Time }

func (c *stateClock) Now() time.Time { return c.now }

var (
	stateSecret1 = bytes.Repeat([]byte{1}, 32)
	stateSecret2 = bytes.Repeat([]byte{2}, 16)
	stateT0      = time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	stateBind    = rootsrt.StateBinding{Principal: "alice", Method: "tools/call", Params: []byte(`{"arguments":{"path":"/srv/a"},"name":"read_file"}`)}
)

// stateErrors are the sentinels, each of which a refused state matches
// alone.
var stateErrors = []error{rootsrt.ErrStateMissing, rootsrt.ErrStateTampered, rootsrt.ErrStateUnknownKey, rootsrt.ErrStateWrongAudience,
	rootsrt.ErrStateNotYetValid, rootsrt.ErrStateExpired, rootsrt.ErrStateWrongPrincipal, rootsrt.ErrStateWrongRequest}

// onlyIs fails unless err matches want and no other state sentinel.
func onlyIs(t *testing.T, what string, err, want error) {
	t.Helper()
	for _, e := range stateErrors {
		if errors.Is(err, e) != (e == want) {
			t.Errorf("%s: error %v; errors.Is(err, %q) = %v", what, err, e, errors.Is(err, e))
		}
	}
}

func newSealer(t testing.TB, clock *stateClock, current rootsrt.StateKey, older ...rootsrt.StateKey) *rootsrt.StateSealer {
	t.Helper()
	s, err := rootsrt.NewStateSealer(rootsrt.StateSealerConfig{Current: current, Older: older, TTL: time.Minute, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustSeal(t testing.TB, s *rootsrt.StateSealer, state []byte, b rootsrt.StateBinding) string {
	t.Helper()
	sealed, err := s.Seal(state, b)
	if err != nil {
		t.Fatal(err)
	}
	return sealed
}

// A sealed state opens for its binding and gives back the state; the
// text is unpadded base64url that shows nothing of the state; two seals
// of one state differ (random nonces).
func TestStateSealOpen(t *testing.T) {
	clock := &stateClock{stateT0}
	s := newSealer(t, clock, rootsrt.StateKey{ID: "k1", Secret: stateSecret1})
	for _, state := range [][]byte{nil, []byte("x"), []byte("call/1 secret-marker"), bytes.Repeat([]byte{0, 0xff}, rootsrt.MaxStateSize/2)} {
		sealed := mustSeal(t, s, state, stateBind)
		if strings.ContainsAny(sealed, "=+/") || strings.Contains(sealed, "secret-marker") {
			t.Errorf("sealed %.40q: want unpadded base64url that hides the state", sealed)
		}
		if again := mustSeal(t, s, state, stateBind); again == sealed {
			t.Error("two seals of one state are equal: the nonce is not fresh")
		}
		got, err := s.Open(sealed, stateBind)
		if err != nil || !bytes.Equal(got, state) {
			t.Errorf("Open = %.40q, %v; want %.40q", got, err, state)
		}
		// AppendOpen appends, and leaves dst alone on error.
		dst := []byte("prefix:")
		if got, err := s.AppendOpen(dst, sealed, stateBind); err != nil || string(got) != "prefix:"+string(state) {
			t.Errorf("AppendOpen = %.40q, %v", got, err)
		}
		if got, err := s.AppendOpen(dst, sealed, rootsrt.StateBinding{}); err == nil || string(got) != "prefix:" {
			t.Errorf("AppendOpen refused = %q, %v; want dst unchanged and an error", got, err)
		}
	}
	// AppendSeal appends to what dst holds.
	out, err := s.AppendSeal([]byte("prefix:"), []byte("st"), stateBind)
	if err != nil || !bytes.HasPrefix(out, []byte("prefix:")) {
		t.Fatalf("AppendSeal = %q, %v", out, err)
	}
	if got, err := s.Open(string(out[len("prefix:"):]), stateBind); err != nil || string(got) != "st" {
		t.Errorf("Open(AppendSeal) = %q, %v", got, err)
	}
	if _, err := s.Seal(make([]byte, rootsrt.MaxStateSize+1), stateBind); err == nil {
		t.Error("Seal of a state over MaxStateSize succeeded")
	}
	onlyIs(t, "empty requestState", func() error { _, err := s.Open("", stateBind); return err }(), rootsrt.ErrStateMissing)
	onlyIs(t, "over-long requestState", func() error { _, err := s.Open(strings.Repeat("A", 1<<20), stateBind); return err }(), rootsrt.ErrStateTampered)
	var nilSealer *rootsrt.StateSealer
	if _, err := nilSealer.Seal(nil, stateBind); err == nil {
		t.Error("a nil sealer sealed")
	}
	if _, err := nilSealer.Open("x", stateBind); err == nil {
		t.Error("a nil sealer opened")
	}
}

// Every change to a sealed state fails to open: each character of the
// text replaced by every other base64url character, each bit of the
// bytes it encodes flipped, the text cut at every length, a character
// added. A changed key id is an unknown key; anything else fails
// verification.
func TestStateTamperEveryByte(t *testing.T) {
	clock := &stateClock{stateT0}
	s := newSealer(t, clock, rootsrt.StateKey{ID: "k1", Secret: stateSecret1}, rootsrt.StateKey{ID: "k0", Secret: stateSecret2})
	state := bytes.Repeat([]byte("0123456789abcdef"), 16) // 256 bytes
	sealed := mustSeal(t, s, state, stateBind)
	open := func(text string) error {
		got, err := s.Open(text, stateBind)
		if err == nil {
			t.Fatalf("a changed state opened: %q gave %.40q", text, got)
		}
		return err
	}
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	for i := range len(sealed) {
		for _, c := range alphabet + "=+/. \x00\xff" {
			if byte(c) == sealed[i] || c > 0x7f {
				continue
			}
			text := sealed[:i] + string(rune(c)) + sealed[i+1:]
			if err := open(text); !errors.Is(err, rootsrt.ErrStateTampered) && !errors.Is(err, rootsrt.ErrStateUnknownKey) {
				t.Errorf("character %d changed to %q: %v", i, c, err)
			}
		}
	}
	raw, err := base64.RawURLEncoding.DecodeString(sealed)
	if err != nil {
		t.Fatal(err)
	}
	idEnd := 2 + int(raw[1])
	for i := range raw {
		for bit := range 8 {
			changed := bytes.Clone(raw)
			changed[i] ^= 1 << bit
			err := open(base64.RawURLEncoding.EncodeToString(changed))
			switch {
			case i >= 2 && i < idEnd && string(changed[2:idEnd]) == "k0":
				// The key id names the sealer's other key, which
				// does not authenticate what k1 sealed.
				onlyIs(t, fmt.Sprintf("byte %d bit %d (key id k0)", i, bit), err, rootsrt.ErrStateTampered)
			case i >= 2 && i < idEnd: // the key id: "k1" becomes a key the sealer lacks
				onlyIs(t, fmt.Sprintf("byte %d bit %d (key id)", i, bit), err, rootsrt.ErrStateUnknownKey)
			case i == 1: // the id's length: a shorter or longer id, or too short a state
				if !errors.Is(err, rootsrt.ErrStateUnknownKey) && !errors.Is(err, rootsrt.ErrStateTampered) {
					t.Errorf("byte 1 bit %d (id length): %v", bit, err)
				}
			default:
				onlyIs(t, fmt.Sprintf("byte %d bit %d", i, bit), err, rootsrt.ErrStateTampered)
			}
		}
	}
	for n := range len(sealed) {
		if err := open(sealed[:n]); n > 0 && !errors.Is(err, rootsrt.ErrStateTampered) {
			t.Errorf("cut to %d characters: %v", n, err)
		}
	}
	onlyIs(t, "a character added", open(sealed+"A"), rootsrt.ErrStateTampered)
	onlyIs(t, "a byte added", open(base64.RawURLEncoding.EncodeToString(append(raw, 0))), rootsrt.ErrStateTampered)
	onlyIs(t, "padded", open(sealed+strings.Repeat("=", (4-len(sealed)%4)%4+4)), rootsrt.ErrStateTampered)
	// The untouched state still opens.
	if got, err := s.Open(sealed, stateBind); err != nil || !bytes.Equal(got, state) {
		t.Errorf("the original no longer opens: %v", err)
	}
}

// A state opens until its TTL has passed, and from then on is expired,
// whatever else is right about it. The clock is the sealer's, moved by
// the test.
func TestStateExpiry(t *testing.T) {
	clock := &stateClock{stateT0}
	s := newSealer(t, clock, rootsrt.StateKey{ID: "k1", Secret: stateSecret1})
	sealed := mustSeal(t, s, []byte("st"), stateBind)
	clock.now = stateT0.Add(time.Minute - time.Millisecond)
	if _, err := s.Open(sealed, stateBind); err != nil {
		t.Errorf("a millisecond before the expiry: %v", err)
	}
	clock.now = stateT0.Add(time.Minute)
	_, err := s.Open(sealed, stateBind)
	onlyIs(t, "at the expiry", err, rootsrt.ErrStateExpired)
	clock.now = stateT0.Add(24 * time.Hour)
	_, err = s.Open(sealed, stateBind)
	onlyIs(t, "a day later", err, rootsrt.ErrStateExpired)

	// The default TTL, and the errors of a bad configuration.
	d, err := rootsrt.NewStateSealer(rootsrt.StateSealerConfig{Current: rootsrt.StateKey{ID: "k", Secret: stateSecret1}, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	sealed = mustSeal(t, d, nil, stateBind)
	clock.now = clock.now.Add(rootsrt.DefaultStateTTL - time.Millisecond)
	if _, err := d.Open(sealed, stateBind); err != nil {
		t.Errorf("within DefaultStateTTL: %v", err)
	}
	clock.now = clock.now.Add(time.Millisecond)
	if _, err := d.Open(sealed, stateBind); !errors.Is(err, rootsrt.ErrStateExpired) {
		t.Errorf("after DefaultStateTTL: %v", err)
	}
	// The longest TTL there is: a state opens a year later, and a day
	// before it was sealed is too early, as with any TTL.
	long, err := rootsrt.NewStateSealer(rootsrt.StateSealerConfig{Current: rootsrt.StateKey{ID: "k", Secret: stateSecret1}, TTL: math.MaxInt64, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	sealed = mustSeal(t, long, nil, stateBind)
	clock.now = clock.now.Add(365 * 24 * time.Hour)
	if _, err := long.Open(sealed, stateBind); err != nil {
		t.Errorf("TTL math.MaxInt64, a year later: %v", err)
	}
	for _, c := range []rootsrt.StateSealerConfig{
		{Current: rootsrt.StateKey{ID: "k", Secret: stateSecret1}, TTL: -time.Second},
		{Current: rootsrt.StateKey{ID: "", Secret: stateSecret1}},
		{Current: rootsrt.StateKey{ID: strings.Repeat("k", 256), Secret: stateSecret1}},
		{Current: rootsrt.StateKey{ID: "k", Secret: []byte("short")}},
		{Current: rootsrt.StateKey{ID: "k", Secret: stateSecret1}, Older: []rootsrt.StateKey{{ID: "k", Secret: stateSecret2}}},
		{Current: rootsrt.StateKey{ID: "k", Secret: stateSecret1}, Older: []rootsrt.StateKey{{ID: "j", Secret: nil}}},
	} {
		if _, err := rootsrt.NewStateSealer(c); err == nil {
			t.Errorf("NewStateSealer(%+v) succeeded", c)
		}
	}
}

// A state sealed for one principal and request opens for no other: each
// part of the binding is checked, and says which failed.
func TestStateBinding(t *testing.T) {
	clock := &stateClock{stateT0}
	s := newSealer(t, clock, rootsrt.StateKey{ID: "k1", Secret: stateSecret1})
	sealed := mustSeal(t, s, []byte("st"), stateBind)
	with := func(f func(b *rootsrt.StateBinding)) rootsrt.StateBinding {
		b := stateBind
		b.Params = bytes.Clone(b.Params)
		f(&b)
		return b
	}
	for _, c := range []struct {
		what string
		b    rootsrt.StateBinding
		want error
	}{
		{"another principal", with(func(b *rootsrt.StateBinding) { b.Principal = "mallory" }), rootsrt.ErrStateWrongPrincipal},
		{"no principal", with(func(b *rootsrt.StateBinding) { b.Principal = "" }), rootsrt.ErrStateWrongPrincipal},
		{"another method", with(func(b *rootsrt.StateBinding) { b.Method = "prompts/get" }), rootsrt.ErrStateWrongRequest},
		{"another tool", with(func(b *rootsrt.StateBinding) {
			b.Params = []byte(`{"arguments":{"path":"/srv/a"},"name":"write_file"}`)
		}), rootsrt.ErrStateWrongRequest},
		{"other arguments", with(func(b *rootsrt.StateBinding) {
			b.Params = []byte(`{"arguments":{"path":"/etc/passwd"},"name":"read_file"}`)
		}), rootsrt.ErrStateWrongRequest},
		{"no params", with(func(b *rootsrt.StateBinding) { b.Params = nil }), rootsrt.ErrStateWrongRequest},
		// The method and the params are framed apart: moving bytes
		// from one to the other is another request.
		{"bytes moved from params to method", rootsrt.StateBinding{Principal: "alice", Method: "tools/call{", Params: stateBind.Params[1:]}, rootsrt.ErrStateWrongRequest},
		// The principal is checked before the request.
		{"both wrong", rootsrt.StateBinding{Principal: "mallory", Method: "x"}, rootsrt.ErrStateWrongPrincipal},
	} {
		_, err := s.Open(sealed, c.b)
		onlyIs(t, c.what, err, c.want)
	}
	if _, err := s.Open(sealed, with(func(*rootsrt.StateBinding) {})); err != nil {
		t.Errorf("an equal binding: %v", err)
	}
	// Expiry is checked before the binding.
	clock.now = stateT0.Add(time.Hour)
	_, err := s.Open(sealed, rootsrt.StateBinding{Principal: "mallory"})
	onlyIs(t, "expired and wrong principal", err, rootsrt.ErrStateExpired)
}

// Keys rotate by id: a new sealer with a new current key still opens
// what the old key sealed while the old key is among its older ones, and
// refuses it as sealed with an unknown key once it is removed.
func TestStateKeyRotation(t *testing.T) {
	clock := &stateClock{stateT0}
	k1, k2 := rootsrt.StateKey{ID: "2026-07", Secret: stateSecret1}, rootsrt.StateKey{ID: "2026-08", Secret: stateSecret2}
	before := newSealer(t, clock, k1)
	during := newSealer(t, clock, k2, k1)
	after := newSealer(t, clock, k2)
	old := mustSeal(t, before, []byte("old"), stateBind)
	fresh := mustSeal(t, during, []byte("new"), stateBind)
	for _, c := range []struct {
		what   string
		s      *rootsrt.StateSealer
		sealed string
		want   string
		err    error
	}{
		{"old key, before", before, old, "old", nil},
		{"old key, during", during, old, "old", nil},
		{"old key, after", after, old, "", rootsrt.ErrStateUnknownKey},
		{"new key, before", before, fresh, "", rootsrt.ErrStateUnknownKey},
		{"new key, during", during, fresh, "new", nil},
		{"new key, after", after, fresh, "new", nil},
	} {
		got, err := c.s.Open(c.sealed, stateBind)
		if c.err != nil {
			onlyIs(t, c.what, err, c.err)
		} else if err != nil || string(got) != c.want {
			t.Errorf("%s: %q, %v; want %q", c.what, got, err, c.want)
		}
	}
	// The same id with another secret is not the same key: it fails
	// verification.
	impostor := newSealer(t, clock, rootsrt.StateKey{ID: k1.ID, Secret: stateSecret2})
	_, err := impostor.Open(old, stateBind)
	onlyIs(t, "same id, other secret", err, rootsrt.ErrStateTampered)
	// A state that names a key id nobody has.
	raw, _ := base64.RawURLEncoding.DecodeString(old)
	forged := append([]byte{raw[0], 2, 'z', 'z'}, raw[2+int(raw[1]):]...)
	_, err = during.Open(base64.RawURLEncoding.EncodeToString(forged), stateBind)
	onlyIs(t, "unknown key id", err, rootsrt.ErrStateUnknownKey)
}

// sealerWith is a sealer with key k1 on clock, with the TTL and audience
// given.
func sealerWith(t testing.TB, clock *stateClock, ttl time.Duration, audience string) *rootsrt.StateSealer {
	t.Helper()
	s, err := rootsrt.NewStateSealer(rootsrt.StateSealerConfig{Current: rootsrt.StateKey{ID: "k1", Secret: stateSecret1}, TTL: ttl, Audience: audience, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Two services that share a key do not open each other's states: each
// state is sealed for its sealer's audience, and the empty audience is
// one audience among others. The audience is checked before the times
// and the binding.
func TestStateAudience(t *testing.T) {
	clock := &stateClock{stateT0}
	a := sealerWith(t, clock, time.Minute, "files-server")
	b := sealerWith(t, clock, time.Minute, "mail-server")
	none := sealerWith(t, clock, time.Minute, "")
	fromA := mustSeal(t, a, []byte("st"), stateBind)
	fromNone := mustSeal(t, none, []byte("st"), stateBind)
	if got, err := a.Open(fromA, stateBind); err != nil || string(got) != "st" {
		t.Errorf("own audience: %q, %v", got, err)
	}
	if got, err := none.Open(fromNone, stateBind); err != nil || string(got) != "st" {
		t.Errorf("empty audience, own state: %q, %v", got, err)
	}
	for _, c := range []struct {
		what   string
		s      *rootsrt.StateSealer
		sealed string
	}{
		{"another audience", b, fromA},
		{"the empty audience opening a named one's", none, fromA},
		{"a named audience opening the empty one's", a, fromNone},
	} {
		_, err := c.s.Open(c.sealed, stateBind)
		onlyIs(t, c.what, err, rootsrt.ErrStateWrongAudience)
	}
	clock.now = stateT0.Add(time.Hour)
	_, err := b.Open(fromA, rootsrt.StateBinding{Principal: "mallory"})
	onlyIs(t, "another audience, expired, another principal", err, rootsrt.ErrStateWrongAudience)
}

// A state carries the time it was issued. An opener refuses one issued
// further ahead of its clock than MaxStateClockSkew (the sealer's clock
// runs fast), and one whose expiry lies further from its issue than the
// opener's TTL (the sealer has a longer TTL), however young it is.
func TestStateIssuedAt(t *testing.T) {
	sealClock, openClock := &stateClock{stateT0}, &stateClock{stateT0}
	opener := sealerWith(t, openClock, time.Minute, "")

	// A clock a day fast, a TTL of a minute: twelve hours later the
	// state is still from the future.
	sealClock.now = stateT0.Add(24 * time.Hour)
	fast := mustSeal(t, sealerWith(t, sealClock, time.Minute, ""), []byte("st"), stateBind)
	openClock.now = stateT0.Add(12 * time.Hour)
	_, err := opener.Open(fast, stateBind)
	onlyIs(t, "issued 12 h ahead", err, rootsrt.ErrStateNotYetValid)
	_, err = opener.Open(fast, rootsrt.StateBinding{Principal: "mallory"})
	onlyIs(t, "issued 12 h ahead, another principal", err, rootsrt.ErrStateNotYetValid)

	// Within the skew it opens; a millisecond beyond, it does not.
	openClock.now = stateT0
	for _, c := range []struct {
		ahead time.Duration
		want  error
	}{
		{0, nil},
		{rootsrt.MaxStateClockSkew - time.Millisecond, nil},
		{rootsrt.MaxStateClockSkew, nil},
		{rootsrt.MaxStateClockSkew + time.Millisecond, rootsrt.ErrStateNotYetValid},
	} {
		sealClock.now = stateT0.Add(c.ahead)
		sealed := mustSeal(t, sealerWith(t, sealClock, time.Minute, ""), []byte("st"), stateBind)
		_, err := opener.Open(sealed, stateBind)
		if c.want == nil && err != nil {
			t.Errorf("issued %v ahead: %v", c.ahead, err)
		} else if c.want != nil {
			onlyIs(t, fmt.Sprintf("issued %v ahead", c.ahead), err, c.want)
		}
	}

	// A sealer with a day's TTL: its state is refused by an opener that
	// allows a minute, from the moment it is sealed; a sealer with a
	// shorter TTL than the opener's is held to its own.
	sealClock.now, openClock.now = stateT0, stateT0
	long := mustSeal(t, sealerWith(t, sealClock, 24*time.Hour, ""), []byte("st"), stateBind)
	_, err = opener.Open(long, stateBind)
	onlyIs(t, "a lifetime of a day, opened at once", err, rootsrt.ErrStateExpired)
	justOver := mustSeal(t, sealerWith(t, sealClock, time.Minute+time.Millisecond, ""), []byte("st"), stateBind)
	_, err = opener.Open(justOver, stateBind)
	onlyIs(t, "a lifetime a millisecond over the TTL", err, rootsrt.ErrStateExpired)
	short := mustSeal(t, sealerWith(t, sealClock, time.Second, ""), []byte("st"), stateBind)
	openClock.now = stateT0.Add(time.Second - time.Millisecond)
	if _, err := opener.Open(short, stateBind); err != nil {
		t.Errorf("a shorter lifetime, within it: %v", err)
	}
	openClock.now = stateT0.Add(time.Second)
	_, err = opener.Open(short, stateBind)
	onlyIs(t, "a shorter lifetime, past it", err, rootsrt.ErrStateExpired)

	// A TTL that is not a whole number of milliseconds is rounded up, on
	// both sides.
	odd := sealerWith(t, sealClock, time.Minute+time.Microsecond, "")
	openClock.now = stateT0
	if _, err := odd.Open(mustSeal(t, odd, nil, stateBind), stateBind); err != nil {
		t.Errorf("a TTL of 1m0.000001s: %v", err)
	}
}

// sealFormat1 seals state as format 1 did, with no issue time and no
// audience: expiry | principal digest | request digest | state.
func sealFormat1(t testing.TB, id string, secret []byte, expiry time.Time, state []byte, b rootsrt.StateBinding) string {
	t.Helper()
	block, err := aes.NewCipher(secret)
	if err != nil {
		t.Fatal(err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		t.Fatal(err)
	}
	principal := sha256.Sum256(append([]byte("mcp requestState principal\x00"), b.Principal...))
	in := binary.AppendUvarint([]byte("mcp requestState request\x00"), uint64(len(b.Method)))
	request := sha256.Sum256(append(append(in, b.Method...), b.Params...))
	header := append([]byte{1, byte(len(id))}, id...)
	nonce := make([]byte, aead.NonceSize())
	plain := binary.BigEndian.AppendUint64(nil, uint64(expiry.UnixMilli()))
	plain = append(append(append(plain, principal[:]...), request[:]...), state...)
	raw := aead.Seal(append(header, nonce...), nonce, plain, header)
	return base64.RawURLEncoding.EncodeToString(raw)
}

// A state in the format before issue times and audiences is refused as
// tampered, though its key and binding are right and it has not expired.
func TestStateOldFormat(t *testing.T) {
	clock := &stateClock{stateT0}
	s := sealerWith(t, clock, time.Minute, "")
	old := sealFormat1(t, "k1", stateSecret1, stateT0.Add(time.Minute), []byte("st"), stateBind)
	got, err := s.Open(old, stateBind)
	if err == nil {
		t.Fatalf("a format 1 state opened to %q", got)
	}
	onlyIs(t, "format 1", err, rootsrt.ErrStateTampered)
}

// SalientParams keeps what a retry repeats and drops what it changes:
// the retry of a tools/call, with _meta, inputResponses and requestState,
// another member order and other white space, gives the same bytes;
// another tool or other arguments do not.
func TestSalientParams(t *testing.T) {
	first := `{"name":"read_file","arguments":{"path":"/a","n":1.50,"z":[1,{"b":2,"a":1}]},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`
	retry := ` { "_meta" : {"progressToken": 2}, "arguments": {"z":[1,{"a":1,"b":2}], "n":1.50, "path":"/a"}, "name":"read_file",
		"inputResponses":{"roots":{"roots":[]}}, "requestState":"xyz" } `
	a, err := rootsrt.SalientParams([]byte(first))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"arguments":{"n":1.50,"path":"/a","z":[1,{"a":1,"b":2}]},"name":"read_file"}`; string(a) != want {
		t.Errorf("SalientParams = %s, want %s", a, want)
	}
	if b, err := rootsrt.SalientParams([]byte(retry)); err != nil || !bytes.Equal(a, b) {
		t.Errorf("the retry gives %s, %v; want %s", b, err, a)
	}
	for _, other := range []string{
		`{"name":"write_file","arguments":{"path":"/a","n":1.50,"z":[1,{"b":2,"a":1}]}}`,
		`{"name":"read_file","arguments":{"path":"/b","n":1.50,"z":[1,{"b":2,"a":1}]}}`,
		`{"name":"read_file","arguments":{"path":"/a","n":1.5,"z":[1,{"b":2,"a":1}]}}`,
		`{"name":"read_file"}`,
	} {
		if b, err := rootsrt.SalientParams([]byte(other)); err != nil || bytes.Equal(a, b) {
			t.Errorf("SalientParams(%s) = %s, %v; want other bytes", other, b, err)
		}
	}
	for _, empty := range []string{"", "null", " null ", "{}", `{"_meta":{}}`} {
		if b, err := rootsrt.SalientParams([]byte(empty)); err != nil || string(b) != "{}" {
			t.Errorf("SalientParams(%q) = %s, %v; want {}", empty, b, err)
		}
	}
	for _, bad := range []string{"[]", `"x"`, "1", "{", `{"a":1} {}`, `{"a":1}x`} {
		if b, err := rootsrt.SalientParams([]byte(bad)); err == nil {
			t.Errorf("SalientParams(%q) = %s, want an error", bad, b)
		}
	}
}

// SalientParams refuses params that JSON decoders read in more than one
// way, rather than choose one reading: a member name given twice in one
// object (at any depth, however it is escaped), text that is not UTF-8,
// and an escaped surrogate that is not half of a pair. Each refused input
// differs from an accepted one that a normalising reading would give the
// same bytes.
func TestSalientParamsAmbiguous(t *testing.T) {
	for _, c := range []struct{ bad, why, like string }{
		{`{"a":1,"a":2}`, "duplicate", `{"a":2}`},
		{`{"a":2,"a":2}`, "duplicate", `{"a":2}`},
		{`{"x":{"a":1,"a":2}}`, "duplicate", `{"x":{"a":2}}`},
		{`{"x":[1,{"b":{"a":1,"a":2}}]}`, "duplicate", `{"x":[1,{"b":{"a":2}}]}`},
		{`{"a":1,"\u0061":2}`, "duplicate", `{"a":2}`},
		{`{"name":"read_file","name":"write_file"}`, "duplicate", `{"name":"write_file"}`},
		{`{"_meta":{},"_meta":{},"a":1}`, "duplicate", `{"a":1}`},
		{"{\"a\":\"\xff\"}", "UTF-8", `{"a":"\ufffd"}`},
		{"{\"\xc3\":1}", "UTF-8", `{"\ufffd":1}`},
		{"{\"a\":\"\xed\xa0\x80\"}", "UTF-8", `{"a":"\ufffd\ufffd\ufffd"}`}, // a surrogate, UTF-8 encoded
		{"{\"_meta\":{\"k\":\"\xff\"},\"a\":1}", "UTF-8", `{"a":1}`},
		{`{"a":"\ud800"}`, "surrogate", `{"a":"\ufffd"}`},
		{`{"a":"\udc00"}`, "surrogate", `{"a":"\ufffd"}`},
		{`{"a":"\ud800x"}`, "surrogate", `{"a":"\ufffdx"}`},
		{`{"a":"\ud800\u0041"}`, "surrogate", `{"a":"\ufffdA"}`},
		{`{"a":"\uD800\uD800\uDC00"}`, "surrogate", `{"a":"\ufffd\ud800\udc00"}`},
		{`{"a":"\udc00\ud800"}`, "surrogate", `{"a":"\ufffd\ufffd"}`},
		{`{"\ud800":1}`, "surrogate", `{"\ufffd":1}`},
	} {
		got, err := rootsrt.SalientParams([]byte(c.bad))
		if err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("SalientParams(%q) = %s, %v; want an error about %s", c.bad, got, err, c.why)
		}
		if _, err := rootsrt.SalientParams([]byte(c.like)); err != nil {
			t.Errorf("SalientParams(%q): %v", c.like, err)
		}
	}
	// Pairs, U+FFFD itself and the same name in sibling objects are fine.
	for in, want := range map[string]string{
		`{"a":"\ud83d\ude00"}`:                        `{"a":"😀"}`,
		`{"a":"\uD83D\uDE00","b":"😀"}`:                `{"a":"😀","b":"😀"}`,
		`{"a":"\ufffd"}`:                              `{"a":"�"}`,
		`{"x":{"a":1},"y":{"a":1}}`:                   `{"x":{"a":1},"y":{"a":1}}`,
		`{"x":[{"a":1},{"a":2}]}`:                     `{"x":[{"a":1},{"a":2}]}`,
		`{"a":{"a":{"a":1}}}`:                         `{"a":{"a":{"a":1}}}`,
		`{"requestState":"x","a":{"requestState":1}}`: `{"a":{"requestState":1}}`,
	} {
		if got, err := rootsrt.SalientParams([]byte(in)); err != nil || string(got) != want {
			t.Errorf("SalientParams(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
}

// salientByMaps is SalientParams as encoding/json would write it: decoded
// into maps (numbers as written) and encoded again. On params with no
// repeated name, no invalid UTF-8 and no lone surrogate, SalientParams
// gives the same bytes.
func salientByMaps(params []byte) ([]byte, error) {
	members := map[string]any{}
	if t := bytes.TrimLeft(params, " \t\r\n"); len(params) > 0 && !(bytes.HasPrefix(t, []byte("null")) && len(bytes.TrimLeft(t[4:], " \t\r\n")) == 0) {
		if !json.Valid(params) {
			return nil, errors.New("not JSON")
		}
		dec := json.NewDecoder(bytes.NewReader(params))
		dec.UseNumber()
		if err := dec.Decode(&members); err != nil {
			return nil, errors.New("not a JSON object")
		}
	}
	delete(members, "_meta")
	delete(members, "inputResponses")
	delete(members, "requestState")
	return json.Marshal(members)
}

// salientSeeds are params SalientParams accepts, with every kind of
// escape and value it has to write as encoding/json does.
var salientSeeds = []string{
	`{"name":"read_file","arguments":{"path":"/a","n":1.50,"z":[1,{"b":2,"a":1}]},"_meta":{"progressToken":1}}`,
	`{"s":"<a href=\"x\">&amp;</a>","t":"tab\there\nnl\r\b\f\u0000\u001f\u007f","u":"\u2028\u2029 \/ \\ é 😀"}`,
	`{"n":[-0,0.0,1e10,1E+10,-1.5e-3,123456789012345678901234567890],"b":[true,false,null],"e":{},"a":[],"x":[[],[{}]]}`,
	`{"\u00e9":1,"e":2,"é\u0301":3,"Z":4,"_":5,"":6,"\u003c":7,"<>":8}`,
	" \t\r\n{ \"a\" : [ 1 , 2 ] , \"b\" : { } } \n",
	`{"inputResponses":{"roots":{"roots":[]}},"requestState":"x","_meta":{}}`,
	`{"\u005fmeta":1,"inputR\u0065sponses":2,"x":3}`,
	"null", "", " null ", "{}",
}

func TestSalientParamsEncoding(t *testing.T) {
	for _, in := range salientSeeds {
		want, err := salientByMaps([]byte(in))
		if err != nil {
			t.Fatalf("seed %q: %v", in, err)
		}
		got, err := rootsrt.SalientParams([]byte(in))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("SalientParams(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{" ", "nul", "null x", "[]", "[", `{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":.5}`, `{"a":1e}`, `{"a":+1}`,
		`{"a":tru}`, `{"a":"\x"}`, `{"a":"\u12"}`, `{"a":"\u12G4"}`, "{\"a\":\"\t\"}", `{"a" 1}`, `{"a":1,}`, `{,}`, `{"a":[1,]}`, `{a:1}`, `{"a":1}}`,
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001)} {
		if got, err := rootsrt.SalientParams([]byte(bad)); err == nil {
			t.Errorf("SalientParams(%.40q) = %s, want an error", bad, got)
		}
	}
	deep := `{"a":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`
	if _, err := rootsrt.SalientParams([]byte(deep)); err != nil {
		t.Errorf("10000 levels: %v", err)
	}
	if _, err := rootsrt.SalientParams([]byte(`{"a":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`)); err == nil {
		t.Error("10001 levels: no error")
	}
}

// FuzzSalientParams compares SalientParams with encoding/json: what one
// accepts, the other accepts with the same bytes, except for the
// ambiguous params only SalientParams refuses; and its output is its own
// canonical form.
func FuzzSalientParams(f *testing.F) {
	for _, s := range salientSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Add([]byte(`{"a":"\ud800"}`))
	f.Add([]byte("{\"a\":\"\xff\"}"))
	f.Fuzz(func(t *testing.T, params []byte) {
		got, err := rootsrt.SalientParams(params)
		want, wantErr := salientByMaps(params)
		switch {
		case err == nil && wantErr != nil:
			t.Fatalf("SalientParams(%q) = %s; encoding/json: %v", params, got, wantErr)
		case err == nil && !bytes.Equal(got, want):
			t.Fatalf("SalientParams(%q) = %s; encoding/json gives %s", params, got, want)
		case err == nil:
			if again, err := rootsrt.SalientParams(got); err != nil || !bytes.Equal(again, got) {
				t.Fatalf("SalientParams(%s) = %s, %v; not canonical", got, again, err)
			}
		case wantErr == nil:
			// Refused, though encoding/json reads it: one of the
			// ambiguities, and what the error says.
			msg := err.Error()
			switch {
			case strings.Contains(msg, "UTF-8"):
				if utf8.Valid(params) {
					t.Fatalf("SalientParams(%q): %v, but it is UTF-8", params, err)
				}
			case strings.Contains(msg, "surrogate"):
				if !bytes.Contains(bytes.ToLower(params), []byte(`\ud`)) {
					t.Fatalf("SalientParams(%q): %v, but it has no escaped surrogate", params, err)
				}
			case strings.Contains(msg, "duplicate"):
				if !hasDuplicateName(params) {
					t.Fatalf("SalientParams(%q): %v, but encoding/json sees no duplicate", params, err)
				}
			default:
				t.Fatalf("SalientParams(%q): %v; encoding/json reads it", params, err)
			}
		}
	})
}

// hasDuplicateName reports whether an object in data, valid JSON, has a
// member name twice, as encoding/json's tokens decode names.
func hasDuplicateName(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type level struct {
		object bool
		names  map[string]bool
		key    bool // the next string is a name
	}
	var stack []*level
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *level
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if name, ok := tok.(string); ok {
				if top.names[name] {
					return true
				}
				top.names[name] = true
				top.key = false
				continue
			}
		}
		if top != nil && top.object && tok != json.Delim('}') {
			top.key = true // the value is read; a name comes next
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &level{object: true, names: map[string]bool{}, key: true})
			if top != nil && top.object {
				top.key = true
			}
		case json.Delim('['):
			stack = append(stack, &level{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
	}
}

// FuzzStateOpen runs Open on any text and principal: it never panics,
// every refusal is one of the sentinels, and only a state this test
// sealed, presented by its principal, opens, to the state sealed in it.
// The key and the clock are fixed, so seeds stay valid.
func FuzzStateOpen(f *testing.F) {
	clock := &stateClock{stateT0}
	s := newSealer(f, clock, rootsrt.StateKey{ID: "k1", Secret: stateSecret1}, rootsrt.StateKey{ID: "k0", Secret: stateSecret2})
	const state = "call/1"
	f.Add(mustSeal(f, s, []byte(state), stateBind), stateBind.Principal)
	f.Add(mustSeal(f, s, []byte(state), stateBind), "bob")
	f.Add("", "alice")
	f.Add("AgJrMQ", "alice")
	f.Add("AgJrMAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "alice")
	// States the key sealed that must not open: another audience's, one
	// from the future, one with too long a lifetime, one in format 1.
	// Their state is not the one that may open.
	for _, c := range []struct {
		ttl      time.Duration
		audience string
		ahead    time.Duration
	}{{time.Minute, "elsewhere", 0}, {time.Minute, "", time.Hour}, {time.Hour, "", 0}} {
		other := &stateClock{stateT0.Add(c.ahead)}
		f.Add(mustSeal(f, sealerWith(f, other, c.ttl, c.audience), []byte("elsewhere"), stateBind), stateBind.Principal)
	}
	f.Add(sealFormat1(f, "k1", stateSecret1, stateT0.Add(time.Minute), []byte("elsewhere"), stateBind), stateBind.Principal)
	f.Fuzz(func(t *testing.T, sealed, principal string) {
		b := stateBind
		b.Principal = principal
		got, err := s.Open(sealed, b)
		if err != nil {
			for _, e := range stateErrors {
				if err == e {
					return
				}
			}
			t.Fatalf("Open(%q) = %v, not one of the sentinels", sealed, err)
		}
		if principal != stateBind.Principal || string(got) != state {
			t.Fatalf("Open(%q) for %q opened to %q", sealed, principal, got)
		}
	})
}

// SetKeys rotates one sealer in place, as replicas that share keys do
// while they serve: states sealed before the rotation open while their key
// is an older one, and are refused once it is removed; states sealed after
// it use the new key. Seal and Open running during rotations see one key
// set or the other, never a mix, and a refused key set leaves the keys as
// they were.
func TestStateSetKeys(t *testing.T) {
	clock := &stateClock{stateT0}
	k1, k2 := rootsrt.StateKey{ID: "k1", Secret: stateSecret1}, rootsrt.StateKey{ID: "k2", Secret: stateSecret2}
	s := newSealer(t, clock, k1)
	old := mustSeal(t, s, []byte("old"), stateBind)
	if err := s.SetKeys(k1, k2); err != nil { // phase 1: every replica can open k2
		t.Fatal(err)
	}
	if err := s.SetKeys(k2, k1); err != nil { // phase 2: k2 seals
		t.Fatal(err)
	}
	fresh := mustSeal(t, s, []byte("new"), stateBind)
	if id := keyID(t, fresh); id != "k2" {
		t.Errorf("sealed after the rotation with key %q, want k2", id)
	}
	for _, sealed := range []string{old, fresh} {
		if _, err := s.Open(sealed, stateBind); err != nil {
			t.Errorf("during the rotation: %v", err)
		}
	}
	if err := s.SetKeys(k2, rootsrt.StateKey{ID: "bad", Secret: []byte("short")}); err == nil {
		t.Error("SetKeys took a secret that is not an AES key")
	}
	if _, err := s.Open(old, stateBind); err != nil {
		t.Errorf("after a refused SetKeys, the keys changed: %v", err)
	}
	if err := s.SetKeys(k2); err != nil { // phase 3, TTL later
		t.Fatal(err)
	}
	_, err := s.Open(old, stateBind)
	onlyIs(t, "old key removed", err, rootsrt.ErrStateUnknownKey)

	var rotator, wg sync.WaitGroup
	stop := make(chan struct{})
	rotator.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			keys := [][]rootsrt.StateKey{{k1, k2}, {k2, k1}}[i%2]
			if err := s.SetKeys(keys[0], keys[1:]...); err != nil {
				t.Error(err)
				return
			}
		}
	})
	for range 4 {
		wg.Go(func() {
			for range 500 {
				sealed, err := s.Seal([]byte("x"), stateBind)
				if err != nil {
					t.Error(err)
					return
				}
				if got, err := s.Open(sealed, stateBind); err != nil || string(got) != "x" {
					t.Errorf("Open during rotations: %q, %v", got, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	rotator.Wait()
}

// keyID is the id of the key a requestState was sealed with.
func keyID(t *testing.T, sealed string) string {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(sealed)
	if err != nil || len(raw) < 2 || len(raw) < 2+int(raw[1]) {
		t.Fatalf("not a sealed state: %q", sealed)
	}
	return string(raw[2 : 2+int(raw[1])])
}
