package consolidation

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/vouch"
	"github.com/nodeplan/nodeplan/packing"
)

// candidate is a node consolidation may act on, with what the methods
// need: its reschedulable pods and Karpenter's savings ratio.
type candidate struct {
	name  string
	pool  *packing.NodePool
	node  *packing.Node
	at    int // node's index in the what-if
	price instancetypes.Price
	pods  []packing.Pod // reschedulable (packing.Pod.Reschedulable)
	cost  float64       // 1 + Σ max(0, pod eviction cost), Karpenter's RescheduleDisruptionCost
	ratio float64       // Karpenter's SavingsRatio: price per unit of disruption (price/cost)
}

func (c candidate) empty() bool { return len(c.pods) == 0 }

// ratioKey is ratio in micro-dollars an hour per unit of disruption,
// rounded: ratios that differ only by the rounding of prices to
// nano-dollars (a node of twice the price and twice the pods) are equal
// under it. Rounding is monotone, so candidates sorted by ratio keep
// equal keys together.
func (c candidate) ratioKey() float64 { return math.Round(c.ratio * 1e6) }

// stays is the negation of packing.Pod.Reschedulable on a value, for the
// slices functions: the pod goes with its node.
func stays(p packing.Pod) bool { return !p.Reschedulable() }

// reschedulable returns the pods that must move when their node goes
// (packing.Pod.Reschedulable): pods itself when all must (callers only
// read it), else a new slice (disruption.Movable).
func reschedulable(pods []packing.Pod) []packing.Pod {
	if !slices.ContainsFunc(pods, stays) {
		return pods
	}
	return disruption.Movable(pods)
}

func rescheduleCost(pods []packing.Pod) float64 {
	c := 1.0
	for _, p := range pods {
		c += max(0, disruption.PodCost(p))
	}
	return c
}

// candidates returns the nodes that may be consolidated, ordered by savings
// ratio descending then name, and records why each other node is kept.
// What it finds depends on the what-if's nodes and the pod events only:
// it is found once per version of them (state.version), and each caller
// gets its own copy.
func (s *state) candidates() []candidate {
	if v := s.version(); !s.cands.made || s.cands.version != v {
		s.cands = candidateList{made: true, version: v, list: s.findCandidates()}
	}
	return slices.Clone(s.cands.list)
}

// version changes whenever the what-if's nodes or the pod events do: the
// what-if counts its changes, and bind counts the events it records.
func (s *state) version() int { return s.w.Generation() + s.events }

// candidateList is the candidates found at one version of the state.
type candidateList struct {
	made    bool
	version int
	list    []candidate
}

// findCandidates is candidates, found afresh.
func (s *state) findCandidates() []candidate {
	nodes := s.w.Nodes()
	out := make([]candidate, 0, len(nodes))
	for i := range nodes {
		if c, why := s.candidate(i); why != nil {
			s.keep(*why)
		} else {
			out = append(out, c)
		}
	}
	// The position ends every tie: the one order a stable sort would give.
	slices.SortFunc(out, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(b.ratio, a.ratio), cmp.Compare(a.name, b.name), cmp.Compare(a.at, b.at))
	})
	return out
}

// candidate returns node i of the what-if as a candidate, or why it is
// none.
func (s *state) candidate(i int) (candidate, *Explanation) {
	n := &s.w.Nodes()[i]
	pool, why := s.eligible(n)
	if why != nil {
		return candidate{}, why
	}
	f := s.podFacts(n)
	if f.why != nil {
		return candidate{}, f.why
	}
	if why := s.timing(n, pool); why != nil {
		return candidate{}, why
	}
	return candidate{name: n.Name, pool: pool, node: n, at: i, price: n.Price, pods: f.pods, cost: f.cost,
		ratio: n.Price.Dollars() / f.cost}, nil
}

// podFacts is what a node's pods tell its candidacy: the pods that must
// move, what blocks moving them (nil: nothing) and their reschedule cost.
// It depends on the pods and on the cluster's clock and PDBs, which a
// plan does not change; from is the slice it was read from.
type podFacts struct {
	from []packing.Pod
	pods []packing.Pod
	why  *Explanation
	cost float64
}

// podFacts returns the facts of n's pods, read again only when n has
// other pods than last time: the what-if gives a node whose pods change a
// new slice (Bind, Retire), so the same slice is the same pods.
func (s *state) podFacts(n *packing.Node) podFacts {
	if f, ok := s.facts[n.Name]; ok && vouch.SameSlice(f.from, n.Pods) {
		return f
	}
	pods := reschedulable(n.Pods)
	f := podFacts{from: n.Pods, pods: pods, why: blockedByPods(n, pods, s.c), cost: rescheduleCost(pods)}
	s.facts[n.Name] = f
	return f
}

// eligible applies the node-level rules and finds the node's pool.
func (s *state) eligible(n *packing.Node) (*packing.NodePool, *Explanation) {
	pool := s.pools[n.NodePool]
	switch {
	case pool == nil:
		return nil, explain(n.Name, NotManaged, "node %s is not managed by any NodePool of the cluster", n.Name)
	case n.MarkedForDeletion:
		return nil, explain(n.Name, Deleting, "node %s is already being deleted", n.Name)
	case !n.Initialized:
		return nil, explain(n.Name, NotInitialized, "node %s is not initialized", n.Name)
	case s.c.NominatedUntil[n.Name].After(s.c.Now):
		return nil, explain(n.Name, Nominated, "node %s is nominated for pending pods", n.Name)
	case pool.Disruption.ConsolidateNever:
		return nil, explain(n.Name, Disabled, "NodePool %s has consolidation disabled", pool.Name)
	}
	if blocked, why := disruption.NodeBlocks(*n); blocked {
		return nil, explain(n.Name, NodeDoNotDisrupt, "%s", why)
	}
	return pool, nil
}

func blockedByPods(n *packing.Node, pods []packing.Pod, c Cluster) *Explanation {
	for _, p := range pods {
		if blocked, why := disruption.PodBlocks(p, c.Now); blocked {
			return explain(n.Name, PodDoNotDisrupt, "%s", why)
		}
	}
	if blocked, why := disruption.PDBBlocks(pods, c.PDBs); blocked {
		return explain(n.Name, PDBBlocked, "%s", why)
	}
	return nil
}

// timing applies consolidateAfter to the last pod event (or the node's
// creation when there was none).
func (s *state) timing(n *packing.Node, pool *packing.NodePool) *Explanation {
	if last, under := s.c.underConsolidateAfter(n, pool); under {
		return explain(n.Name, ConsolidateAfter, "node %s had a pod event at %s, within consolidateAfter %s",
			n.Name, last.UTC().Format("15:04:05"), pool.Disruption.ConsolidateAfter)
	}
	return nil
}

// underConsolidateAfter reports whether n's last pod event (or creation)
// is within its pool's consolidateAfter, and returns that time. Such a node
// is no candidate, and, once initialized, takes no displaced pods.
func (c Cluster) underConsolidateAfter(n *packing.Node, pool *packing.NodePool) (time.Time, bool) {
	last, ok := c.LastPodEvent[n.Name]
	if !ok {
		last = n.CreationTime
	}
	after := time.Duration(0)
	if pool != nil {
		after = pool.Disruption.ConsolidateAfter
	}
	return last, after > 0 && c.Now.Sub(last) < after
}

// podEvents is a copy of c's LastPodEvent that a plan or a checker may
// record the moves' pod events in.
func (c Cluster) podEvents() map[string]time.Time {
	m := maps.Clone(c.LastPodEvent)
	if m == nil {
		m = map[string]time.Time{}
	}
	return m
}

// settling reports whether n takes no displaced pods in a simulation.
func (c Cluster) settling(n *packing.Node, pool *packing.NodePool) bool {
	_, under := c.underConsolidateAfter(n, pool)
	return n.Initialized && under
}

// unpriced explains why n, of unknown price, is not consolidated, naming
// what its catalog lacks: its instance type, or the offering of its
// capacity type in its zone.
func (s *state) unpriced(n *packing.Node) *Explanation {
	const only = "it is deleted only when empty"
	t, ok := s.base.PoolCatalog(s.pools[n.NodePool]).Get(n.InstanceType)
	switch {
	case !ok:
		return explain(n.Name, PriceUnknown, "node %s has no known price: the catalog has no instance type %q; %s", n.Name, n.InstanceType, only)
	case !slices.ContainsFunc(t.Offerings, func(o instancetypes.Offering) bool { return o.Zone == n.Zone && o.CapacityType == n.CapacityType }):
		return explain(n.Name, PriceUnknown, "node %s has no known price: the catalog has no %s offering of %s in zone %q; %s",
			n.Name, n.CapacityType, n.InstanceType, n.Zone, only)
	}
	return explain(n.Name, PriceUnknown, "node %s has no known price; %s", n.Name, only)
}

func explain(node string, why Why, format string, args ...any) *Explanation {
	return &Explanation{Node: node, Why: why, Message: fmt.Sprintf(format, args...)}
}
