package release

import (
	"archive/zip"
	"io"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/modproxy"
)

// markdownLink is the target of an inline Markdown link or image.
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestLinksInModuleZip reads every Markdown file of the module zip a user
// downloads (the README from the module cache or pkg.go.dev) and checks
// that each relative link names a file or directory inside that zip: the
// nested test module, left out of it, must be linked by its URL.
func TestLinksInModuleZip(t *testing.T) {
	p := publish(t)
	zipPath := filepath.Join(p.Dir, filepath.FromSlash(modproxy.ModulePath), "@v", p.Version+".zip")
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	prefix := modproxy.ModulePath + "@" + p.Version + "/"
	files, dirs := map[string]bool{}, map[string]bool{}
	for _, f := range zr.File {
		name := strings.TrimPrefix(f.Name, prefix)
		files[name] = true
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	checked := 0
	for _, f := range zr.File {
		name := strings.TrimPrefix(f.Name, prefix)
		if !strings.HasSuffix(name, ".md") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		text, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range markdownLink.FindAllStringSubmatch(string(text), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			to := path.Join(path.Dir(name), target)
			if strings.HasPrefix(to, "../") || !files[to] && !dirs[to] {
				t.Errorf("%s links %s, which the module zip does not hold", name, m[1])
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found in the zip's Markdown files: the link pattern no longer matches")
	}
}
