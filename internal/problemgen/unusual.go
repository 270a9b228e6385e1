package problemgen

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// Label keys of the unusual shapes.
const (
	// LabelBetaZone and LabelBetaInstanceType are the deprecated aliases of
	// topology.kubernetes.io/zone and node.kubernetes.io/instance-type that
	// older nodes still carry.
	LabelBetaZone         = "failure-domain.beta.kubernetes.io/zone"
	LabelBetaInstanceType = "beta.kubernetes.io/instance-type"
	// LabelRack is a custom topology key with a value per node.
	LabelRack = "example.com/rack"
)

// unusualKeys are valid label keys a real cluster may carry that the base
// generator never draws: the longest key Kubernetes accepts (a 253-byte
// prefix and a 63-byte name), names with '.', '_' and '-', a one-letter
// key, a kubernetes.io key that is not well known.
var unusualKeys = []string{
	strings.Repeat("a", 63) + "." + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." +
		strings.Repeat("d", 61) + "/" + "k" + strings.Repeat("x.y_z-", 10) + "ab",
	"example.com/" + "n" + strings.Repeat("0", 61) + "n",
	"a.b-c.d/x.y_z-0", "k", "Key_With.Upper-9", "node.kubernetes.io/custom",
}

// unusualValues are valid label values the base generator never draws:
// empty, the longest (63 bytes), with '.', '_' and '-', upper case,
// digits only.
var unusualValues = []string{
	"", "v" + strings.Repeat("a.b_c-", 10) + "xy", "a.b_c-d", "A", "0", "UPPER.case_Value-1",
}

// unusualShape adds one valid but unusual shape to p, which it may modify
// in place (the caller owns p); ok is false when p has no place for it.
// Unlike a hostility, the result is always valid: the shapes are what
// real clusters contain and the base generator does not draw, so that the
// property tests check verify.Plan(p, Solve(p)) on them.
type unusualShape func(g *gen, p *packing.Problem) bool

// unusualShapes are the shapes of issue 20's findings, each a regression
// the properties keep checking. The last one always applies.
var unusualShapes = []unusualShape{
	selfExcludingPool, hostnameAffinity, betaNodeLabels, betaTopology, manyValuedSpread,
	unusualNodeLabel, unusualPodLabel, unusualTaint, nearMaxRequest, nearMaxNode, nearMaxLimit,
	nearMaxPrice, deviceDaemonSet,
}

// unusual adds a random unusual shape that fits p; the last ones always
// fit.
func (g *gen) unusual(p *packing.Problem) {
	for i := g.intn(len(unusualShapes)); ; i = (i + 1) % len(unusualShapes) {
		if unusualShapes[i](g, p) {
			return
		}
	}
}

// mustRequirement builds a requirement of the generator's own strings;
// an error is a bug here.
func mustRequirement(key string, op requirements.Operator, values ...string) requirements.Requirement {
	r, err := requirements.New(key, op, values...)
	if err != nil {
		panic(fmt.Sprintf("problemgen: generated requirement is invalid: %v", err))
	}
	return r
}

// inputRequirement builds a requirement on the names of p's objects, false
// when one is invalid: Decode's problems may carry hostile ones.
func inputRequirement(key string, op requirements.Operator, values ...string) (requirements.Requirement, bool) {
	r, err := requirements.New(key, op, values...)
	return r, err == nil
}

// labelSelector selects the pods whose app label is app, unchecked (see
// inputRequirement).
func labelSelector(app string) requirements.Set {
	return requirements.FromLabels(map[string]string{LabelApp: app})
}

// someWorkload returns the indices of the pending pods of one random
// workload (those of a random pod's namespace and app), or nil when p has
// no pending pods.
func (g *gen) someWorkload(p *packing.Problem) []int {
	pod := g.somePod(p)
	if pod == nil {
		return nil
	}
	var out []int
	for i := range p.Pods {
		if q := &p.Pods[i]; q.Namespace == pod.Namespace && q.Labels[LabelApp] == pod.Labels[LabelApp] {
			out = append(out, i)
		}
	}
	return out
}

// eachPod applies f to the pods of p at the indices w.
func eachPod(p *packing.Problem, w []int, f func(*packing.Pod)) {
	for _, i := range w {
		f(&p.Pods[i])
	}
}

// withRequired returns a with r ANDed into every required alternative (the
// nodeSelector alone when there is none). An affinity no node satisfies
// stays so.
func withRequired(a requirements.NodeAffinity, r requirements.Requirement) requirements.NodeAffinity {
	alts := a.Required
	if len(alts) == 0 {
		alts = []requirements.Set{a.Selector}
	}
	req := make([]requirements.Set, len(alts))
	for i, s := range alts {
		req[i] = s.Add(r)
	}
	a.Required = req
	return a
}

// withPreferred returns a with a preference for r of a random weight.
func (g *gen) withPreferred(a requirements.NodeAffinity, r requirements.Requirement) requirements.NodeAffinity {
	pref := requirements.Preference{Weight: int32(1 + g.intn(100)), Terms: requirements.NewSet(r)}
	a.Preferred = slices.SortedStableFunc(slices.Values(append(slices.Clip(a.Preferred), pref)),
		func(x, y requirements.Preference) int { return int(y.Weight) - int(x.Weight) })
	return a
}

// constrainWorkload gives the pods at w the node requirement r: required
// usually, preferred sometimes.
func (g *gen) constrainWorkload(p *packing.Problem, w []int, r requirements.Requirement) {
	preferred := g.chance(1, 4)
	eachPod(p, w, func(pod *packing.Pod) {
		if preferred {
			pod.NodeAffinity = g.withPreferred(pod.NodeAffinity, r)
		} else {
			pod.NodeAffinity = withRequired(pod.NodeAffinity, r)
		}
	})
}

// addSpread adds ts to the spreads of the pods at w ([withSpread]).
func addSpread(p *packing.Problem, w []int, ts packing.TopologySpread) {
	eachPod(p, w, func(pod *packing.Pod) { pod.TopologySpread = withSpread(pod.TopologySpread, ts) })
}

// addAntiAffinity appends term to the anti-affinity of the pods at w.
func addAntiAffinity(p *packing.Problem, w []int, term packing.PodAffinityTerm) {
	eachPod(p, w, func(pod *packing.Pod) { pod.AntiAffinity = append(slices.Clip(pod.AntiAffinity), term) })
}

// appOf returns the app label of the first pod at w.
func appOf(p *packing.Problem, w []int) string { return p.Pods[w[0]].Labels[LabelApp] }

// selfExcludingPool makes a pool's requirements exclude its own name (In
// other names, NotIn itself, DoesNotExist) or one of its labels: such a
// pool launches nothing (issue 20, point 7).
func selfExcludingPool(g *gen, p *packing.Problem) bool {
	np := g.somePool(p)
	if np == nil {
		return false
	}
	labels := np.Labels
	if len(labels) == 0 {
		labels = map[string]string{LabelTeam: "a"}
	}
	k := slices.Sorted(maps.Keys(labels))[0]
	var r requirements.Requirement
	ok := true
	switch g.intn(5) {
	case 0:
		other := pick(g, p.NodePools).Name
		if other == np.Name {
			other = "other"
		}
		r, ok = inputRequirement(requirements.LabelNodePool, requirements.In, other)
	case 1:
		r, ok = inputRequirement(requirements.LabelNodePool, requirements.NotIn, np.Name)
	case 2:
		r = mustRequirement(requirements.LabelNodePool, requirements.DoesNotExist)
	case 3:
		r, ok = inputRequirement(k, requirements.DoesNotExist)
	default:
		r, ok = inputRequirement(k, requirements.NotIn, labels[k])
	}
	if !ok {
		return false
	}
	np.Labels, np.Requirements = labels, np.Requirements.Add(r)
	return true
}

// hostnameAffinity gives a workload a node requirement on
// kubernetes.io/hostname: DoesNotExist, Exists, In or NotIn existing
// node names (issue 20, point 8), or a bound.
func hostnameAffinity(g *gen, p *packing.Problem) bool {
	w := g.someWorkload(p)
	if w == nil {
		return false
	}
	name := "node-x"
	if len(p.Nodes) > 0 {
		name = pick(g, p.Nodes).Name
	}
	var r requirements.Requirement
	ok := true
	switch g.intn(5) {
	case 0:
		r = mustRequirement(requirements.LabelHostname, requirements.DoesNotExist)
	case 1:
		r = mustRequirement(requirements.LabelHostname, requirements.Exists)
	case 2:
		r, ok = inputRequirement(requirements.LabelHostname, requirements.In, name, "node-x")
	case 3:
		r, ok = inputRequirement(requirements.LabelHostname, requirements.NotIn, name)
	default:
		r = mustRequirement(requirements.LabelHostname, requirements.Gt, "3")
	}
	if ok {
		g.constrainWorkload(p, w, r)
	}
	return ok
}

// betaNodeLabels gives a node the beta zone and instance-type labels,
// agreeing with its fields or not, and sometimes drops the stable label
// so that the beta one counts (issue 20, point 9).
func betaNodeLabels(g *gen, p *packing.Problem) bool {
	n := g.someNode(p)
	if n == nil {
		return false
	}
	n.Labels = cloneLabels(n.Labels)
	beta := func(betaKey, stable, field string, others []string) {
		v := field
		if g.chance(1, 2) { // another value, where there is one
			v = pick(g, others)
			if i := slices.Index(others, v); v == field && len(others) > 1 {
				v = others[(i+1)%len(others)]
			}
		}
		n.Labels[betaKey] = v
		if g.chance(1, 2) {
			delete(n.Labels, stable)
		}
	}
	if g.chance(2, 3) {
		beta(LabelBetaZone, requirements.LabelZone, n.Zone, g.zones)
	}
	if g.chance(1, 2) {
		beta(LabelBetaInstanceType, requirements.LabelInstanceType, n.InstanceType, g.types)
	}
	return true
}

// betaTopology gives a workload a spread, an anti-affinity or a pod
// affinity on a beta key, or a node requirement on the beta zone key.
func betaTopology(g *gen, p *packing.Problem) bool {
	w := g.someWorkload(p)
	if w == nil {
		return false
	}
	app, key := appOf(p, w), pick(g, []string{LabelBetaZone, LabelBetaZone, LabelBetaInstanceType})
	switch g.intn(4) {
	case 0:
		addSpread(p, w, packing.TopologySpread{TopologyKey: key, MaxSkew: int32(1 + g.intn(2)), Selector: labelSelector(app)})
	case 1:
		term := packing.PodAffinityTerm{TopologyKey: LabelBetaZone, Selector: appSelector(pick(g, g.apps))}
		eachPod(p, w, func(pod *packing.Pod) { pod.Affinity = append(slices.Clip(pod.Affinity), term) })
	case 2:
		term := packing.PodAffinityTerm{TopologyKey: key, Selector: labelSelector(app)}
		addAntiAffinity(p, w, term)
	default:
		g.constrainWorkload(p, w, mustRequirement(LabelBetaZone, requirements.In, pick(g, g.zones)))
	}
	return true
}

// manyValuedSpread spreads a workload (or keeps its pods apart) over a key
// with many values: the instance type, the hostname, or a rack label that
// every existing node has (and some pools give their nodes). Issue 20,
// point 4.
func manyValuedSpread(g *gen, p *packing.Problem) bool {
	w := g.someWorkload(p)
	if w == nil {
		return false
	}
	key := pick(g, []string{requirements.LabelInstanceType, requirements.LabelInstanceType, requirements.LabelHostname, LabelRack})
	if key == LabelRack {
		g.labelRacks(p)
	}
	app := appOf(p, w)
	if g.chance(1, 4) {
		term := packing.PodAffinityTerm{TopologyKey: key, Selector: labelSelector(app)}
		addAntiAffinity(p, w, term)
		return true
	}
	ts := packing.TopologySpread{TopologyKey: key, MaxSkew: int32(1 + g.intn(2)), Selector: labelSelector(app)}
	if g.chance(1, 4) {
		ts.WhenUnsatisfiable = packing.ScheduleAnyway
	}
	if g.chance(1, 5) {
		if minDomains := int32(2 + g.intn(3)); ts.WhenUnsatisfiable == packing.DoNotSchedule {
			ts.MinDomains = minDomains // the API server takes minDomains with DoNotSchedule only
		}
	}
	addSpread(p, w, ts)
	return true
}

// labelRacks gives every existing node a rack of its own and some pools a
// rack for their new nodes.
func (g *gen) labelRacks(p *packing.Problem) {
	for i := range p.Nodes {
		n := &p.Nodes[i]
		n.Labels = cloneLabels(n.Labels)
		n.Labels[LabelRack] = fmt.Sprintf("rack-%d", i)
	}
	for i := range p.NodePools {
		if np := &p.NodePools[i]; g.chance(1, 2) {
			np.Labels = cloneLabels(np.Labels)
			np.Labels[LabelRack] = "rack-" + np.Name
		}
	}
}

// unusualLabel returns a random unusual key and value.
func (g *gen) unusualLabel() (key, value string) { return pick(g, unusualKeys), pick(g, unusualValues) }

// unusualNodeLabel puts an unusual label on a pool (and its nodes) or on
// some nodes, and gives a workload a requirement on it.
func unusualNodeLabel(g *gen, p *packing.Problem) bool {
	w := g.someWorkload(p)
	if w == nil {
		return false
	}
	key, value := g.unusualLabel()
	pool := ""
	if np := g.somePool(p); np != nil && g.chance(1, 2) {
		np.Labels = cloneLabels(np.Labels)
		np.Labels[key] = value
		pool = np.Name
	}
	for i := range p.Nodes {
		if n := &p.Nodes[i]; (pool != "" && n.NodePool == pool) || g.chance(1, 3) {
			n.Labels = cloneLabels(n.Labels)
			n.Labels[key] = value
		}
	}
	var r requirements.Requirement
	switch g.intn(4) {
	case 0:
		r = mustRequirement(key, requirements.In, value, pick(g, unusualValues))
	case 1:
		r = mustRequirement(key, requirements.NotIn, value)
	case 2:
		r = mustRequirement(key, requirements.Exists)
	default:
		r = mustRequirement(key, requirements.DoesNotExist)
	}
	g.constrainWorkload(p, w, r)
	return true
}

// unusualPodLabel labels a workload's pods with an unusual label and
// spreads them (or keeps them apart) by it: through the selector or
// matchLabelKeys.
func unusualPodLabel(g *gen, p *packing.Problem) bool {
	w := g.someWorkload(p)
	if w == nil {
		return false
	}
	key, value := g.unusualLabel()
	eachPod(p, w, func(pod *packing.Pod) {
		pod.Labels = cloneLabels(pod.Labels)
		pod.Labels[key] = value
	})
	sel := requirements.NewSet(mustRequirement(key, requirements.In, value))
	switch g.intn(3) {
	case 0:
		addSpread(p, w, packing.TopologySpread{TopologyKey: g.topologyKey(), MaxSkew: 1, Selector: sel})
	case 1:
		addSpread(p, w, packing.TopologySpread{TopologyKey: g.topologyKey(), MaxSkew: 1,
			Selector: labelSelector(appOf(p, w)), MatchLabelKeys: []string{key}})
	default:
		term := packing.PodAffinityTerm{TopologyKey: requirements.LabelHostname, Selector: sel}
		addAntiAffinity(p, w, term)
	}
	return true
}

// unusualTaint taints a pool (and its nodes) with an unusual key and
// value, and lets a workload tolerate it, by value or by key.
func unusualTaint(g *gen, p *packing.Problem) bool {
	np := g.somePool(p)
	if np == nil {
		return false
	}
	key, value := g.unusualLabel()
	t := requirements.Taint{Key: key, Value: value, Effect: pick(g, []requirements.Effect{requirements.NoSchedule, requirements.PreferNoSchedule})}
	np.Taints = append(slices.Clip(np.Taints), t)
	for i := range p.Nodes {
		if n := &p.Nodes[i]; n.NodePool == np.Name {
			n.Taints = append(slices.Clip(n.Taints), t)
		}
	}
	if w := g.someWorkload(p); w != nil {
		tol := requirements.Toleration{Key: key, Value: value}
		if g.chance(1, 2) {
			tol = requirements.Toleration{Key: key, Operator: requirements.TolerateExists}
		}
		eachPod(p, w, func(pod *packing.Pod) { pod.Tolerations = append(slices.Clip(pod.Tolerations), tol) })
	}
	return true
}

// nearMax are amounts at and just below resources.MaxAmount.
var nearMax = []int64{resources.MaxAmount, resources.MaxAmount - 1, resources.MaxAmount / 2}

// nearMaxRequest makes one dimension of a workload's requests as large as
// valid.
func nearMaxRequest(g *gen, p *packing.Problem) bool {
	w := g.someWorkload(p)
	if w == nil {
		return false
	}
	name, v := pick(g, extremeNames), pick(g, nearMax)
	eachPod(p, w, func(pod *packing.Pod) { pod.Requests = pod.Requests.With(name, v) })
	return true
}

// nearMaxPrices are prices at and just below instancetypes.MaxValidPrice.
var nearMaxPrices = []instancetypes.Price{instancetypes.MaxValidPrice, instancetypes.MaxValidPrice - 1, instancetypes.MaxValidPrice / 2}

// nearMaxNode makes an existing node as large as valid (cpu, memory, pods
// and GPUs) or as dear as valid.
func nearMaxNode(g *gen, p *packing.Problem) bool {
	n := g.someNode(p)
	if n == nil {
		return false
	}
	if g.chance(1, 2) {
		n.Price = pick(g, nearMaxPrices)
		return true
	}
	for _, name := range []resources.Name{resources.CPU, resources.Memory, resources.Pods, resources.GPU} {
		n.Allocatable = n.Allocatable.With(name, pick(g, nearMax))
	}
	return true
}

// nearMaxLimits are NodePool limits at and just below packing.MaxLimit.
var nearMaxLimits = []int64{packing.MaxLimit, packing.MaxLimit - 1, resources.MaxAmount}

// nearMaxLimit sets one of a pool's limits as high as valid.
func nearMaxLimit(g *gen, p *packing.Problem) bool {
	np := g.somePool(p)
	if np == nil {
		return false
	}
	limits := maps.Clone(np.Limits)
	if limits == nil {
		limits = map[resources.Name]int64{}
	}
	limits[pick(g, []resources.Name{resources.CPU, resources.Memory, resources.GPU, packing.LimitNodes})] = pick(g, nearMaxLimits)
	np.Limits = limits
	return true
}

// nearMaxPrice prices every offering of one type of the main catalog (or
// a pool's) as high as valid.
func nearMaxPrice(g *gen, p *packing.Problem) bool {
	c := &p.Catalog
	if np := g.somePool(p); np != nil && np.Catalog != nil && g.chance(1, 2) {
		c = &np.Catalog
	}
	if *c == nil || (*c).Len() == 0 {
		return false
	}
	repriced, err := withPrice(*c, pick(g, (*c).Types()).Name, pick(g, nearMaxPrices))
	if err != nil {
		panic(fmt.Sprintf("problemgen: repriced catalog is invalid: %v", err)) // a bug here
	}
	*c = repriced
	return true
}

// withPrice returns c with every offering of type name at price.
func withPrice(c *instancetypes.Catalog, name string, price instancetypes.Price) (*instancetypes.Catalog, error) {
	types := make([]instancetypes.InstanceType, c.Len())
	for i, t := range c.Types() {
		types[i] = *t
		if t.Name == name {
			types[i].Offerings = slices.Clone(t.Offerings)
			for j := range types[i].Offerings {
				types[i].Offerings[j].Price = price
			}
		}
	}
	return instancetypes.New(types)
}

// deviceDaemonSet adds a daemonset that tolerates every taint and requests
// a GPU, as device plugins do: everywhere, on some instance types, or on
// types with GPUs (issue 20, point 6). It always applies.
func deviceDaemonSet(g *gen, p *packing.Problem) bool {
	ds := packing.DaemonSet{Name: fmt.Sprintf("ds-device-%d", len(p.DaemonSets)),
		Requests:    resources.List{CPU: 50, Memory: 64 * mib}.With(resources.GPU, 1),
		Tolerations: []requirements.Toleration{{Operator: requirements.TolerateExists}}}
	switch g.intn(3) {
	case 0:
		ds.NodeAffinity = withRequired(ds.NodeAffinity,
			mustRequirement(requirements.LabelInstanceType, requirements.In, subset(g, g.types)...))
	case 1:
		ds.NodeAffinity = withRequired(ds.NodeAffinity, mustRequirement(requirements.LabelInstanceGPUCount, requirements.Exists))
	}
	p.DaemonSets = append(slices.Clip(p.DaemonSets), ds)
	return true
}
