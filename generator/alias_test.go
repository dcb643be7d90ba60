package generator

import "testing"

// TestSameAsComparesTheGlue: a revision whose types read as an earlier
// one's is written as its aliases only when its gate.go does too, so that
// a deprecation or a version key of its own is not lost.
func TestSameAsComparesTheGlue(t *testing.T) {
	files := func(pkg, rev, deprecated string) []File {
		return []File{
			{Name: "doc.go", Content: []byte("// header\npackage " + pkg + "\n")},
			{Name: "types.go", Content: []byte("// header\npackage " + pkg + "\n\nconst ProtocolVersion = \"" + rev + "\"\n\ntype Root struct{ URI string }\n")},
			{Name: "gate.go", Content: []byte("// header\npackage " + pkg + "\n\nvar deprecated = " + deprecated + "\n")},
		}
	}
	earlier := []gateRevision{{Version: "2024-11-05"}}
	kept := map[string][]File{"2024-11-05": files("roots20241105", "2024-11-05", "false")}
	if got := sameAs(files("roots20250326", "2025-03-26", "false"), "roots20250326", "2025-03-26", earlier, kept); got == nil || got.Version != "2024-11-05" {
		t.Errorf("the same types and glue: sameAs = %v, want 2024-11-05", got)
	}
	if got := sameAs(files("roots20250326", "2025-03-26", "true"), "roots20250326", "2025-03-26", earlier, kept); got != nil {
		t.Errorf("the same types, other glue: sameAs = %v, want none", got.Version)
	}
}
