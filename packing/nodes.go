package packing

import (
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/internal/parallel"
	"github.com/nodeplan/nodeplan/internal/vouch"
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

// nodeStart is an existing node as every run of a solve starts with it:
// its effective taints, its free room after its pods and the daemonsets
// still to come, its pods' host ports, and the topology counts its pods
// add. compileNodes computes it once per solve, so that each pass copies
// it instead of reading every bound pod again.
type nodeStart struct {
	taints  []requirements.Taint
	free    resources.List
	ports   []HostPort    // clipped, so that a run's append copies
	tallies []domainCount // counted with run.tally
	antis   []domainCount // counted with run.markAnti
}

// domainCount is one count of a topology counter in a domain.
type domainCount struct {
	counter int32
	domain  string
}

// compileNodes computes every node's start (see nodeStart) and the order
// runs add the nodes in: initialized nodes first, then by name.
func (s *static) compileNodes() {
	nodes := s.prob.Nodes
	s.nodeOrder = indexes(len(nodes))
	slices.SortStableFunc(s.nodeOrder, func(a, b int) int {
		return cmpNodes(&nodes[a], &nodes[b])
	})
	s.starts = make([]nodeStart, len(nodes))
	parallel.Range(len(nodes), nodeChunk, func() func(lo, hi int) {
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				s.starts[i] = s.nodeStart(&nodes[i], s.labels[i], s.rooms[i])
			}
		}
	})
}

// nodeChunk is how many nodes a goroutine compiling node starts takes at
// a time: each start reads only its node and the compiled problem.
const nodeChunk = 128

func (s *static) nodeStart(n *Node, labels map[string]string, room *podsRoom) nodeStart {
	st := nodeStart{taints: effectiveTaints(n, s), free: room.free, ports: room.ports}
	if len(s.counters) > 0 { // else no pod counts anywhere
		for j := range n.Pods {
			st.tallies, st.antis = s.existingCounts(&n.Pods[j], labels, st.tallies, st.antis)
		}
	}
	st.free = st.free.Sub(s.pendingDaemons(n, labels, st.taints))
	return st
}

// podsRoom is what a node's own pods take: free is its allocatable less
// their requests, subtracted one pod at a time; ports are their host
// ports (clipped, so that a run's append copies); anti indexes the pods
// with a required anti-affinity term. It was computed from the pods
// slice pods and the allocatable alloc. It is
// read-only once made: the memo shares it.
type podsRoom struct {
	pods        []Pod
	alloc, free resources.List
	ports       []HostPort
	anti        []int
}

// roomKey keys a vouched node's podsRoom in the vouch's memo: one entry a
// node, replaced when the node comes with other pods (see package vouch:
// the same slice is the same pods), so the memo keeps no old pods alive.
type roomKey struct{ node string }

// of reports whether r was computed from n's pods and allocatable.
func (r *podsRoom) of(n *Node) bool {
	return vouch.SameSlice(r.pods, n.Pods) && r.alloc.Equal(n.Allocatable)
}

// podRooms returns the podsRoom of each node, on up to GOMAXPROCS
// goroutines; a vouched node's comes from v's memo when an earlier solve
// read the same pods.
func podRooms(nodes []Node, v vouch.Nodes) []*podsRoom {
	out := make([]*podsRoom, len(nodes))
	memo := v.Memo()
	parallel.Range(len(nodes), nodeChunk, func() func(lo, hi int) {
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				n := &nodes[i]
				if len(n.Pods) == 0 || memo == nil || !v.Has(n.Name) {
					out[i] = roomOf(n)
					continue
				}
				key := roomKey{n.Name}
				if r, ok := memo.Load(key); ok && r.(*podsRoom).of(n) {
					out[i] = r.(*podsRoom)
					continue
				}
				out[i] = roomOf(n)
				memo.Store(key, out[i]) // a node's name is unique in a problem: no other goroutine stores it
			}
		}
	})
	return out
}

func roomOf(n *Node) *podsRoom {
	r := &podsRoom{pods: n.Pods, alloc: n.Allocatable, free: n.Allocatable}
	for j := range n.Pods {
		p := &n.Pods[j]
		r.free = r.free.Sub(podRequests(p.Requests))
		r.ports = append(r.ports, p.HostPorts...)
		if slices.ContainsFunc(p.AntiAffinity, func(t PodAffinityTerm) bool { return t.Weight == 0 }) {
			r.anti = append(r.anti, j)
		}
	}
	r.ports = slices.Clip(r.ports)
	return r
}

// addNodes registers the existing nodes, their pods' topology counts and
// their pools' usage, and indexes the nodes' free room for first fit.
func (r *run) addNodes() {
	slab := make([]nodeT, len(r.s.nodeOrder)) // one allocation for the run's nodes
	for k, i := range r.s.nodeOrder {
		r.addNode(i, &slab[k])
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

// addNode registers node i of the problem from its start, in nd. One marked for
// deletion takes no new pods, but until it is gone its pods still count
// for topology and its capacity for its pool's limits.
func (r *run) addNode(i int, nd *nodeT) {
	n, st := &r.s.prob.Nodes[i], &r.s.starts[i]
	*nd = nodeT{n: n, labels: r.s.labels[i], taints: st.taints, free: st.free, ports: st.ports, attach: newAttachUse(n)}
	for _, c := range st.tallies {
		r.tally(c.counter, c.domain)
	}
	for _, c := range st.antis {
		r.markAnti(c.counter, c.domain)
	}
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

// existingCounts appends the counts of a pod already bound to a node with
// these labels: a terminating one only for its own required
// anti-affinity, as Karpenter ignores terminating pods for topology
// (IgnoredForTopology) but tracks every bound pod's anti-affinity.
func (s *static) existingCounts(p *Pod, labels map[string]string, tallies, antis []domainCount) ([]domainCount, []domainCount) {
	for _, c := range s.matching(p) {
		if d, ok := labels[s.counters[c].key]; ok && !p.Terminating {
			tallies = append(tallies, domainCount{c, d})
		}
	}
	for _, t := range p.AntiAffinity {
		if t.Weight != 0 {
			continue
		}
		if c, ok := s.lookupCounter(antiCounter(p, t)); ok {
			if d, ok := labels[s.counters[c].key]; ok {
				antis = append(antis, domainCount{c, d})
			}
		}
	}
	return tallies, antis
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
