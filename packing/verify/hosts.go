package verify

import (
	"strconv"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// verifier is the state of one [Plan] call. Invariant: hosts holds one
// entry per Problem.Nodes element (same index), then one per NodeClaim;
// placedOn[i] is the host of the first placement of pending pod i, nil when
// the plan places it nowhere.
type verifier struct {
	p         packing.Problem
	plan      packing.Plan
	pools     map[string]*packing.NodePool
	poolReqs  map[string]requirements.Set
	nodeIndex map[string]int
	hosts     []*host
	placedOn  []*host
	out       []Violation
	// freshCounts makes the topology replay count from scratch (check).
	freshCounts bool
}

// host is a node or a claim as [Plan] sees it. Exactly one of node and
// claim is set. pool and itype are nil when unknown.
type host struct {
	name   string
	node   *packing.Node
	claim  *packing.NodeClaim
	pool   *packing.NodePool
	itype  *instancetypes.InstanceType
	labels map[string]string
	pods   []int // pending pods placed here, in plan order
}

// kind is "node" or "claim", for messages.
func (h *host) kind() string {
	if h.claim != nil {
		return "claim"
	}
	return "node"
}

func newVerifier(p packing.Problem, plan packing.Plan) *verifier {
	v := &verifier{p: p, plan: plan, pools: map[string]*packing.NodePool{},
		poolReqs: map[string]requirements.Set{}, nodeIndex: map[string]int{}}
	v.indexPools()
	v.addNodeHosts()
	v.addClaimHosts()
	v.placeBindings()
	return v
}

// indexPools keeps the first pool of each name and its full requirements.
func (v *verifier) indexPools() {
	for i := range v.p.NodePools {
		np := &v.p.NodePools[i]
		if _, dup := v.pools[np.Name]; !dup {
			v.pools[np.Name] = np
			v.poolReqs[np.Name] = poolRequirements(np)
		}
	}
}

// poolRequirements is NodePool.Requirements ∩ the labels its nodes carry:
// its labels, read as a node's, and nodepool=name (see [packing.NodePool.EffectiveLabels]).
func poolRequirements(np *packing.NodePool) requirements.Set {
	return np.Requirements.Intersect(requirements.FromLabels(np.EffectiveLabels()))
}

// catalogOf returns the catalog a pool draws from: its own, else the
// Problem's (Problem.PoolCatalog). pool may be nil.
func (v *verifier) catalogOf(pool *packing.NodePool) *instancetypes.Catalog {
	return v.p.PoolCatalog(pool)
}

// lookupType finds name in c; a nil catalog has no types.
func lookupType(c *instancetypes.Catalog, name string) (*instancetypes.InstanceType, bool) {
	if c == nil {
		return nil, false
	}
	return c.Get(name)
}

// catalogTypes lists the types of c; a nil catalog has none.
func catalogTypes(c *instancetypes.Catalog) []*instancetypes.InstanceType {
	if c == nil {
		return nil
	}
	return c.Types()
}

func (v *verifier) addNodeHosts() {
	for i := range v.p.Nodes {
		n := &v.p.Nodes[i]
		if _, dup := v.nodeIndex[n.Name]; !dup {
			v.nodeIndex[n.Name] = i
		}
		v.hosts = append(v.hosts, &host{name: n.Name, node: n, pool: v.pools[n.NodePool], labels: n.EffectiveLabels()})
	}
}

func (v *verifier) addClaimHosts() {
	for i := range v.plan.NodeClaims {
		c := &v.plan.NodeClaims[i]
		h := &host{name: c.Name, claim: c, pool: v.pools[c.NodePool]}
		h.itype, _ = lookupType(v.catalogOf(h.pool), c.InstanceType)
		h.labels = claimLabels(c, h.itype)
		v.hosts = append(v.hosts, h)
	}
}

// claimLabels is the claim's Labels (read as [packing.Node.EffectiveLabels] reads a node's), plus the single-valued In
// requirements of its chosen type and its hostname where absent.
func claimLabels(c *packing.NodeClaim, t *instancetypes.InstanceType) map[string]string {
	l := make(map[string]string, len(c.Labels)+8)
	for _, lb := range c.Labels {
		if key, ok := counted(lb.Key, c.HasLabel); ok {
			l[key] = lb.Value
		}
	}
	if t != nil {
		for r := range t.Requirements.All() {
			if vals := r.Values(); !r.Complement() && len(vals) == 1 {
				setAbsent(l, r.Key(), vals[0])
			}
		}
	}
	setAbsent(l, requirements.LabelHostname, c.Name)
	return l
}

// checkClaimNames reports each claim whose hostname is an existing
// node's name or hostname, or an earlier claim's.
func (v *verifier) checkClaimNames() {
	taken := map[string]string{} // hostname → what has it
	for _, h := range v.nodeHosts() {
		taken[h.name] = "node " + h.name
		if hn, ok := h.labels[requirements.LabelHostname]; ok {
			taken[hn] = "node " + h.name
		}
	}
	for _, h := range v.claimHosts() {
		hn := h.labels[requirements.LabelHostname]
		if by, ok := taken[hn]; ok {
			v.add(RuleClaimName, -1, h.name, "claim %s would have hostname %s, which %s has: a new node's hostname is its own", h.name, hn, by)
			continue
		}
		taken[hn] = "claim " + h.name
	}
}

// nodeHosts are the hosts of Problem.Nodes, in order.
func (v *verifier) nodeHosts() []*host { return v.hosts[:len(v.p.Nodes)] }

// claimHosts are the hosts of Plan.NodeClaims, in order.
func (v *verifier) claimHosts() []*host { return v.hosts[len(v.p.Nodes):] }

// placeBindings assigns pods to hosts; bindings to unknown or deleted nodes
// are violations and place nothing.
func (v *verifier) placeBindings() {
	v.placedOn = make([]*host, len(v.p.Pods))
	for _, b := range v.plan.Bindings {
		if h, ok := v.bindingHost(b); ok {
			v.place(b.Pod, h)
		}
	}
	for _, h := range v.claimHosts() {
		for _, pod := range h.claim.Pods {
			v.place(pod, h)
		}
	}
}

// bindingHost returns the host of b's node, reporting an unknown or
// deleted node.
func (v *verifier) bindingHost(b packing.Binding) (*host, bool) {
	i, ok := v.nodeIndex[b.Node]
	switch {
	case !ok:
		v.add(RuleUnknownNode, v.podRef(b.Pod), b.Node, "%s is bound to node %q, which does not exist", v.podName(b.Pod), b.Node)
		return nil, false
	case v.p.Nodes[i].MarkedForDeletion:
		v.add(RuleUnknownNode, v.podRef(b.Pod), b.Node, "%s is bound to node %q, which is marked for deletion", v.podName(b.Pod), b.Node)
		return nil, false
	case v.p.Nodes[i].Settling && v.validPod(b.Pod) && v.p.Pods[b.Pod].Displaced:
		v.add(RuleUnknownNode, b.Pod, b.Node, "%s is displaced by consolidation but bound to node %q, which is inside its consolidateAfter window", v.podName(b.Pod), b.Node)
	}
	return v.nodeHosts()[i], true
}

// place records pending pod i on host h; out-of-range pods are skipped
// (checkAccounting reports them).
func (v *verifier) place(i int, h *host) {
	if !v.validPod(i) {
		return
	}
	h.pods = append(h.pods, i)
	if v.placedOn[i] == nil {
		v.placedOn[i] = h
	}
}

func (v *verifier) validPod(i int) bool { return i >= 0 && i < len(v.p.Pods) }

// podRef is i when it is a valid pod index, else -1.
func (v *verifier) podRef(i int) int {
	if v.validPod(i) {
		return i
	}
	return -1
}

// podName names pending pod i for messages.
func (v *verifier) podName(i int) string {
	if !v.validPod(i) {
		return "pod index " + strconv.Itoa(i)
	}
	return "pod " + v.p.Pods[i].Key()
}
