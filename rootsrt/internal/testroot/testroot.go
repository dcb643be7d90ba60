// Package testroot is the root type the runtime's tests build its generic
// parts over (RootSetOf, Asker, ListRootsCall): a root as the smallest
// revision one could write declares it, with the check a revision's
// Validate makes.
package testroot

import "github.com/rootsgen/rootsgen/rootsrt/rtimpl"

// Root is a root as a revision declares one.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// URI is r's URI, as a revision's RootSet reads it.
func URI(r *Root) string { return r.URI }

// Check is a revision's check of a root: its uri must be a file URI, as
// each revision's schema says.
func Check(r *Root, v *rtimpl.Validator, at *rtimpl.Path) {
	if msg := rtimpl.CheckURI(r.URI, "file"); msg != "" {
		v.Add(at.Member("uri"), msg)
	}
}
