// Command rootsgen writes typed Go bindings for the roots feature of one
// Model Context Protocol revision, from that revision's JSON schema.
//
// Usage:
//
//	rootsgen -revision 2025-06-18 -out ./mcproots
//
// With -sdk it writes a kit for a server that serves several revisions:
//
//	rootsgen -sdk go-sdk -out ./mcproots
//
// writes, under mcproots, the runtime every revision shares (rootsrt), one
// package per revision (roots20250618, ...) importing it, and in mcproots
// itself the gate that serves them all with the adapter for the SDK
// (go-sdk, mcp-go; none for a server that speaks JSON-RPC itself). The kit
// serves every embedded revision unless -revisions narrows it; the import
// paths come from the go.mod of the module -out is in.
//
// It is meant for go:generate:
//
//	//go:generate go tool rootsgen -revision 2025-06-18 -out ./mcproots
//
// Run rootsgen -h for the flags. Exit status: 0 on success, 1 when -check
// finds stale files or the output cannot be written, 2 for a usage error
// (bad flags, unknown revision, unusable schema) and, with -strict, for a
// schema that has a part of the roots feature in a shape rootsgen cannot
// write, or that names a declaration after one the package declares itself
// (each such part or name is a warning on stderr either way: the schema's
// declaration is then named with the suffix Def, Client becoming ClientDef).
//
// SIGINT or SIGTERM while rootsgen writes does not leave a part of the
// change behind: rootsgen completes the write if it had committed to it,
// else undoes it, and exits 1 saying which package the output directory
// holds. A second signal ends it at once; the next run then completes or
// undoes the write from the journal it keeps in the output directory.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"unicode"

	"github.com/rootsgen/rootsgen/generator"
	"github.com/rootsgen/rootsgen/schema"
)

func main() {
	// The first SIGINT or SIGTERM cancels ctx, which the write looks at
	// where stopping leaves one whole package; stop then restores the
	// default, so a second signal ends the process at once.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

// exit statuses
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// run is the command; ctx being done means the user interrupted it.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	o, code := parseFlags(args, stderr)
	if o == nil {
		return code
	}
	if o.version || o.list || o.markdown {
		return runInfo(ctx, o, stdout, stderr)
	}
	if err := o.validate(); err != nil {
		return usage(stderr, "%v", err)
	}
	name, err := packageName(o.pkg, o.out, getenv)
	if err != nil {
		return usage(stderr, "%v", err)
	}
	if o.sdk != "" {
		return runKit(ctx, o, name, getenv, stderr)
	}
	return runRevision(ctx, o, name, getenv, stderr)
}

// options are the flags of a run, each in the field named after it
// (schemaFile holds -schema, pkg -package, verbose -v, maxOut -max-output,
// revs -revisions and rtMode -runtime).
type options struct {
	revision, schemaFile, out, pkg      string
	check, list, markdown, version      bool
	verbose, strict                     bool
	maxBytes, maxDepth, maxEnum, maxOut int
	sdk, revs, rtMode                   string

	// given counts the flags given, and notForList those of them that
	// -list does not take (all but -list, -markdown and -v).
	given, notForList int
	// schemaFlags are the flags given that act on a schema read for
	// -revision.
	schemaFlags []string
}

// parseFlags parses args, the command line, into options. It returns nil
// and the exit status when the run ends there: after -h, a bad flag or an
// argument that is not a flag, each reported on stderr.
func parseFlags(args []string, stderr io.Writer) (*options, int) {
	var o options
	fs := flag.NewFlagSet("rootsgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.revision, "revision", "", "protocol `revision` to generate, such as 2025-06-18 (see -list)")
	fs.StringVar(&o.schemaFile, "schema", "", "generate from this schema `file` instead of the embedded one (any revision name is then accepted)")
	fs.StringVar(&o.out, "out", "", "output `directory`; created if missing")
	fs.StringVar(&o.pkg, "package", "", "package `name` (default: the package already in -out, else $GOPACKAGE when -out is the current directory, else the base name of -out)")
	fs.BoolVar(&o.check, "check", false, "write nothing; exit 1 and list the differences if the files in -out are not what would be generated")
	fs.BoolVar(&o.list, "list", false, "list the embedded revisions with their dialect, features and deprecation status")
	fs.BoolVar(&o.markdown, "markdown", false, "with -list: print an overview of the revisions as Markdown (with -v: and which declarations each revision's package has)")
	fs.BoolVar(&o.version, "version", false, "print the rootsgen version")
	fs.BoolVar(&o.verbose, "v", false, "report the files written and, with -revision, the plan (the parts of the roots feature the package has) and the parts left out")
	fs.BoolVar(&o.strict, "strict", false, "treat a warning (a part of the roots feature left out, or a schema name the package declares itself, renamed) as an error: exit 2 and write nothing")
	fs.IntVar(&o.maxBytes, "max-bytes", generator.DefaultMaxBytes, "largest schema file accepted, in `bytes`")
	fs.IntVar(&o.maxDepth, "max-depth", generator.DefaultMaxDepth, fmt.Sprintf("deepest JSON nesting accepted in a schema (at most %d)", generator.MaxMaxDepth))
	fs.IntVar(&o.maxEnum, "max-enum", generator.DefaultMaxEnum, "most values accepted in one enum of a schema")
	fs.IntVar(&o.maxOut, "max-output", 0, fmt.Sprintf("largest package written, in `bytes` (default: ten times the schema, between %d and %d)", generator.MinDefaultMaxOutput, generator.MaxDefaultMaxOutput))
	fs.StringVar(&o.sdk, "sdk", "", "write a kit serving several revisions, with the adapter for this MCP `SDK` ("+strings.Join(generator.SDKs(), ", ")+", or none); the adapter is the only output that imports an SDK")
	fs.StringVar(&o.revs, "revisions", "", "with -sdk: the `revisions` the kit serves, separated by commas (default: every embedded revision)")
	fs.StringVar(&o.rtMode, "runtime", "import", "how the output gets the shared runtime: import (the package "+generator.RuntimeImport+" of rootsgen's module) or copy (a copy written with it: the output imports only the standard library and its SDK)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rootsgen -revision REVISION -out DIR [-schema FILE] [-package NAME] [-runtime import|copy] [-check] [-strict] [-v]\n       rootsgen -sdk go-sdk|mcp-go|none -out DIR [-revisions REV,...] [-package NAME] [-runtime import|copy] [-check] [-v]\n       rootsgen -list [-markdown [-v]] | -version\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, exitOK
		}
		return nil, exitUsage
	}
	if fs.NArg() > 0 {
		return nil, usage(stderr, "unexpected arguments %q: all input is given by flags (see -h)", fs.Args())
	}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "strict" || strings.HasPrefix(f.Name, "max-") {
			o.schemaFlags = append(o.schemaFlags, "-"+f.Name)
		}
		if o.given++; f.Name != "list" && f.Name != "markdown" && f.Name != "v" {
			o.notForList++
		}
	})
	return &o, exitOK
}

// usage reports a usage error on stderr and returns its exit status.
func usage(stderr io.Writer, format string, a ...any) int {
	fmt.Fprintf(stderr, "rootsgen: "+format+"\n", a...)
	return exitUsage
}

// runInfo runs -version or -list (with -markdown), which write no
// package, and returns the exit status; it refuses any flag they do not
// take, and -markdown without -list.
func runInfo(ctx context.Context, o *options, stdout, stderr io.Writer) int {
	switch {
	case o.version && o.given > 1:
		return usage(stderr, "-version takes no other flag")
	case o.list && (o.notForList > 0 || o.verbose && !o.markdown):
		return usage(stderr, "-list takes no other flag but -markdown, and -v with -markdown")
	case o.version:
		fmt.Fprintf(stdout, "rootsgen %s\n", generator.Version())
		return exitOK
	case o.list && o.markdown:
		return interrupted(ctx, listMarkdown(stdout, stderr, o.verbose), stderr)
	case o.list:
		return interrupted(ctx, listRevisions(stdout, stderr), stderr)
	}
	return usage(stderr, "-markdown: only with -list")
}

// validate checks the flags of a run that writes or checks a package (of
// -revision) or a kit (of -sdk), before anything is read; an error is a
// usage error.
func (o *options) validate() error {
	switch {
	case o.sdk != "" && (o.revision != "" || o.schemaFile != ""):
		return errors.New("-sdk writes a kit of the embedded revisions (narrow it with -revisions); it takes neither -revision nor -schema")
	case o.sdk != "" && o.sdk != "none" && !slices.Contains(generator.SDKs(), o.sdk):
		return fmt.Errorf("unknown SDK %q; known: %s, none", o.sdk, strings.Join(generator.SDKs(), ", "))
	case o.sdk != "" && len(o.schemaFlags) > 0:
		return fmt.Errorf("%s: only with -revision (a kit is written from the embedded schemas, which rootsgen checks itself)", strings.Join(o.schemaFlags, ", "))
	case o.sdk == "" && o.revs != "":
		return errors.New("-revisions: only with -sdk")
	case o.sdk == "" && o.revision == "":
		return fmt.Errorf("-revision is required; embedded revisions: %s", strings.Join(schema.Revisions(), ", "))
	case o.sdk == "" && schema.CheckRevision(o.revision) != nil:
		// Before the schema is read: the name, not the file, is wrong.
		return schema.CheckRevision(o.revision)
	case o.out == "":
		return errors.New("-out is required: the directory to write the package into")
	case o.rtMode != "import" && o.rtMode != "copy":
		return fmt.Errorf("-runtime %q: import or copy", o.rtMode)
	case o.maxBytes < 1 || o.maxDepth < 1 || o.maxEnum < 1 || o.maxOut < 0:
		return fmt.Errorf("-max-bytes, -max-depth and -max-enum must be at least 1, and -max-output not negative (got %d, %d, %d and %d)", o.maxBytes, o.maxDepth, o.maxEnum, o.maxOut)
	case o.maxDepth > generator.MaxMaxDepth:
		// The schema library's work grows with the square of the depth.
		return fmt.Errorf("-max-depth %d: at most %d", o.maxDepth, generator.MaxMaxDepth)
	}
	return nil
}

// runKit generates the kit of -sdk as package name and writes it to -out,
// or with -check compares it, and returns the exit status.
func runKit(ctx context.Context, o *options, name string, getenv func(string) string, stderr io.Writer) int {
	files, err := untilInterrupted(ctx, func() ([]generator.File, error) { return generateKit(o.sdk, o.revs, o.out, name, o.rtMode == "copy") })
	if err != nil {
		var ue *generator.UsageError
		return generateFailed(err, errors.As(err, &ue), o, stderr)
	}
	return writeOrCheck(ctx, files, o.out, "the kit", name, o.check, o.verbose, getenv("GOFILE") != "", stderr)
}

// runRevision generates the package of -revision as package name, reports
// its plan (with -v) and its warnings, and writes it to -out, or with
// -check compares it; with -strict a warning refuses it. It returns the
// exit status.
func runRevision(ctx context.Context, o *options, name string, getenv func(string) string, stderr io.Writer) int {
	var m *generator.Model
	files, err := untilInterrupted(ctx, func() (files []generator.File, err error) {
		files, m, err = generateRevision(o.revision, o.schemaFile, name, generator.LoadOptions{MaxBytes: o.maxBytes, MaxDepth: o.maxDepth, MaxEnum: o.maxEnum}, o.maxOut, o.rtMode == "copy")
		return files, err
	})
	if err != nil {
		var ue *generator.UsageError
		var le *generator.LoadError
		return generateFailed(err, errors.As(err, &ue) || errors.As(err, &le) || errors.Is(err, errSchemaFile), o, stderr)
	}
	if o.verbose {
		fmt.Fprintf(stderr, "rootsgen: plan for %s: %s\n", o.revision, strings.Join(m.Plan.Parts(), " "))
	}
	printWarnings(stderr, m)
	if o.strict {
		if refusal := strictRefusal(m, o.revision); refusal != "" {
			return usage(stderr, "-strict: %s (warnings above); nothing was written", refusal)
		}
	}
	return writeOrCheck(ctx, files, o.out, "revision "+o.revision, name, o.check, o.verbose, getenv("GOFILE") != "", stderr)
}

// generateFailed reports err, the failure of generating the files (a usage
// error when byUser says it is the user's: a bad flag or schema), and
// returns the exit status. Interrupted, it says what -out holds.
func generateFailed(err error, byUser bool, o *options, stderr io.Writer) int {
	switch {
	case errors.Is(err, errInterrupted):
		return interruptedBeforeWriting(o.out, o.check, stderr)
	case byUser:
		return usage(stderr, "%v", err)
	}
	fmt.Fprintf(stderr, "rootsgen: %v\n", err)
	return exitFail
}

// printWarnings prints the warnings of m: the parts of the roots feature
// its package leaves out, and the names of its schema that the package
// declares itself, renamed.
func printWarnings(stderr io.Writer, m *generator.Model) {
	for _, w := range m.Plan.Warnings {
		fmt.Fprintf(stderr, "rootsgen: warning: %s\n", w)
	}
	for _, r := range m.Renamed {
		fmt.Fprintf(stderr, "rootsgen: warning: %s\n", r)
	}
}

// strictRefusal says why -strict refuses the schema of revision, modelled
// as m: the first kind of warning it has; "" when it has none.
func strictRefusal(m *generator.Model, revision string) string {
	switch {
	case len(m.Plan.Warnings) > 0:
		return fmt.Sprintf("the schema of %s has %d part(s) of the roots feature that rootsgen cannot write", revision, len(m.Plan.Warnings))
	case len(m.Renamed) > 0:
		return fmt.Sprintf("the schema of %s gives %s, which the generated package declares itself", revision, renamedList(m.Renamed))
	}
	return ""
}

// renamedList names the schema's names that the package declares itself:
// "a declaration the name Client", or "declarations the names Client and
// RootSet (at Root.set)".
func renamedList(renamed []generator.Rename) string {
	var names []string
	for _, r := range renamed {
		what := r.Name
		if r.Path != r.Name {
			what += " (at " + r.Path + ")"
		}
		names = append(names, what)
	}
	if len(names) == 1 {
		return "a declaration the name " + names[0]
	}
	return "declarations the names " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// interrupted turns the success of a command that only reads into a
// failure when ctx was done meanwhile: the user asked it to stop, and
// what it printed may not be what they meant to wait for.
// errInterrupted: the user interrupted rootsgen before it wrote anything.
var errInterrupted = errors.New("interrupted")

// untilInterrupted runs generate, which reads and computes but writes
// nothing, and returns its outcome, or errInterrupted as soon as ctx is
// done: reading a schema from a FIFO waits for a writer, and the
// process, which ends right after, must not wait for it.
func untilInterrupted(ctx context.Context, generate func() ([]generator.File, error)) ([]generator.File, error) {
	type outcome struct {
		files []generator.File
		err   error
	}
	if ctx.Err() != nil {
		return nil, errInterrupted
	}
	done := make(chan outcome, 1)
	go func() {
		files, err := generate()
		done <- outcome{files, err}
	}()
	select {
	case o := <-done:
		return o.files, o.err
	case <-ctx.Done():
		return nil, errInterrupted
	}
}

// interruptedBeforeWriting says what a run interrupted before its write
// left in out, and returns its exit status.
func interruptedBeforeWriting(out string, check bool, stderr io.Writer) int {
	switch {
	case check:
		fmt.Fprintln(stderr, "rootsgen: interrupted")
	case exists(out):
		fmt.Fprintf(stderr, "rootsgen: interrupted; %s holds the old package\n", out)
	default:
		fmt.Fprintln(stderr, "rootsgen: interrupted; nothing was written")
	}
	return exitFail
}

func interrupted(ctx context.Context, code int, stderr io.Writer) int {
	if code == exitOK && ctx.Err() != nil {
		fmt.Fprintln(stderr, "rootsgen: interrupted")
		return exitFail
	}
	return code
}

// generateKit writes the kit of -sdk into out, a directory of the module
// whose go.mod is in out or above it.
func generateKit(sdk, revisions, out, name string, copyRuntime bool) ([]generator.File, error) {
	if sdk == "none" {
		sdk = ""
	}
	var revs []generator.GateRevision
	if revisions == "" {
		for _, r := range schema.Revisions() {
			revs = append(revs, generator.GateRevision{Revision: r})
		}
	} else {
		for _, r := range strings.Split(revisions, ",") {
			r = strings.TrimSpace(r)
			if err := schema.CheckRevision(r); err != nil {
				return nil, &generator.UsageError{Err: err}
			}
			revs = append(revs, generator.GateRevision{Revision: r})
		}
	}
	imp, err := importPath(out)
	if err != nil {
		return nil, &generator.UsageError{Err: err}
	}
	return generator.GenerateKit(generator.KitOptions{Import: imp, Package: name, Revisions: revs, SDK: sdk, CopyRuntime: copyRuntime})
}

// importPath is the import path of dir: the path of the module whose
// go.mod is in dir or the nearest directory above it, and dir below that.
func importPath(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for root := abs; ; root = filepath.Dir(root) {
		data, err := readLimited(filepath.Join(root, "go.mod"), 1<<20)
		if err == nil {
			mod := modulePath(data)
			if mod == "" {
				return "", fmt.Errorf("%s: no module directive", filepath.Join(root, "go.mod"))
			}
			rel, err := filepath.Rel(root, abs)
			if err != nil {
				return "", err
			}
			if rel == "." {
				return mod, nil
			}
			return mod + "/" + filepath.ToSlash(rel), nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		if filepath.Dir(root) == root {
			return "", fmt.Errorf("%s is in no Go module (no go.mod in it or above it): a kit's packages import each other by the module's path", dir)
		}
	}
}

// modulePath returns the module path a go.mod declares, or "".
func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '"') {
			rest = strings.TrimSpace(rest)
			if i := strings.Index(rest, "//"); i >= 0 {
				rest = strings.TrimSpace(rest[:i])
			}
			if unq, err := strconv.Unquote(rest); err == nil {
				return unq
			}
			return rest
		}
	}
	return ""
}

var errSchemaFile = errors.New("schema file")

func generateRevision(revision, schemaFile, pkg string, limits generator.LoadOptions, maxOutput int, copyRuntime bool) ([]generator.File, *generator.Model, error) {
	opts := generator.Options{Revision: revision, Package: pkg, Load: limits, MaxOutput: maxOutput, Runtime: generator.RuntimeImport}
	if copyRuntime {
		opts.Runtime = ""
	}
	if schemaFile != "" {
		data, err := readLimited(schemaFile, limits.MaxBytes)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %w", errSchemaFile, err)
		}
		opts.Schema = data
	}
	files, m, err := generator.Generate(opts)
	if err != nil && schemaFile != "" && token.IsIdentifier(pkg) && !token.IsKeyword(pkg) && pkg != "_" {
		// Name the file, as a compiler names the source of an error (with
		// a valid package name, every usage error is about the schema).
		var le *generator.LoadError
		if errors.As(err, &le) {
			le.File = schemaFile
		} else if ue := (*generator.UsageError)(nil); errors.As(err, &ue) {
			err = &generator.UsageError{Err: fmt.Errorf("%s: %w", schemaFile, ue.Err)}
		}
	}
	return files, m, err
}

// writeOrCheck writes files to out, or with check compares them. A write
// under go generate that removes files says that go generate, which
// listed the packages' files before rootsgen ran, may then stop at one.
func writeOrCheck(ctx context.Context, files []generator.File, out, what, name string, check, verbose, underGenerate bool, stderr io.Writer) int {
	if check {
		changes, err := generator.Diff(out, files)
		if err != nil {
			fmt.Fprintf(stderr, "rootsgen: %v\n", err)
			return exitFail
		}
		if len(changes) == 0 {
			return interrupted(ctx, exitOK, stderr)
		}
		fmt.Fprintf(stderr, "rootsgen: %s is stale for %s (%d file(s) differ); regenerate with go generate:\n", out, what, len(changes))
		for _, c := range changes {
			fmt.Fprintf(stderr, "  %s\n", c)
		}
		return exitFail
	}
	changes, err := generator.WriteContext(ctx, out, files)
	if ctx.Err() != nil && (err == nil || errors.Is(err, ctx.Err())) {
		// Stopped before it committed to the change, the write left the
		// directory as it was; after, it completed the change.
		switch {
		case err == nil:
			fmt.Fprintf(stderr, "rootsgen: interrupted; %s holds the new package\n", out)
		case errors.Is(err, generator.ErrLocked):
			fmt.Fprintf(stderr, "rootsgen: interrupted while another rootsgen was writing %s; nothing was written\n", out)
		case !exists(out):
			fmt.Fprintf(stderr, "rootsgen: interrupted; nothing was written\n")
		default:
			fmt.Fprintf(stderr, "rootsgen: interrupted; %s holds the old package\n", out)
		}
		return exitFail
	}
	if errors.Is(err, generator.ErrLeftChanged) {
		fmt.Fprintf(stderr, "rootsgen: writing %s: %v\n", out, err)
		return exitFail
	}
	if err != nil {
		fmt.Fprintf(stderr, "rootsgen: writing %s: %v (nothing was changed)\n", out, err)
		return exitFail
	}
	if verbose {
		for _, c := range changes {
			fmt.Fprintf(stderr, "rootsgen: %s\n", c)
		}
		fmt.Fprintf(stderr, "rootsgen: package %s in %s: %d file(s), %d changed\n", name, out, len(files), len(changes))
	}
	removed := 0
	for _, c := range changes {
		if c.Kind == "remove" {
			removed++
		}
	}
	if removed > 0 && underGenerate {
		fmt.Fprintf(stderr, "rootsgen: removed %d file(s) no longer generated from %s; if go generate now fails to open one (it listed them before this run), run it again\n", removed, out)
	}
	return exitOK
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func readLimited(path string, limit int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		// A read error from *os.File already names the file.
		return nil, err
	}
	if len(data) > limit {
		return nil, fmt.Errorf("%s is larger than the limit of %d bytes (raise it with -max-bytes)", path, limit)
	}
	return data, nil
}

// packageName picks the generated package's name: the flag, else the
// package of Go files already in dir, else $GOPACKAGE when dir is the
// directory go generate runs in, else dir's base name.
func packageName(flagValue, dir string, getenv func(string) string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, "*.go")); len(matches) > 0 {
		for _, m := range matches {
			if strings.HasSuffix(m, "_test.go") {
				continue
			}
			if name := packageClause(m); name != "" {
				return name, nil
			}
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if wd, err := os.Getwd(); err == nil && wd == abs && getenv("GOPACKAGE") != "" {
		return getenv("GOPACKAGE"), nil
	}
	var b strings.Builder
	for _, r := range strings.ToLower(filepath.Base(abs)) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if !token.IsIdentifier(name) || token.IsKeyword(name) {
		return "", fmt.Errorf("cannot derive a package name from %q; give one with -package", dir)
	}
	return name, nil
}

// maxClauseBytes bounds how much of a Go file packageClause reads: the
// package clause comes after the file's leading comments, which are short in
// any file a person or rootsgen wrote.
const maxClauseBytes = 1 << 20

// packageClause returns the package name declared by the Go file at path,
// or "" when it has none that can be read. Only a regular file is read, not
// through a link, and only its first maxClauseBytes: -out may hold a FIFO
// named x.go (opening it would wait for a writer forever) or a link to
// /dev/zero (reading it would never end).
func packageClause(path string) string {
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() {
		return ""
	}
	f, err := os.OpenFile(path, os.O_RDONLY|noFollowNoBlock, 0)
	if err != nil {
		return ""
	}
	defer f.Close()
	// The name may have been swapped for something else since Lstat.
	if opened, err := f.Stat(); err != nil || !os.SameFile(info, opened) {
		return ""
	}
	src, err := io.ReadAll(io.LimitReader(f, maxClauseBytes))
	if err != nil {
		return ""
	}
	file, err := parser.ParseFile(token.NewFileSet(), path, src, parser.PackageClauseOnly)
	if err != nil {
		return ""
	}
	return file.Name.Name
}

func listRevisions(stdout, stderr io.Writer) int {
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "REVISION\tDIALECT\tLIST_CHANGED\tCAPABILITY\tREQUEST\tCHANNEL\tSTATUS")
	for _, rev := range schema.Revisions() {
		m, err := generator.BuildModel(generator.Options{Revision: rev})
		if err != nil {
			fmt.Fprintf(stderr, "rootsgen: revision %s: %v\n", rev, err)
			return exitFail
		}
		f := m.Plan
		notification := "no"
		if f.ListChanged != nil {
			notification = "notification"
		}
		capability := "roots{}"
		if f.CapabilityListChanged {
			capability = "roots{listChanged}"
		}
		if f.CapabilitiesInMeta {
			capability += " per request"
		}
		request := "method+params"
		if f.Envelope {
			request = "jsonrpc+id+method+params"
		}
		var channels []string
		if f.Direct {
			channels = append(channels, "server request")
		}
		if f.InputRequests {
			channels = append(channels, "inputRequests")
		}
		channel := strings.Join(channels, "+")
		status := "current"
		if d := m.Deprecation; d != nil {
			status = fmt.Sprintf("deprecated (%s), removable from %s", d.Proposal, d.EarliestRemoval)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", rev, m.Dialect, notification, capability, request, channel, status)
	}
	if err := tw.Flush(); err != nil {
		return exitFail
	}
	return exitOK
}

// listMarkdown prints the overview of the embedded revisions, the table
// README.md shows; with declarations, also which declarations of a
// single-revision package each revision has.
func listMarkdown(stdout, stderr io.Writer, declarations bool) int {
	overview, err := generator.Overview(schema.Revisions(), declarations)
	if err != nil {
		fmt.Fprintf(stderr, "rootsgen: %v\n", err)
		return exitFail
	}
	fmt.Fprint(stdout, overview)
	return exitOK
}
