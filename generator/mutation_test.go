package generator

import (
	"bytes"
	"errors"
	"regexp"
	"testing"

	"github.com/rootsgen/rootsgen/schema"
	"github.com/rootsgen/rootsgen/testdata/gotest/gocheck"
)

// TestEveryKeyRenamed is a systematic version of FuzzGenerate's most
// fruitful mutation: each object key of each embedded schema, renamed in
// turn (all its occurrences), must give a usage error or a package that
// type-checks. It catches templates that assume a member the schema may
// lack.
func TestEveryKeyRenamed(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: generates and type-checks a package per key")
	}
	keyRE := regexp.MustCompile(`"([^"\\]+)":`)
	for _, rev := range schema.Revisions() {
		data, err := schema.Open(rev)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, m := range keyRE.FindAllSubmatch(data, -1) {
			key := string(m[1])
			if seen[key] {
				continue
			}
			seen[key] = true
			renamed := bytes.ReplaceAll(data, []byte(`"`+key+`":`), []byte(`"`+key+`Renamed":`))
			files, _, err := Generate(Options{Revision: rev, Schema: renamed, Package: "mutated", Version: goldenVersion})
			if err != nil {
				var ue *UsageError
				var le *LoadError
				if !errors.As(err, &ue) && !errors.As(err, &le) {
					t.Errorf("%s, %q renamed: error %T is neither a usage nor a load error: %v", rev, key, err, err)
				}
				continue
			}
			contents := map[string][]byte{}
			for _, f := range files {
				contents[f.Name] = f.Content
			}
			if err := gocheck.Package("mutated", contents); err != nil {
				t.Errorf("%s, %q renamed: generated code does not compile: %v", rev, key, err)
			}
		}
	}
}
