// Package model is rootsgen's model stage: from a loaded schema it selects
// the roots feature's definitions (Select), builds the model of the
// revision, one Go type per definition and nested object, with Go names
// clear of those the output declares itself (Build, given them as
// Reserved), and decides what the revision's package holds, and in terms
// of which names (Plan). It knows the schema and the roots feature; the
// files the generator writes from a Model are the generator's.
package model
