package nodepeer

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	raw := strings.Join([]string{
		`<- {"jsonrpc":"2.0","id":"probe-7","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/clientInfo":{"name":"c","version":"9.9"}}}}`,
		`-> {"jsonrpc":"2.0","id":"probe-7","result":{"serverInfo":{"name":"s","version":"devel"}}}`,
		`<- {"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"list_roots"}}`,
		`-> {"jsonrpc":"2.0","id":41,"result":{"resultType":"input_required","requestState":"abc123"}}`,
		`-> {"jsonrpc":"2.0","id":41,"method":"roots/list","params":{}}`,
		`<- {"jsonrpc":"2.0","id":41,"result":{"roots":[{"uri":"file:///tmp/x1/a","name":"<a>"}]}}`,
		`<- {"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`,
		`<- {"jsonrpc":"2.0","id":45,"method":"ping"}`,
		`-> {"jsonrpc":"2.0","id":45,"result":{}}`,
		``,
	}, "\n")
	got, err := Normalize([]byte(raw), Options{Replace: []string{"/tmp/x1", "<TMP>"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`<- {"id":"id-0","jsonrpc":"2.0","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/clientInfo":{"name":"c","version":"<version>"}}}}`,
		`-> {"id":"id-0","jsonrpc":"2.0","result":{"serverInfo":{"name":"s","version":"<version>"}}}`,
		`<- {"id":1,"jsonrpc":"2.0","method":"tools/call","params":{"name":"list_roots"}}`,
		`-> {"id":1,"jsonrpc":"2.0","result":{"requestState":"<requestState>","resultType":"input_required"}}`,
		`-> {"id":0,"jsonrpc":"2.0","method":"roots/list","params":{}}`,
		`<- {"id":0,"jsonrpc":"2.0","result":{"roots":[{"name":"<a>","uri":"file://<TMP>/a"}]}}`,
		`<- {"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`,
		`<- {"id":2,"jsonrpc":"2.0","method":"ping"}`,
		`-> {"id":2,"jsonrpc":"2.0","result":{}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	keep := func(m string) bool { return m == "roots/list" || m == "notifications/roots/list_changed" }
	got, err = Normalize([]byte(raw), Options{Keep: keep})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || !strings.Contains(got[0], `"roots/list"`) || !strings.Contains(got[1], `"roots":[`) || !strings.Contains(got[2], "list_changed") {
		t.Errorf("Keep: got\n%s", strings.Join(got, "\n"))
	}

	if _, err := Normalize([]byte("{}\n"), Options{}); err == nil {
		t.Error("a line without direction was accepted")
	}
}

func TestCheck(t *testing.T) {
	golden := filepath.Join(t.TempDir(), "g.txt")
	frames := []string{`-> {"a":1}`, `<- {"b":2}`}
	Check(t, frames, golden, true)
	Check(t, frames, golden, false)
	ft := &fakeT{TB: t}
	Check(ft, []string{`-> {"a":1}`, `<- {"b":3}`}, golden, false)
	if !ft.failed {
		t.Error("a changed frame passed the check")
	}
}

type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Logf(string, ...any)   {}
func (f *fakeT) Helper()               {}
