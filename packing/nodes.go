package packing

import (
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// nodeT is an existing node during a run.
type nodeT struct {
	n      *Node
	labels map[string]string // static.labels of n: shared by the passes, read-only
	taints []requirements.Taint
	free   resources.List
	ports  []HostPort
	pods   []int
	attach *attachUse // nil: no attach limits (volumes.go)
}

// addNodes registers the existing nodes, their pods' topology counts and
// their pools' usage, and indexes the nodes' free room for first fit.
// Initialized nodes come first, then by name.
func (r *run) addNodes() {
	nodes := r.s.prob.Nodes
	idx := indexes(len(nodes))
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmpNodes(&nodes[a], &nodes[b])
	})
	for _, i := range idx {
		r.addNode(&nodes[i], r.s.labels[i])
	}
	r.free = newFreeTree(r.nodes)
}

func cmpNodes(a, b *Node) int {
	switch {
	case a.Initialized != b.Initialized && a.Initialized:
		return -1
	case a.Initialized != b.Initialized:
		return 1
	}
	return strings.Compare(a.Name, b.Name)
}

// addNode registers a node with its labels (see nodeLabels). One marked
// for deletion takes no new pods, but until it is gone its pods still
// count for topology and its capacity for its pool's limits.
func (r *run) addNode(n *Node, labels map[string]string) {
	nd := &nodeT{n: n, labels: labels, taints: effectiveTaints(n, r.s), free: n.Allocatable, attach: newAttachUse(n)}
	for j := range n.Pods {
		p := &n.Pods[j]
		nd.free = nd.free.Sub(podRequests(p.Requests))
		nd.ports = append(nd.ports, p.HostPorts...)
		r.recordExisting(p, nd)
	}
	nd.free = nd.free.Sub(r.s.pendingDaemons(n, nd))
	if !n.MarkedForDeletion {
		r.nodes = append(r.nodes, nd)
	}
	r.countNode(n)
}

// effectiveTaints leaves out, on a node not yet initialized, the startup
// taints of its pool and the taints Kubernetes puts on every new node, as
// Karpenter assumes pods will land once the node is ready.
func effectiveTaints(n *Node, s *static) []requirements.Taint {
	if n.Initialized {
		return n.Taints
	}
	var startup []requirements.Taint
	for i := range s.prob.NodePools {
		if s.prob.NodePools[i].Name == n.NodePool {
			startup = s.prob.NodePools[i].StartupTaints
		}
	}
	return slices.DeleteFunc(slices.Clone(n.Taints), func(t requirements.Taint) bool {
		return slices.Contains(startup, t) || ephemeralTaint(t.Key)
	})
}

func ephemeralTaint(key string) bool {
	switch key {
	case "node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable",
		"node.cloudprovider.kubernetes.io/uninitialized", "karpenter.sh/unregistered":
		return true
	}
	return false
}

// recordExisting counts a pod already bound to a node: a terminating one
// only for its own required anti-affinity, as Karpenter ignores
// terminating pods for topology (IgnoredForTopology) but tracks every
// bound pod's anti-affinity.
func (r *run) recordExisting(p *Pod, nd *nodeT) {
	for _, c := range r.s.matching(p) {
		if d, ok := nd.labels[r.s.counters[c].key]; ok && !p.Terminating {
			r.tally(c, d)
		}
	}
	for _, t := range p.AntiAffinity {
		if t.Weight != 0 {
			continue
		}
		if c, ok := r.s.lookupCounter(antiCounter(p, t)); ok {
			if d, ok := nd.labels[r.s.counters[c].key]; ok {
				r.markAnti(c, d)
			}
		}
	}
}

// lookupCounter finds the counter of definition c; false when no pod's
// constraint defined it.
func (s *static) lookupCounter(c counterDef) (int32, bool) {
	i, ok := s.counterIndex[c.signature()]
	return i, ok
}

// fitsNode checks a pod against an existing node, cheapest checks first:
// the attach limits (one nil test for a node without them), then
// resources, taints, ports, labels and topology. It is on the hot path, so
// it is one function; attachReason asks the same without the attach
// limits through fitsNodeExceptAttach.
func (r *run) fitsNode(v view, nd *nodeT) bool {
	if nd.attach != nil && !nd.attach.admits(v.info.pod.Volumes.claims()) {
		return false
	}
	need := v.info.req
	if (nd.n.Settling && v.info.pod.Displaced) || !need.Fits(nd.free) || requirements.Tolerates(v.tols, nd.taints) != nil {
		return false
	}
	if portsConflict(v.info.pod.HostPorts, nd.ports) || !v.reqs.Satisfied(nd.labels) {
		return false
	}
	_, ok := r.topology(v, target{node: nd})
	return ok
}

func (r *run) commitNode(v view, ni int) {
	nd := r.nodes[ni]
	nd.free = nd.free.Sub(v.info.req)
	r.free.set(ni, nd.free.CPU, nd.free.Memory)
	nd.ports = append(nd.ports, v.info.pod.HostPorts...)
	nd.pods = append(nd.pods, v.i)
	if nd.attach != nil {
		nd.attach.add(v.info.pod.Volumes.claims())
	}
	r.record(v, target{node: nd}, nil)
	r.placed(v.i, placement{onNode, int32(ni)})
}
