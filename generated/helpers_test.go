package generated_test

import (
	"encoding/json"
	"regexp"
	"testing"
)

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%T): %v", v, err)
	}
	return b
}

// mentionsMember reports whether the error message msg names name as a
// whole JSON member name or path: "roots[0].uri: required" names uri,
// "RequestID: ..." does not name id, and neither does "invalid".
func mentionsMember(msg, name string) bool {
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_])`)
	return re.MatchString(msg)
}

type unionCodec interface {
	json.Marshaler
	json.Unmarshaler
}

type unionForms struct {
	typeName string
	fresh    func() unionCodec
	asInt    func(unionCodec) (int64, bool)
}
