package model

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// initialisms are words Go spells in capitals (see Go Code Review Comments).
var initialisms = map[string]bool{
	"api": true, "ascii": true, "cpu": true, "css": true, "dns": true, "eof": true, "html": true,
	"http": true, "https": true, "id": true, "ip": true, "json": true, "jsonrpc": true, "mcp": true,
	"rpc": true, "sep": true, "sql": true, "ssh": true, "tcp": true, "tls": true, "ttl": true,
	"udp": true, "ui": true, "uri": true, "url": true, "utf8": true, "uuid": true, "xml": true,
}

// nameOverrides gives Go names to declarations whose derived name reads badly.
// Keys are schema paths: a definition name, then ".property" per nesting
// level. A test checks that every entry is used by some embedded revision.
var nameOverrides = map[string]string{
	"ClientCapabilities.roots":                        "RootsCapability",
	"MissingRequiredClientCapabilityError.error":      "MissingRequiredClientCapabilityErrorObject",
	"MissingRequiredClientCapabilityError.error.data": "MissingRequiredClientCapabilityErrorData",
	"MissingRequiredClientCapabilityError.error.code": "CodeMissingRequiredClientCapability",
	"ListRootsRequest.jsonrpc":                        "JSONRPCVersion",
	"RootsListChangedNotification.jsonrpc":            "JSONRPCVersion",
	"MissingRequiredClientCapabilityError.jsonrpc":    "JSONRPCVersion",
}

// GoName turns a JSON name into an exported Go identifier: words split at
// case changes and punctuation, each capitalized, initialisms in capitals.
// A namespaced key such as "io.modelcontextprotocol/protocolVersion" is named
// after its last segment.
func GoName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 && i < len(s)-1 {
		s = s[i+1:]
	}
	var b strings.Builder
	for _, w := range splitWords(s) {
		if initialisms[strings.ToLower(w)] {
			b.WriteString(strings.ToUpper(w))
			continue
		}
		r, size := utf8.DecodeRuneInString(w)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(w[size:])
	}
	name := b.String()
	if name == "" {
		return "Field"
	}
	if r, _ := utf8.DecodeRuneInString(name); !unicode.IsUpper(r) {
		// A leading digit, or a letter without case: prefix to export it.
		name = "X" + name
	}
	return name
}

// splitWords splits s at every character that cannot appear in an
// identifier, and at case changes: "listChanged" -> list, Changed;
// "JSONObject" -> JSON, Object; "_meta" -> meta.
func splitWords(s string) []string {
	var words []string
	runes := []rune(s)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			words = append(words, string(runes[start:end]))
		}
		start = -1
	}
	for i, r := range runes {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := runes[i-1]
		lowerToUpper := unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev))
		acronymEnd := unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(runes) && unicode.IsLower(runes[i+1])
		if lowerToUpper || acronymEnd {
			flush(i)
			start = i
		}
	}
	flush(len(runes))
	return words
}

// namer hands out package-level identifiers without collisions.
type namer struct{ used map[string]bool }

func newNamer(reserved ...string) *namer {
	n := &namer{used: map[string]bool{}}
	for _, r := range reserved {
		n.used[r] = true
	}
	return n
}

// take returns name, or name followed by the smallest number from 2 up that
// is still free.
func (n *namer) take(name string) string {
	candidate := name
	for i := 2; n.used[candidate]; i++ {
		candidate = name + strconv.Itoa(i)
	}
	n.used[candidate] = true
	return candidate
}
