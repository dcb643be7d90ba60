package generator

import (
	"maps"
	"slices"
	"testing"
)

// TestGateReachHandOffs: each way a value of the package can reach
// encoding/json at run time reaches the method encoding/json calls. A
// miss would not fail to compile: encoding/json would write or read the
// type by its tags instead, without Extra and without the strict checks.
func TestGateReachHandOffs(t *testing.T) {
	const types = `package p

import "encoding/json"

type Held struct{ N int }

func (x *Held) UnmarshalJSON(b []byte) error { return nil }
func (x Held) MarshalJSON() ([]byte, error)  { return []byte("1"), nil }

type Box struct{ V any }

type Named struct{}

func (Named) String() string               { return "n" }
func (Named) MarshalJSON() ([]byte, error) { return nil, nil }

var _ = json.Marshal
`
	// The imports every case may use; the stubs leave all but the
	// runtime untyped.
	const head = "package p\n\nimport (\n\t\"cmp\"\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"io\"\n\t\"log/slog\"\n\t\"maps\"\n\t\"slices\"\n\t\"sync/atomic\"\n\n\trootsrt \"example.com/k/rootsrt\"\n)\n\n" +
		"var _ = cmp.Or[int]\nvar _ fmt.Stringer\nvar _ io.Reader\nvar _ slog.Logger\nvar _ = maps.Keys[map[int]int]\nvar _ = slices.Clone[[]int]\nvar _ atomic.Value\nvar _ = json.Marshal\nvar _ rootsrt.Root\n\n"
	for _, c := range []struct{ what, gate, want, not string }{
		{"a var of interface type", `var v any = Held{}`, "Held.MarshalJSON", ""},
		{"a literal in []any", `func f() ([]byte, error) { return json.Marshal([]any{Held{}}) }`, "Held.MarshalJSON", ""},
		{"a literal in map[string]any", `func f() ([]byte, error) { return json.Marshal(map[string]any{"k": Held{N: 1}}) }`, "Held.MarshalJSON", ""},
		{"a literal in a field of type any", `func f() ([]byte, error) { return json.Marshal(Box{V: Held{}}) }`, "Held.MarshalJSON", ""},
		{"a literal in a runtime struct's any", `func f() *rootsrt.RPCError { return &rootsrt.RPCError{Data: Held{}} }`, "Held.MarshalJSON", ""},
		{"a variable in a runtime struct's any", `func f() *rootsrt.RPCError { h := Held{}; return &rootsrt.RPCError{Data: h} }`, "Held.MarshalJSON", ""},
		{"a result", `func f() (any, error) { return Held{}, nil }`, "Held.MarshalJSON", ""},
		{"the results of a call returned", `func g() (Held, error) { return Held{}, nil }
func f() (any, error) { return g() }`, "Held.MarshalJSON", ""},
		{"the results of a call assigned", `func g() (Held, error) { return Held{}, nil }
func f() ([]byte, error) { var a any; var err error; a, err = g(); _ = err; return json.Marshal(a) }`, "Held.MarshalJSON", ""},
		{":= reassigning an interface", `func f() ([]byte, error) { var a any; a, n := Held{}, 1; _ = n; return json.Marshal(a) }`, "Held.MarshalJSON", ""},
		{"range into an interface", `func f(xs []Held) ([]byte, error) { var a any; for _, a = range xs {}; return json.Marshal(a) }`, "Held.MarshalJSON", ""},
		{"a map key of interface type", `func f() ([]byte, error) { m := map[any]bool{}; m[Held{}] = true; for k := range m { return json.Marshal(k) }; return nil, nil }`, "Held.MarshalJSON", ""},
		{"a channel of interface type", `func f(c chan any) { c <- Held{} }`, "Held.MarshalJSON", ""},
		{"a function literal's result", `var _ = func() any { return Held{} }`, "Held.MarshalJSON", ""},
		{"json.Decoder.Decode", `func f(r io.Reader) error { var h Held; return json.NewDecoder(r).Decode(&h) }`, "Held.UnmarshalJSON", ""},
		{"json.Encoder.Encode", `func f(w io.Writer) error { return json.NewEncoder(w).Encode(Held{}) }`, "Held.MarshalJSON", ""},
		{"json.Marshal as a value", `var marshal = json.Marshal
func f() ([]byte, error) { return marshal(Held{}) }`, "Held.MarshalJSON", ""},
		{"an untyped generic (slices.Clone)", `func f(xs []Held) ([]byte, error) { return json.Marshal(slices.Clone(xs)) }`, "Held.MarshalJSON", ""},
		{"an untyped generic (cmp.Or)", `func f(a, b Held) ([]byte, error) { return json.Marshal(cmp.Or(a, b)) }`, "Held.MarshalJSON", ""},
		{"an untyped interface type", `func f() ([]byte, error) { var s fmt.Stringer = Named{}; return json.Marshal(s) }`, "Named.MarshalJSON", ""},
		{"an untyped callee (slog)", `func f(l *slog.Logger) { l.Info("m", "held", Held{}) }`, "Held.MarshalJSON", ""},
		{"an untyped callee (atomic.Value)", `var av atomic.Value
func f() ([]byte, error) { av.Store(Held{}); return json.Marshal(av.Load()) }`, "Held.MarshalJSON", ""},
		{"a generic function of the package", `func enc[T any](v T) ([]byte, error) { return json.Marshal(v) }
func f() ([]byte, error) { return enc(Held{}) }`, "Held.MarshalJSON", ""},
		{"a generic function's T made any", `func box[T any](v T) any { return v }
func f() ([]byte, error) { return json.Marshal(box(Held{})) }`, "Held.MarshalJSON", ""},
		// Where the walk knows what the code does, it hands over one way
		// only, or not at all.
		{"the runtime's any that it reads (DecodeJSON)", `func f(b []byte) error { var h Held; return rootsrt.DecodeJSON(b, &h) }`, "Held.UnmarshalJSON", "Held.MarshalJSON"},
		{"the runtime's any that it writes (Object.Value)", `func f(o *rootsrt.Object) { o.Value("k:", Held{}) }`, "Held.MarshalJSON", "Held.UnmarshalJSON"},
		{"a map's keys (maps.Keys)", `func f(m map[string]Held) []string { return slices.Sorted(maps.Keys(m)) }`, "", "Held.MarshalJSON"},
		{"an interface only type-asserted", `func f(h Held) bool { _, ok := any(&h).(*json.RawMessage); return ok }`, "", "Held.UnmarshalJSON"},
	} {
		gate := head + c.gate + "\n"
		if !slices.Contains([]string{"a var of interface type", "a function literal's result"}, c.what) {
			gate += "var _ = f\n"
		}
		reached, err := gateReach([]File{{Name: "types.go", Content: []byte(types)}, {Name: "gate.go", Content: []byte(gate)}}, "p", "example.com/k/rootsrt", nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.want != "" && !reached[c.want] {
			t.Errorf("%s: %s not reached (reached %q)", c.what, c.want, slices.Sorted(maps.Keys(reached)))
		}
		if reached[c.not] {
			t.Errorf("%s: %s reached (reached %q)", c.what, c.not, slices.Sorted(maps.Keys(reached)))
		}
	}
}

// TestGateReachInit: an init of the package runs whatever the gate does,
// and what it names with it.
func TestGateReachInit(t *testing.T) {
	out := []File{
		{Name: "types.go", Content: []byte("package p\n\nvar registry = map[string]bool{}\n\nfunc register() { registry[\"x\"] = true }\n\nfunc init() { register() }\n")},
		{Name: "gate.go", Content: []byte("package p\n\nfunc f() bool { return registry[\"x\"] }\n\nvar _ = f\n")},
	}
	reached, err := gateReach(out, "p", "example.com/k/rootsrt", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reached["init"] || !reached["register"] {
		t.Errorf("reached %q; want init and register", slices.Sorted(maps.Keys(reached)))
	}
}

// soundTypes and soundHead are the package TestGateReachStaysSound walks.
const soundTypes = `package p

import "encoding/json"

type Held struct{ N int }

func (x *Held) UnmarshalJSON(b []byte) error { return nil }
func (x Held) MarshalJSON() ([]byte, error)  { return []byte("1"), nil }

type Oops struct{}

func (Oops) Error() string                { return "oops" }
func (Oops) MarshalJSON() ([]byte, error) { return nil, nil }

var _ = json.Marshal
`

const soundHead = "package p\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"maps\"\n\t\"slices\"\n\n\trootsrt \"example.com/k/rootsrt\"\n)\n\n" +
	"var _ fmt.Stringer\nvar _ = maps.Keys[map[int]int]\nvar _ = slices.Clone[[]int]\nvar _ = json.Marshal\nvar _ rootsrt.Root\n\n"

// soundReach is what the gate gate.go reaches in a package of soundTypes
// importing the runtime at rt.
func soundReach(t *testing.T, rt, gate string) map[string]bool {
	t.Helper()
	reached, err := gateReach([]File{{Name: "types.go", Content: []byte(soundTypes)}, {Name: "gate.go", Content: []byte(soundHead + gate + "\nvar _ = f\n")}}, "p", rt, nil)
	if err != nil {
		t.Fatal(err)
	}
	return reached
}

// TestGateReachStaysSound: where the walk is precise (a runtime function's
// any parameters, maps.Keys, a conversion only type-asserted), it still
// hands over what goes on to encoding/json: a value asserted to an
// interface or switched on, a map's keys, and, with a runtime that takes
// them, a ...any, an any passed on to one, an any kept in a generic type,
// and an error.
func TestGateReachStaysSound(t *testing.T) {
	for _, c := range []struct{ what, gate, want string }{
		{"type switch default", `func f(h Held) ([]byte, error) { switch v := any(h).(type) { default: return json.Marshal(v) } }`, "Held.MarshalJSON"},
		{"assert to an interface (any)", `func f(h Held) ([]byte, error) { v, _ := any(h).(any); return json.Marshal(v) }`, "Held.MarshalJSON"},
		{"assert to an interface, into RPCError.Data", `func f(h Held) *rootsrt.RPCError { m, _ := any(h).(interface{ MarshalJSON() ([]byte, error) }); return &rootsrt.RPCError{Data: m} }`, "Held.MarshalJSON"},
		{"assert to a stubbed interface", `func f(h Held) ([]byte, error) { s, _ := any(h).(fmt.Stringer); return json.Marshal(s) }`, "Held.MarshalJSON"},
		{"maps.Keys of kit-typed keys", `func f(m map[Held]bool) ([]byte, error) { return json.Marshal(slices.Collect(maps.Keys(m))) }`, "Held.MarshalJSON"},
		{"maps.Keys ranged", `func f(m map[Held]bool) ([]byte, error) { var out []any; for k := range maps.Keys(m) { out = append(out, k) }; return json.Marshal(out) }`, "Held.MarshalJSON"},
	} {
		if r := soundReach(t, "example.com/k/rootsrt", c.gate); !r[c.want] {
			t.Errorf("%s: %s not reached (reached %q)", c.what, c.want, slices.Sorted(maps.Keys(r)))
		}
	}

	// A runtime that differs from the real one by a few lines.
	src := runtimeSource{"x.go", []byte(`package rootsrt

import "encoding/json"

type Root struct{ URI string }

type Box[T any] struct{ v T }

func (b *Box[T]) Put(x T) { b.v = x }
func (b *Box[T]) Get() T  { return b.v }

// Keep hands its any to a generic type's method.
func Keep(v any) []byte { var b Box[any]; b.Put(v); out, _ := json.Marshal(b.Get()); return out }

// Log takes ...any.
func Log(xs ...any) []byte { out, _ := json.Marshal(xs); return out }

// Fwd passes its any on to Log.
func Fwd(v any) []byte { return Log(v) }

type Data struct{ E error }

// Wrap takes an error (a non-empty interface) and writes it.
func Wrap(err error) []byte { out, _ := json.Marshal(Data{err}); return out }
`)}
	old := mergedRuntime
	mergedRuntime = func() ([]runtimeSource, error) { return []runtimeSource{src}, nil }
	defer func() { mergedRuntime = old }()
	rt := "example.com/synthetic/rootsrt"
	head := "package p\n\nimport rootsrt \"" + rt + "\"\n\n"
	for _, c := range []struct{ what, gate, want string }{
		{"any to a generic type's method", `func f(h Held) []byte { return rootsrt.Keep(h) }`, "Held.MarshalJSON"},
		{"...any", `func f(h Held) []byte { return rootsrt.Log(h) }`, "Held.MarshalJSON"},
		{"any passed on to ...any", `func f(h Held) []byte { return rootsrt.Fwd(h) }`, "Held.MarshalJSON"},
		{"a non-empty interface param", `func f(o Oops) []byte { return rootsrt.Wrap(o) }`, "Oops.MarshalJSON"},
	} {
		reached, err := gateReach([]File{{Name: "types.go", Content: []byte(soundTypes)}, {Name: "gate.go", Content: []byte(head + c.gate + "\nvar _ = f\n")}}, "p", rt, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reached[c.want] {
			t.Errorf("%s: %s not reached (reached %q)", c.what, c.want, slices.Sorted(maps.Keys(reached)))
		}
	}
}
