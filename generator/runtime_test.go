package generator

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// A member's doc keeps its own name where a package-level identifier of
// the same spelling is renamed; the identifier is renamed everywhere else.
func TestRenameInCommentsKeepsMemberNames(t *testing.T) {
	const src = `package p

// Path is a JSON path.
type Path struct{}

// DecodeError says where: see Path.
type DecodeError struct {
	// Path is the JSON path of the member, a Path written out.
	Path string
	// Paths holds Path values.
	Paths []Path
}

type Problem struct{}

// Path returns the Path of the problem.
func (Problem) Path() Path { return Path{} }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	renameInComments(f, map[string]string{"Path": "path"})
	var got []string
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			got = append(got, c.Text)
		}
	}
	want := []string{
		"// path is a JSON path.",
		"// DecodeError says where: see path.",
		"// Path is the JSON path of the member, a path written out.",
		"// Paths holds path values.",
		"// Path returns the path of the problem.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("comments:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
