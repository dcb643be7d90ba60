// Package adapters writes the per-revision adapters of rootsgen's tests:
// generated/adapters_test.go (the dispatch tables, the
// fuzz round trips and dispatchers) and the test module's
// cmd/internal/peers/generated/adapters_test.go (the fidelity tests' types
// and facts), one set for each embedded revision, in terms of the Go names
// its model gives its types and of what its plan says the package has. The
// tests themselves are written once against the revision-neutral view the
// adapters provide, so adding a revision (a schema in schema/ and the lines
// that generate its package) needs no test edited by hand.
package adapters

import (
	"bytes"
	_ "embed"
	"fmt"
	"go/format"
	"strings"
	"text/template"

	"github.com/rootsgen/rootsgen/generator"
	"github.com/rootsgen/rootsgen/schema"
)

//go:embed adapters.tmpl
var source string

//go:embed peers.tmpl
var peersSource string

// FileName is the file Source is written to, in generated/.
const FileName = "adapters_test.go"

// PeersFileName is the file PeersSource is written to, relative to generated/:
// the adapters of the fidelity tests in the test module.
const PeersFileName = "../cmd/internal/peers/generated/adapters_test.go"

// Package is the name of the package generated for revision in generated/
// by generate.go's go:generate lines: roots and the revision without its
// separators.
func Package(revision string) string {
	return "roots" + strings.NewReplacer("-", "", ".", "").Replace(revision)
}

// revision is what the template knows of one revision.
type revision struct {
	Rev, Pkg string
	// Plan is what the revision's package has (generator.Plan).
	Plan *generator.Plan
	// Params and NotificationParams are the Go types of the params of
	// roots/list and of its list-changed notification ("" without one).
	Params, NotificationParams string
	// RoundTrip are the struct types FuzzUnmarshal decodes.
	RoundTrip []string
	// Definitions are the struct types of the schema's definitions.
	Definitions []*generator.Type
}

// Source returns the adapters file for the embedded revisions, formatted.
func Source() ([]byte, error) { return render(FileName, source) }

// PeersSource returns the adapters file of the test module's fidelity tests.
func PeersSource() ([]byte, error) { return render(PeersFileName, peersSource) }

func render(name, text string) ([]byte, error) {
	var data struct{ Revisions, Legacy []revision }
	for _, rev := range schema.Revisions() {
		m, err := generator.BuildModel(generator.Options{Revision: rev})
		if err != nil {
			return nil, fmt.Errorf("revision %s: %w", rev, err)
		}
		p := m.Plan
		r := revision{Rev: rev, Pkg: Package(rev), Plan: p}
		if p.Handlers != nil {
			r.Params = p.Handlers.ParamsType
		}
		if p.ListChanged != nil {
			r.NotificationParams = p.ListChanged.ParamsType
		}
		for _, t := range m.Types {
			if !strings.Contains(t.Path, ".") && t.Kind == generator.KindStruct {
				r.Definitions = append(r.Definitions, t)
			}
			switch t.Path {
			case "Root", "ListRootsRequest", "ListRootsResult", "InputRequiredResult", "InputResponseRequestParams":
				if t.Kind == generator.KindStruct {
					r.RoundTrip = append(r.RoundTrip, t.Name)
				}
			}
		}
		data.Revisions = append(data.Revisions, r)
		if p.Direct && p.HandleNotification() && p.NotifyListChanged() {
			data.Legacy = append(data.Legacy, r)
		}
	}
	tmpl, err := template.New(name).Parse(text)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, data); err != nil {
		return nil, err
	}
	out, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting %s: %w\n%s", name, err, buf.Bytes())
	}
	return out, nil
}
