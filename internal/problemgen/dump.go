package problemgen

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// Dump formats p compactly, one line per instance type, NodePool, node,
// bound pod, daemonset and pending pod, leaving out empty fields; map keys
// are sorted, so equal problems give equal text. It is meant for failure
// reports of minimised problems: a catalog's types are listed in full, its
// currency once, every price exactly (instancetypes.Price.String) and
// every value of every requirement (%+v: requirements.Set.Format).
func Dump(p packing.Problem) string {
	var b strings.Builder
	dumpCatalog(&b, "catalog", p.Catalog)
	for _, np := range p.NodePools {
		fmt.Fprintf(&b, "nodepool %s weight=%d%s%s%s%s%s\n", np.Name, np.Weight, field("reqs", fmt.Sprintf("%+v", np.Requirements)),
			field("labels", mapText(np.Labels)), field("taints", listText(np.Taints)),
			field("startupTaints", listText(np.StartupTaints)), field("limits", mapText(np.Limits)))
		if np.Catalog != nil {
			dumpCatalog(&b, "  catalog", np.Catalog)
		}
	}
	for _, n := range p.Nodes {
		fmt.Fprintf(&b, "node %s pool=%q type=%s zone=%s %s initialized=%t deleting=%t alloc=%s price=%s%s%s\n",
			n.Name, n.NodePool, n.InstanceType, n.Zone, n.CapacityType, n.Initialized, n.MarkedForDeletion,
			n.Allocatable.String(), n.Price, field("labels", mapText(n.Labels)), field("taints", listText(n.Taints)))
		for _, pod := range n.Pods {
			b.WriteString("  bound " + podText(pod) + "\n")
		}
	}
	for _, ds := range p.DaemonSets {
		fmt.Fprintf(&b, "daemonset %s req=%s%s%s\n", ds.Name, ds.Requests.String(),
			field("tol", listText(ds.Tolerations)), field("affinity", affinityText(ds.NodeAffinity)))
	}
	for i, pod := range p.Pods {
		fmt.Fprintf(&b, "pod[%d] %s\n", i, podText(pod))
	}
	return b.String()
}

func dumpCatalog(b *strings.Builder, name string, c *instancetypes.Catalog) {
	if c == nil {
		fmt.Fprintf(b, "%s: nil\n", name)
		return
	}
	fmt.Fprintf(b, "%s: %d types, prices in %s\n", name, c.Len(), cmp.Or(c.Origin().Currency, instancetypes.DefaultCurrency))
	for _, t := range c.Types() {
		fmt.Fprintf(b, "  type %s capacity=%s overhead=%s reqs=%+v offerings=%s\n", t.Name, t.Capacity.String(),
			t.Overhead.String(), t.Requirements, offeringsText(t.Offerings))
	}
}

func offeringsText(offs []instancetypes.Offering) string {
	parts := make([]string, len(offs))
	for i, o := range offs {
		parts[i] = fmt.Sprintf("%s/%s/%s", o.Zone, o.CapacityType, o.Price)
		if !o.Available {
			parts[i] += "/unavailable"
		}
		if o.ReservationID != "" {
			parts[i] += fmt.Sprintf("/%s:%d", o.ReservationID, o.ReservedUnits)
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func podText(p packing.Pod) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%s req=%s", p.Namespace, p.Name, p.Requests.String())
	b.WriteString(field("labels", mapText(p.Labels)))
	b.WriteString(field("affinity", affinityText(p.NodeAffinity)))
	b.WriteString(field("tol", listText(p.Tolerations)))
	b.WriteString(field("spread", listText(p.TopologySpread)))
	b.WriteString(field("podAffinity", listText(p.Affinity)))
	b.WriteString(field("podAntiAffinity", listText(p.AntiAffinity)))
	b.WriteString(field("ports", listText(p.HostPorts)))
	if p.Priority != 0 {
		fmt.Fprintf(&b, " priority=%d", p.Priority)
	}
	if !p.CreationTime.IsZero() {
		fmt.Fprintf(&b, " created=%s", p.CreationTime.Format("15:04:05"))
	}
	b.WriteString(field("owner", p.Owner))
	if p.Terminating {
		b.WriteString(" terminating")
	}
	return b.String()
}

func affinityText(a requirements.NodeAffinity) string {
	var parts []string
	if a.Selector.Len() > 0 {
		parts = append(parts, fmt.Sprintf("selector %+v", a.Selector))
	}
	for _, r := range a.Required {
		parts = append(parts, fmt.Sprintf("required %+v", r))
	}
	for _, p := range a.Preferred {
		parts = append(parts, fmt.Sprintf("preferred(%d) %+v", p.Weight, p.Terms))
	}
	return strings.Join(parts, " OR ")
}

// field is " name=text", or "" when text is empty.
func field(name, text string) string {
	if text == "" || text == "{}" {
		return ""
	}
	return " " + name + "=" + text
}

// mapText formats a map with sorted keys; "" when empty.
func mapText[K ~string, V any](m map[K]V) string {
	if len(m) == 0 {
		return ""
	}
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s:%v", k, m[k]))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// listText formats each element with %+v; "" when empty.
func listText[E any](s []E) string {
	if len(s) == 0 {
		return ""
	}
	parts := make([]string, len(s))
	for i, e := range s {
		parts[i] = fmt.Sprintf("%+v", e)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
