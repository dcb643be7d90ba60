package rtimpl

// Contract is this runtime's side of the contract between it and the code
// rootsgen generates, which names the contract it was generated for:
//
//	var _ interface{ GeneratedForContract1() } = rtimpl.Contract
//
// A runtime serves code generated for its own contract and, while it can,
// older ones (it then has their methods too); built against a runtime that
// does not serve its contract, generated code fails to compile with an
// error that names both: "rtimpl.Contract2 does not implement
// interface{GeneratedForContract1()}". Regenerate with the rootsgen of the
// module version your go.mod requires (go generate), or require the
// version the code was generated with.
var Contract Contract1

// Contract1 is the first contract: generated code imports this package.
type Contract1 struct{}

// GeneratedForContract1 says that this runtime serves code generated for
// contract 1.
func (Contract1) GeneratedForContract1() {}
