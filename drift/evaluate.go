package drift

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// pool is a Template compiled once per Evaluate: its hash and its NodeClass
// with the resolved sets sorted for binary search.
type pool struct {
	t         *Template
	hash      string
	class     *NodeClass
	classHash string
	images    []string
	subnets   []string
	groups    []string
	reqs      []compiledReq
}

// compiledReq is one NodePool requirement with what an absent label means
// for it, decided once per Evaluate.
type compiledReq struct {
	r        requirements.Requirement
	absentOK bool
}

// evaluator holds what every node's rules read.
type evaluator struct {
	pools   map[string]*pool
	catalog *instancetypes.Catalog
	exp     Expiration
	now     time.Time
}

// Evaluate returns the findings for in at in.Now: for every launched node of a
// known NodePool, one Finding per rule that holds, in Karpenter's order
// (NodePool hash, requirements, instance type gone, image, subnet, security
// groups, NodeClass hash) and then expiration. Findings are sorted by node
// name, then by Reason.
//
// Evaluate first validates in: when [Input.Validate] reports errors (a
// duplicate or empty node or NodePool name, a negative duration, ...), it
// returns no findings and those errors, joined, each a *FieldError naming
// the object and field and wrapping [ErrInvalid]. On a valid input these
// readings hold, as in Karpenter: nodes marked for deletion, unlaunched ones
// and those without a NodePool or of a NodePool not in in get no finding
// (Karpenter judges only the NodeClaims of its NodePools); a NodePool whose
// NodeClassRef names no NodeClass of in gets no NodeClass rule; a node
// without a creation time is never found expired or of a type gone; a nil
// Catalog disables the instance-type rule; recorded values left empty are
// not checked (see [NodeClaimState]).
//
// Evaluate does not modify in. The complexity is
// O(pools + nodes × (labels + requirements + groups × log)) plus
// Input.Validate's; apart from the validation's name sets, allocated once,
// a node with no finding costs no allocation. It is safe for concurrent
// use.
func Evaluate(in Input) ([]Finding, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	ev := newEvaluator(in)
	var out []Finding
	for i := range in.Nodes {
		out = ev.node(out, &in.Nodes[i])
	}
	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Or(strings.Compare(a.Node, b.Node), cmp.Compare(a.Reason, b.Reason))
	})
	return out, nil
}

// newEvaluator compiles the NodePools of in, which is valid: their names
// are unique.
func newEvaluator(in Input) *evaluator {
	ev := &evaluator{pools: make(map[string]*pool, len(in.NodePools)), catalog: in.Catalog, exp: in.Expiration, now: in.Now}
	for i := range in.NodePools {
		t := &in.NodePools[i]
		ev.pools[t.NodePool.Name] = compile(t, in.NodeClasses)
	}
	return ev
}

func compile(t *Template, classes map[string]NodeClass) *pool {
	p := &pool{t: t, hash: t.Hash()}
	for r := range t.NodePool.Requirements.All() {
		p.reqs = append(p.reqs, compiledReq{r: r, absentOK: requirements.NewSet(r).Matches(nil) == nil})
	}
	c, ok := classes[t.NodeClassRef.Name]
	if !ok {
		return p
	}
	p.class, p.classHash = &c, c.Hash()
	p.images, p.subnets, p.groups = sortedSet(c.ImageIDs), sortedSet(c.Subnets), sortedSet(c.SecurityGroups)
	return p
}

func sortedSet(s []string) []string { return slices.Compact(slices.Sorted(slices.Values(s))) }

// node appends the findings of one node to out.
func (ev *evaluator) node(out []Finding, s *NodeClaimState) []Finding {
	n := &s.Node
	p, ok := ev.pools[n.NodePool]
	if !ok || n.NodePool == "" || s.Unlaunched || n.MarkedForDeletion {
		return out
	}
	out = ev.nodePoolHash(out, s, p)
	out = ev.requirementsRule(out, s, p)
	out = ev.instanceType(out, s)
	out = ev.nodeClass(out, s, p)
	return ev.expiration(out, s, p)
}

func (ev *evaluator) drifted(s *NodeClaimState, r Reason, msg string) Finding {
	since := s.DriftedSince
	if since.IsZero() {
		since = ev.now
	}
	return Finding{Node: s.Node.Name, NodePool: s.Node.NodePool, Reason: r, Message: msg, Since: since}
}

func (ev *evaluator) nodePoolHash(out []Finding, s *NodeClaimState, p *pool) []Finding {
	if s.NodePoolHash == "" || s.NodePoolHashVersion != HashVersion || s.NodePoolHash == p.hash {
		return out
	}
	return append(out, ev.drifted(s, NodePoolDrifted, "Node "+s.Node.Name+" was launched from an earlier template of NodePool "+
		p.t.NodePool.Name+" (hash "+s.NodePoolHash+", now "+p.hash+")."))
}

func (ev *evaluator) requirementsRule(out []Finding, s *NodeClaimState, p *pool) []Finding {
	i, v, present := mismatch(p.reqs, &s.Node)
	if i < 0 {
		return out
	}
	label := "has no label " + p.reqs[i].r.Key()
	if present {
		label = "has " + p.reqs[i].r.Key() + "=" + v
	}
	return append(out, ev.drifted(s, RequirementsDrifted, "Node "+s.Node.Name+" no longer satisfies NodePool "+
		p.t.NodePool.Name+": it "+label+", and the NodePool requires "+p.reqs[i].r.String()+"."))
}

// mismatch is Set.Matches on the node's labels (packing.Node.Label, the
// model's one rule: stable keys, a label over its beta alias and over the
// field it stands for) without building the map: one lookup per
// requirement. It returns the index of the first requirement the node
// fails (-1 for none) with the node's value for it and whether it has one.
// It does not allocate.
func mismatch(reqs []compiledReq, n *packing.Node) (int, string, bool) {
	for i, c := range reqs {
		v, ok := n.Label(c.r.Key())
		if (ok && !c.r.Has(v)) || (!ok && !c.absentOK) {
			return i, v, ok
		}
	}
	return -1, "", false
}

func (ev *evaluator) instanceType(out []Finding, s *NodeClaimState) []Finding {
	created := s.created()
	if ev.catalog == nil || created.IsZero() || ev.now.Sub(created) <= InstanceTypeGrace {
		return out
	}
	if why := ev.typeGone(&s.Node); why != "" {
		return append(out, ev.drifted(s, InstanceTypeGone, why))
	}
	return out
}

// typeGone returns a sentence when the node's type is not in the catalog or
// has no offering, available or not, in its zone and capacity type (a
// reserved node also accepts on-demand, as it may have been demoted).
func (ev *evaluator) typeGone(n *packing.Node) string {
	it, ok := ev.catalog.Get(n.InstanceType)
	if !ok {
		return fmt.Sprintf("Node %s runs instance type %q, which the provider no longer offers.", n.Name, n.InstanceType)
	}
	for _, o := range it.Offerings {
		if offeringMatches(o, n) {
			return ""
		}
	}
	return fmt.Sprintf("Node %s runs %s, which has no %s offering in zone %q any more.",
		n.Name, n.InstanceType, n.CapacityType, n.Zone)
}

func offeringMatches(o instancetypes.Offering, n *packing.Node) bool {
	if n.Zone != "" && o.Zone != n.Zone {
		return false
	}
	return o.CapacityType == n.CapacityType ||
		(n.CapacityType == instancetypes.Reserved && o.CapacityType == instancetypes.OnDemand)
}

func (ev *evaluator) nodeClass(out []Finding, s *NodeClaimState, p *pool) []Finding {
	if p.class == nil {
		return out
	}
	name, cls := s.Node.Name, p.class.Name
	if s.Image != "" && len(p.images) > 0 && !contains(p.images, s.Image) {
		out = append(out, ev.drifted(s, ImageDrifted, "Node "+name+" runs image "+s.Image+
			", which NodeClass "+cls+" no longer resolves."))
	}
	if s.Subnet != "" && len(p.subnets) > 0 && !contains(p.subnets, s.Subnet) {
		out = append(out, ev.drifted(s, SubnetDrifted, "Node "+name+" is in subnet "+s.Subnet+
			", which NodeClass "+cls+" no longer resolves."))
	}
	if len(s.SecurityGroups) > 0 && len(p.groups) > 0 && !sameSet(s.SecurityGroups, p.groups) {
		out = append(out, ev.drifted(s, SecurityGroupsDrifted, fmt.Sprintf(
			"Node %s has security groups %v, but NodeClass %s now resolves %v.", name, s.SecurityGroups, cls, p.groups)))
	}
	if s.NodeClassHash != "" && s.NodeClassHashVersion == NodeClassHashVersion && s.NodeClassHash != p.classHash {
		out = append(out, ev.drifted(s, NodeClassDrifted, "Node "+name+" was launched from an earlier spec of NodeClass "+
			cls+" (hash "+s.NodeClassHash+", now "+p.classHash+")."))
	}
	return out
}

// contains reports whether the sorted set holds v: a linear scan for the
// few values a NodeClass usually resolves, else a binary search.
func contains(sorted []string, v string) bool {
	if len(sorted) <= 8 {
		return slices.Contains(sorted, v)
	}
	_, ok := slices.BinarySearch(sorted, v)
	return ok
}

// sameSet reports whether the values of s are exactly the sorted, unique
// set; duplicates in s are allowed. It does not allocate.
func sameSet(s, set []string) bool {
	for _, v := range s {
		if !contains(set, v) {
			return false
		}
	}
	for _, v := range set {
		if !slices.Contains(s, v) {
			return false
		}
	}
	return true
}

func (ev *evaluator) expiration(out []Finding, s *NodeClaimState, p *pool) []Finding {
	life, created := expireAfter(p.t.NodePool.Disruption), s.created()
	if life < 0 || created.IsZero() {
		return out
	}
	at := created.Add(life)
	if ev.now.Before(at) {
		return out
	}
	f := Finding{Node: s.Node.Name, NodePool: s.Node.NodePool, Reason: Expired, Since: at, Forceful: true,
		Message: "Node " + s.Node.Name + " expired at " + at.UTC().Format(time.RFC3339) + ", " + life.String() + " after its creation."}
	if g := ev.exp.GracePeriod; g > 0 {
		f.Deadline = at.Add(g)
		f.Forceful = !ev.now.Before(f.Deadline)
	}
	return append(out, f)
}
