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

// TestNamedDoc: a type's doc comment opens with the type's name and reads
// as English whatever the description opens with; a description that
// cannot follow the name follows a sentence that names the type.
func TestNamedDoc(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		// A phrase about the thing becomes a sentence about the type.
		{"RootKind", "What a root points at.", "RootKind says what a root points at."},
		{"ListChanged", "Whether the client announces changes to its roots.", "ListChanged says whether the client announces changes to its roots."},
		{"RootOrigin", "How the client found this root.", "RootOrigin says how the client found this root."},
		{"RootsCapability", "When the client declared roots.", "RootsCapability says when the client declared roots."},
		{"Root", "A directory or file.", "Root is a directory or file."},
		{"Annotation", "An optional note for the client.", "Annotation is an optional note for the client."},
		{"ResultMetaObject", "The _meta object of a result.", "ResultMetaObject is the _meta object of a result."},
		{"ClientCapabilities", "The features the client declares.", "ClientCapabilities are the features the client declares."},
		{"PromptReference", "Identifies a prompt.", "PromptReference identifies a prompt."},
		{"Root", "Represents a root.", "Root represents a root."},
		{"SamplingTarget", "Specifies which model to use.", "SamplingTarget specifies which model to use."},
		{"CallToolRequest", "Used to invoke a tool.", "CallToolRequest is used to invoke a tool."},
		{"ListRootsRequest", "Sent from the server.", "ListRootsRequest is sent from the server."},
		{"RootsCapability", "Set when the client supports roots.", "RootsCapability is set when the client supports roots."},
		{"RootsCapability", "Present if the client supports roots.", "RootsCapability is present if the client supports roots."},
		{"Flag", "Deprecated.", "Flag is deprecated."},
		{"PrimitiveSchema", "Restricted schema definitions that allow only primitive types.", "PrimitiveSchema is the restricted schema definitions that allow only primitive types."},
		{"PrimitiveSchemas", "Restricted schema definitions that allow only primitive types.", "PrimitiveSchemas are the restricted schema definitions that allow only primitive types."},
		{"ListRootsResult", "Reply to roots/list.", "ListRootsResult is the reply to roots/list."},
		{"ClientCapabilities", "Features the client declares.", "ClientCapabilities are the features the client declares."},
		{"Params", "Optional parameters; none.", "Params are the optional parameters; none."},
		{"Roots", "Lists of roots.", "Roots are the lists of roots."},
		{"ModelHint", "Hints to use for model selection.", "ModelHint is the hints to use for model selection."},
		{"RequestID", "JSON-RPC request identifier.", "RequestID is the JSON-RPC request identifier."},
		{"RequestMeta", "MetaObject with the keys of a request.", "RequestMeta is the MetaObject with the keys of a request."},
		{"TaskData", "Data associated with a task.", "TaskData is the data associated with a task."},
		{"ErrorData", "Details of the failure.", "ErrorData are the details of the failure."},
		{"Content", "Any JSON value the tool returns.", "Content is any JSON value the tool returns."},
		{"Root", "directory the client shares, named by URI.", "Root is the directory the client shares, named by URI."},
		{"Root", "a directory the client shares.", "Root is a directory the client shares."},
		{"Root", "what a root points at.", "Root says what a root points at."},
		{"RequestID", "identifies a request.", "RequestID identifies a request."},
		// Only the opening changes: the following sentences stay.
		{"ListRootsResult", "Reply to roots/list. If present, nextCursor names the next page.", "ListRootsResult is the reply to roots/list. If present, nextCursor names the next page."},
		{"RootKind", "What a root points at. Clients may add kinds.", "RootKind says what a root points at. Clients may add kinds."},
		// Already about the type.
		{"Root", "Root is already named.", "Root is already named."},
		{"Root", "A Root names a directory.", "A Root names a directory."},
		{"Root", "The Root of a workspace.", "The Root of a workspace."},
		{"InputRequiredResult", "An InputRequiredResult sent by the server when it needs input.", "InputRequiredResult is sent by the server when it needs input."},
		{"Root", "Root", "Root"},
		{"Root", "Root: a directory or file.", "Root is a directory or file."},
		{"Root", "Root, what the client shares.", "Root says what the client shares."},
		// A sentence of its own, or not a phrase: the type is named first.
		{"NextCursor", "If present, there may be more results.", "NextCursor is the schema's NextCursor. If present, there may be more results."},
		{"NextCursor", "If the list goes on.", "NextCursor is the schema's NextCursor. If the list goes on."},
		{"RootsCapability", "When set, the client sends list_changed.", "RootsCapability is the schema's RootsCapability. When set, the client sends list_changed."},
		{"CancelledNotification", "This notification is sent by either side.", "CancelledNotification is the schema's CancelledNotification. This notification is sent by either side."},
		{"EnumSchema", "Use TitledEnumSchema instead.", "EnumSchema is the schema's EnumSchema. Use TitledEnumSchema instead."},
		{"InitializeResult", "After receiving an initialize request, the server sends this.", "InitializeResult is the schema's InitializeResult. After receiving an initialize request, the server sends this."},
		{"Cursor", "`cursor` is an opaque token.", "Cursor is the schema's Cursor. `cursor` is an opaque token."},
		{"Cursor", "https://example.com/cursors explains cursors.", "Cursor is the schema's Cursor. https://example.com/cursors explains cursors."},
		{"Meta", "{@link MetaObject} with more keys.", "Meta is the schema's Meta. {@link MetaObject} with more keys."},
		{"Version", "2025-06-18 and later.", "Version is the schema's Version. 2025-06-18 and later."},
		{"Cursor", "", "Cursor is the schema's Cursor."},
	} {
		var doc []string
		if tc.in != "" {
			doc = []string{tc.in}
		}
		about := tc.name + " is the schema's " + tc.name + "."
		if got := strings.Join(docText(namedDoc(tc.name, about, doc)), " "); got != tc.want {
			t.Errorf("namedDoc(%s, %q)\n got %q\nwant %q", tc.name, tc.in, got, tc.want)
		}
	}
}

// TestTidyOutput reads every generated file of every revision the way a
// reviewer would: type doc comments start with the type's name (after
// "A", "An" or "The", if any), no paragraph of a doc comment breaks a line
// early (ragged lines), decoders build errors through decodeError rather
// than repeating the literal, and no string(x) converts a value that
// already is a string.
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
						if text := doc.Text(); !slices.ContainsFunc([]string{"", "A ", "An ", "The "}, func(article string) bool { return strings.HasPrefix(text, article+ts.Name.Name+" ") }) {
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
