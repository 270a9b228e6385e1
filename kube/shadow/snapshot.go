package shadow

import (
	"slices"

	"github.com/nodeplan/nodeplan/kube"
	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// withClaim returns objs with nc in place of the NodeClaim of its name,
// or added in name order when there is none: the snapshot before a change
// of nc. objs' slices are not modified. O(claims).
func withClaim(objs kube.Objects, nc *karpv1.NodeClaim) kube.Objects {
	objs.NodeClaims = replace(objs.NodeClaims, *nc, func(c *karpv1.NodeClaim) string { return c.Name })
	return objs
}

// withNode returns objs with n in place of the Node of its name, or added
// in name order. objs' slices are not modified. O(nodes).
func withNode(objs kube.Objects, n *corev1.Node) kube.Objects {
	objs.Nodes = replace(objs.Nodes, *n, func(n *corev1.Node) string { return n.Name })
	return objs
}

// replace returns a copy of s (sorted by name) with v in place of the
// element of its name, or inserted where the order puts it.
func replace[T any](s []T, v T, name func(*T) string) []T {
	out := slices.Clone(s)
	for i := range out {
		switch n := name(&out[i]); {
		case n == name(&v):
			out[i] = v
			return out
		case n > name(&v):
			return slices.Insert(out, i, v)
		}
	}
	return append(out, v)
}

// withoutClaims returns objs without the NodeClaims named and their
// Nodes (status.nodeName, status.providerID): the snapshot nodeplan plans
// a batch on. A pod bound to one of those Nodes is pending again (a copy
// without spec.nodeName), as it was before the batch. objs' slices are
// not modified. O(claims + nodes + pods).
func withoutClaims(objs kube.Objects, names []string) kube.Objects {
	nodes, ids := map[string]bool{}, map[string]bool{}
	objs.NodeClaims = slices.DeleteFunc(slices.Clone(objs.NodeClaims), func(nc karpv1.NodeClaim) bool {
		if !slices.Contains(names, nc.Name) {
			return false
		}
		nodes[nc.Status.NodeName], ids[nc.Status.ProviderID] = true, true
		return true
	})
	delete(nodes, "")
	delete(ids, "")
	removed := map[string]bool{}
	objs.Nodes = slices.DeleteFunc(slices.Clone(objs.Nodes), func(n corev1.Node) bool {
		removed[n.Name] = nodes[n.Name] || ids[n.Spec.ProviderID]
		return removed[n.Name]
	})
	for name := range nodes {
		removed[name] = true
	}
	objs.Pods = unbound(objs.Pods, removed)
	return objs
}

// unbound returns pods with those bound to the nodes named unbound, a
// copy when there are any (pods is not modified).
func unbound(pods []corev1.Pod, nodes map[string]bool) []corev1.Pod {
	out, copied := pods, false
	for i := range pods {
		if pods[i].Spec.NodeName == "" || !nodes[pods[i].Spec.NodeName] {
			continue
		}
		if !copied {
			out, copied = slices.Clone(pods), true
		}
		p := pods[i].DeepCopy()
		p.Spec.NodeName = ""
		out[i] = *p
	}
	return out
}
