package model

import (
	"fmt"
	"strings"
)

// Summary describes the model in a few lines per type: what the generator
// derived from the schema, in a form that reads well in a diff between
// revisions.
func (m *Model) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "revision %s (%s, sha256 %s)\n", m.Revision, m.Dialect, m.InputSHA)
	f := m.Features
	fmt.Fprintf(&b, "features: listChangedNotification=%t capabilityListChanged=%t requestEnvelope=%t directRequest=%t inputRequests=%t capabilitiesInMeta=%t rootMeta=%t\n",
		f.ListChangedNotification, f.CapabilityListChanged, f.RequestEnvelope, f.DirectRequest, f.InputRequests, f.CapabilitiesInMeta, f.RootMeta)
	if m.Plan != nil {
		b.WriteString(m.Plan.Summary())
	}
	for _, r := range m.Renamed {
		fmt.Fprintf(&b, "renamed: %s\n", r)
	}
	if d := m.Deprecation; d != nil {
		fmt.Fprintf(&b, "deprecated: %s by %s since %s, earliest removal %s\n", d.Feature, d.Proposal, d.Since, d.EarliestRemoval)
	} else {
		b.WriteString("deprecated: no\n")
	}
	for _, c := range m.Consts {
		typ := c.Type
		if typ == "" {
			typ = "untyped"
		}
		fmt.Fprintf(&b, "const %s %s = %#v%s\n", c.Name, typ, c.Value, flags(c.Roots, "roots"))
	}
	for _, t := range m.Types {
		fmt.Fprintf(&b, "\n%s %s from %s%s%s%s\n", t.Kind, t.Name, t.Path, flags(t.Roots, "roots"), flags(t.Partial, "partial"), flags(t.Deprecated, "deprecated"))
		for _, c := range t.Consts {
			fmt.Fprintf(&b, "  %q = %s%s\n", c.JSONName, c.Const.Name, flags(c.Required, "required"))
		}
		for _, fl := range t.Fields {
			typ := TypeString(fl.Type)
			if fl.Pointer {
				typ = "*" + typ
			}
			fmt.Fprintf(&b, "  %s %s %q%s%s%s\n", fl.Name, typ, fl.JSONName, flags(fl.Required, "required"), attr("format", fl.Format), attr("schemes", strings.Join(fl.URISchemes, ",")))
		}
		if t.Extra != nil {
			fmt.Fprintf(&b, "  %s map[string]%s (other members)\n", t.ExtraName, TypeString(*t.Extra))
		}
		if t.Elem != nil {
			fmt.Fprintf(&b, "  of %s\n", TypeString(*t.Elem))
		}
		for _, p := range t.Members {
			fmt.Fprintf(&b, "  | %s\n", p)
		}
		for _, a := range t.Arms {
			fmt.Fprintf(&b, "  | %s\n", a.Name)
		}
	}
	return b.String()
}

func flags(on bool, name string) string {
	if on {
		return " [" + name + "]"
	}
	return ""
}

func attr(name, value string) string {
	if value == "" {
		return ""
	}
	return " " + name + "=" + value
}
