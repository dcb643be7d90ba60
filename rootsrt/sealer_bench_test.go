package rootsrt_test

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/rootsgen/rootsgen/rootsrt"
)

// BenchmarkStateSealOpen seals and opens a 256-byte state: Seal and Open
// allocate their results (the token and the state) and nothing else;
// AppendSeal and AppendOpen into buffers with room allocate nothing.
func BenchmarkStateSealOpen(b *testing.B) {
	sealer, err := rootsrt.NewStateSealer(rootsrt.StateSealerConfig{Current: rootsrt.StateKey{ID: "k1", Secret: bytes.Repeat([]byte{7}, 32)}})
	if err != nil {
		b.Fatal(err)
	}
	state := bytes.Repeat([]byte("s"), 256)
	bind := rootsrt.StateBinding{Principal: "user-42", Method: "tools/call", Params: []byte(`{"arguments":{"path":"/srv/data/report.txt"},"name":"read_file"}`)}
	b.Run("SealOpen", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(state)))
		for b.Loop() {
			sealed, err := sealer.Seal(state, bind)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := sealer.Open(sealed, bind); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AppendSealOpen", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(state)))
		sealed := make([]byte, 0, 1024)
		opened := make([]byte, 0, 1024)
		for b.Loop() {
			var err error
			if sealed, err = sealer.AppendSeal(sealed[:0], state, bind); err != nil {
				b.Fatal(err)
			}
			// The token arrives as a string; the conversion is the
			// benchmark's, not AppendOpen's.
			if opened, err = sealer.AppendOpen(opened[:0], unsafe.String(&sealed[0], len(sealed)), bind); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSalientParams canonicalises the params of a retried tools/call
// (with _meta, inputResponses and requestState to drop); "maps" is the
// same through encoding/json's maps, for comparison.
func BenchmarkSalientParams(b *testing.B) {
	params := []byte(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}},` +
		`"name":"read_file","arguments":{"path":"/srv/data/report.txt","encoding":"utf-8","range":{"start":0,"end":4096},"tags":["a","b","c"]},` +
		`"inputResponses":{"roots":{"roots":[{"uri":"file:///srv/data","name":"data"}]}},"requestState":"AQJrMQ-0123456789abcdef"}`)
	for _, c := range []struct {
		name string
		f    func([]byte) ([]byte, error)
	}{{"SalientParams", rootsrt.SalientParams}, {"maps", salientByMaps}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(params)))
			for b.Loop() {
				if _, err := c.f(params); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
