//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSchemaLimitsReport runs the rootsgen binary on schemas made to cost
// far more than their size, each refused with exit status 2 and nothing
// written, and reports the time and peak memory (RSS) of each run: the
// limits are there so that a schema from a pull request cannot push a CI
// job out of memory. (The numbers are reported, not asserted; the goal is
// at most 5 s and 512 MiB for anything the default limits accept.)
func TestSchemaLimitsReport(t *testing.T) {
	if args := os.Getenv("ROOTSGEN_MEASURE"); args != "" {
		measured(strings.Split(args, "\x1f"))
	}
	if testing.Short() {
		t.Skip("builds rootsgen and runs it on schemas of megabytes")
	}
	exe := buildRootsgen(t)
	dir := t.TempDir()
	enum := rootsSchema(t, func(d map[string]any) {
		values := make([]string, 950000)
		for i := range values {
			values[i] = fmt.Sprintf("v%07d", i)
		}
		rootProps(d)["name"].(map[string]any)["enum"] = values
	})
	wide := rootsSchema(t, func(d map[string]any) {
		for i := range 60000 { // under 4 MiB, 60,000 struct types
			rootProps(d)[fmt.Sprintf("o%05d", i)] = map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{}}}
		}
	})
	deep := []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"Root":` +
		strings.Repeat(`{"type":"object","properties":{"a":`, 10000) + `{}` + strings.Repeat(`}}`, 10000) + `}}`)
	for _, c := range []struct {
		name   string
		schema []byte
		args   []string
		want   string
	}{
		{"11 MB enum of 950,000 values", enum, nil, "-max-bytes"},
		{"11 MB enum, -max-bytes 16 MiB", enum, []string{"-max-bytes", "16777216"}, "-max-enum"},
		{"10,000 levels, -max-depth 100000", deep, []string{"-max-depth", "100000"}, "-max-depth"},
		{"10,000 levels, -max-depth 1000", deep, []string{"-max-depth", "1000"}, "-max-depth"},
		{"60,000 object properties in 4 MB", wide, nil, "-max-output"},
	} {
		file := filepath.Join(dir, "schema.json")
		if err := os.WriteFile(file, c.schema, 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out")
		// Through this test's binary, which runs rootsgen and reports its
		// peak RSS: a child started from this process directly would report
		// this process's, the larger, as its own (it shares its memory until
		// it runs rootsgen).
		args := append([]string{exe, "-revision", "2025-06-18", "-schema", file, "-out", out}, c.args...)
		cmd := exec.Command(os.Args[0], "-test.run=^TestSchemaLimitsReport$")
		cmd.Env = append(os.Environ(), "ROOTSGEN_MEASURE="+strings.Join(args, "\x1f"))
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: measuring: %v\n%s", c.name, err, stdout.String())
		}
		var code int
		var rss int64
		var took time.Duration
		report, stderr, _ := strings.Cut(stdout.String(), "\n")
		if _, err := fmt.Sscanf(report, "exit %d maxrss %d took %d", &code, &rss, &took); err != nil {
			t.Fatalf("%s: %q: %v", c.name, stdout.String(), err)
		}
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d naming %s", c.name, code, stderr, exitUsage, c.want)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: the refused run wrote %s", c.name, out)
		}
		t.Logf("%-36s %8d bytes: exit %d in %v, peak RSS %d MiB", c.name, len(c.schema), code, took.Round(time.Millisecond), rss>>10)
	}
}

// measured runs args and prints its exit status, peak RSS (KiB) and
// time, then its stderr, and ends the process.
func measured(args []string) {
	cmd := exec.Command(args[0], args[1:]...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Printf("exit %d maxrss %d took %d\n%s", code, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss, took, stderr.String())
	os.Exit(0)
}
