// Package schema holds the MCP schema revisions that rootsgen ships with and
// the deprecation registry that supplements them.
//
// Each <revision>.json file is the roots-related part of that protocol
// revision's schema, in the revision's own JSON Schema dialect. The structure
// (types, required members, constants, formats, references) matches the
// upstream schema; the descriptions are rootsgen's own. Definitions that the
// roots feature only touches in part carry "$comment": "rootsgen: roots part only".
//
// The upstream JSON schemas do not say what is deprecated, so deprecations.json
// records it: which feature, from which revision on, under which proposal, what
// to use instead, and when it may be removed.
package schema

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"
)

//go:embed *.json
var files embed.FS

// registryFile is the name of the deprecation registry among the embedded files.
const registryFile = "deprecations.json"

// Revisions returns the protocol revisions with an embedded schema, oldest
// first (in the order of Compare).
func Revisions() []string {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		panic(err) // the embedded directory always reads
	}
	var revs []string
	for _, e := range entries {
		name := e.Name()
		if name == registryFile || !strings.HasSuffix(name, ".json") {
			continue
		}
		revs = append(revs, strings.TrimSuffix(name, ".json"))
	}
	slices.SortFunc(revs, Compare)
	return revs
}

// Open returns the embedded schema of a revision.
func Open(revision string) ([]byte, error) {
	if !slices.Contains(Revisions(), revision) {
		return nil, &UnknownRevisionError{Revision: revision}
	}
	return files.ReadFile(revision + ".json")
}

// UnknownRevisionError reports a revision with no embedded schema.
type UnknownRevisionError struct{ Revision string }

func (e *UnknownRevisionError) Error() string {
	return fmt.Sprintf("unknown revision %q: embedded revisions are %s (use -schema to generate from another schema file)",
		e.Revision, strings.Join(Revisions(), ", "))
}

// Deprecation is one entry of the deprecation registry.
type Deprecation struct {
	// Feature is the protocol feature that is deprecated, such as "roots".
	Feature string `json:"feature"`
	// Since is the first revision in which the feature is deprecated. Every
	// later revision inherits the deprecation.
	Since string `json:"since"`
	// Proposal names the specification enhancement proposal that deprecated it.
	Proposal string `json:"proposal"`
	// Migration says what to use instead, as a phrase that completes "Instead, ...".
	Migration string `json:"migration"`
	// EarliestRemoval is the date before which no revision removes the feature.
	EarliestRemoval string `json:"earliestRemoval"`
}

// Deprecations returns the registry entries.
func Deprecations() []Deprecation {
	data, err := files.ReadFile(registryFile)
	if err != nil {
		panic(err)
	}
	var reg struct {
		Deprecations []Deprecation `json:"deprecations"`
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&reg); err != nil {
		panic(fmt.Sprintf("schema/%s: %v", registryFile, err)) // a test keeps this from happening
	}
	return reg.Deprecations
}

// DeprecationFor returns the registry entry that deprecates feature in
// revision, if any. A deprecation applies from its Since on: to every
// date-named revision at or after it, and to every revision with another
// name, such as "draft", since such a revision is work towards a future
// release and orders after every dated one (see Compare). A name that
// CheckRevision refuses gets no deprecation.
func DeprecationFor(feature, revision string) (Deprecation, bool) {
	if CheckRevision(revision) != nil {
		return Deprecation{}, false
	}
	for _, d := range Deprecations() {
		if d.Feature == feature && Compare(revision, d.Since) >= 0 {
			return d, true
		}
	}
	return Deprecation{}, false
}

// IsDate reports whether revision is a calendar date written YYYY-MM-DD,
// as released revisions are named. "2026-13-45" has the shape but is no
// date.
func IsDate(revision string) bool {
	if !looksLikeDate(revision) {
		return false
	}
	_, err := time.Parse(time.DateOnly, revision)
	return err == nil
}

// MaxRevisionLen is the longest revision name CheckRevision accepts.
const MaxRevisionLen = 64

// CheckRevision reports whether revision can name a protocol revision: a
// calendar date (YYYY-MM-DD), or a simple name of ASCII letters, digits,
// '-' and '.' that starts with a letter or digit, such as "draft". The name
// goes into the header and doc comments of every generated file, so
// nothing else (no newline, slash, space or quote) is accepted, and a name
// shaped like a date must be one.
func CheckRevision(revision string) error {
	bad := func(why string) error {
		return fmt.Errorf("invalid revision %q: %s; a revision is a date (YYYY-MM-DD) or a name of ASCII letters, digits, '-' and '.' such as \"draft\"", revision, why)
	}
	switch {
	case revision == "":
		return bad("it is empty")
	case len(revision) > MaxRevisionLen:
		return bad(fmt.Sprintf("it is longer than %d bytes", MaxRevisionLen))
	}
	for i, c := range revision {
		letterOrDigit := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		switch {
		case i == 0 && !letterOrDigit:
			return bad("it must start with a letter or digit")
		case !letterOrDigit && c != '-' && c != '.':
			return bad(fmt.Sprintf("it holds %q", c))
		}
	}
	if looksLikeDate(revision) && !IsDate(revision) {
		return bad("it has the shape of a date but is no calendar date")
	}
	return nil
}

// looksLikeDate reports whether s is digits in the 4-2-2 pattern of a date.
func looksLikeDate(s string) bool {
	if len(s) != len(time.DateOnly) {
		return false
	}
	for i, c := range s {
		if (i == 4 || i == 7) != (c == '-') || c != '-' && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// Compare orders revision names: dates chronologically, then every other
// name after all dates (a name such as "draft" is a revision in the making),
// those by byte order. It returns -1, 0 or +1, like strings.Compare.
func Compare(a, b string) int {
	da, db := IsDate(a), IsDate(b)
	switch {
	case da && !db:
		return -1
	case !da && db:
		return 1
	}
	return strings.Compare(a, b)
}
