package demoserver

import (
	"context"
	"log"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// started is a rootsdemo server on an in-process wire.
type started struct {
	peer       peertest.End // the client's end
	transcript *peertest.Buffer
	log        *peertest.Buffer
	done       chan error
}

func start(t *testing.T, o options) *started {
	t.Helper()
	ours, theirs := peertest.Pipes()
	s := &started{peer: theirs, transcript: new(peertest.Buffer), log: new(peertest.Buffer), done: make(chan error, 1)}
	if o.Log == nil {
		o.Log = log.New(s.log, "", 0)
	}
	if o.Transcript == nil {
		o.Transcript = s.transcript
	}
	go func() {
		err := serve(context.Background(), ours.R, ours.W, o)
		ours.W.Close()
		s.done <- err
	}()
	t.Cleanup(func() { theirs.Close() })
	return s
}

// stop ends the wire from the client's side and waits for serve to return.
func (s *started) stop(t *testing.T) {
	t.Helper()
	s.peer.W.Close()
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(peertest.Wait):
		t.Fatal("serve did not return after the client closed the wire")
	}
}

type toolRoots struct {
	Roots []root `json:"roots"`
}
