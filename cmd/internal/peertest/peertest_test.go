package peertest

import (
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	in := strings.Join([]string{
		`-> {"jsonrpc":"2.0","id":7,"method":"initialize","params":{"clientInfo":{"name":"c","version":"1.2"},"protocolVersion":"2025-06-18"}}`,
		`<- {"jsonrpc":"2.0","id":7,"result":{"serverInfo":{"name":"s","version":"9"}}}`,
		`<- {"jsonrpc":"2.0","id":7,"method":"roots/list","params":{}}`,
		`-> {"jsonrpc":"2.0","id":7,"result":{"roots":[{"uri":"file:///a"}],"requestState":"xyz"}}`,
		`-> {"method":"notifications/initialized","jsonrpc":"2.0"}`,
	}, "\n")
	got, err := Normalize(in)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`-> {"id":"#1","jsonrpc":"2.0","method":"initialize","params":{"clientInfo":{"name":"c","version":"<version>"},"protocolVersion":"2025-06-18"}}`,
		`<- {"id":"#1","jsonrpc":"2.0","result":{"serverInfo":{"name":"s","version":"<version>"}}}`,
		`<- {"id":"#2","jsonrpc":"2.0","method":"roots/list","params":{}}`,
		`-> {"id":"#2","jsonrpc":"2.0","result":{"requestState":"<state>","roots":[{"uri":"file:///a"}]}}`,
		`-> {"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := Normalize("?? {}"); err == nil {
		t.Error("a line without a direction was accepted")
	}
}
