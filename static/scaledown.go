package static

import (
	"cmp"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
)

// scaleDown deletes active − replicas NodeClaims, pending disruption and
// deleting ones not counted, in Karpenter's order (see [order]).
func (s *state) scaleDown() {
	excess := int64(s.d.Active) - s.pool.Replicas
	if excess <= 0 {
		return
	}
	// Every active NodeClaim is a candidate, so there are at least excess.
	s.d.Remove = s.order()[:excess]
}

// order returns every NodeClaim scale-down may delete, first to last:
// unresolved ones (no providerID, not deleting), by name; then the
// resolved ones not deleting: empty nodes (no pods, or daemonset pods
// alone, none with an active do-not-disrupt) by name, then the others,
// those without an active do-not-disrupt pod first, each group by
// rescheduling cost × lifetime remaining ascending, ties by name.
// Karpenter's order among unresolved and among empty NodeClaims is its
// list or map order, and its sort of the others is not stable; nodeplan's
// name order makes the result deterministic.
func (s *state) order() []Removal {
	var unresolved, empty, occupied []Removal
	for _, c := range s.claims {
		switch {
		case deleting(c):
		case !c.Resolved:
			unresolved = append(unresolved, Removal{Claim: c.Name, Kind: Unresolved})
		case isEmpty(c.Node.Pods, s.in.Now):
			empty = append(empty, Removal{Claim: c.Name, Kind: Empty})
		default:
			occupied = append(occupied, Removal{Claim: c.Name, Kind: Occupied, DoNotDisrupt: blocksAny(c.Node.Pods, s),
				Cost: disruption.EvictionCost(c.Node.Pods) * disruption.LifetimeRemaining(c.Node, s.pool.NodePool, s.in.Now)})
		}
	}
	slices.SortStableFunc(occupied, func(a, b Removal) int {
		return cmp.Or(compareBool(a.DoNotDisrupt, b.DoNotDisrupt), cmp.Compare(a.Cost, b.Cost), cmp.Compare(a.Claim, b.Claim))
	})
	return slices.Concat(unresolved, empty, occupied)
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// isEmpty is Karpenter's empty static node: no pods, or only daemonset
// pods of which none has an active do-not-disrupt, terminating or not
// (Karpenter's IsDoNotDisruptActive, controllers/static/deprovisioning/
// controller.go:256).
func isEmpty(pods []packing.Pod, now time.Time) bool {
	for i := range pods {
		if !pods[i].IsDaemon() {
			return false
		}
		if blocked, _ := disruption.DoNotDisruptActive(pods[i], now); blocked {
			return false
		}
	}
	return true
}

// blocksAny reports whether any of pods has an active do-not-disrupt,
// terminating or not (Karpenter's IsDoNotDisruptActive,
// controllers/static/deprovisioning/controller.go:291).
func blocksAny(pods []packing.Pod, s *state) bool {
	for i := range pods {
		if blocked, _ := disruption.DoNotDisruptActive(pods[i], s.in.Now); blocked {
			return true
		}
	}
	return false
}
