// Package model is rootsgen's model stage: from a loaded schema it selects
// the roots feature's definitions (Select), builds the model of the
// revision, one Go type per definition and per nested object or union,
// with Go names clear of those the output declares itself (Build, given
// them as Reserved), and decides what the revision's package holds, and
// in terms of which names (Plan). It knows the schema, the roots feature
// and the parts of a package; how they are written is the generator's.
package model
