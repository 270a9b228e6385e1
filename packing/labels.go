package packing

import (
	"slices"

	"github.com/nodeplan/nodeplan/requirements"
)

// nodeLabels returns the labels n is matched and counted by (see
// [Node.EffectiveLabels]).
// When n's own labels already are those (see ownLabelsComplete), it
// returns n.Labels itself, without allocating; else a new map. Either way
// the result is read-only: callers must not modify it. It does not modify
// n; O(labels).
func nodeLabels(n *Node) map[string]string {
	if ownLabelsComplete(n) {
		return n.Labels
	}
	l := normalizedLabels(n.Labels, 5)
	for _, f := range labelFields(n) {
		setAbsent(l, f.key, f.value)
	}
	if n.InstanceType != "" {
		setAbsent(l, requirements.LabelCapacityType, n.CapacityType.String())
	}
	return l
}

// EffectiveLabels returns the labels n is matched and counted by: what
// node affinity, NodePool requirements and topology domains see. Solve and
// package verify both read a node's labels by this one rule:
//
//   - Every key is read under its stable name (requirements.Normalize):
//     failure-domain.beta.kubernetes.io/zone as topology.kubernetes.io/zone,
//     and likewise the beta region, arch, os and instance-type labels.
//   - A beta label counts only when the node has no stable label for the
//     same key; when it has both, the stable label wins.
//   - The Node's fields (Name, Zone, InstanceType, NodePool and, with an
//     instance type, CapacityType) stand for their well-known labels only
//     where the node has no label for them under either name: a label wins
//     over a field that disagrees with it.
//
// Topology keys are normalised the same way. A NodePool's labels, which
// its nodes carry, and a NodeClaim's are read by the same rule.
//
// The result is read-only (it may be n.Labels itself). It does not modify
// n; O(labels).
func (n *Node) EffectiveLabels() map[string]string { return nodeLabels(n) }

// Label returns the value of the label key that n is matched and counted
// by, and whether n has it: the same answer as EffectiveLabels()[key] with
// key read under its stable name, without building the map. It does not
// allocate; O(labels) when n has no label under key itself.
func (n *Node) Label(key string) (string, bool) {
	key = requirements.Normalize(key)
	if v, ok := n.Labels[key]; ok {
		return v, true
	}
	for k, v := range n.Labels { // at most one beta alias maps to key
		if k != key && requirements.Normalize(k) == key {
			return v, true
		}
	}
	for _, f := range labelFields(n) {
		if f.key == key && f.value != "" {
			return f.value, true
		}
	}
	if key == requirements.LabelCapacityType && n.InstanceType != "" {
		return n.CapacityType.String(), true
	}
	return "", false
}

// ownLabelsComplete reports whether n's labels are the labels nodeLabels
// reads: every key stable, and every field that stands for a label either
// empty or carried under its key. O(labels), no allocation.
func ownLabelsComplete(n *Node) bool {
	for k := range n.Labels {
		if requirements.Normalize(k) != k {
			return false
		}
	}
	for _, f := range labelFields(n) {
		if !carried(n.Labels, f.key, f.value) {
			return false
		}
	}
	return n.InstanceType == "" || carried(n.Labels, requirements.LabelCapacityType, n.CapacityType.String())
}

// carried reports whether setAbsent(labels, k, val) would leave labels as
// they are: val is empty or labels has k.
func carried(labels map[string]string, k, val string) bool {
	_, ok := labels[k]
	return ok || val == ""
}

// labelField is a string field of a Node that stands for a label.
type labelField struct{ field, key, value string }

// labelFields lists the string fields of n that stand for labels, with
// the name Validate gives each: its name, zone, instance type and
// NodePool. nodeLabels reads one where n carries no label for it
// (see carries) and it is not empty.
func labelFields(n *Node) [4]labelField {
	return [...]labelField{
		{"name", requirements.LabelHostname, n.Name},
		{"zone", requirements.LabelZone, n.Zone},
		{"instanceType", requirements.LabelInstanceType, n.InstanceType},
		{"nodePool", requirements.LabelNodePool, n.NodePool},
	}
}

// carries reports whether labels hold the label key (a stable key) under
// it or its beta alias: whether key is among the keys of
// normalizedLabels(labels). O(labels), no allocation.
func carries(labels map[string]string, key string) bool {
	for k := range labels {
		if requirements.Normalize(k) == key {
			return true
		}
	}
	return false
}

// normalizedLabels returns a new map of labels under their stable keys, a
// stable label winning over its beta alias, with room for extra more.
func normalizedLabels(labels map[string]string, extra int) map[string]string {
	l := make(map[string]string, len(labels)+extra)
	has := func(k string) bool { _, ok := labels[k]; return ok }
	for k, v := range labels {
		if stable, ok := counted(k, has); ok {
			l[stable] = v
		}
	}
	return l
}

// counted returns the stable key of label key and whether the label
// counts: a beta label does not when the object also has its stable label
// (has reports whether the object has a label key).
func counted(key string, has func(key string) bool) (string, bool) {
	stable := requirements.Normalize(key)
	return stable, stable == key || !has(stable)
}

// poolLabels returns the labels every node of np carries, read as a
// node's: its labels under their stable keys (see [Node.EffectiveLabels]) and
// karpenter.sh/nodepool=<its name>. O(labels); np is not modified.
func poolLabels(np *NodePool) map[string]string {
	l := normalizedLabels(np.Labels, 1)
	l[requirements.LabelNodePool] = np.Name
	return l
}

// EffectiveLabels returns the labels every node of np carries, read as a
// node's by the rule above: np's labels under their stable keys and
// karpenter.sh/nodepool=<its name>. The result is a new map the caller
// may modify. It does not modify np; O(labels).
func (np *NodePool) EffectiveLabels() map[string]string { return poolLabels(np) }

// setAbsent sets l[k] = val when val is not empty and l has no k.
func setAbsent(l map[string]string, k, val string) {
	if !carried(l, k, val) {
		l[k] = val
	}
}

// HasLabel reports whether nc carries a label key, under that very key (a
// beta key is not its stable one here). It does not allocate; O(labels).
func (nc *NodeClaim) HasLabel(key string) bool {
	return slices.ContainsFunc(nc.Labels, func(l requirements.Label) bool { return l.Key == key })
}
