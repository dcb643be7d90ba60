// Package rtimpl is the part of the rootsgen runtime that only the code
// rootsgen generates calls: JSON scanning and writing, validation with JSON
// paths, the registry of a kit's revisions, and the descriptors each
// revision's package fills in. A server uses package rootsrt, which
// re-exports what of this package it meets (Root, Revision, the errors).
//
// Nothing here is meant to be called by hand. It changes with the
// generator of the same module version, and generated code checks that
// it was generated for this package's contract (see [Contract]).
package rtimpl
