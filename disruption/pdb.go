package disruption

import (
	"fmt"
	"strings"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// PDB is a PodDisruptionBudget: Selector chooses pods of Namespace by
// their labels, and DisruptionsAllowed is the status field the API server
// computes. AlwaysAllowUnhealthy is the AlwaysAllow unhealthyPodEvictionPolicy;
// [packing.Pod] carries no readiness, so every pod counts as healthy and
// the flag is recorded for hosts but does not change [PDBBlocks]. The zero
// Selector matches every pod of the namespace, as an empty label selector
// does.
type PDB struct {
	Namespace, Name      string
	Selector             requirements.Set
	DisruptionsAllowed   int32
	AlwaysAllowUnhealthy bool
}

// PDBBlocks reports whether evicting pods (those of one node) is blocked by
// pdbs, and a sentence naming the first pod and the PDB(s): a pod matched by
// more than one PDB cannot be evicted at all (the eviction API refuses), and
// a pod whose one PDB allows 0 disruptions cannot be evicted now. As in
// Karpenter, pods are checked one at a time: two pods under one PDB that
// allows 1 do not block. Pods nobody evicts never block: terminating and
// mirror pods, as Karpenter's IsEvictable leaves out pods that are not
// active or are owned by their node. The complexity is O(len(pods) ×
// len(pdbs)); it does not modify its arguments.
func PDBBlocks(pods []packing.Pod, pdbs []PDB) (bool, string) {
	for _, p := range pods {
		if p.Terminating || p.IsMirror() {
			continue
		}
		if why := podPDBBlock(p, pdbs); why != "" {
			return true, why
		}
	}
	return false, ""
}

func podPDBBlock(p packing.Pod, pdbs []PDB) string {
	var names []string
	var last PDB
	for _, b := range pdbs {
		if b.Namespace == p.Namespace && b.Selector.Matches(p.Labels) == nil {
			names = append(names, b.Namespace+"/"+b.Name)
			last = b
		}
	}
	switch {
	case len(names) > 1:
		return fmt.Sprintf("pod %s/%s is matched by more than one PodDisruptionBudget (%s)", p.Namespace, p.Name, strings.Join(names, ", "))
	case len(names) == 1 && last.DisruptionsAllowed <= 0:
		return fmt.Sprintf("pod %s/%s is protected by PodDisruptionBudget %s, which allows no disruptions", p.Namespace, p.Name, names[0])
	}
	return ""
}
