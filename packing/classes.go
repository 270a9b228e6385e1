package packing

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// Classes is a problem's pending pods grouped into classes of
// interchangeable pods, with the rooms that may hold them: the offerings
// of each NodePool's compatible types and the existing nodes. It is the
// solver's own view of what may go where (the same compiled pools,
// compatible types and daemonset overhead as [Solve]), made for a lower
// bound on a plan's price: admission is relaxed, never tightened, so that
// anything a plan can do a bound built on Classes allows. What it leaves
// out: topology spread, pod affinity, anti-affinity but the hostname kind
// with the pod in its own group, preferences, host ports, volume attach
// limits, minValues and reserved units. See [GroupClasses].
type Classes struct {
	// Classes are the groups of pods with equal requests and placement
	// rules, ordered by their first pod.
	Classes []Class
	// Pools are the NodePools, in Solve's order (weight, then name
	// descending); one that launches nothing has NodesLeft 0.
	Pools []PoolRoom
	// Nodes are the existing nodes that take pods (none marked for
	// deletion), by name.
	Nodes []NodeRoom
	// admit is, per placement rules (Class.Rules), per pool, the offers
	// they admit.
	admit [][]bitset.Set
	// onNode is, per placement rules, the nodes they admit.
	onNode []bitset.Set
}

// Class is a group of pending pods with equal requests, placement rules
// and hostname anti-affinity group.
type Class struct {
	// Pods are the pods' indexes in [Problem.Pods], ascending.
	Pods []int
	// Requests are each pod's requests, with the pod slot.
	Requests resources.List
	// Group, when not -1, is the hostname anti-affinity group of the pods:
	// a node holds at most one pod of all the classes of a group. A pod in
	// several groups is given the first.
	Group int
	// Rules numbers the class's placement rules: classes with equal Rules
	// admit the same offers and nodes.
	Rules int
}

// PoolRoom is a NodePool as a bound sees it: its types and their offerings,
// and what its limits leave for new nodes once the existing ones count.
type PoolRoom struct {
	Name  string
	Types []TypeRoom
	// Offers are the usable offerings of Types the pool's requirements
	// admit, by type then in the type's order.
	Offers []Offer
	// Limits are, per limited resource but "nodes", what the limit leaves
	// once the existing nodes' capacity counts (negative when exceeded).
	Limits []resources.Amount
	// NodesLeft is how many more nodes the "nodes" limit allows;
	// math.MaxInt64 without one.
	NodesLeft int64
}

// TypeRoom is an instance type of a pool: the room its allocatable leaves
// once the pool's daemonsets run, and its capacity, which limits count.
type TypeRoom struct {
	Name     string
	Alloc    resources.List
	Capacity resources.List
}

// Offer is an offering of the pool's type Types[Type].
type Offer struct {
	Type int
	instancetypes.Offering
}

// NodeRoom is an existing node and the room it has left for pending pods.
type NodeRoom struct {
	Name string
	Free resources.List
}

// Admits reports whether pods of placement rules r ([Class.Rules]) may go
// on offer o of pool pl.
func (c *Classes) Admits(r, pl, o int) bool { return c.admit[r][pl].Has(o) }

// AdmitsNode reports whether pods of placement rules r may go on node n.
func (c *Classes) AdmitsNode(r, n int) bool { return c.onNode[r].Has(n) }

// Rules is the number of distinct placement rules: Class.Rules is below it.
func (c *Classes) Rules() int { return len(c.admit) }

// GroupClasses groups p's pending pods into [Classes]. A pod's class
// admits an offer when the pod tolerates the pool's taints (PreferNoSchedule
// aside), one of its required node-affinity alternatives (its volumes'
// topology included) admits the type as Solve's compatibility check does,
// and the alternative admits the offering's zone and capacity type; it
// admits an existing node when it tolerates the node's taints and an
// alternative matches its labels. A pod whose volumes Karpenter provisions
// nothing for admits no offer. It returns an error wrapping
// [ErrInvalidProblem] when p is invalid. p is not modified. The complexity
// is that of compiling p for Solve plus O(placements × pools × offers).
func GroupClasses(p Problem) (Classes, error) {
	if err := p.Validate(); err != nil {
		return Classes{}, err
	}
	s := compile(&p, Options{Preferences: IgnorePreferences})
	r := newRun(s, passSpec{}, nil, nil)
	var c Classes
	c.Pools = poolRooms(r)
	var nodes []*nodeT
	c.Nodes, nodes = nodeRooms(r)
	places := map[string]int{}
	byKey := map[string]int{}
	for i := range s.pods {
		info := &s.pods[i]
		pk := placeKey(info)
		pi, ok := places[pk]
		if !ok {
			pi = len(c.admit)
			places[pk] = pi
			a, n := admission(r, nodes, c.Pools, info)
			c.admit, c.onNode = append(c.admit, a), append(c.onNode, n)
		}
		g := hostGroup(info)
		key := fmt.Sprintf("%d|%d|%s", pi, g, info.req)
		k, ok := byKey[key]
		if !ok {
			k = len(c.Classes)
			byKey[key] = k
			c.Classes = append(c.Classes, Class{Requests: info.req, Group: g, Rules: pi})
		}
		c.Classes[k].Pods = append(c.Classes[k].Pods, i)
	}
	return c, nil
}

// placeKey identifies the placement rules of a pod: its alternatives, its
// tolerations and whether its volumes allow a new node.
func placeKey(info *podInfo) string {
	b := binary.AppendUvarint(nil, uint64(len(info.alts)))
	for _, a := range info.alts {
		b, _ = a.AppendBinary(b)
	}
	b = binary.AppendUvarint(b, uint64(len(info.pod.Tolerations)))
	for _, t := range info.pod.Tolerations {
		b = appendKeyString(b, t.Key)
		b = appendKeyString(b, t.Value)
		b = append(b, byte(t.Operator), byte(t.Effect))
	}
	if info.invalid != "" {
		b = append(b, 1)
	}
	return string(b)
}

// hostGroup is the counter of the pod's first required hostname
// anti-affinity term that counts the pod itself, -1 for none.
func hostGroup(info *podInfo) int {
	for _, c := range info.hostCons0 {
		if c.kind == antiKind && !c.soft && c.self {
			return int(c.counter)
		}
	}
	return -1
}

// admission is, per pool, the offers of rooms a pod admits, and which of
// nodes (r's, as nodeRooms orders them) it admits.
func admission(r *run, nodes []*nodeT, rooms []PoolRoom, info *podInfo) ([]bitset.Set, bitset.Set) {
	tols := tolerateSoft(info.pod.Tolerations)
	per := make([]bitset.Set, len(r.s.pools))
	for pi, pl := range r.s.pools {
		offers := rooms[pi].Offers
		per[pi] = bitset.New(len(offers))
		if info.invalid != "" || requirements.Tolerates(tols, pl.taints) != nil {
			continue
		}
		for _, alt := range info.alts {
			types, merged := compatibleTypes(pl, alt), pl.reqs.Intersect(alt)
			for o, off := range offers {
				if types.Has(off.Type) && off.Compatible(merged) {
					per[pi].Add(o)
				}
			}
		}
	}
	admits := bitset.New(len(nodes))
	for ni, nd := range nodes {
		if requirements.Tolerates(tols, nd.taints) == nil && slices.ContainsFunc(info.alts, func(a requirements.Set) bool { return a.Satisfied(nd.labels) }) {
			admits.Add(ni)
		}
	}
	return per, admits
}

// poolRooms lists the compiled pools, with what their limits leave.
func poolRooms(r *run) []PoolRoom {
	out := make([]PoolRoom, len(r.s.pools))
	for pi, pl := range r.s.pools {
		room := PoolRoom{Name: pl.np.Name, NodesLeft: r.use.nodesLeft(pi, pl)}
		if pl.conflict != "" {
			room.NodesLeft = 0
		}
		for i, lim := range pl.limits {
			room.Limits = append(room.Limits, resources.Amount{Name: lim.Name, Value: lim.Value - r.use.committed[pi][i]})
		}
		for t, it := range pl.types {
			room.Types = append(room.Types, TypeRoom{Name: it.Name, Alloc: pl.alloc[t], Capacity: it.Capacity})
			for _, o := range it.Offerings {
				if o.Usable() && o.Compatible(pl.reqs) {
					room.Offers = append(room.Offers, Offer{Type: t, Offering: o})
				}
			}
		}
		out[pi] = room
	}
	return out
}

// nodeRooms lists the nodes that take pods with their free room, by name,
// and those nodes in that order; r.nodes keeps its order (r.free is built
// over it).
func nodeRooms(r *run) ([]NodeRoom, []*nodeT) {
	nodes := slices.Clone(r.nodes)
	slices.SortStableFunc(nodes, func(a, b *nodeT) int { return cmp.Compare(a.n.Name, b.n.Name) })
	out := make([]NodeRoom, len(nodes))
	for i, nd := range nodes {
		out[i] = NodeRoom{Name: nd.n.Name, Free: nd.free}
	}
	return out, nodes
}
