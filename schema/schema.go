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
)

//go:embed *.json
var files embed.FS

// registryFile is the name of the deprecation registry among the embedded files.
const registryFile = "deprecations.json"

// Revisions returns the protocol revisions with an embedded schema, oldest first.
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
	slices.Sort(revs) // revision names are dates, so this is chronological
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
// revision, if any. Released revisions are named by date (YYYY-MM-DD), so a
// deprecation applies to every date-named revision at or after its Since; a
// revision with any other name gets its deprecations from the schema's own
// "deprecated" keyword only.
func DeprecationFor(feature, revision string) (Deprecation, bool) {
	if !IsDate(revision) {
		return Deprecation{}, false
	}
	for _, d := range Deprecations() {
		if d.Feature == feature && revision >= d.Since {
			return d, true
		}
	}
	return Deprecation{}, false
}

// IsDate reports whether revision has the YYYY-MM-DD shape of released revisions.
func IsDate(revision string) bool {
	if len(revision) != len("2006-01-02") {
		return false
	}
	for i, c := range revision {
		if i == 4 || i == 7 {
			if c != '-' {
				return false
			}
		} else if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
