// Package gotest names the folder of the Go helpers that rootsgen's own
// tests share across packages and modules: gocheck type-checks generated
// code in process, downstream builds throwaway modules that use rootsgen
// the way a user's module does, prereq finds what a test needs (or says
// why it skips), payload builds messages for the decoders, gatepeer is
// the client end the gate's tests in rootsrt and generated share, and
// logtest is a buffer to log to and read the records back. They
// live under testdata so that they stay out of the module's public
// packages and out of ./... patterns; CI vets them by path.
package gotest
