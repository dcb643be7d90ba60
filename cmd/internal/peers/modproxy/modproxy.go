// Package modproxy publishes the rootsgen checkout the tests run in as a
// release, in a module proxy laid out in a local directory, so that tests
// can take the path a user takes (go run module@version, go get -tool)
// without a tag or a network publication.
package modproxy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"

	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

// ModulePath is rootsgen's module path.
const ModulePath = "github.com/rootsgen/rootsgen"

// Proxy is a module proxy directory that serves rootsgen at a version,
// or at several when Publish is called again with the same dir, and the
// environment the go command needs to use it.
type Proxy struct {
	// Dir is the proxy's directory (GOPROXY=file://Dir).
	Dir string
	// Version is the version of rootsgen this Publish added to it.
	Version string
	// Env is an environment for the go command: the proxy first, then
	// the user's module cache and proxies for rootsgen's dependencies; a
	// module cache of its own, so that this made-up release never lands
	// in the user's; no checksum database, which does not know it; no
	// workspace.
	Env []string
}

// Publish writes the module zip of the checkout at repoRoot, as version,
// into the proxy directory below dir, which it creates the first time: a
// second call with the same dir adds a second version, and the proxy's
// list (what @latest chooses from) names both. The zip holds what git
// lists as part of the checkout (tracked files and untracked files git
// does not ignore), so node_modules, build output and the nested test
// module stay out, as they would from a tagged release.
func Publish(t testing.TB, repoRoot, dir, version string) *Proxy {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	prereq.Need(t, err, "the release tests run the go command")
	gitCmd, err := exec.LookPath("git")
	prereq.Need(t, err, "the release tests list the checkout's files with git")
	out, err := exec.Command(gitCmd, "-C", repoRoot, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	prereq.Need(t, err, "git ls-files in the checkout")
	var files []zip.File
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if name == "" || name == "go.work" || name == "go.work.sum" || strings.HasPrefix(name, "cmd/internal/peers/") {
			continue
		}
		p := filepath.Join(repoRoot, filepath.FromSlash(name))
		if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, or not a file
		}
		files = append(files, file{name: name, path: p})
	}
	gomod, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	proxy := filepath.Join(dir, "proxy")
	at := filepath.Join(proxy, filepath.FromSlash(ModulePath), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	var zipped bytes.Buffer
	if err := zip.Create(&zipped, module.Version{Path: ModulePath, Version: version}, files); err != nil {
		t.Fatalf("zipping the checkout as %s@%s: %v", ModulePath, version, err)
	}
	info := fmt.Sprintf(`{"Version":%q,"Time":%q}`, version, time.Now().UTC().Format(time.RFC3339))
	list, err := os.ReadFile(filepath.Join(at, "list"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	if !slices.Contains(strings.Fields(string(list)), version) {
		list = append(list, version+"\n"...)
	}
	for name, data := range map[string][]byte{
		"list":            list,
		version + ".info": []byte(info),
		version + ".mod":  gomod,
		version + ".zip":  zipped.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	goEnv := func(name string) string {
		out, err := exec.Command(goCmd, "env", name).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", name, err)
		}
		return strings.TrimSpace(string(out))
	}
	// The user's module cache is a proxy too: what is already downloaded
	// needs no network.
	proxies := []string{"file://" + filepath.ToSlash(proxy), "file://" + filepath.ToSlash(filepath.Join(goEnv("GOMODCACHE"), "cache", "download"))}
	for _, p := range strings.FieldsFunc(goEnv("GOPROXY"), func(r rune) bool { return r == ',' || r == '|' }) {
		if p != "direct" && p != "off" {
			proxies = append(proxies, p)
		}
	}
	env := append(os.Environ(),
		"GOPROXY="+strings.Join(proxies, ","),
		"GOMODCACHE="+filepath.Join(dir, "modcache"),
		"GOFLAGS=-modcacherw",
		"GOSUMDB=off",
		"GONOSUMDB="+ModulePath,
		"GOWORK=off",
		"GOTOOLCHAIN=local",
	)
	return &Proxy{Dir: proxy, Version: version, Env: env}
}

// file is one file of the module zip, read from the checkout.
type file struct{ name, path string }

func (f file) Path() string                 { return f.name }
func (f file) Lstat() (fs.FileInfo, error)  { return os.Lstat(f.path) }
func (f file) Open() (io.ReadCloser, error) { return os.Open(f.path) }
