package generator

import (
	"go/ast"
	"go/build/constraint"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/schema"
)

func TestParagraphs(t *testing.T) {
	in := []string{
		"A directory the client",
		"shares with the server.",
		"",
		"Rules:",
		"- one item that runs",
		"  onto a second line",
		"- another",
		"",
		"\tcode stays",
	}
	got := docText(in)
	want := []string{
		"A directory the client shares with the server.",
		"",
		"Rules:",
		"  - one item that runs onto a second line",
		"  - another",
		"",
		"\tcode stays",
	}
	if !slices.Equal(got, want) {
		t.Errorf("docText:\n got %q\nwant %q", got, want)
	}
}

func TestNamedDoc(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"Root", "A directory or file.", "Root is a directory or file."},
		{"Root", "Represents a root.", "Root represents a root."},
		{"ListRootsRequest", "Sent from the server.", "ListRootsRequest is sent from the server."},
		{"ListRootsResult", "Reply to roots/list.", "ListRootsResult is the reply to roots/list."},
		{"ClientCapabilities", "Features the client declares.", "ClientCapabilities are the features the client declares."},
		{"Params", "Optional parameters; none.", "Params are the optional parameters; none."},
		{"RequestID", "JSON-RPC request identifier.", "RequestID is the JSON-RPC request identifier."},
		{"Root", "Root is already named.", "Root is already named."},
	} {
		if got := namedDoc(tc.name, []string{tc.in}); got[0] != tc.want {
			t.Errorf("namedDoc(%s, %q) = %q, want %q", tc.name, tc.in, got[0], tc.want)
		}
	}
}

// TestTidyOutput reads every generated file of every revision the way a
// reviewer would: type doc comments start with the type's name, no
// paragraph of a doc comment breaks a line early (ragged lines), decoders
// build errors through decodeError rather than repeating the literal,
// and no string(x) converts a value that already is a string.
func TestTidyOutput(t *testing.T) {
	for _, rev := range schema.Revisions() {
		t.Run(rev, func(t *testing.T) {
			files := generateRevision(t, rev, nil)
			fset := token.NewFileSet()
			var parsed []*ast.File
			for _, f := range files {
				file, err := parser.ParseFile(fset, f.Name, f.Content, parser.ParseComments)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasSuffix(f.Name, "_test.go") && buildsHere(f.Content) {
					parsed = append(parsed, file)
				}
				if strings.Contains(string(f.Content), "&DecodeError{\n") {
					t.Errorf("%s: a multi-line DecodeError literal", f.Name)
				}
				if f.Name == "types.go" || f.Name == "json.go" || f.Name == "validate.go" {
					// The files written from the schema; the templates'
					// comments are wrapped by hand.
					for _, cg := range file.Comments {
						checkParagraphs(t, fset, cg)
					}
				}
				ast.Inspect(file, func(n ast.Node) bool {
					gd, ok := n.(*ast.GenDecl)
					if !ok || gd.Tok != token.TYPE {
						return true
					}
					for _, s := range gd.Specs {
						ts := s.(*ast.TypeSpec)
						doc := ts.Doc
						if doc == nil && len(gd.Specs) == 1 {
							doc = gd.Doc
						}
						if doc == nil && !ts.Name.IsExported() {
							continue
						}
						if text := doc.Text(); !strings.HasPrefix(text, ts.Name.Name+" ") && !strings.HasPrefix(text, "A "+ts.Name.Name+" ") && !strings.HasPrefix(text, "An "+ts.Name.Name+" ") {
							t.Errorf("%s: the doc comment of %s does not start with its name: %q", f.Name, ts.Name.Name, firstLine(text))
						}
					}
					return false
				})
			}
			info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
			conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
			if _, err := conf.Check("roots", fset, parsed, info); err != nil {
				t.Fatal(err)
			}
			for _, file := range parsed {
				ast.Inspect(file, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok || len(call.Args) != 1 {
						return true
					}
					if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "string" {
						return true
					}
					if b, ok := info.Types[call.Args[0]].Type.(*types.Basic); ok && b.Info()&types.IsString != 0 {
						t.Errorf("%s: string(%s) converts a string", fset.Position(call.Pos()), types.ExprString(call.Args[0]))
					}
					return true
				})
			}
		})
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// checkParagraphs reports a doc comment line that ends a paragraph's line
// early: the next line of the same paragraph starts with a word that
// would have fitted.
func checkParagraphs(t *testing.T, fset *token.FileSet, cg *ast.CommentGroup) {
	t.Helper()
	var lines []string
	for _, c := range cg.List {
		if !strings.HasPrefix(c.Text, "// ") && c.Text != "//" {
			return // not doc prose (directives, code lines)
		}
		lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(c.Text, "//"), " "))
	}
	for i := 0; i+1 < len(lines); i++ {
		cur, next := lines[i], lines[i+1]
		if cur == "" || next == "" || strings.HasPrefix(next, " ") || strings.HasPrefix(next, "\t") || strings.HasPrefix(cur, " ") || listItem.MatchString(next) {
			continue
		}
		word, _, _ := strings.Cut(next, " ")
		if len(cur)+1+len(word) <= docWidth && !strings.HasSuffix(cur, ":") {
			t.Errorf("%s: ragged doc line %q: %q would fit", fset.Position(cg.List[i].Pos()), cur, word)
		}
	}
}

// buildsHere reports whether a Go file with this content builds on the
// system the test runs on, as its //go:build line says.
func buildsHere(content []byte) bool {
	for _, line := range strings.Split(string(content), "\n") {
		if !constraint.IsGoBuild(line) {
			continue
		}
		expr, err := constraint.Parse(line)
		if err != nil {
			return false
		}
		return expr.Eval(func(tag string) bool {
			return tag == runtime.GOOS || tag == runtime.GOARCH || tag == "unix" && runtime.GOOS != "windows" && runtime.GOOS != "plan9" && runtime.GOOS != "js" && runtime.GOOS != "wasip1"
		})
	}
	return true
}
