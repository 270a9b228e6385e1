package planview

import (
	"cmp"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// View is a plan as rows. The zero View is an empty plan.
type View struct {
	// Nodes are the new NodeClaims in plan order, then the existing nodes
	// that hold pods (before or after the plan) in input order.
	Nodes []Node
	// Unschedulable are the pods no node or NodePool takes, in plan order.
	Unschedulable []Unschedulable
	// Groups gather Unschedulable by namespace, owner and reason; see the
	// package doc for the order.
	Groups  []Group
	Summary Summary
}

// Node is one row of the node table.
type Node struct {
	Name     string
	Existing bool
	NodePool string // "" for a node no NodePool manages
	// InstanceType, Zone, CapacityType and Price are the chosen offering
	// of a new node, or an existing node's labels and catalog price.
	InstanceType string
	Zone         string
	CapacityType instancetypes.CapacityType
	Price        instancetypes.Price
	// PriceUnknown marks an existing node whose price is unknown
	// (packing.Node.PriceUnknown); Price is then 0 and the table writes
	// "unknown".
	PriceUnknown bool
	// Arch is the kubernetes.io/arch of the instance type (a new node) or
	// the node's label; "" when unknown.
	Arch string
	// InstanceTypes are a new node's candidate types, cheapest first.
	InstanceTypes []string
	// Requests are the pods' requests with one pod slot each, plus the
	// daemonset overhead on a new node; Allocatable is the chosen type's
	// (zero when the catalog lacks it) or the existing node's.
	Requests, Allocatable resources.List
	// Pods are "namespace/name" in placement order; on an existing node
	// the pods already bound come first.
	Pods []string
}

// Unschedulable is a pod no node or NodePool can take, with its owner
// ("Kind/name", "" when it has none) and the solver's reason.
type Unschedulable struct {
	Pod       string // "namespace/name"
	Namespace string
	Owner     string
	Reason    packing.Reason
}

// Group is unschedulable pods that share a namespace, an owner, a reason
// kind, a NodePool and a message up to the pod's own name.
type Group struct {
	Namespace string
	// Owner is "Kind/name"; "" for a pod without an owner, alone in its
	// group.
	Owner    string
	Kind     packing.ReasonKind
	NodePool string
	// Message is the reason's message; in a group of several pods whose
	// names all start with the owner's name and "-", the pod it names is
	// written "namespace/<owner name>-*".
	Message string
	// Pods are "namespace/name" in plan order.
	Pods []string
}

// Summary totals a View. Price is the new nodes' hourly price,
// ExistingPrice that of the existing nodes in Nodes whose price is known;
// Unpriced counts the others.
type Summary struct {
	NewNodes, ExistingNodes          int
	ScheduledPods, UnschedulablePods int
	Price, ExistingPrice             instancetypes.Price
	Unpriced                         int
}

// New returns the View of plan, which was solved from p. Pod indexes of
// plan out of range of p.Pods, which a plan solved from p does not have
// (verify.Plan reports them), are left out. The complexity is linear in
// the plan, the NodePools and the existing nodes, plus O(g log g) to sort
// g groups; p and plan are not modified. A nil p or plan reads as the
// zero Problem or Plan.
func New(p *packing.Problem, plan *packing.Plan) View {
	p, plan = cmp.Or(p, &packing.Problem{}), cmp.Or(plan, &packing.Plan{})
	v := View{Nodes: make([]Node, 0, len(plan.NodeClaims))}
	pools := poolsByName(p)
	for i := range plan.NodeClaims {
		c := &plan.NodeClaims[i]
		v.Nodes = append(v.Nodes, claimNode(p, p.PoolCatalog(pools[c.NodePool]), c))
	}
	v.Nodes = append(v.Nodes, existingNodes(p, plan)...)
	for _, u := range plan.Unschedulable {
		if pod, ok := podAt(p, u.Pod); ok {
			v.Unschedulable = append(v.Unschedulable, Unschedulable{Pod: pod.Key(), Namespace: pod.Namespace, Owner: pod.Owner, Reason: u.Reason})
		}
	}
	v.Groups = groups(v.Unschedulable)
	v.Summary = Summary{NewNodes: len(plan.NodeClaims), ScheduledPods: len(plan.Order),
		UnschedulablePods: len(v.Unschedulable), Price: plan.Price}
	for _, n := range v.Nodes {
		switch {
		case n.Existing && n.PriceUnknown:
			v.Summary.ExistingNodes++
			v.Summary.Unpriced++
		case n.Existing:
			v.Summary.ExistingNodes++
			v.Summary.ExistingPrice += n.Price
		}
	}
	return v
}

// poolsByName indexes p's NodePools by name, the first of each name.
func poolsByName(p *packing.Problem) map[string]*packing.NodePool {
	pools := make(map[string]*packing.NodePool, len(p.NodePools))
	for i := range p.NodePools {
		if _, dup := pools[p.NodePools[i].Name]; !dup {
			pools[p.NodePools[i].Name] = &p.NodePools[i]
		}
	}
	return pools
}

// podAt returns pending pod i of p, or false when i is out of range.
func podAt(p *packing.Problem, i int) (*packing.Pod, bool) {
	if i < 0 || i >= len(p.Pods) {
		return nil, false
	}
	return &p.Pods[i], true
}

// appendPods appends the keys of p's pending pods at indexes to keys,
// leaving out indexes out of range.
func appendPods(keys []string, p *packing.Problem, indexes []int) []string {
	for _, i := range indexes {
		if pod, ok := podAt(p, i); ok {
			keys = append(keys, pod.Key())
		}
	}
	return keys
}

// claimNode is the row of claim c, whose pool launches from cat (nil: no
// catalog).
func claimNode(p *packing.Problem, cat *instancetypes.Catalog, c *packing.NodeClaim) Node {
	n := Node{Name: c.Name, NodePool: c.NodePool, InstanceType: c.InstanceType, Zone: c.Offering.Zone,
		CapacityType: c.Offering.CapacityType, Price: c.Offering.Price,
		InstanceTypes: slices.Clone(c.InstanceTypes), Requests: c.Requests}
	if cat != nil {
		if t, ok := cat.Get(c.InstanceType); ok {
			n.Allocatable = t.Allocatable
			n.Arch, _ = t.Requirements.Get(requirements.LabelArch).Any()
		}
	}
	n.Pods = appendPods(n.Pods, p, c.Pods)
	return n
}

// existingNodes lists the existing nodes that hold pods, before or after
// the plan, in input order.
func existingNodes(p *packing.Problem, plan *packing.Plan) []Node {
	bound := map[string][]int{}
	for _, b := range plan.Bindings {
		if _, ok := podAt(p, b.Pod); ok {
			bound[b.Node] = append(bound[b.Node], b.Pod)
		}
	}
	var out []Node
	for i := range p.Nodes {
		node := &p.Nodes[i]
		if len(node.Pods) > 0 || len(bound[node.Name]) > 0 {
			out = append(out, existingNode(p, node, bound[node.Name]))
		}
	}
	return out
}

// existingNode is the row of node, with the pending pods at bound (all in
// range).
func existingNode(p *packing.Problem, node *packing.Node, bound []int) Node {
	n := Node{Name: node.Name, Existing: true, NodePool: node.NodePool, InstanceType: node.InstanceType,
		Zone: node.Zone, CapacityType: node.CapacityType, Price: node.Price, PriceUnknown: node.PriceUnknown,
		Arch: node.Labels[requirements.LabelArch], Allocatable: node.Allocatable}
	slot := resources.List{Pods: 1}
	for i := range node.Pods {
		n.Pods = append(n.Pods, node.Pods[i].Key())
		n.Requests = n.Requests.Add(node.Pods[i].Requests).Add(slot)
	}
	n.Pods = appendPods(n.Pods, p, bound)
	for _, i := range bound {
		n.Requests = n.Requests.Add(p.Pods[i].Requests).Add(slot)
	}
	return n
}

// groupKey is what the pods of a Group share.
type groupKey struct {
	namespace, owner string
	kind             packing.ReasonKind
	nodePool         string
	message          string // with the pod's own name cut out
}

// groups gathers us by groupKey, largest group first, ties in order of
// first appearance.
func groups(us []Unschedulable) []Group {
	var out []Group
	at := map[groupKey]int{}
	for _, u := range us {
		k := groupKey{u.Namespace, u.Owner, u.Reason.Kind, u.Reason.NodePool, withoutPod(u.Reason.Message, u.Pod)}
		if u.Owner == "" {
			k.owner = "\x00" + u.Pod // a pod without an owner stands alone
		}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, Group{Namespace: u.Namespace, Owner: u.Owner, Kind: u.Reason.Kind,
				NodePool: u.Reason.NodePool, Message: u.Reason.Message})
		}
		out[i].Pods = append(out[i].Pods, u.Pod)
	}
	for i := range out {
		out[i].Message = generalise(out[i])
	}
	slices.SortStableFunc(out, func(a, b Group) int { return cmp.Compare(len(b.Pods), len(a.Pods)) })
	return out
}

// podMark stands for a pod's own name in a message.
const podMark = "\x00"

// withoutPod replaces the mentions "pod <key>" of the pod key in msg by
// podMark; a longer name that starts with key is left alone.
func withoutPod(msg, key string) string {
	needle := "pod " + key
	var b strings.Builder
	for {
		i := strings.Index(msg, needle)
		if i < 0 {
			b.WriteString(msg)
			return b.String()
		}
		end := i + len(needle)
		if end < len(msg) && isNameByte(msg[end]) {
			b.WriteString(msg[:end])
		} else {
			b.WriteString(msg[:i] + "pod " + podMark)
		}
		msg = msg[end:]
	}
}

// isNameByte reports whether c may continue a Kubernetes object name.
func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.'
}

// generalise is the message of g: its first pod's, naming the pods by
// their common "<owner name>-" prefix when there are several that share it.
func generalise(g Group) string {
	_, name, _ := strings.Cut(g.Owner, "/")
	if len(g.Pods) < 2 || name == "" {
		return g.Message
	}
	prefix := g.Namespace + "/" + name + "-"
	for _, p := range g.Pods {
		if !strings.HasPrefix(p, prefix) {
			return g.Message
		}
	}
	return strings.ReplaceAll(withoutPod(g.Message, g.Pods[0]), podMark, prefix+"*")
}

// Label names the group's pods: "Deployment shop/web", or for a pod
// without an owner "Pod shop/web-0".
func (g Group) Label() string {
	if g.Owner == "" && len(g.Pods) > 0 {
		return "Pod " + g.Pods[0]
	}
	kind, name, _ := strings.Cut(g.Owner, "/")
	return kind + " " + g.Namespace + "/" + name
}
