package packing

import (
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// daemonLoad sums the requests, pod slot included, of the daemonsets that
// run on type t of pool pl (see daemonRuns): one of a daemonset's
// node-affinity alternatives must be compatible with the pool and the
// type.
func daemonLoad(dss []DaemonSet, pl *pool, t *instancetypes.InstanceType) resources.List {
	var sum resources.List
	typeReqs := t.Requirements
	admits := func(alt requirements.Set) bool {
		return pl.reqs.CompatibleWith(alt, func(k string) bool { return requirements.IsWellKnown(k) || typeReqs.Has(k) }) == nil && typeReqs.Intersects(alt) == nil
	}
	for j := range dss {
		if daemonRuns(&dss[j], pl.taints, admits) {
			sum = sum.Add(dss[j].Requests.OnePod())
		}
	}
	return sum
}

// daemonRuns reports whether ds runs where taints are and admits allows
// one of its node-affinity alternatives: it tolerates the taints
// (PreferNoSchedule aside) and admits holds for some alternative. A pool's
// type admits one compatible with the pool and the type (see daemonLoad),
// a node one its labels match (see static.pendingDaemons).
func daemonRuns(ds *DaemonSet, taints []requirements.Taint, admits func(alt requirements.Set) bool) bool {
	return requirements.Tolerates(tolerateSoft(ds.Tolerations), taints) == nil && slices.ContainsFunc(ds.NodeAffinity.Alternatives(), admits)
}

// tolerateSoft returns tols with a toleration of every PreferNoSchedule
// taint added, in a new slice when it appends: tols is not modified.
func tolerateSoft(tols []requirements.Toleration) []requirements.Toleration {
	return append(slices.Clip(tols), requirements.Toleration{Operator: requirements.TolerateExists, Effect: requirements.PreferNoSchedule})
}

// pendingDaemons is the room a node keeps for the daemonsets that will run
// there but own no pod on it yet ([DaemonSet.Owns]),
// as Karpenter reserves it: the daemonset tolerates the node's taints and its
// node affinity matches the node's labels.
func (s *static) pendingDaemons(n *Node, labels map[string]string, taints []requirements.Taint) resources.List {
	var sum resources.List
	matches := func(alt requirements.Set) bool { return alt.Matches(labels) == nil }
	for i := range s.prob.DaemonSets {
		ds := &s.prob.DaemonSets[i]
		if !daemonBound(n, ds) && daemonRuns(ds, taints, matches) {
			sum = sum.Add(ds.Requests.OnePod())
		}
	}
	return sum
}

func daemonBound(n *Node, ds *DaemonSet) bool {
	for i := range n.Pods {
		if ds.Owns(&n.Pods[i]) {
			return true
		}
	}
	return false
}
