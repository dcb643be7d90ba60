package peertest

import "testing"

func TestOnly(t *testing.T) {
	transcript := `<- {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}
-> {"jsonrpc":"2.0","id":1,"method":"roots/list","params":{}}
<- {"jsonrpc":"2.0","id":1,"result":{"roots":[]}}
-> {"jsonrpc":"2.0","id":1,"result":{"content":[]}}
<- {"jsonrpc":"2.0","method":"notifications/roots/list_changed"}
<- {"jsonrpc":"2.0","method":"notifications/initialized"}
`
	got := Only(transcript, func(m string) bool { return m == "roots/list" || m == "notifications/roots/list_changed" })
	want := `-> {"jsonrpc":"2.0","id":1,"method":"roots/list","params":{}}
<- {"jsonrpc":"2.0","id":1,"result":{"roots":[]}}
<- {"jsonrpc":"2.0","method":"notifications/roots/list_changed"}
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
