// Package gosdk is the go-sdk adapter of a rootsgen kit, compiled and
// tested where it is written. rootsgen copies adapter.go into the front
// package of every kit made with -sdk go-sdk (renamed to gosdk.go, in the
// kit's package); this file stands in for the rest of that package: the
// gate's names, which a kit's front declares as aliases of its runtime,
// declared here as aliases of the repository's own kit, generated/rootsgate.
// TestStandInIsTheFront keeps the two lists the same.
package gosdk

import "github.com/rootsgen/rootsgen/generated/rootsgate"

type (
	Root                   = rootsgate.Root
	Revision               = rootsgate.Revision
	ListRootsFunc          = rootsgate.ListRootsFunc
	Client                 = rootsgate.Client
	Session                = rootsgate.Session
	DecodedRequest         = rootsgate.DecodedRequest
	InputRequiredError     = rootsgate.InputRequiredError
	MissingCapabilityError = rootsgate.MissingCapabilityError
	MalformedRequestError  = rootsgate.MalformedRequestError
	RPCError               = rootsgate.RPCError
	ValidationError        = rootsgate.ValidationError
	DecodeError            = rootsgate.DecodeError
	Problem                = rootsgate.Problem
	RootSet                = rootsgate.RootSet
	RootSetOption          = rootsgate.RootSetOption
	StateSealer            = rootsgate.StateSealer
	StateSealerConfig      = rootsgate.StateSealerConfig
	StateKey               = rootsgate.StateKey
	StateBinding           = rootsgate.StateBinding
	Stats                  = rootsgate.Stats
)

// Revisions is a variable in a kit's front too; the tests here narrow it
// to stand for a kit generated with -revisions.
var (
	Revisions           = rootsgate.Revisions
	Lookup              = rootsgate.Lookup
	RootsFromAnswer     = rootsgate.RootsFromAnswer
	NewRootSet          = rootsgate.NewRootSet
	ResolveSymlinks     = rootsgate.ResolveSymlinks
	Bounds              = rootsgate.Bounds
	WindowsPaths        = rootsgate.WindowsPaths
	ReadLimit           = rootsgate.ReadLimit
	MaxRoots            = rootsgate.MaxRoots
	SetDescriptorBudget = rootsgate.SetDescriptorBudget
	LogRefusals         = rootsgate.LogRefusals
	ReadStats           = rootsgate.ReadStats
	NewStateSealer      = rootsgate.NewStateSealer
	WithStateBinding    = rootsgate.WithStateBinding
	SalientParams       = rootsgate.SalientParams
)

var (
	ErrNoRootsCapability   = rootsgate.ErrNoRootsCapability
	ErrNoAnswer            = rootsgate.ErrNoAnswer
	ErrMalformedRequest    = rootsgate.ErrMalformedRequest
	ErrWrongPath           = rootsgate.ErrWrongPath
	ErrUnknownVersion      = rootsgate.ErrUnknownVersion
	ErrMalformedVersion    = rootsgate.ErrMalformedVersion
	ErrInputRequired       = rootsgate.ErrInputRequired
	ErrOutsideRoots        = rootsgate.ErrOutsideRoots
	ErrOutsideBounds       = rootsgate.ErrOutsideBounds
	ErrNotRegularFile      = rootsgate.ErrNotRegularFile
	ErrFileTooLarge        = rootsgate.ErrFileTooLarge
	ErrNoDescriptors       = rootsgate.ErrNoDescriptors
	ErrStateMissing        = rootsgate.ErrStateMissing
	ErrStateTampered       = rootsgate.ErrStateTampered
	ErrStateUnknownKey     = rootsgate.ErrStateUnknownKey
	ErrStateWrongAudience  = rootsgate.ErrStateWrongAudience
	ErrStateNotYetValid    = rootsgate.ErrStateNotYetValid
	ErrStateExpired        = rootsgate.ErrStateExpired
	ErrStateWrongPrincipal = rootsgate.ErrStateWrongPrincipal
	ErrStateWrongRequest   = rootsgate.ErrStateWrongRequest
	ErrStateUnbound        = rootsgate.ErrStateUnbound
)

const DefaultInputKey = rootsgate.DefaultInputKey
