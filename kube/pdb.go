package kube

import (
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	policyv1 "k8s.io/api/policy/v1"
)

// PodDisruptionBudget is what disruption needs of a policy/v1
// PodDisruptionBudget: the pods it covers and how many of them may be
// evicted now (status.disruptionsAllowed, as the disruption controller last
// computed it). The zero PodDisruptionBudget covers every pod of no
// namespace and allows no disruption.
type PodDisruptionBudget struct {
	Namespace, Name string
	// Selector chooses the pods in Namespace; a nil spec.selector becomes
	// [LabelMatchNothing], an empty one matches every pod.
	Selector           requirements.Set
	DisruptionsAllowed int32
}

// Covers reports whether the budget applies to p. It does not allocate.
func (b PodDisruptionBudget) Covers(p *packing.Pod) bool {
	return p.Namespace == b.Namespace && b.Selector.Matches(p.Labels) == nil
}

// FromPodDisruptionBudget converts a policy/v1 PodDisruptionBudget. It does
// not modify pdb. Errors are *ObjectError values.
func FromPodDisruptionBudget(pdb *policyv1.PodDisruptionBudget) (PodDisruptionBudget, error) {
	ns := namespace(pdb.Namespace)
	sel, err := selector(pdb.Spec.Selector)
	out := PodDisruptionBudget{Namespace: ns, Name: pdb.Name, Selector: sel, DisruptionsAllowed: pdb.Status.DisruptionsAllowed}
	return out, wrap("PodDisruptionBudget", ns, pdb.Name, atField("spec.selector", err))
}
