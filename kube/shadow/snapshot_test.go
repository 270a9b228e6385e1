package shadow

import (
	"slices"
	"testing"

	"github.com/nodeplan/nodeplan/kube"
	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

func on(p corev1.Pod, node string) corev1.Pod {
	p.Spec.NodeName = node
	return p
}

func podNodes(o kube.Objects) (out []string) {
	for _, p := range o.Pods {
		out = append(out, p.Name+"@"+p.Spec.NodeName)
	}
	return
}

func nodeNames(o kube.Objects) (out []string) {
	for _, n := range o.Nodes {
		out = append(out, n.Name)
	}
	return
}

// TestWithoutClaims: the batch's NodeClaims and their Nodes are left
// out, and the pods bound to those Nodes are pending again, on copies.
func TestWithoutClaims(t *testing.T) {
	objs := kube.Objects{
		NodeClaims: []karpv1.NodeClaim{*onNode(claim("a", "m5.large"), "n-a"), *onNode(claim("b", "m5.large"), "n-b"), *claim("c", "")},
		Nodes:      []corev1.Node{*node("n-a"), *node("n-b")},
		Pods:       []corev1.Pod{on(pending("p1"), "n-a"), on(pending("p2"), "n-b"), pending("p3")},
	}
	got := withoutClaims(objs, []string{"a", "c"})
	assert.Equal(t, []string{"b"}, claimNames(got))
	assert.Equal(t, []string{"n-b"}, nodeNames(got))
	assert.Equal(t, []string{"p1@", "p2@n-b", "p3@"}, podNodes(got))
	assert.Equal(t, []string{"p1@n-a", "p2@n-b", "p3@"}, podNodes(objs), "the input's pods")
	assert.Equal(t, []string{"n-a", "n-b"}, nodeNames(objs), "the input's nodes")
}

// TestWithClaimKeepsOrder: a NodeClaim or Node restored to a snapshot
// goes where the name order puts it.
func TestWithClaimKeepsOrder(t *testing.T) {
	objs := kube.Objects{NodeClaims: []karpv1.NodeClaim{*claim("a", ""), *claim("c", "")}, Nodes: []corev1.Node{*node("n1"), *node("n3")}}
	assert.Equal(t, []string{"a", "b", "c"}, claimNames(withClaim(objs, claim("b", ""))))
	assert.Equal(t, []string{"a", "c", "d"}, claimNames(withClaim(objs, claim("d", ""))))
	assert.Equal(t, []string{"n0", "n1", "n3"}, nodeNames(withNode(objs, node("n0"))))
	assert.Equal(t, []string{"a", "c"}, claimNames(objs), "the input")
}

// TestCompareKeys: the snapshot orders objects by namespace, then name, as
// live.Read does, not by the store key's bytes ("a-b/x" sorts after "a/x").
func TestCompareKeys(t *testing.T) {
	keys := []string{"a-b/x", "a/y", "node-2", "a/x", "node-1"}
	slices.SortFunc(keys, compareKeys)
	assert.Equal(t, []string{"node-1", "node-2", "a/x", "a/y", "a-b/x"}, keys)
}
