package rootsrt

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
)

// The messages of the audit records (see the package doc, Audit).
const (
	msgRefused   = "roots: path refused"
	msgLeftOut   = "roots: root left out"
	msgRootsList = "roots: roots/list"
)

// refusals are the reasons a file method refuses a path, as the records
// name them, in the order of counters.refused.
var refusals = [...]struct {
	err    error
	reason string
}{
	{ErrOutsideRoots, "outside_roots"},
	{ErrOutsideBounds, "outside_bounds"},
	{ErrNotRegularFile, "not_regular_file"},
	{ErrFileTooLarge, "file_too_large"},
	{ErrNoDescriptors, "no_descriptors"},
}

// counters are what ReadStats reads.
var counters struct {
	rootsRequests, inputRequired, answers atomic.Uint64
	setsBuilt, setsShared, invalidRoots   atomic.Uint64
	refused                               [len(refusals)]atomic.Uint64
}

// Stats is what the runtime did since the process started, over every
// [Session] and [RootSet]: [ReadStats] takes it. Its counters only grow.
type Stats struct {
	// RootsRequests counts the roots/list requests sessions sent, where
	// roots/list is a request of its own; InputRequired, the
	// input_required results asking for roots; Answers, the requests
	// that brought roots back in inputResponses.
	RootsRequests, InputRequired, Answers uint64
	// SetsBuilt counts the RootSets sessions built for a roots list, and
	// SetsShared those they gave from their caches instead.
	SetsBuilt, SetsShared uint64
	// InvalidRoots counts the roots left out of the lists of SetsBuilt.
	InvalidRoots uint64
	// The paths the file methods refused, by the error they wrapped:
	// ErrOutsideRoots, ErrOutsideBounds, ErrNotRegularFile,
	// ErrFileTooLarge and ErrNoDescriptors.
	OutsideRoots, OutsideBounds, NotRegularFile, FileTooLarge, NoDescriptors uint64
	// Descriptors is how many directory descriptors sets and bounds hold
	// now, against DescriptorBudget (see [SetDescriptorBudget]).
	Descriptors, DescriptorBudget int
}

// ReadStats returns the counters as they are now, without stopping
// anything: cheap enough for every scrape of a metrics endpoint.
func ReadStats() Stats {
	s := Stats{
		RootsRequests: counters.rootsRequests.Load(),
		InputRequired: counters.inputRequired.Load(),
		Answers:       counters.answers.Load(),
		SetsBuilt:     counters.setsBuilt.Load(),
		SetsShared:    counters.setsShared.Load(),
		InvalidRoots:  counters.invalidRoots.Load(),
	}
	for i, n := range []*uint64{&s.OutsideRoots, &s.OutsideBounds, &s.NotRegularFile, &s.FileTooLarge, &s.NoDescriptors} {
		*n = counters.refused[i].Load()
	}
	dirs.mu.Lock()
	s.Descriptors, s.DescriptorBudget = dirs.open, dirs.budget()
	dirs.mu.Unlock()
	return s
}

// LogRefusals records each path a set refuses to l, with attrs (the
// session and tool a call serves, say) added to each record: see the
// package doc, Audit. The option is the set's that a call gets, not the
// roots': the sets a Session shares between calls each log as their
// call's options say. A nil l records nothing.
func LogRefusals(l *slog.Logger, attrs ...slog.Attr) RootSetOption {
	var log *refusalLog
	if l != nil {
		log = &refusalLog{l, slices.Clip(attrs)}
	}
	return func(c *rootSetConfig) { c.log = log }
}

// refusalLog is where a set records the paths it refuses.
type refusalLog struct {
	l     *slog.Logger
	attrs []slog.Attr
}

// audited is err, counted and recorded first when it refuses a path.
func (s *rootSet) audited(err error) error {
	if err != nil {
		s.refused(err)
	}
	return err
}

// refused counts err, when it is a refusal, and records it to the set's
// log, if any.
func (s *rootSet) refused(err error) {
	kind := -1
	for i, r := range refusals {
		if errors.Is(err, r.err) {
			kind = i
			break
		}
	}
	if kind < 0 {
		return
	}
	counters.refused[kind].Add(1)
	log := s.log
	if log == nil || !log.l.Enabled(context.Background(), slog.LevelWarn) {
		return
	}
	attrs := make([]slog.Attr, 0, 6+len(log.attrs))
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		attrs = append(attrs, slog.String("op", pe.Op), slog.String("path", pe.Path))
	case errors.As(err, &le):
		attrs = append(attrs, slog.String("op", le.Op), slog.String("path", le.Old), slog.String("new", le.New))
	}
	attrs = append(attrs, slog.String("reason", refusals[kind].reason))
	if s.revision != "" {
		attrs = append(attrs, slog.String("revision", s.revision))
	}
	attrs = append(attrs, slog.String("error", err.Error()))
	log.l.LogAttrs(context.Background(), slog.LevelWarn, msgRefused, append(attrs, log.attrs...)...)
}

// view is set as a Session returns it to one call, whose refusal log is
// log: counted, shared from a cache or built for the call.
func view(set *RootSet, log *refusalLog, shared bool) *RootSet {
	if set == nil {
		return nil
	}
	if shared {
		counters.setsShared.Add(1)
	} else {
		counters.setsBuilt.Add(1)
	}
	set.log = log
	return set
}

// leftOut records each root of the client's list a answers that err,
// from the set built for it, says was left out: one record per root, its
// problems joined, with its URI where known.
func (s *Session) leftOut(a *answer, err error) {
	var v *ValidationError
	if err == nil || !errors.As(err, &v) {
		return
	}
	type root struct {
		index    int
		problems []string
	}
	var out []root
	for _, p := range v.Problems {
		i, rest, ok := rootsIndex(p.Path)
		if !ok {
			continue
		}
		msg := p.Message
		if rest = strings.TrimPrefix(rest, "."); rest != "" {
			msg = rest + ": " + msg
		}
		if n := len(out); n > 0 && out[n-1].index == i {
			out[n-1].problems = append(out[n-1].problems, msg)
		} else {
			out = append(out, root{i, []string{msg}})
		}
	}
	counters.invalidRoots.Add(uint64(len(out)))
	if s.Logger == nil || !s.Logger.Enabled(context.Background(), slog.LevelWarn) {
		return
	}
	for _, r := range out {
		attrs := []slog.Attr{slog.String("revision", a.version), slog.Int("index", r.index)}
		if uri, ok := a.uri(r.index); ok {
			attrs = append(attrs, slog.String("uri", uri))
		}
		attrs = append(attrs, slog.String("problem", strings.Join(r.problems, "; ")))
		s.Logger.LogAttrs(context.Background(), slog.LevelWarn, msgLeftOut, attrs...)
	}
}

// countRoots is the number of roots of a list its revision refused.
func countRoots(left *refused) int {
	if left == nil {
		return 0
	}
	return len(rootIndexes(left.err))
}

// listURIs are the URIs of the roots of raw, a roots/list result, by
// index, its members matched by their exact names as the revisions'
// decoders match them: "" where a root has no uri string.
func listURIs(raw json.RawMessage) []string {
	var list []json.RawMessage
	if json.Unmarshal(member(raw, "roots"), &list) != nil {
		return nil
	}
	out := make([]string, len(list))
	for i, r := range list {
		_ = json.Unmarshal(member(r, "uri"), &out[i]) // "" when not a string
	}
	return out
}

// member is the value of the member of the JSON object raw named exactly
// name, the last of several as in the decoders, or nil (as for raw nil or
// no object).
func member(raw []byte, name string) []byte {
	m, _, err := rtimpl.ObjectMembers(raw)
	if err != nil {
		return nil
	}
	var v []byte
	for m.Next() {
		if string(m.Key) == name {
			v = m.Value
		}
	}
	return v
}

// listed records a roots/list round trip of version: via "request", the
// request sent, how long its answer took and its error, if any; via
// "input_required", a request that brought n roots back, valid or not.
func (s *Session) listed(ctx context.Context, version, via string, took time.Duration, n int, err error) {
	level := slog.LevelInfo
	if err != nil {
		level = slog.LevelWarn
	}
	if s.Logger == nil || !s.Logger.Enabled(ctx, level) {
		return
	}
	attrs := []slog.Attr{slog.String("revision", version), slog.String("via", via)}
	if via == "request" {
		attrs = append(attrs, slog.Duration("duration", took))
	} else {
		attrs = append(attrs, slog.Int("roots", n))
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	s.Logger.LogAttrs(ctx, level, msgRootsList, attrs...)
}
