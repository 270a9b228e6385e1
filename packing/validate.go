package packing

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/parallel"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// ErrInvalidProblem is wrapped by every error Validate returns.
var ErrInvalidProblem = errors.New("invalid problem")

// FieldError names the object and field of an invalid input. Object is
// empty in the errors of the validators of one part of an object, such as
// [ValidateTopologySpreads].
type FieldError struct {
	Object string // e.g. "pod default/web-1", "nodepool gpu"
	Field  string // e.g. "requests.cpu", "topologySpread[0].maxSkew"
	Msg    string
}

func (e *FieldError) Error() string {
	if e.Object == "" {
		return e.Field + ": " + e.Msg
	}
	return fmt.Sprintf("%s: %s: %s", e.Object, e.Field, e.Msg)
}

// Unwrap lets errors.Is match ErrInvalidProblem.
func (e *FieldError) Unwrap() error { return ErrInvalidProblem }

// MaxLimit is the largest NodePool limit: 2^60, a thousand times
// [resources.MaxAmount]. Larger limits are rejected rather than clamped.
const MaxLimit = 1 << 60

// Validate reports every invalid field of p, each a [*FieldError], joined;
// nil when p is valid. Every string that becomes a label or a requirement
// is checked as Kubernetes checks it: NodePool names (the
// karpenter.sh/nodepool value), pod, node and NodePool labels, a node's
// name, zone, instance type, NodePool and capacity type where they stand
// for its hostname, zone, instance-type, nodepool and capacity-type labels,
// topology keys and matchLabelKeys, taints, tolerations and host-port
// protocols, and the keys and values of every requirement set (which
// requirements.FromLabels builds unchecked). Numbers are checked against
// the bounds that keep the solver's arithmetic exact: every resource value
// in 0..[resources.MaxAmount], limits in 0..[MaxLimit], node prices in
// 0..[instancetypes.MaxValidPrice] (and 0 when PriceUnknown). Every
// NodePool catalog must price in the currency of the problem's catalog
// (instancetypes.Origin.Currency, "" read as
// instancetypes.DefaultCurrency), as a plan sums prices across pools.
// Pod specs the API server rejects are rejected: topology spreads by
// [ValidateTopologySpreads], host ports by [HostPort.Validate] and, one
// pod's never repeating, [HostPort.Same]; NodePool weights lie in
// 0..[MaxWeight]. The
// complexity is O(size of p); the pods of nodes, a cluster's most numerous
// objects, are named only when wrong and cost no allocation when valid.
// Validate does not modify p.
func (p Problem) Validate() error { return p.validate(vouched{}) }

// validate is Validate but for the nodes vd vouches for (see
// [SolveVouched]): of those only the name is checked, for uniqueness;
// and, when vd vouches for the pods too (vouch.Nodes.WithPods), but for
// the pending pods.
func (p Problem) validate(vd vouched) error {
	var v validator
	if p.Catalog == nil && slices.ContainsFunc(p.NodePools, func(np NodePool) bool { return np.Catalog == nil }) {
		v.report("problem", issues{{"catalog", "no instance catalog is given"}})
	}
	if !vd.v.Pods() {
		v.pending(p.Pods)
	}
	seen := make(map[string]bool, max(len(p.NodePools), len(p.Nodes)-vd.v.Len()))
	currency := p.currency()
	for i := range p.NodePools {
		is := checkPool(&p.NodePools[i], seen)
		v.report("nodepool "+p.NodePools[i].Name, checkCurrency(is, p.NodePools[i].Catalog, currency))
	}
	clear(seen)
	seenVouched := make([]bool, vd.v.Len()) // by vouch index: no name hashed again
	for i := range p.Nodes {
		n := &p.Nodes[i]
		k, isVouched := vd.at(i)
		var dup bool
		if isVouched {
			dup, seenVouched[k] = seenVouched[k], true
		} else {
			dup, seen[n.Name] = n.Name == "" || seen[n.Name], true
		}
		if is := nodeNameIssues(dup); isVouched {
			v.reportNode(n, is)
		} else {
			v.node(n, is)
		}
	}
	for i := range p.DaemonSets {
		v.report("daemonset "+p.DaemonSets[i].Key(), checkDaemonSet(&p.DaemonSets[i]))
	}
	return errors.Join(v.errs...)
}

// podName is a pod's namespace and name, which pending pods may not share.
type podName struct{ namespace, name string }

// pending reports the issues of the pending pods, a pod named only when
// wrong. The pods are checked on up to GOMAXPROCS goroutines, each alone;
// the names are compared and the issues reported in order.
func (v *validator) pending(pods []Pod) {
	found := make([]issues, len(pods)) // nil for a valid pod
	parallel.Range(len(pods), podCheckChunk, func() func(lo, hi int) {
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				found[i] = checkPod(nil, &pods[i])
			}
		}
	})
	seen := make(map[podName]bool, len(pods))
	for i := range pods {
		pod := &pods[i]
		is := found[i]
		key := podName{pod.Namespace, pod.Name}
		if seen[key] {
			is.add("name", "duplicate pod (namespace/name)")
		}
		seen[key] = true
		if len(is) > 0 {
			v.report("pod "+pod.Key(), is)
		}
	}
}

// podCheckChunk is how many pending pods a goroutine checks at a time.
const podCheckChunk = 256

// currency is the currency of p's prices: that of its catalog, else of the
// first NodePool catalog; "" when there is none.
func (p Problem) currency() string {
	if p.Catalog != nil {
		return currencyOf(p.Catalog)
	}
	for i := range p.NodePools {
		if c := p.NodePools[i].Catalog; c != nil {
			return currencyOf(c)
		}
	}
	return ""
}

// currencyOf is the ISO 4217 code of c's prices, the default when c
// names none.
func currencyOf(c *instancetypes.Catalog) string {
	return cmp.Or(c.Currency(), instancetypes.DefaultCurrency)
}

// checkCurrency reports a NodePool catalog priced in another currency
// than the problem's: a plan's sums would add yuan to dollars.
func checkCurrency(is issues, c *instancetypes.Catalog, currency string) issues {
	if c == nil {
		return is
	}
	if cur := currencyOf(c); cur != currency {
		is.add("catalog", "prices are in %s, the problem's in %s: one problem has one currency", cur, currency)
	}
	return is
}

// validator collects the FieldErrors of a problem.
type validator struct{ errs []error }

// report adds one FieldError per issue of the object obj.
func (v *validator) report(obj string, is issues) {
	for _, i := range is {
		v.errs = append(v.errs, &FieldError{Object: obj, Field: i.field, Msg: i.msg})
	}
}

// issue is one invalid field of an object not yet named.
type issue struct{ field, msg string }

type issues []issue

func (is *issues) add(field, format string, args ...any) {
	*is = append(*is, issue{field, fmt.Sprintf(format, args...)})
}

// at formats the path of the j-th element of a list field, with an
// optional subfield; it is called only for an invalid field, so that a
// valid pod costs no allocation.
func at(field string, j int, sub string) string {
	if sub == "" {
		return fmt.Sprintf("%s[%d]", field, j)
	}
	return fmt.Sprintf("%s[%d].%s", field, j, sub)
}

// checkPod appends the issues of pod p, pending or bound, to is.
func checkPod(is issues, p *Pod) issues {
	if p.Name == "" {
		is.add("name", "is empty")
	}
	is = checkLabels(is, "labels", p.Labels)
	is = checkResources(is, "requests", p.Requests)
	is = checkAffinity(is, p.NodeAffinity)
	is = checkTolerations(is, "tolerations", p.Tolerations)
	is = checkSpreads(is, "topologySpread", p.TopologySpread)
	is = checkTerms(is, "affinity", p.Affinity)
	is = checkTerms(is, "antiAffinity", p.AntiAffinity)
	is = checkVolumes(is, p.Volumes.claims())
	return checkHostPorts(is, "hostPorts", p.HostPorts)
}

// checkSpreads checks the topology spread constraints ts of one pod, the
// list at field, each alone and then as the API server checks them
// together: no two with the same topologyKey and whenUnsatisfiable.
func checkSpreads(is issues, field string, ts []TopologySpread) issues {
	for j := range ts {
		is = checkSpread(is, field, j, &ts[j])
		for k := range j {
			if ts[k].TopologyKey == ts[j].TopologyKey && ts[k].WhenUnsatisfiable == ts[j].WhenUnsatisfiable {
				is.add(at(field, j, "topologyKey"), "%s with %s is the pair of [%d]: one constraint per topologyKey and whenUnsatisfiable",
					ts[j].TopologyKey, ts[j].WhenUnsatisfiable, k)
				break
			}
		}
	}
	return is
}

// checkHostPorts checks the host ports of one pod, the list at field:
// each a port in 1..65535 of a known protocol, and none the same as an
// earlier one ([HostPort.Same]).
func checkHostPorts(is issues, field string, ports []HostPort) issues {
	for j, hp := range ports {
		if err := hp.Validate(); err != nil {
			var fe *FieldError
			errors.As(err, &fe)
			is.add(at(field, j, fe.Field), "%s", fe.Msg)
		}
		if k := slices.IndexFunc(ports[:j], hp.Same); k >= 0 {
			is.add(at(field, j, ""), "%s is the host port of [%d]: the API server rejects a pod that binds one twice", hostPortText(hp), k)
		}
	}
	return is
}

// checkSpread checks the j-th topology spread constraint ts of the list
// at f.
func checkSpread(is issues, f string, j int, ts *TopologySpread) issues {
	if ts.MaxSkew < 1 {
		is.add(at(f, j, "maxSkew"), "is %d; must be at least 1", ts.MaxSkew)
	}
	if ts.MinDomains < 0 {
		is.add(at(f, j, "minDomains"), "is %d; must not be negative", ts.MinDomains)
	}
	if ts.MinDomains > 0 && ts.WhenUnsatisfiable != DoNotSchedule {
		is.add(at(f, j, "minDomains"), "is set (%d) with whenUnsatisfiable %s: minDomains needs DoNotSchedule", ts.MinDomains, ts.WhenUnsatisfiable)
	}
	if err := requirements.ValidateKey(ts.TopologyKey); err != nil {
		is.add(at(f, j, "topologyKey"), "%v", err)
	}
	if err := ts.Selector.Validate(); err != nil {
		is.add(at(f, j, "labelSelector"), "%v", err)
	}
	for k, key := range ts.MatchLabelKeys {
		if err := requirements.ValidateKey(key); err != nil {
			is.add(at(f, j, fmt.Sprintf("matchLabelKeys[%d]", k)), "%v", err)
		}
	}
	if ts.WhenUnsatisfiable > ScheduleAnyway {
		is.add(at(f, j, "whenUnsatisfiable"), "%d is not DoNotSchedule or ScheduleAnyway", ts.WhenUnsatisfiable)
	}
	if ts.NodeAffinityPolicy > Ignore {
		is.add(at(f, j, "nodeAffinityPolicy"), "%d is not Honor or Ignore", ts.NodeAffinityPolicy)
	}
	if ts.NodeTaintsPolicy > Ignore {
		is.add(at(f, j, "nodeTaintsPolicy"), "%d is not Honor or Ignore", ts.NodeTaintsPolicy)
	}
	return is
}

func checkTerms(is issues, field string, terms []PodAffinityTerm) issues {
	for j, t := range terms {
		if t.Weight < 0 || t.Weight > 100 {
			is.add(at(field, j, "weight"), "%d outside 0..100", t.Weight)
		}
		if err := requirements.ValidateKey(t.TopologyKey); err != nil {
			is.add(at(field, j, "topologyKey"), "%v", err)
		}
		if err := t.Selector.Validate(); err != nil {
			is.add(at(field, j, "labelSelector"), "%v", err)
		}
	}
	return is
}

// checkAffinity reports a node affinity built from unchecked sets.
func checkAffinity(is issues, a requirements.NodeAffinity) issues {
	if err := a.Validate(); err != nil {
		is.add("nodeAffinity", "%v", err)
	}
	return is
}

// checkValue reports v when it is not a label value.
func checkValue(is issues, field, v string) issues {
	if err := requirements.ValidateValue(v); err != nil {
		is.add(field, "%v", err)
	}
	return is
}

// checkLabels reports every invalid key and value of labels, in key order.
// A valid map costs one pass and no allocation.
func checkLabels(is issues, field string, labels map[string]string) issues {
	for k, v := range labels {
		if requirements.ValidateKey(k) != nil || requirements.ValidateValue(v) != nil {
			for _, k := range slices.Sorted(maps.Keys(labels)) {
				if err := requirements.ValidateKey(k); err != nil {
					is.add(field, "%v", err)
				}
				is = checkValue(is, field, labels[k])
			}
			return is
		}
	}
	return is
}

// checkResources reports every dimension of l outside 0..resources.MaxAmount.
func checkResources(is issues, field string, l resources.List) issues {
	for name, v := range l.All() {
		switch {
		case v < 0:
			is.add(field+"."+string(name), "is negative (%d)", v)
		case v > resources.MaxAmount:
			is.add(field+"."+string(name), "%d is above %d", v, int64(resources.MaxAmount))
		}
	}
	return is
}

func checkTolerations(is issues, field string, tols []requirements.Toleration) issues {
	for j, t := range tols {
		if err := t.Validate(); err != nil {
			is.add(at(field, j, ""), "%v", err)
		}
	}
	return is
}

func checkTaints(is issues, field string, taints []requirements.Taint) issues {
	for j, t := range taints {
		if err := t.Validate(); err != nil {
			is.add(at(field, j, ""), "%v", err)
		}
	}
	return is
}

// checkPool returns the issues of np; seen holds the names of the pools
// before it.
func checkPool(np *NodePool, seen map[string]bool) issues {
	var is issues
	switch {
	case np.Name == "" || seen[np.Name]:
		is.add("name", "is empty or duplicate")
	default:
		is = checkValue(is, "name", np.Name) // the karpenter.sh/nodepool label of its nodes
	}
	seen[np.Name] = true
	if err := np.Requirements.Validate(); err != nil {
		is.add("requirements", "%v", err)
	}
	// A node's hostname is its own: Karpenter rejects a NodePool that
	// sets or requires one (its restricted label), and a claim's hostname
	// is its name here (NodeClaim.Name).
	if np.Requirements.Has(requirements.LabelHostname) {
		is.add("requirements", "%s is restricted: a new node's hostname is its own, as Karpenter requires", requirements.LabelHostname)
	}
	for k := range np.Labels {
		if requirements.Normalize(k) == requirements.LabelHostname {
			is.add("labels", "%s is restricted: a new node's hostname is its own, as Karpenter requires", requirements.LabelHostname)
			break
		}
	}
	is = checkLabels(is, "labels", np.Labels)
	is = checkTaints(is, "taints", np.Taints)
	is = checkTaints(is, "startupTaints", np.StartupTaints)
	for _, name := range resources.SortedNames(np.Limits) {
		if v := np.Limits[name]; v < 0 || v > MaxLimit {
			is.add("limits."+string(name), "%d is not in 0..%d", v, int64(MaxLimit))
		}
	}
	if np.Weight < 0 || np.Weight > MaxWeight {
		is.add("weight", "%d is not in 0..%d", np.Weight, MaxWeight)
	}
	return checkDisruption(is, np.Disruption)
}

func checkDisruption(is issues, d Disruption) issues {
	if d.Policy > Balanced {
		is.add("disruption.consolidationPolicy", "%d is not WhenEmptyOrUnderutilized, WhenEmpty or Balanced", d.Policy)
	}
	for _, f := range [...]struct {
		field string
		d     time.Duration
	}{{"consolidateAfter", d.ConsolidateAfter}, {"expireAfter", d.ExpireAfter}, {"terminationGracePeriod", d.TerminationGracePeriod}} {
		if f.d < 0 {
			is.add("disruption."+f.field, "%v is negative", f.d)
		}
	}
	for j, b := range d.Budgets {
		if b.Duration < 0 {
			is.add(at("disruption.budgets", j, "duration"), "%v is negative", b.Duration)
		}
	}
	return is
}

// nodeNameIssues returns the issue of a node's name when bad: it is empty
// or the name of a node before it.
func nodeNameIssues(bad bool) issues {
	var is issues
	if bad {
		is.add("name", "is empty or duplicate")
	}
	return is
}

// node reports is and the other issues of n and of its pods.
func (v *validator) node(n *Node, is issues) {
	is = checkNodeLabels(is, n)
	is = checkTaints(is, "taints", n.Taints)
	is = checkResources(is, "allocatable", n.Allocatable)
	is = checkVolumeLimits(is, n.VolumeLimits)
	if n.Price < 0 || n.Price > instancetypes.MaxValidPrice {
		is.add("price", "%s is not in 0..%s", n.Price, instancetypes.MaxValidPrice)
	}
	if n.PriceUnknown && n.Price != 0 {
		is.add("price", "is %s but PriceUnknown is set", n.Price)
	}
	v.reportNode(n, is)
	for j := range n.Pods {
		if pis := checkBound(checkPod(nil, &n.Pods[j]), &n.Pods[j]); len(pis) > 0 { // named only when wrong
			v.report(fmt.Sprintf("node %s pod %s", n.Name, n.Pods[j].Key()), pis)
		}
	}
}

// reportNode reports the issues of n, naming it only when there are some.
func (v *validator) reportNode(n *Node, is issues) {
	if len(is) > 0 {
		v.report("node "+n.Name, is)
	}
}

// checkNodeLabels checks n's labels and the fields that stand for labels
// it does not carry, exactly those nodeLabels reads (see labelFields).
func checkNodeLabels(is issues, n *Node) issues {
	is = checkLabels(is, "labels", n.Labels)
	if n.CapacityType > instancetypes.Reserved {
		is.add("capacityType", "%s is not on-demand, spot or reserved", n.CapacityType)
	}
	for _, f := range labelFields(n) {
		if f.value == "" || carries(n.Labels, f.key) {
			continue
		}
		if err := requirements.ValidateValue(f.value); err != nil {
			is.add(f.field, "is the node's %s label, which it does not carry: %v", f.key, err)
		}
	}
	return is
}

func checkDaemonSet(ds *DaemonSet) issues {
	is := checkResources(nil, "requests", ds.Requests)
	is = checkAffinity(is, ds.NodeAffinity)
	return checkTolerations(is, "tolerations", ds.Tolerations)
}

// labelSet is the requirement "key In [value]" that a node labelled
// key=value satisfies. The solver builds its pins, its pools' nodepool
// requirement and its matchLabelKeys selectors with it from strings Validate
// has checked, so it never needs an error path; [requirements.FromLabel]
// does not validate, and so never panics.
func labelSet(key, value string) requirements.Set { return requirements.FromLabel(key, value) }
