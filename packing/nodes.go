package packing

import (
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/internal/parallel"
	"github.com/nodeplan/nodeplan/internal/vouch"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// nodeT is an existing node during a run. The runs of a solve start from
// the same nodes (static.nodes) and share them, read-only, until a run
// places a pod on one: it then copies that node (run.ownNode).
type nodeT struct {
	n      *Node
	labels map[string]string // static.labels of n: shared by the passes, read-only
	taints []requirements.Taint
	free   resources.List
	ports  []HostPort // clipped, so that a run's append copies
	pods   []int
	attach *attachUse // nil: no attach limits (volumes.go)
}

// nodeCounts are the topology counts a node's pods add (see
// existingCounts): tallies counted with run.tally, antis with
// run.markAnti.
type nodeCounts struct {
	tallies, antis []domainCount
}

// domainCount is one count of a topology counter in a domain.
type domainCount struct {
	counter int32
	domain  string
}

// compileNodes computes what every run starts from (see the node fields
// of static): each node with its effective taints, its free room after
// its pods and the daemonsets still to come, and its pods' host ports and
// volume claims, in the order runs place pods on them (initialized nodes
// first, then by name) and without the nodes marked for deletion, which
// take no new pods; the free-room index of those nodes; and, from every
// node, those marked for deletion too, the topology counts its pods add
// and its capacity counted against its pool's limits. It reads every
// bound pod once per solve; the runs share what it made (see nodeT).
func (s *static) compileNodes() {
	nodes := s.prob.Nodes
	order := s.spare.indexes(len(nodes))
	slices.SortStableFunc(order, func(a, b int) int {
		return cmpNodes(&nodes[a], &nodes[b])
	})
	all := s.spare.nodeStarts(len(nodes))
	var counts []nodeCounts // none without counters
	if len(s.counters) > 0 {
		counts = make([]nodeCounts, len(nodes))
	}
	parallel.Range(len(nodes), nodeChunk, func() func(lo, hi int) {
		return func(lo, hi int) {
			for k := lo; k < hi; k++ {
				i := order[k]
				all[k] = s.nodeStart(&nodes[i], s.labels[i], s.rooms[i])
				if counts != nil {
					counts[k] = s.nodeCounts(&nodes[i], s.labels[i])
				}
			}
		}
	})
	for _, c := range counts {
		s.tallies = append(s.tallies, c.tallies...)
		s.antis = append(s.antis, c.antis...)
	}
	s.nodeUse = newUsage(s.pools)
	for k := range all {
		s.nodeUse.countNode(s, all[k].n)
	}
	s.nodes = slices.DeleteFunc(all, func(nd nodeT) bool { return nd.n.MarkedForDeletion })
	s.nodeFree = s.spare.tree(s.nodes)
}

// nodeChunk is how many nodes a goroutine compiling node starts takes at
// a time: each start reads only its node and the compiled problem.
const nodeChunk = 128

// nodeStart is node n as every run starts it.
func (s *static) nodeStart(n *Node, labels map[string]string, room *podsRoom) nodeT {
	nd := nodeT{n: n, labels: labels, taints: effectiveTaints(n, s), free: room.free, ports: room.ports, attach: newAttachUse(n)}
	nd.free = nd.free.Sub(s.pendingDaemons(n, labels, nd.taints))
	return nd
}

// nodeCounts returns the topology counts n's pods add.
func (s *static) nodeCounts(n *Node, labels map[string]string) nodeCounts {
	var c nodeCounts
	for j := range n.Pods {
		c.tallies, c.antis = s.existingCounts(&n.Pods[j], labels, c.tallies, c.antis)
	}
	return c
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

// of reports whether r was computed from n's pods and allocatable.
func (r *podsRoom) of(n *Node) bool {
	return vouch.SameSlice(r.pods, n.Pods) && r.alloc.Equal(n.Allocatable)
}

// podRooms returns the podsRoom of each node, on up to GOMAXPROCS
// goroutines; a node vd vouches for has its from vd's memo when an
// earlier solve read the same pods, and keeps it there (one value a
// node, replaced when the node comes with other pods, so that the memo
// keeps no old pods alive).
func podRooms(nodes []Node, vd vouched) []*podsRoom {
	out := make([]*podsRoom, len(nodes))
	memo := vd.v.Memo()
	parallel.Range(len(nodes), nodeChunk, func() func(lo, hi int) {
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				n := &nodes[i]
				k, ok := vd.at(i)
				if len(n.Pods) == 0 || memo == nil || !ok {
					out[i] = roomOf(n)
					continue
				}
				if r, _ := memo.Load(k).(*podsRoom); r != nil && r.of(n) {
					out[i] = r
					continue
				}
				out[i] = roomOf(n)
				// validate let one node of this problem have index k; a
				// concurrent solve of the same memo may store it too, an
				// equal value of the same type if it read the same pods
				memo.Store(k, out[i])
			}
		}
	})
	return out
}

func roomOf(n *Node) *podsRoom {
	r := &podsRoom{pods: n.Pods, alloc: n.Allocatable, free: n.Allocatable}
	for j := range n.Pods {
		p := &n.Pods[j]
		r.free = r.free.Sub(p.Requests.OnePod())
		r.ports = append(r.ports, p.HostPorts...)
		if slices.ContainsFunc(p.AntiAffinity, func(t PodAffinityTerm) bool { return t.Weight == 0 }) {
			r.anti = append(r.anti, j)
		}
	}
	r.ports = slices.Clip(r.ports)
	return r
}

// addNodes starts the run with the solve's nodes (static.nodes), shared
// until the run changes one (ownNode), their pods' topology counts and
// their capacity against their pools' limits.
func (r *run) addNodes() {
	s := r.s
	r.nodes = make([]*nodeT, len(s.nodes))
	for k := range s.nodes {
		r.nodes[k] = &s.nodes[k]
	}
	r.free = s.nodeFree.clone()
	for _, c := range s.tallies {
		r.tally(c.counter, c.domain)
	}
	for _, c := range s.antis {
		r.markAnti(c.counter, c.domain)
	}
	r.use = s.nodeUse.clone()
}

// ownNode returns node ni of the run for the run to change: the solve's
// shared node is copied the first time (its attach use too, the only
// part changed in place).
func (r *run) ownNode(ni int) *nodeT {
	nd := r.nodes[ni]
	if nd != &r.s.nodes[ni] {
		return nd
	}
	if len(r.owned) == cap(r.owned) {
		r.owned = make([]nodeT, 0, min(ownedChunk, len(r.nodes)))
	}
	r.owned = append(r.owned, *nd)
	own := &r.owned[len(r.owned)-1]
	own.attach = own.attach.clone()
	r.nodes[ni] = own
	return own
}

// ownedChunk is how many copies of nodes a run allocates at a time.
const ownedChunk = 64

func cmpNodes(a, b *Node) int {
	switch {
	case a.Initialized != b.Initialized && a.Initialized:
		return -1
	case a.Initialized != b.Initialized:
		return 1
	}
	return strings.Compare(a.Name, b.Name)
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
	nd := r.ownNode(ni)
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
