package packing

import "github.com/nodeplan/nodeplan/requirements"

// The labels of a node, as Solve and Verify both read them, by one rule:
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
// Node affinity, topology domains (whose keys are normalised the same way)
// and the checks of Verify all use these labels.

// nodeLabels returns the labels n is matched and counted by (see above).
// It does not modify n; O(labels).
func nodeLabels(n *Node) map[string]string {
	l := normalizedLabels(n.Labels, 5)
	setAbsent(l, requirements.LabelHostname, n.Name)
	setAbsent(l, requirements.LabelZone, n.Zone)
	setAbsent(l, requirements.LabelInstanceType, n.InstanceType)
	setAbsent(l, requirements.LabelNodePool, n.NodePool)
	if n.InstanceType != "" {
		setAbsent(l, requirements.LabelCapacityType, n.CapacityType.String())
	}
	return l
}

// normalizedLabels returns a new map of labels under their stable keys, a
// stable label winning over its beta alias, with room for extra more.
func normalizedLabels(labels map[string]string, extra int) map[string]string {
	l := make(map[string]string, len(labels)+extra)
	for k, v := range labels {
		stable := requirements.Normalize(k)
		if _, both := labels[stable]; stable == k || !both {
			l[stable] = v
		}
	}
	return l
}

// setAbsent sets l[k] = val when val is not empty and l has no k.
func setAbsent(l map[string]string, k, val string) {
	if _, ok := l[k]; !ok && val != "" {
		l[k] = val
	}
}
