package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestBundleFresh fails when templates/sdk_adapters.go is not what
// sdkbundle writes from templates/sdk now; regenerate with
//
//	go generate ./templates
func TestBundleFresh(t *testing.T) {
	dir := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(dir, "sdk", "go.mod")); err != nil {
		// A copy of the module without its nested modules (a module zip).
		if os.Getenv("CI") == "true" {
			t.Fatalf("templates/sdk is missing: %v", err)
		}
		t.Skipf("templates/sdk is missing: %v", err)
	}
	want, err := bundle(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, out))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("templates/%s is stale: run go generate ./templates", out)
	}
}

// The bundle refuses an adapter whose version marks disagree with the
// version sdk/go.mod requires.
func TestBundleChecksVersion(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sdk", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "sdk", name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module m\n\nrequire example.com/sdk v1.2.0\n")
	body := "package x\n\nimport \"example.com/sdk/api\"\n\nfunc requires(string) *api.T { return nil }\n\nfunc _() { _ = requires(\"sdk %s or later\").F }\n\nconst SDKVersion = %q\n"
	for _, c := range []struct {
		requires, constant string
		ok                 bool
	}{
		{"v1.2.0", "v1.2.0", true},
		{"v1.1.0", "v1.2.0", false},
		{"v1.2.0", "v1.1.0", false},
	} {
		write("x/adapter.go", fmt.Sprintf(body, c.requires, c.constant))
		_, err := bundle(dir)
		if (err == nil) != c.ok {
			t.Errorf("requires %s, SDKVersion %s: bundle error %v, want ok %t", c.requires, c.constant, err, c.ok)
		}
	}
}
